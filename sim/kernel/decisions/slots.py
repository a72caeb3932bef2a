"""Decision slots, the built-in kinds of each slot, and the layout of a strategy's arrays.

A seat's strategy is two arrays the kernel reads: ``SK[seat, slot]`` picks the kind used for each
slot and ``SP[seat, slot, :]`` holds that kind's parameters (floats). Changing a parameter never
changes a type, so it never recompiles a kernel. Scripted decisions (golden tests and
``quacks round``) read ``SC[seat, :]`` (ints, ``SC_*`` layout). A kind of ``USER_BASE + i`` calls
the compiled slot function ``i`` of the table ``UF`` (user strategies, and built-ins that need
their own memory such as the optimal stopper).

Per-round parameters: where a kind says "per round", ``SP[s, slot, r]`` holds the value for round
``r`` (1..20) and ``SP[s, slot, 0]`` the value outside a game (``quacks potion``).
"""

from __future__ import annotations

from sim.kernel.fields import Field, Table, spare
from sim.rules.card_numbers import card_number
from sim.rules.declare import BOOK_COLOUR_NAMES, BOOK_SCRIPT_WIDTH
from sim.rules.witch_numbers import N_WITCHES, param_offset, witch_defaults, witch_number

SLOT_STOP = 0  # draw another chip or stop
SLOT_FLASK = 1  # send the white chip just placed back with the flask
SLOT_BLUE = 2  # which looked-at chip a blue chip places
SLOT_YELLOW = 3  # whether a yellow chip returns the white before it
SLOT_EXPLODE = 4  # an exploded player's choice: VP or coins
SLOT_BUY = 5  # chips to buy
SLOT_RUBY = 6  # spending rubies
SLOT_PURPLE = 7  # purple tier
# whether a chip takes an extra distance its book offers (red Sets 1/3/4/5, yellow Sets 2/4/5)
SLOT_RED = 8
SLOT_CUSTOM = 9  # no decision: parameters of user strategies
SLOT_BOOK = 10  # the choices of the Set 2-4 books (see Q_*)
SLOT_CARD = 11  # the choices fortune-teller cards offer
SLOT_TUBE = 12  # test-tube side: each droplet move goes to the pot or the test-tube track
SLOT_WITCH = 13  # the herb witches: whether to call one now, and her choices (see WQ_*)
N_SLOTS = 14
SLOT_NAMES = ("stop", "flask", "blue", "yellow", "explode", "buy", "ruby", "purple", "red",
              "custom", "book", "card", "tube", "witch")
DECISION_SLOTS = (*SLOT_NAMES[:9], "book", "card", "tube", "witch")
PARAM_WIDTH = 32
ROUND_PARAMS = 21  # SP[s, slot, 0..20]: per-round values (0 = outside a game)
P_RUBY_VALUE = 21  # stop slot of ev/optimal: VP worth of one ruby
P_VP_VALUE = 22  # stop slot of ev/optimal: weight of VP (1)
# optimal: solve exactly only when the bag left has at most this many sub-bags
P_OPT_MAX_SUBBAGS = 23
# stop slot of ev: VP worth of the bonus die, counted once others' potions are seen
P_DIE_VALUE = 24
P_PRESS = 25  # stop slot of ev: VP of expected value given up per VP behind, per round to play
# stop slot of optimal: how the solve's leaves are valued (``master``): 0 by coin/ruby/VP,
# LEAF_MODEL by the seat's value model (the model's rows follow the slots, see
# ``sim.kernel.decisions.value_layout``), LEAF_MARGINAL by the marginal buyer's worth of the coins
# (``leaf_marginal``; win-aware when a model is attached)
P_LEAF_MODEL = 26
LEAF_MODEL, LEAF_MARGINAL = 1, 2
P_LEAF_BUYS = 27  # stop slot, LEAF_MARGINAL: weight of the VP the coins buy (1: as the buyer says)
# stop slot, LEAF_MARGINAL with a model, last round (``last_round``): 1 to value the leaves by the
# other pots seen; a still-brewing pot's VP to come and variance per white point left; the spread
# of every other final score
P_LAST_SEEN, P_LAST_MORE, P_LAST_SD, P_LAST_SD0 = 28, 29, 30, 31

