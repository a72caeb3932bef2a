"""The errors that are the user's to fix, in one light module: a command reports each as one line
``error: ...`` with exit status 2, and importing them loads no simulation code."""

from __future__ import annotations


class GameInputError(ValueError):
    """Bad input to a game run; the message says what would be right."""


class RoundFileError(ValueError):
    """A round file that cannot be played; the message names the key or seat and the problem."""


class TooLargeError(ValueError):
    """The bag has too many distinct sub-bags to enumerate."""
