"""Magic Potion (blue): at the end of the round every player's flask is refilled for free."""

from __future__ import annotations

from sim.kernel.cards.common import GAIN_FLASK
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import EV_CARD_GAIN, F_FLASK, G_CARD, G_NP
from sim.rules.declare import BLUE, card

CARD = card(18, "magic-potion", BLUE, name="Magic Potion", doc=(
    "At the end of the round every player's flask is refilled for free."))


@kernel
def end_of_round(P, G, E):
    """Every flask is full again; an empty one refilled is recorded (``flask``, amount 1)."""
    for s in range(G[G_NP]):
        if P[s, F_FLASK] == 0:
            P[s, F_FLASK] = 1
            record(E, G, s, EV_CARD_GAIN, GAIN_FLASK, 1, G[G_CARD])
