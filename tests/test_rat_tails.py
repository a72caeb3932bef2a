"""The kernel's count of rat tails between two scores (``sim.kernel.round.tails_between``, a
closed form since issue 45) against its definition: every printed tail t + lap*k (k >= 0) with
a <= t + lap*k < b, as ``sim.rules.ruleset.tails_between`` counts it one tail at a time."""

from __future__ import annotations

import numpy as np
import pytest

from sim.kernel.round import tails_between
from sim.rules.ruleset import load_ruleset
from sim.rules.ruleset import tails_between as tails_by_definition

BASE = load_ruleset("base")
TRACKS = [
    (BASE.tails, int(BASE.data["rats"]["lap"])),  # the printed track
    (np.array([0, 3, 4, 6], dtype=np.int64), 7),  # a tail on 0, a short lap
    (np.array([5], dtype=np.int64), 10),
]


@pytest.mark.parametrize(("tails", "lap"), TRACKS, ids=["base", "short-lap", "one-tail"])
def test_tails_between_counts_every_printed_tail(tails, lap):
    scores = range(-3, 4 * lap + 3)  # a few laps, and the scores below 0 a card may leave
    for a in scores:
        for b in scores:
            if a > b:
                continue
            want = tails_by_definition(tails, lap, a, b)
            assert tails_between(tails, lap, a, b) == want, (a, b)


def test_tails_between_the_leader_and_itself_is_zero():
    tails, lap = TRACKS[0]
    assert all(tails_between(tails, lap, s, s) == 0 for s in range(0, 150))
