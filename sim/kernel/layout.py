"""Fixed layouts of the kernel state arrays (plain ints, compile-time constants for Numba).

* ``P[seat, :]`` (int64, ``P_WIDTH``): everything about one player: scalars ``F_*``, the per-type
  counts of chips in the bag at ``BAGCNT``, chips bought per colour at ``BOUGHT``, the pot (chip types
  at ``POT_T``, track positions at ``POT_P``) and all the player's chips at ``CHIPS``. The chips in
  the bag are ``CHIPS[0:F_NBAG]``; the rest are out of the bag (in the pot, or being looked at).
* ``G`` (int64, ``G_WIDTH``): the state of the game being played.
* ``R`` (int64, ``R_WIDTH``): the ruleset's scalars.
* Event rows (int64, ``EV_WIDTH``): ``round, seat, code, a, b, c`` (see ``EV_*``).
"""

from __future__ import annotations

MAX_POT = 64
MAX_CHIPS = 64

# --- player row ------------------------------------------------------------------------------
F_SCORE = 0
F_RUBIES = 1
F_DROPLET = 2
F_FLASK = 3  # 1 = full
F_RAT = 4  # rat spaces this round
F_START = 5  # space the first chip counts from
F_WHITE = 6  # white total in the pot
F_ANCHOR = 7  # space the next chip counts from
F_EXPLODED = 8
F_DONE = 9  # brewing over (stopped, exploded, bag empty or track end)
F_NPOT = 10
F_NBAG = 11
F_NCHIPS = 12
F_NORANGE = 13  # orange chips in the pot
F_REWARD = 14  # reward space of this round's potion
F_FINALPOS = 15  # furthest space of the last potion (for the tie-break)
F_EXPLOSIONS = 16  # explosions so far this game
F_COINS = 17  # coins of this round's reward space
F_VPGAIN = 18  # VP gained this round (all sources)
F_CHOICE = 19  # exploded player's choice: 0 VP, 1 coins
F_LIMIT = 20  # explosion limit this round
F_RED_PTR = 21  # next scripted red decision (one per red chip placed)
F_STOPREASON = 22
F_DRAWS = 23  # chips drawn this round (including blue looks)
F_FORCED_PTR = 24  # next forced draw
F_FORCED_N = 25  # number of forced draws (0 = random draws)
F_BLUE_PTR = 26  # next scripted blue / yellow decision
F_YELLOW_PTR = 27
F_RUBYGAIN = 28
F_DIEROLLS = 29
F_SCRIPT_ERR = 30
F_PLACED_NO = 31  # draw number (1-based) of the chip placed last
BAGCNT = 32  # N_TYPES = 20 entries
BOUGHT = 52  # N_COLOURS = 9 entries
LOOK_T = 64  # 4 entries: chips a blue chip is looking at
LOOK_NO = 68  # 4 entries: their draw numbers
F_NRED = 72  # red chips in the pot (red Set 4)
F_DOUBLE = 73  # 1: the next chip placed moves twice as far (yellow Set 2)
F_PROTECT = 74  # draws left in a blue Set 2 protection window
F_PROTECTED = 75  # 1: the pot exploded inside a protection window (VP and coins both taken)
ASIDE = 76  # 3 entries: red r1/r2/r4 chips beside the pot (red Set 2), kept across rounds
F_BOOK_PTR = 79  # next scripted book decision
F_CARD_PTR = 80  # next scripted card decision
F_BASE_LIMIT = 81  # explosion limit of the round before any raise (yellow Set 3, cards)
F_GREEN_PTR = 82  # next scripted green decision
F_CARD_USED = 83  # 1: this round's once-only card option is spent (Well Stirred, A Second Chance)
F_CARD_ARG = 84  # a purple card's answer kept for the rats (A Good Start, Rats Are Your Friends)
CARD_LOOK = 85  # 5 entries: chips a card draws to look at
F_TUBE = 90  # test-tube side: the glass the test-tube droplet is on (0 = start)
F_DROP_PEND = 91  # droplet moves granted but not yet given to the pot or the tube (settle_droplets)
F_TUBE_PTR = 92  # next scripted droplet move (pot or tube)
F_BOWL_N = 93  # chips in the overflow bowl (Herb Witches)
F_BOWL_SUM = 94  # their total value (the bowl scores half of it, rounded down)
F_PENNY = 95  # bit g: the witch penny of group g is still held (Herb Witches)
F_WITCHES = 96  # bit w: witch w was called this game
F_CHEAP = 97  # 1: droplet moves and flask refills cost 1 ruby this step F (a witch)
F_SIX_N = 98  # chips a witch drew to choose from (WITCH_LOOK)
WITCH_LOOK = 99  # 6 entries: those chips
WITCH_LOOK_NO = 105  # 6 entries: their draw numbers
F_SIX_PTR = 111  # placements the six-chips witch has asked for (scripts)
F_BOTH = 112  # step A: 1 if the seat called the both-rewards witch this round
FIRST_T = 113  # 2 entries: green Set 5: chips placed first in the next potion, in order
F_NFIRST = 115
HOLD_T = 116  # 4 entries: red Set 6: chips drawn after a red chip, held to place when the potion ends
F_NHOLD = 120
F_VISITED = 121  # 1: the seat called this round's visiting witch (Visit from a Witch)
ASIDE_NEW = 122  # 3 entries: of ASIDE, the red chips set beside the pot during this potion
F_FIRST_USED = 125  # green Set 5 picks placed first this potion (A Second Chance places them again)
F_EXTRA_PTR = 126  # next scripted extra-distance decision of a chip that is not red
F_HELD_PTR = 127  # next scripted decision to place a held chip before a draw (red Set 6)
POT_T = 128
POT_P = POT_T + MAX_POT
CHIPS = POT_P + MAX_POT
P_WIDTH = CHIPS + MAX_CHIPS

