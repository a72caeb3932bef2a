"""Fixed layouts of the kernel state arrays (plain ints, compile-time constants for Numba).

* ``P[seat, :]`` (int64, ``P_WIDTH``): everything about one player: scalars ``F_*``, the per-type
  counts of chips in the bag at ``BAGCNT``, chips bought per colour at ``BOUGHT``, the pot (chip
  types at ``POT_T``, track positions at ``POT_P``) and all the player's chips at ``CHIPS``. The
  chips in the bag are ``CHIPS[0:F_NBAG]``; the rest are out of the bag (in the pot, or being
  looked at).
* ``G`` (int64, ``G_WIDTH``): the state of the game being played.
* ``R`` (int64, ``R_WIDTH``): the ruleset's scalars.
* Event rows (int64, ``EV_WIDTH``): ``round, seat, code, a, b, c``; the codes ``EV_*`` and what
  their fields mean are declared in ``sim.kernel.event_codes``.

Each row is declared once below as a list of fields (``sim.kernel.fields``) and its offsets are
computed: a one-entry field ``x`` of the player row is exported as ``F_X``, a wider one as ``X``
(``bagcnt`` -> ``BAGCNT``); the game row's as ``G_X``, the rules row's as ``R_X``.
"""

from __future__ import annotations

from sim.kernel.event_codes import EVENT_CONSTANTS, EVENT_ROW
from sim.kernel.fields import Field, Table, numbered, spare
from sim.rules.card_numbers import N_CARDS
from sim.rules.track import TRACK_LEN

MAX_POT = 64
MAX_CHIPS = 64
MAX_SEATS = 8  # room per seat in the game row's memos (a game has at most 5 cauldrons)


def per_card(name: str, room: int, *, doc: str) -> list[Field]:
    """A field of one entry per card (``sim.rules.card_numbers.CARD_DECK``), then spare entries up
    to ``room``: adding a card moves no later offset (until the room is used up)."""
    if N_CARDS > room:
        raise ValueError(f"field {name!r}: {N_CARDS} cards, room for {room}; widen the room "
                         "(this moves every later offset: regenerate the checksums)")
    return [Field(name, N_CARDS, doc=doc)] + ([spare(room - N_CARDS)] if room > N_CARDS else [])