SCRIPTED = 99  # every slot: read the decision from SC
USER_BASE = 100  # kind USER_BASE + i: call slot function i of UF
N_UF = 32  # the slot-function table always has this many entries (one compiled kernel)
UF_OPTIMAL = 0  # slot function 0 is the built-in optimal stopper
UF_MASTER_BUY = 1  # slot functions 1 and 2: master's buyer and explosion choice (value model)
UF_MASTER_EXPLODE = 2
UF_MASTER_FLASK = 3  # slot function 3: master's flask, by the solve (``master_flask``)
# slot functions 4, 5 and 6: master's card, book and test-tube choices, by its worth of each
# option (``master_choices``)
UF_MASTER_CARD = 4
UF_MASTER_BOOK = 5
UF_MASTER_TUBE = 6
N_BUILTIN_UF = 7  # user slot functions follow the built-in ones
# a slot function's answer to a card, book or witch question that leaves the choice to the
# card's, book's or witch's built-in answer
BUILT_IN = -1000

# stop kinds
STOP_WHITE = 0  # per round T: stop once the white total is >= T
STOP_RISK = 1  # per round P: stop once the next-draw explosion chance is > P
STOP_NEVER = 2  # draw until explosion, empty bag or track end
STOP_RANDOM = 3  # p0 = chance of stopping after each chip
# per round coin value, P_RUBY_VALUE: draw if one more chip's expected value beats stopping
STOP_EV = 4
STOP_OPTIMAL = USER_BASE + UF_OPTIMAL  # exact dynamic programming over the bag (same value params)

# flask kinds
FLASK_NEVER = 0
FLASK_MIN = 1  # p0 = V: a white of value >= V; p1: only if the white total is then >= p1
FLASK_RANDOM = 2  # p0 = chance of using it on a white
# master's flask (UF_MASTER_FLASK) also reads p0 and p1: the rule above where it does not solve
P_FLASK_KEEP = 2  # master: VP worth of keeping a full flask for a later round
P_FLASK_SUBBAGS = 3  # master: solve the flask's choice exactly up to this many sub-bags

# blue kinds
BLUE_BEST = 0  # the highest-value non-white chip; never a white
BLUE_NONE = 1
BLUE_RANDOM = 2  # any looked-at chip or none, uniformly

# yellow kinds
YELLOW_ALWAYS = 0
YELLOW_NEVER = 1
YELLOW_RANDOM = 2

# explosion-choice kinds
EXPLODE_BY_ROUND = 0  # p0 = last round in which coins are taken; the final round takes the larger
EXPLODE_VALUE = 1  # per round coin value: take coins if coins * value > VP
EXPLODE_RANDOM = 2

