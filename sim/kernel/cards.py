"""The fortune-teller deck: each card a small function called at its timing."""

from __future__ import annotations

from numba import njit

NO_CARD = 0


@njit(cache=True, error_model="numpy", _nrt=False)
def fortune_card(P, G, R, rng, E):
    """Draw and apply the round's fortune-teller card; return its number, ``NO_CARD`` for none.

    The deck is still empty: the hook sits where the rules put the card (after the round-start
    chips, before the rats) and draws from the shared stream rng[players].
    """
    return NO_CARD
