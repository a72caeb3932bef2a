"""Yellow Set 6 (mandrake, draw): a yellow chip may move 3 more spaces for 1 ruby.

Question ``yellow-ruby`` (b = the yellow chip type; 1 pay); default pay once a ruby buys less
(6 rounds left or fewer; declining: never). Round-file key ``yellow_ruby``."""

from __future__ import annotations

from sim.kernel.decisions.choices import decide_book
from sim.kernel.decisions.slots import Q_YELLOW_RUBY
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import EV_YELLOW_RUBY, F_RUBIES


@kernel(inline=True)
def move(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """The extra spaces yellow chip t takes (0 or 3)."""
    if P[s, F_RUBIES] >= 1:
        if decide_book(P, s, Q_YELLOW_RUBY, t, G, R, SK, SP, SC, rng, UF) != 0:
            P[s, F_RUBIES] -= 1
            record(E, G, s, EV_YELLOW_RUBY, 3, 0, 0)
            return 3
    return 0
