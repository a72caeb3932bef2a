"""Market Day, an example rules file: a card that changes the buying phase.

    quacks play --rules-file experiments/rules/market_day.py --set 'cards.extra=["market-day"]'

In step E of this round every player buys with 2 coins more than their reward space shows (an
exploded player who took the VP instead of the coins gets none). The hook point is ``buy_coins``:
the coins a seat may spend, after the herb witches' changes.
"""

from sim.kernel.layout import F_COINS
from sim.rules.declare import BLUE, card

CARD = card(0, "market-day", BLUE, name="Market Day", doc=(
    "In the buying phase every player has 2 coins more to spend (not a player who took the VP "
    "of an exploded pot instead of the coins)."))
MARKET_COINS = 2


def buy_coins(P, s, cn, G):
    """The coins seat s may spend this round."""
    return cn + MARKET_COINS if P[s, F_COINS] > 0 else cn
