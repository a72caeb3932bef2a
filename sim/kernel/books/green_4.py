"""For each green chip last or next-to-last, the player may pay 1 ruby to move the droplet 1 space.

Green Set 4 (garden spider, B): for each green chip last or next-to-last, the player may pay 1
ruby to move the droplet 1 space.

Question ``green-ruby`` (1 pay); default pay before the last round (declining: never). Round-file
key ``green``."""

from __future__ import annotations

from sim.kernel.books.common import green_question
from sim.kernel.decisions.slots import script_slot
from sim.kernel.droplet import move_droplet
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    F_RUBIES,
    G_ROUND,
    R_ROUNDS,
)
from sim.rules.book_numbers import question_number
from sim.rules.declare import SCRIPT_CHIPS, book, event, script_key

BOOK = book("green", 4, "B", prices=4, choices=('pay a ruby or not, per green chip',), doc=__doc__,
            script=(script_key("green", SCRIPT_CHIPS, 4, bools=True, doc="one per green chip "
                                  "last or next-to-last: true pays a ruby"),),
            events=event("green_droplet", a="droplet",
                         text="green: pays {droplet:~ruby/rubies} for droplet +{droplet}",
                         doc="droplet moves bought with rubies"))
EV_GREEN_DROPLET = event_code(BOOK, "green_droplet")
QUESTION = question_number("green-ruby")
GREEN = script_slot(BOOK, "green")  # its answers in SC


@kernel
def default(P, s, arg, G, R, decline):
    """The built-in answer: pay before the last round; declining: never."""
    return 0 if decline or G[G_ROUND] >= R[R_ROUNDS] else 1



@kernel(inline=True)
def green_at_b(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Step B for seat s."""
    moves = 0
    for k in range(2):
        value, ok, pay = green_question(P, s, k, QUESTION, GREEN, G, R, SK, SP, SC, rng, UF)
        if value == 0:
            continue
        pay = pay if ok else default(P, s, value, G, R, pay != 0)
        if pay != 0 and P[s, F_RUBIES] >= 1:
            P[s, F_RUBIES] -= 1
            move_droplet(P, s, 1)
            moves += 1
    if moves > 0:
        record(E, G, s, EV_GREEN_DROPLET, moves, 0, 0)