# Why brewing ended.
STOP_CHOICE, STOP_EMPTY, STOP_TRACK, STOP_EXPLODED, STOP_SCRIPT = 1, 2, 3, 4, 5

# --- game row ---------------------------------------------------------------------------------
G_ROUND = 0
G_NP = 1
G_START_PLAYER = 2
G_INFO = 3  # information model of the current round
G_NEV = 4  # events recorded
G_ERR = 5  # scripted-decision error code (0 = none)
G_ERRSEAT = 6
G_DIE_PTR = 7
G_DIE_N = 8
G_ERRARG = 9
G_CARD = 10  # fortune-teller card of the round (-1 none)
G_MAX_BUYS = 11  # chips a player may buy (for buying slots)
G_DECK_N = 12  # cards in this game's deck (dealt at set-up); round r plays G_DECK + r - 1
G_SEEN = 13  # while brewing, bit o: seat o's potion of this round may be read (information model)
G_BREWED = 14  # 1 once this round's potions are brewed (0 before: a pot droplet move still helps)
G_SUPPLY = 16  # 20 entries: the shared supply, refreshed before each buying decision
G_AVAIL = 36  # 20 entries: 1 if the chip type is for sale this round
G_OUT = 56  # 8 entries: a buying slot writes the chip types it buys here
G_DECK = 64  # 27 entries: the deck in the order it is played
G_WITCH = 92  # 3 entries: the witch in play in each group (0 none)
G_VISIT = 95  # the witch visiting this round (Visit from a Witch; 0 none), free for everyone once
G_WIDTH = 96

# --- rules scalars ----------------------------------------------------------------------------
R_ROUNDS = 0
R_LIMIT = 1
R_WHITE_ROUND = 2
R_MAX_BUYS = 3
R_RUBY_DROPLET = 4
R_RUBY_FLASK = 5
R_FINAL_COINS = 6
R_FINAL_RUBIES = 7
R_FLASK_REUSE = 8
R_INFO = 9
R_FINAL_INFO = 10
R_RATS_FROM = 11
R_LAST = 12  # last chip space (52)
R_LAP = 13
R_START_RUBIES = 14
R_START_DROPLET = 15
R_BOOK = 16  # 9 entries: the book (set number) of each colour, 0 = colour not in the game
R_DECK = 25  # 1: deal a shuffled fortune-teller deck at set-up
R_CARD_MASK = 26  # bit c: card number c is in the deck
R_CARD_ORDER_N = 27  # > 0: the deck has this fixed order (R_CARD_ORDER)
R_POTION_CARD = 28  # the card a single potion (quacks potion --card) is brewed under
R_TUBE = 29  # 1: the test-tube side of the pot (every droplet move: pot or tube)
R_TEAMS = 30  # 1: teams of two share a cauldron (players t and t + n/2)
R_BOWL = 31  # 1: the overflow bowl (Herb Witches): chips drawn after the last space go to it
R_COINS = 32  # 54 entries: coins of each pot space
R_VP = 86  # 54 entries
R_RUBY = 140  # 54 entries: 1 if the space shows a ruby
R_PRICE = 194  # 20 entries: price of each chip type with this ruleset's books (-1 not sold)
R_BOOK_ROUND = 214  # 9 entries: first round a colour's book is out
R_CARD_ORDER = 224  # 27 entries: a fixed deck order (card numbers)
R_TUBE_GLASS = 256  # 13 entries: the bonus of glass 0..12 (TUBE_* codes)
R_WITCHES = 270  # 1: the herb witches are in the game
R_PENNY_VP = 271  # VP for each witch penny still held at the end
R_WITCH_FIXED = 272  # 3 entries: the witch of each group fixed by the ruleset (0: one at random)
R_WIDTH = 280

# Test-tube glass bonus codes: a chip type (0..19), TUBE_RUBY + n rubies, TUBE_VP + n VP.
TUBE_GLASSES = 12
TUBE_RUBY = 1000
TUBE_VP = 2000

INFO_INDEPENDENT, INFO_SYNCHRONIZED, INFO_SEQUENTIAL = 0, 1, 2