# buy kinds
BUY_PRIORITY = 0  # p[0..] chip types in priority order, -1 ends the list
BUY_NOTHING = 1
BUY_RANDOM = 2  # a uniformly random affordable legal chip, then maybe a second
BUY_EXPENSIVE = 3  # the most expensive affordable chip (p[t] > 0 marks allowed types), twice
BUY_VALUE = 4  # p[t] = value of chip type t; the legal set of <= 2 chips of greatest total value
BUY_PER_COIN = 5  # p[t] = value of chip type t; greedily the best value per coin
BUY_MARGINAL = 6  # p[t] > 0 marks the chips considered; each is worth what it adds to the bag
# for the rounds left (buy_marginal.py); the legal set of <= 2 chips of greatest worth
P_BUY_MIN_VALUE = 22  # BUY_VALUE / BUY_PER_COIN / BUY_MARGINAL: ignore chips valued below this
P_MG_STOP = 20  # BUY_MARGINAL: the white total its bag model stops at
P_MG_SPACE = 21  # BUY_MARGINAL: VP of one space a drawn chip moves the pot
P_MG_YELLOW = 23  # BUY_MARGINAL: spaces a yellow chip adds by sending a white back
P_MG_RUBY = 24  # BUY_MARGINAL: VP of the ruby a green chip at the end of the pot pays
P_MG_PURPLE = 25  # BUY_MARGINAL: VP of a drawn purple chip
P_MG_BLACK = 26  # BUY_MARGINAL: VP of a drawn black chip when the neighbours hold as many
P_EXPLORE = 27  # master's buyer: chance of buying a random legal set instead (training games)
P_MG_HORIZON = 28  # BUY_MARGINAL: a chip's worth grows as (rounds left) ** this (1: linearly)
P_MG_SIZE = 29  # BUY_MARGINAL: a chip of value v moves the pot v ** this spaces in the model (1)
# master's buyer: > 0 to buy by the model file's value net (``value_net``), its share of a set's
# worth beside the marginal buyer's (1: the net alone)
P_BUY_NET = 30

# ruby kinds
RUBY_DEFAULT = 0  # p0 = refill an empty flask first (1/0), p1 = last round to buy droplet moves
RUBY_NEVER = 1
RUBY_RANDOM = 2
RUBY_VALUE = 3  # p0 = VP of one droplet space per round left, p1 = VP of a full flask per round
# left, p2 = VP worth of keeping a ruby: each spending is the one of greatest net gain, if any

# purple kinds
PURPLE_MAX = 0

# red kinds (ingredient actions are optional: every extra distance may be declined: a red chip's
# (Sets 1, 3, 5), red Set 4's white 1 moving 2, yellow Set 2's doubling, Set 4's +1/+2/+3 and Set
# 5's move on; a slot function gets (extra, chip type))
RED_ALWAYS = 0  # take the extra distance
RED_NEVER = 1

# book kinds: one slot answers every book question; a slot function gets (question, arg)
BOOK_DEFAULT = 0  # take every optional effect, the best option by the book prices
BOOK_DECLINE = 1  # decline every optional effect
# book questions (the ``a`` argument of a slot function; ``b`` is the question's argument) are
# numbered by their declaration, sim.rules.book_numbers.QUESTIONS (sim.rules.books.BOOK_QUESTIONS
# says each one's b and answer); each book names its own

# card kinds: a slot function gets (card number, argument; numbers of sim.rules.cards.CARDS);
# answers per card:
CARD_DEFAULT = 0
# b = white 1-chips held; answer W1 (0) removes one, anything else 4 VP
CARD_JUST_IN_TIME = card_number("just-in-time")
# answer: k1 or a 2-chip type, or CARD_TAKE_OTHER for 3 rubies
CARD_CHOOSE_ONE = card_number("you-only-get-to-choose-one")
# b = rat tails this round; answer: a 4-chip type, or CARD_TAKE_OTHER (VP)
CARD_RATS_FRIENDS = card_number("rats-are-your-friends")
# b = rat tails this round; answer: tails given up for rubies (0-3)
CARD_GOOD_START = card_number("a-good-start")
# answer: p1 (17) for the purple chip, anything else droplet +2
CARD_CHOOSE_WISELY = card_number("choose-wisely")
# b = rubies; answer: a 1-chip type bought for 1 ruby, -1 none
CARD_WHEEL_AND_DEAL = card_number("wheel-and-deal")
# b = chips drawn (in P[s, CARD_LOOK:]); answer: the chip type exchanged
CARD_OPPORTUNISTIC = card_number("an-opportunistic-moment")
# b = the white chip type; answer 1 returns it to the bag
CARD_WELL_STIRRED = card_number("well-stirred")
# b = chips drawn (in P[s, CARD_LOOK:]); answer: chip type placed, -1
CARD_STRONG_INGREDIENT = card_number("strong-ingredient")
# b = the seat whose pot exploded; answer: the 2-chip type taken
CARD_SCHADENFREUDE = card_number("schadenfreude")
# b = 1 if the white total is over the limit (the next draw explodes); answer 1 starts the potion
# again
CARD_SECOND_CHANCE = card_number("a-second-chance")
# b = pennies held (bit per witch group); answer group * 32 + chip type, -1 none
CARD_QUICK_EXCHANGE = card_number("a-quick-exchange")
# b = pennies spent (bit per group); answer: the group taken back, -1 none
CARD_JOYFUL_REUNION = card_number("a-joyful-reunion")
CARD_TAKE_OTHER = 99

