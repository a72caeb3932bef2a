"""The switch of the Numba patches (:mod:`sim.kernel.numba_patches`), read without importing Numba.

The cache folder depends on it too (:func:`sim.numba_cache.cache_base`): code compiled with the
patches off plays the same games far more slowly, so a process with them on must never load it
from the cache (nor the other way round); each state has a folder of its own.
"""

from __future__ import annotations

import os

SWITCH = "QUACKS_NUMBA_PATCHES"  # "off" turns every patch off
OFF_WORDS = ("off", "0", "false", "no")
ON_WORDS = ("", "on", "1", "true", "yes")


def switched_off(value: str | None = None) -> str | None:
    """Why the switch turns the patches off (None: it leaves them on), for its ``value``
    (``$QUACKS_NUMBA_PATCHES`` unless given); a value neither on nor off turns them off."""
    value = os.environ.get(SWITCH, "") if value is None else value
    word = value.strip().lower()
    if word in ON_WORDS:
        return None
    if word in OFF_WORDS:
        return f"{SWITCH}={value}"
    return f"{SWITCH}={value!r} is neither on nor off"
