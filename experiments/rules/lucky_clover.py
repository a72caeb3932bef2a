"""Lucky Clover, an example rules file: a card with a draw-time effect.

    quacks play --rules-file experiments/rules/lucky_clover.py --set 'cards.extra=["lucky-clover"]'

Every orange chip a player places this round gives them 1 VP at once. The hook point is
``after_placed`` (a drawn chip just placed, its pot intact): a plain function, compiled by Numba
and inlined on the per-chip path, called only in a round whose card this is.
"""

from sim.kernel.cards.common import GAIN_VP, gain
from sim.rules.chips import ORANGE, TYPE_COLOUR
from sim.rules.declare import BLUE, card

CARD = card(0, "lucky-clover", BLUE, name="Lucky Clover", doc=(
    "Every orange chip a player places this round gives them 1 VP at once."))
CLOVER_VP = 1  # the VP of each orange chip placed


def after_placed(P, s, t, G, E):
    """Drawn chip t was just placed by seat s."""
    if TYPE_COLOUR[t] == ORANGE:
        gain(P, s, G, E, GAIN_VP, CLOVER_VP)
