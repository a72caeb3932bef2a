"""Bottled Courage, an example rules file: a card with an end-of-potion effect and a choice.

    quacks play --rules-file experiments/rules/bottled_courage.py \
        --set 'cards.extra=["bottled-courage"]'

Once every potion has ended, in start-player order, each player whose pot did not explode may pay
1 ruby for 2 VP. The choice is asked through ``card_answer`` (a round file's ``card_choice``: true
or ``pay`` pays, false declines; a strategy's card slot gets this card's number and the rubies
held); without an answer the built-in ``default`` pays while the player holds 2 rubies or more.
Each answer is recorded as the card's own event, ``courage`` (declared with the card: its fields
and replay text), shown in replays and events JSON: ``bottled courage: pays a ruby for 2 VP``.
"""

from sim.kernel.cards.common import GAIN_RUBY, GAIN_VP, gain
from sim.kernel.decisions.choices import card_answer
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.layout import F_EXPLODED, F_RUBIES, G_NP, G_START_PLAYER
from sim.rules.declare import BLUE, card, event

CARD = card(0, "bottled-courage", BLUE, name="Bottled Courage", words=(("pay", 1),), doc=(
    "Once every potion has ended, in start-player order, each player whose pot did not "
    "explode may pay 1 ruby for 2 VP."), events=event(
    "courage", a="rubies", b="paid:bool",
    text="bottled courage: {paid:?pays a ruby for 2 VP/keeps the rubies}",
    doc="the rubies held when asked; 1 paid, 0 declined"))
COURAGE = CARD.number
EV_COURAGE = event_code(CARD, "courage")  # the code its event is recorded with
COURAGE_VP = 2  # the VP bought with one ruby


def default(P, s, arg, G, R):
    """The built-in answer (arg: rubies held): pay while 2 or more are held."""
    return 1 if arg >= 2 else 0


def after_brewing(P, G, R, SK, SP, SC, rng, E, UF):
    """Every potion has ended: each intact pot's player may buy 2 VP with a ruby."""
    n = G[G_NP]
    for k in range(n):
        s = (G[G_START_PLAYER] + k) % n
        if P[s, F_EXPLODED] == 0 and P[s, F_RUBIES] > 0:
            rubies = P[s, F_RUBIES]
            ok, a = card_answer(P, s, COURAGE, rubies, G, R, SK, SP, SC, rng, UF)
            if not ok:
                a = default(P, s, rubies, G, R)
            record(E, G, s, EV_COURAGE, rubies, 1 if a == 1 else 0, 0)
            if a == 1:
                gain(P, s, G, E, GAIN_RUBY, -1)
                gain(P, s, G, E, GAIN_VP, COURAGE_VP)
