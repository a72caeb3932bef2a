"""Pumpkin Purse, an example rules file: a herb witch of the buying group.

    quacks play --rules herb-witches --rules-file experiments/rules/pumpkin_purse.py \
        --set 'witches.fixed=["pumpkin-purse"]'

In step E, before buying, a player who calls her (giving up the buying group's penny) has 1 coin
more to spend for every orange chip in their pot. The hook point is ``before_buying``: the coins
a seat may spend, before the cards' ``buy_coins``. ``witches.fixed`` makes her the buying
group's witch in every game; ``--set 'witches.extra=["pumpkin-purse"]'`` deals her at random
with the four shipped buying witches instead (1 game in 5).

Her question: b = the coins she gives. A rules file's witch is asked as the shipped witches'
follow-up questions are (``witch_answer``): the built-in strategy leaves it to ``default`` from
round 1, and a round file cannot script her, so a scripted seat gets ``default`` too.
"""

from sim.kernel.decisions.witch import ASK_DEFAULT, ASK_SCRIPT, witch_answer
from sim.kernel.jit import kernel
from sim.kernel.layout import F_NPOT, POT_T
from sim.kernel.witches.common import call_witch
from sim.rules.chips import ORANGE, TYPE_COLOUR
from sim.rules.declare import event, witch

WITCH = witch(0, "pumpkin-purse", "buying", name="Pumpkin Purse", phase="buying (step E)",
              events=(event("witch", b="pumpkins", c="coins"),), doc=(
                  "Before buying, 1 extra coin for every orange chip in the player's pot."))
PUMPKIN_PURSE = WITCH.number
MIN_COINS = 3  # the built-in strategy calls her for at least this many coins


@kernel
def _pumpkins(P, s):
    """The orange chips in seat s's pot."""
    n = 0
    for i in range(P[s, F_NPOT]):
        if TYPE_COLOUR[P[s, POT_T + i]] == ORANGE:
            n += 1
    return n


def default(P, s, arg, G, R, SP):
    """The built-in answer: call her for at least ``MIN_COINS`` coins."""
    return 1 if arg >= MIN_COINS else 0


def before_buying(P, s, coins, G, R, SK, SP, SC, rng, E, UF):
    """Step E, before buying: the coins seat s may spend, 1 more per orange chip if it calls
    her."""
    extra = _pumpkins(P, s)
    if extra <= 0:
        return coins
    how, a = witch_answer(P, s, PUMPKIN_PURSE, extra, G, R, SK, SP, SC, rng, UF)
    if how == ASK_DEFAULT or how == ASK_SCRIPT:
        a = default(P, s, extra, G, R, SP)
    if a == 0:
        return coins
    call_witch(P, s, G, E, PUMPKIN_PURSE, extra, extra)
    return coins + extra