# --- events -----------------------------------------------------------------------------------
EV_WIDTH = 6
EV_ROUND = 1  # a=start player
EV_BOOK = 2  # a=colour now buyable
EV_WHITE_ADDED = 3  # a=chip type
EV_RAT = 4  # a=tails, b=start space
EV_DRAW = 5  # a=chip type
EV_PLACE = 6  # a=chip type, b=space, c=1 a chip held beside the pot (red Set 6) placed once the potion ended
EV_EXPLODE = 7  # a=white total
EV_BLUE_LOOK = 8  # a=chip type seen
EV_BLUE_PICK = 9  # a=chip type placed, -1 none
EV_YELLOW = 10  # a=white chip type returned, b=the space it leaves empty
EV_FLASK = 11  # a=white chip type returned, b=the space it leaves empty
EV_STOP = 12  # a=reason, b=reward space
EV_REWARD = 13  # a=space, b=coins, c=vp
EV_DIE = 14  # a=face
EV_GREEN = 15  # a=rubies
EV_PURPLE = 16  # a=tier
EV_BLACK = 17  # a=droplet, b=ruby
EV_RUBY = 18  # a=rubies from the reward space
EV_CHOICE = 19  # a=0 VP / 1 coins
EV_VP = 20  # a=VP from the reward space, b=score
EV_BUY = 21  # a=chip type, b=price
EV_SPEND = 22  # a=1 droplet / 2 flask, b=rubies left
EV_CONVERT = 23  # a=VP from coins, b=VP from rubies
EV_SCORE = 24  # a=score, b=rubies, c=droplet
EV_FINAL = 25  # a=rank, b=score, c=win share * 1e6
EV_DIE_ROLL = 26  # a=die face index rolled (before applying)
EV_RED = 27  # a=chip type, b=extra distance offered (a red chip, yellow Sets 2/4/5, red Set 4's w1), c=1 taken / 0 declined
EV_ASIDE = 28  # a=red chip type set beside the pot (red Set 2)
EV_RED_AFTER = 29  # a=red chip type, b=0 placed / 1 kept beside the pot / 2 returned, c=space placed
EV_PROTECT = 30  # a=draws in the protection window now (blue Set 2)
EV_PROTECTED = 31  # the explosion fell in a protection window: VP and coins
EV_BLUE_RUBY = 32  # a=rubies (blue Set 3)
EV_BLUE_VP = 33  # a=VP (blue Set 4)
EV_DOUBLE = 34  # the next chip moves twice as far (yellow Set 2)
EV_LIMIT = 35  # a=explosion limit now
EV_GREEN_CHIP = 36  # a=chip type taken (green Set 2)
EV_GREEN_MOVE = 37  # a=spaces, b=new reward space (green Set 3)
EV_GREEN_DROPLET = 38  # a=droplet moves bought with rubies (green Set 4)
EV_PURPLE_TRADE = 39  # a=tier, b=purple chips discarded (purple Set 2)
EV_PURPLE_VP = 40  # a=VP (purple Set 3)
EV_UPGRADE = 41  # a=old chip type, b=new chip type (purple Set 4)
EV_CARD = 42  # a=card number of the round
EV_CARD_GAIN = 43  # a=what (CARD_GAIN_*), b=amount or chip type, c=card
EV_CARD_LOOK = 44  # a=chip type a card drew
EV_TUBE = 45  # a=glass entered, b=its bonus (TUBE_* code), c=1 if a granted chip was not given
EV_BOWL = 46  # a=chip type into the overflow bowl, b=the bowl's total value
EV_BOWL_VP = 47  # a=VP from the overflow bowl
EV_WITCHES = 48  # a, b, c = the witch in play in each group (set-up)
EV_WITCH = 49  # a=witch called, b, c = what she did (see sim.kernel.witches)
EV_WITCH_LOOK = 50  # a=chip type a witch drew to choose from
EV_GREEN_FIRST = 51  # a=chip type to place first next round (green Set 5)
EV_GREEN_DIE = 52  # a=bonus die rolls (green Set 6)
EV_FIRST = 53  # a=chip type placed first, before any draw (green Set 5)
EV_RED_HOLD = 54  # a=chip type drawn after a red chip, b=1 held for the end / 0 placed at once / 2 a held chip placed now, before a draw (red Set 6)
EV_YELLOW_PUSH = 55  # a=chip type drawn, b=spaces the yellow moves on, c=its new space (yellow Set 5)
EV_YELLOW_RUBY = 56  # a=spaces bought with a ruby (yellow Set 6)
EV_PURPLE_COINS = 57  # a=coins from the purple chips' spaces (purple Set 5), b=VP (last round)
EV_BLACK_GIFT = 58  # a=seat whose bag the black chip goes into (black Set 5)
EV_LOCO = 59  # a=chip type copied (-1 none), b=spaces moved (locoweed)
EV_BLACK_RUBY = 60  # a=rubies (black Set 5 / 6)
EV_VISIT = 61  # a=the witch visiting this round (Visit from a Witch)

SPEND_DROPLET, SPEND_FLASK = 1, 2
