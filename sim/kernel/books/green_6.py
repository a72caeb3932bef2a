"""For each green chip last or next-to-last, the player rolls the bonus die once (twice with The Pot
is Full).

Green Set 6 (garden spider, B): for each green chip last or next-to-last, one roll of the bonus
die (two with The Pot is Full)."""

from __future__ import annotations

from sim.kernel.books.common import last_two_green
from sim.kernel.cards.hooks import die_rolls
from sim.kernel.die import roll_die
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.rules.declare import book, event

BOOK = book("green", 6, "B", prices=6, doc=__doc__,
            events=event("green_die", a="rolls", text="green die: rolls {rolls}",
                         doc="bonus die rolls"))
EV_GREEN_DIE = event_code(BOOK, "green_die")


@kernel(inline=True)
def green_at_b(P, s, G, die, DS, supply, rng, E):
    """Step B for seat s."""
    g = last_two_green(P, s)
    for _ in range(g * die_rolls(G)):
        roll_die(P, s, G, die, DS, supply, rng, E)
    if g > 0:
        record(E, G, s, EV_GREEN_DIE, g, 0, 0)
