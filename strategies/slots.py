"""Decision slots, the built-in kinds of each slot, and the layout of a strategy's arrays.

A seat's strategy is two arrays the kernel reads: ``SK[seat, slot]`` picks the kind used for each
slot and ``SP[seat, slot, :]`` holds that kind's parameters (floats). Changing a parameter never
changes a type, so it never recompiles a kernel. Scripted decisions (golden tests and
``quacks round``) read ``SC[seat, :]`` (ints, ``SC_*`` layout).
"""

from __future__ import annotations

SLOT_STOP = 0  # draw another chip or stop
SLOT_FLASK = 1  # send the white chip just placed back with the flask
SLOT_BLUE = 2  # which looked-at chip a blue chip places
SLOT_YELLOW = 3  # whether a yellow chip returns the white before it
SLOT_EXPLODE = 4  # an exploded player's choice: VP or coins
SLOT_BUY = 5  # chips to buy
SLOT_RUBY = 6  # spending rubies
SLOT_PURPLE = 7  # purple tier
N_SLOTS = 8
SLOT_NAMES = ("stop", "flask", "blue", "yellow", "explode", "buy", "ruby", "purple")
PARAM_WIDTH = 24

SCRIPTED = 99  # every slot: read the decision from SC

# stop kinds
STOP_WHITE = 0  # p0 = T: stop once the white total is >= T
STOP_RISK = 1  # p0 = P: stop once the next-draw explosion chance is > P
STOP_NEVER = 2  # draw until explosion, empty bag or track end
STOP_RANDOM = 3  # p0 = chance of stopping after each chip

# flask kinds
FLASK_NEVER = 0
FLASK_MIN = 1  # p0 = V: use on the first white of value >= V that did not explode
FLASK_RANDOM = 2  # p0 = chance of using it on a white

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
EXPLODE_RANDOM = 2

# buy kinds
BUY_PRIORITY = 0  # p[0..] chip types in priority order, -1 ends the list
BUY_NOTHING = 1
BUY_RANDOM = 2  # a uniformly random affordable legal chip, then maybe a second

# ruby kinds
RUBY_DEFAULT = 0  # p0 = refill an empty flask first (1/0), p1 = last round to buy droplet moves
RUBY_NEVER = 1
RUBY_RANDOM = 2

# purple kinds
PURPLE_MAX = 0

# Scripted decisions: SC[seat, :]
SC_NBLUE = 0
SC_BLUE = 1  # 16 entries: chip type placed for each blue chip, -1 none
SC_NYELLOW = 17
SC_YELLOW = 18  # 16 entries: 1 return the white, 0 keep it
SC_FLASK_ON = 34  # 1-based draw number of a white chip to send back, 0 none
SC_CHOICE = 35  # 0 VP, 1 coins
SC_NBUY = 36
SC_BUY = 37  # 4 entries
SC_NSPEND = 41
SC_SPEND = 42  # 16 entries: 1 droplet, 2 flask
SC_PURPLE = 58  # tier, -1 = the highest
SC_WIDTH = 64
SC_MAX_LIST = 16