# tube kinds (only asked on the test-tube side of the pot; a slot function gets (glass entered, 0)
# and answers 1 to move the test-tube droplet, 0 the pot droplet)
# tube if the glass's bonus is worth at least p0 VP per round the pot droplet still helps
TUBE_VALUE = 0
TUBE_POT = 1  # always the pot droplet (the ordinary game)
TUBE_ALWAYS = 2  # the test-tube droplet while a glass is left
P_TUBE_SPACE = 0  # TUBE_VALUE: VP worth of one pot space for one round
P_TUBE_RUBY = 1  # TUBE_VALUE: VP worth of a ruby
P_TUBE_COIN = 2  # TUBE_VALUE: VP worth of one coin of a chip's price
TUBE_DEFAULTS = (0.7, 0.5, 0.25)  # p0, p1, p2 of the default player (and of unscripted moves)

# witch kinds: a slot function gets (question, argument). Questions 1-12 ask whether to call
# that witch now (sim.rules.witches numbers them); the answer 0 keeps the penny. Arguments/answers:
WITCH_DEFAULT = 0  # each witch when her gain passes the thresholds below (P_W_*)
WITCH_NEVER = 1  # keep every penny (2 VP each at the end)
WITCH_RANDOM = 2  # p0 = chance of calling a witch whenever one may be called
# witch numbers (the question asked; a = witch, b = argument), from sim.rules.witches.WITCHES
# the pot exploded, the flask is full: b = the white chip type; 1 = call
W_SECOND_FLASK = witch_number("second-flask")
# b = 1 if the player is about to stop; 1 = call (then WQ_SIX_NEXT)
W_SIX_CHIPS = witch_number("six-chips")
# b = 1 if about to stop; answer: whites sent back (0, 1 or 2, the last ones)
W_WHITES_BACK = witch_number("whites-back")
# the pot exploded (step A): b = the reward space; 1 = VP and coins (and die)
W_BOTH_REWARDS = witch_number("both-rewards")
# step E: answer 1 = the last two chips, 2 + k = pot entry k alone, 0 none
W_UPGRADE = witch_number("upgrade")
# step E (or the final conversion): b = coins; 1 = double them
W_DOUBLE_COINS = witch_number("double-coins")
# after buying: b = chips bought (G_OUT); answer: the chip type twinned, -1 none
W_FREE_TWIN = witch_number("free-twin")
W_RUBY_COINS = witch_number("ruby-coins")  # step E: b = rubies; 1 = +2 coins per ruby
W_COLOURS = witch_number("colours")  # step D: b = VP she gives; 1 = call
W_BAG_POINTS = witch_number("bag-points")  # step D: b = VP she gives; 1 = call
# step C, the reward space shows a ruby: b = rubies she gives; 1 = call
W_RUBY_SPACE = witch_number("ruby-space")
W_CHEAP_RUBIES = witch_number("cheap-rubies")  # step F: b = rubies held; 1 = call
# b = chips drawn (P[s, WITCH_LOOK:]); answer: index of the chip placed next, -1 done
WQ_SIX_NEXT = N_WITCHES + 1
# WITCH_DEFAULT parameters: SP[s, SLOT_WITCH, w] = first round witch w is called (1..12), and:
P_W_WHITES = param_offset("P_W_WHITES")  # whites back: only with a white total of at least this
# both rewards: only if the part an explosion loses is worth at least this (VP)
P_W_BOTH = param_offset("P_W_BOTH")
P_W_COINS = param_offset("P_W_COINS")  # double coins: only with at least this many coins
P_W_RUBY_COINS = param_offset("P_W_RUBY_COINS")  # ruby coins: only for at least this many coins
P_W_TWIN = param_offset("P_W_TWIN")  # free twin: only for a chip that cost at least this
P_W_COLOURS = param_offset("P_W_COLOURS")  # colours: only for at least this many VP
P_W_BAG = param_offset("P_W_BAG")  # bag points: only for at least this many VP
P_W_RUBIES = param_offset("P_W_RUBIES")  # ruby space: only for at least this many rubies
P_W_CHEAP = param_offset("P_W_CHEAP")  # cheap rubies: only with at least this many rubies
P_W_COIN_VP = param_offset("P_W_COIN_VP")  # VP worth of one coin (both rewards)
# first rounds (1..12), then P_W_WHITES .. P_W_COIN_VP; in the last round every witch is called
# a first round of WITCH_OFF or more: never called, not even in the last round (witch_off)
WITCH_OFF = 100
# when her gain is worth more than the penny kept
# declared with each witch (sim.rules.witches: first_round, params)
WITCH_DEFAULTS = witch_defaults()

