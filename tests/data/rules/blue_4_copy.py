"""Blue Set 4 rewritten as a user's rules file (tests/test_rules_files.py: its games are the
shipped book's): a blue chip landing on a ruby space scores its value in VP at once. Declared as
blue Set 7 with Set 4's prices, so ``books.blue = 7`` plays what ``books.blue = 4`` plays."""

from __future__ import annotations

from sim.kernel.events import record
from sim.kernel.layout import EV_BLUE_VP, F_NPOT, F_SCORE, POT_P, R_RUBY
from sim.rules.chips import TYPE_VALUE
from sim.rules.declare import book

BOOK = book("blue", 7, "draw", name="Blue Set 4 (a rules file)", prices=4, doc=(
    "A blue chip landing on a ruby space scores its value in VP at once."))


def placed(P, s, t, G, R, E):
    """Blue chip t was just placed by seat s (the last chip in its pot)."""
    pos = P[s, POT_P + P[s, F_NPOT] - 1]
    if R[R_RUBY + pos] != 0:
        P[s, F_SCORE] += TYPE_VALUE[t]
        record(E, G, s, EV_BLUE_VP, TYPE_VALUE[t], 0, 0)
