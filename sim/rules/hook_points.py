"""What every kind of rule declaration shares: a hook point (where a card, book or witch acts),
its parameter names, a rule's text from a docstring, and the number a user's rule takes until it
is loaded. ``sim.rules.declare`` (cards, books) and ``sim.rules.witch_declare`` build on it."""

from __future__ import annotations

from dataclasses import dataclass

USER_NUMBER = 0  # a user's card or witch: numbered after the shipped ones when loaded


@dataclass(frozen=True)
class HookPoint:
    """A point where a card can change the round: its name (a card's function of that name is
    called there), the arguments it can hand on (a card's function names a subset, in any
    order), what it returns when no card acts (a Python expression; None: nothing), and whether
    it acts while a potion is brewed (``draw_time``: such a card plays in ``quacks potion
    --card``)."""

    name: str
    params: tuple[str, ...]
    default: str | None = None
    draw_time: bool = False
    per_chip: bool = False  # on the per-chip path: the card's function should be inlined
    doc: str = ""
    # a book's per-chip hook point: the expression of the chip's colour (its function is called
    # for a chip of the colours the book acts on, ``BookDeclaration.chips``)
    colour: str = ""


def hook_params(names: str) -> tuple[str, ...]:
    """A hook point's parameter names from one space-separated string."""
    return tuple(names.split())


def rule_text(doc: str) -> str:
    """A rule's text from ``doc``: its first paragraph, the lines joined by spaces, so that a
    module's docstring that opens with the text may be given (``doc=__doc__``)."""
    return " ".join(line.strip() for line in doc.strip().split("\n\n", 1)[0].splitlines())
