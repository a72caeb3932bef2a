"""The round a forced fortune-teller card (``cards.force``) is played in, game by game, as the
kernel deals it (``sim.kernel.cards.deck.forced_round``)."""

from __future__ import annotations

import numpy as np

from sim.api.rules_array import rules_scalars
from sim.rules.ruleset import Ruleset


def forced_rounds(ruleset: Ruleset, seed: int, games) -> np.ndarray:
    """For each game index of ``games`` (a run's deal numbers), the round ``cards.force`` goes
    into under ``ruleset``: ``cards.force_round``, or with 0 the round the game draws from a
    stream of its own. It depends on the seed and the game index only (not on the card, the
    seating or the strategies), so every game of a deal, forced or not, shares it."""
    from sim.kernel.cards.deck import forced_round

    R = rules_scalars(ruleset)
    s = np.uint64(seed)
    return np.array([forced_round(s, np.int64(g), R) for g in np.asarray(games, np.int64)],
                    dtype=np.int64)