# Scripted decisions: SC[seat, :], one declaration; SC_<NAME> is each field's offset. A list's
# count comes first (SC_N...); a "bits" field holds bit i for the i-th decision of its kind.
SCRIPT = Table("SC_", [
    Field("nblue"),
    Field("blue", 16, doc="chip type placed for each blue chip, -1 none"),
    Field("nyellow"),
    Field("yellow", 16, doc="1 return the white, 0 keep it"),
    Field("flask_on", doc="1-based draw number of a white chip to send back, 0 none"),
    Field("choice", doc="0 VP, 1 coins"),
    Field("nbuy"),
    Field("buy", 4),
    Field("nspend"),
    Field("spend", 16, doc="1 droplet, 2 flask"),
    Field("purple", doc="tier, -1 = the highest"),
    Field("nred"),
    Field("red", doc="bits: 1 the i-th red chip placed takes its extra distance, 0 declines it"),
    spare(3),
    Field("ncard"),
    Field("card", 8, doc="card decisions in order"),
    Field("ntube", doc="droplet moves scripted (test-tube side)"),
    Field("tube", doc="bits: 1 the i-th droplet move goes to the test tube, 0 to the pot"),
    spare(6),
    Field("witch", 12, doc="the answer for witch w at SC_WITCH + w - 1 (SC_UNSET: not scripted)"),
    Field("nsix", doc="chips the six-chips witch places, in order (SC_SIX)"),
    Field("six", 6, doc="chip types"),
    Field("nextra", doc="extra distances of chips that are not red (yellow Sets 2/4/5, red Set 4's "
                        "w1)"),
    Field("extra", doc="bits: 1 the i-th such extra distance offered is taken, 0 declined"),
    Field("book", len(BOOK_COLOUR_NAMES) * BOOK_SCRIPT_WIDTH, doc="the round-file keys of each "
          "colour's book, BOOK_SCRIPT_WIDTH slots a colour (script_slot)"),
    spare(11),
], width_name="SC_WIDTH")
globals().update(SCRIPT.constants())
SC_UNSET = -99
SC_MAX_LIST = 16


def script_slot(decl, key: str) -> int:
    """The SC offset where book ``decl``'s round-file key ``key`` starts (its count, or its one
    value): in its colour's part of ``SC_BOOK``, the keys in declaration order
    (``sim.rules.declare.script_key``)."""
    colour = BOOK_COLOUR_NAMES.index(decl.colour)
    return SCRIPT.offsets["book"] + colour * BOOK_SCRIPT_WIDTH + decl.script_at(key)