# --- player row ------------------------------------------------------------------------------
PLAYER = Table("F_", [
    Field("score"),
    Field("rubies"),
    Field("droplet"),
    Field("flask", doc="1 = full"),
    Field("rat", doc="rat spaces this round"),
    Field("start", doc="space the first chip counts from"),
    Field("white", doc="white total in the pot", reset="potion"),
    Field("anchor", doc="space the next chip counts from"),
    Field("exploded", reset="potion"),
    Field("done", doc="brewing over (stopped, exploded, bag empty or track end)", reset="potion"),
    Field("npot", reset="potion"),
    Field("nbag"),
    Field("nchips"),
    Field("norange", doc="orange chips in the pot", reset="potion"),
    Field("reward", doc="reward space of this round's potion"),
    Field("finalpos", doc="furthest space of the last potion (for the tie-break)"),
    Field("explosions", doc="explosions so far this game"),
    Field("coins", doc="coins of this round's reward space"),
    Field("vpgain", doc="VP gained this round (all sources)"),
    Field("choice", doc="exploded player's choice: 0 VP, 1 coins"),
    Field("limit", doc="explosion limit this round"),
    Field("red_ptr", doc="next scripted red decision (one per red chip placed)", reset="potion"),
    Field("stopreason", doc="why brewing ended (STOP_*)", reset="potion"),
    Field("draws", doc="chips drawn this round (including blue looks)", reset="potion"),
    Field("forced_ptr", doc="next forced draw"),
    Field("forced_n", doc="number of forced draws (0 = random draws)"),
    Field("blue_ptr", doc="next scripted blue / yellow decision", reset="potion"),
    Field("yellow_ptr", reset="potion"),
    Field("rubygain"),
    Field("dierolls"),
    Field("script_err"),
    Field("placed_no", doc="draw number (1-based) of the chip placed last"),
    Field("bagcnt", 20, doc="chips in the bag per type (N_TYPES)"),
    Field("bought", 9, doc="chips bought per colour (N_COLOURS)"),
    spare(3),
    Field("look_t", 4, doc="chips a blue chip is looking at"),
    Field("look_no", 4, doc="their draw numbers"),
    Field("nred", doc="red chips in the pot (red Set 4)", reset="potion"),
    Field("double", doc="1: the next chip placed moves twice as far (yellow Set 2)",
          reset="potion"),
    Field("protect", doc="draws left in a blue Set 2 protection window", reset="potion"),
    Field("protected",
          doc="1: the pot exploded inside a protection window (VP and coins both taken)",
          reset="potion"),
    Field("aside", 3, doc="red r1/r2/r4 chips beside the pot (red Set 2), kept across rounds",
          reset="single"),
    Field("book_ptr", doc="next scripted book decision", reset="potion"),
    Field("card_ptr", doc="next scripted card decision", reset="potion"),
    Field("base_limit", doc="explosion limit of the round before any raise (yellow Set 3, cards)"),
    Field("green_ptr", doc="next scripted green decision", reset="potion"),
    Field("card_used", doc="1: this round's once-only card option is spent (Well Stirred, "
                           "A Second Chance)", reset="potion"),
    Field("card_arg", doc="a purple card's answer kept for the rats (A Good Start, Rats Are Your "
                          "Friends)"),
    Field("card_look", 5, doc="chips a card draws to look at"),
    Field("tube", doc="test-tube side: the glass the test-tube droplet is on (0 = start)"),
    Field("drop_pend", doc="droplet moves granted but not yet given to the pot or the tube "
                           "(settle_droplets)"),
    Field("tube_ptr", doc="next scripted droplet move (pot or tube)"),
    Field("bowl_n", doc="chips in the overflow bowl (Herb Witches)", reset="potion"),
    Field("bowl_sum", doc="their total value (the bowl scores half of it, rounded down)",
          reset="potion"),
    Field("penny", doc="bit g: the witch penny of group g is still held (Herb Witches)"),
    Field("witches", doc="bit w: witch w was called this game"),
    Field("cheap", doc="1: droplet moves and flask refills cost 1 ruby this step F (a witch)"),
    Field("six_n", doc="chips a witch drew to choose from (WITCH_LOOK)", reset="potion"),
    Field("witch_look", 6, doc="those chips"),
    Field("witch_look_no", 6, doc="their draw numbers"),
    Field("six_ptr", doc="placements the six-chips witch has asked for (scripts)"),
    Field("both", doc="step A: 1 if the seat called the both-rewards witch this round"),
    Field("first_t", 2, doc="chips placed first in the next potion, before any draw, in order, "
                            "each with its action (sim.kernel.brew.place_first; a chip no longer "
                            "in the bag is skipped): a rule's picks"),
    Field("nfirst", doc="how many chips FIRST_T holds"),
    Field("hold_t", 4,
          doc="chips held beside the pot, placed after the last chip without their action when "
              "the potion ends (sim.kernel.brew.place_held), or before a draw when a book's "
              "before_draw_chip gives one"),
    Field("nhold", doc="how many chips HOLD_T holds", reset="potion"),
    Field("visited", doc="1: the seat called this round's visiting witch (Visit from a Witch)"),
    Field("aside_new", 3,
          doc="red Set 2: of ASIDE, the red chips set beside the pot during this potion",
          reset="potion"),
    Field("first_used", doc="of FIRST_T, the chips placed first this potion (a rule may place "
                            "them first again in a restarted potion)", reset="potion"),
    Field("extra_ptr", doc="next scripted extra-distance decision of a chip that is not red",
          reset="potion"),
    Field("held_ptr", doc="next scripted decision to place a held chip before a draw (red Set 6)",
          reset="potion"),
    Field("pot_t", MAX_POT, doc="chip types in the pot, in placing order"),
    Field("pot_p", MAX_POT, doc="their track positions"),
    Field("chips", MAX_CHIPS, doc="all the player's chips; the bag is CHIPS[0:F_NBAG]"),
], width_name="P_WIDTH", array_prefix="")

# --- game row ---------------------------------------------------------------------------------
GAME = Table("G_", [
    Field("round"),
    Field("np"),
    Field("start_player"),
    Field("info", doc="information model of the current round"),
    Field("nev", doc="events recorded"),
    Field("err", doc="scripted-decision error code (0 = none)"),
    Field("errseat"),
    Field("die_ptr"),
    Field("die_n"),
    Field("errarg"),
    Field("card", doc="fortune-teller card of the round (-1 none)"),
    Field("max_buys", doc="chips a player may buy (for buying slots)"),
    Field("deck_n",
          doc="cards in this game's deck (dealt at set-up); round r plays G_DECK + r - 1"),
    Field("seen", doc="while brewing, bit o: seat o's potion of this round may be read "
                      "(information model)"),
    Field("brewed", doc="1 once this round's potions are brewed (0 before: a pot droplet move "
                        "still helps)"),
    spare(1),
    Field("supply", 20, doc="the shared supply, refreshed before each buying decision"),
    Field("avail", 20, doc="1 if the chip type is for sale this round"),
    Field("out", 8, doc="a buying slot writes the chip types it buys here"),
    *per_card("deck", 28, doc="the deck in the order it is played"),
    Field("witch", 3, doc="the witch in play in each group (0 none)"),
    Field("visit", doc="the witch visiting this round (Visit from a Witch; 0 none), free for "
                       "everyone once"),
    # the marginal buyer's memos (sim.kernel.decisions.buy_marginal), as float64 bits
    Field("memo_white", 3 * MAX_SEATS, doc="per seat: its whites' draw chance (key, mg_stop, "
                                            "chance) as last computed"),
    Field("memo_move", 9 * MAX_SEATS, doc="per seat: mg_size, a mask of the chip values v "
                                           "known, and v ** mg_size for v = 0..6"),
    Field("memo_tie", 8 * MAX_SEATS, doc="per seat and neighbour (before, after): the black "
                                          "tie chance (key, two chances, tie chance) as last "
                                          "computed"),
    Field("buy_list", 20, doc="the chip types a buyer by worth may buy, in type order"),
    Field("worth", 20, doc="their worths (float64 bits)"),
    Field("worth_after", 20, doc="the greatest worth listed after each (float64 bits)"),
    Field("memo_weight", 3, doc="the marginal buyer's rounds' weight (rounds left + 1, "
                                "mg_horizon, left ** mg_horizon) as last computed"),
], width_name="G_WIDTH")

# --- rules scalars ----------------------------------------------------------------------------
RULES = Table("R_", [
    Field("rounds"),
    Field("limit"),
    Field("white_round"),
    Field("max_buys"),
    Field("ruby_droplet"),
    Field("ruby_flask"),
    Field("final_coins"),
    Field("final_rubies"),
    Field("flask_reuse"),
    Field("info"),
    Field("final_info"),
    Field("rats_from"),
    Field("last", doc="last chip space (52)"),
    Field("lap"),
    Field("start_rubies"),
    Field("start_droplet"),
    Field("book", 9, doc="the book (set number) of each colour, 0 = colour not in the game"),
    Field("deck", doc="1: deal a shuffled fortune-teller deck at set-up"),
    Field("card_mask", doc="bit c: card number c is in the deck"),
    Field("card_order_n", doc="> 0: the deck has this fixed order (R_CARD_ORDER)"),
    Field("potion_card", doc="the card a single potion (quacks potion --card) is brewed under"),
    Field("tube", doc="1: the test-tube side of the pot (every droplet move: pot or tube)"),
    Field("teams", doc="1: teams of two share a cauldron (players t and t + n/2)"),
    Field("bowl", doc="1: the overflow bowl (Herb Witches): chips drawn after the last space go "
                      "to it"),
    Field("coins", TRACK_LEN, doc="coins of each pot space"),
    Field("vp", TRACK_LEN, doc="VP of each pot space"),
    Field("ruby", TRACK_LEN, doc="1 if the space shows a ruby"),
    Field("price", 20, doc="price of each chip type with this ruleset's books (-1 not sold)"),
    Field("book_round", 9, doc="first round a colour's book is out"),
    spare(1),
    *per_card("card_order", 32, doc="a fixed deck order (card numbers)"),
    Field("tube_glass", 13, doc="the bonus of glass 0..12 (TUBE_* codes)"),
    spare(1),
    Field("witches", doc="1: the herb witches are in the game"),
    Field("penny_vp", doc="VP for each witch penny still held at the end"),
    Field("witch_fixed", 3, doc="the witch of each group fixed by the ruleset (0: one at random)"),
    Field("card_force", doc="the card forced into a round of every game (cards.force; 0 none)"),
    Field("card_force_round", doc="its round (cards.force_round; 0: each game draws one from "
                                  "its own stream, sim.kernel.cards.deck.forced_round)"),
    Field("witch_extra", 3, doc="a rules file's witch dealt with each group's shipped ones "
                                "(witches.extra; 0: none)"),
], width_name="R_WIDTH")

for _table in (PLAYER, GAME, RULES):
    globals().update(_table.constants())
globals().update(EVENT_CONSTANTS)
EV_WIDTH = len(EVENT_ROW)

# Why brewing ended, numbered 1.. in this order (a new one at the end); their texts are
# sim.api.event_table.STOP_NAMES
STOP_REASONS = ("STOP_CHOICE", "STOP_EMPTY", "STOP_TRACK", "STOP_EXPLODED", "STOP_SCRIPT")
globals().update(numbered(list(STOP_REASONS)))

# Test-tube glass bonus codes: a chip type (0..19), TUBE_RUBY + n rubies, TUBE_VP + n VP.
TUBE_GLASSES = 12
TUBE_RUBY = 1000
TUBE_VP = 2000

INFO_INDEPENDENT, INFO_SYNCHRONIZED, INFO_SEQUENTIAL = 0, 1, 2

SPEND_DROPLET, SPEND_FLASK = 1, 2
