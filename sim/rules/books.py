"""The ingredient books, as data: Sets 1-4 (base game) and 5-6 (Herb Witches) for green, blue,
red, yellow and purple, the orange books (base, and the Herb Witches one with the 6-chip), the
base black book (a 2-player and a 3-4-player side), black Sets 5 and 6, and the two locoweed
books.

Timing (component-data.md section 7): ``draw`` resolves when the chip is drawn and placed, ``B``
in evaluation step B after everyone stopped, ``passive`` is a rule for the rest of the round, and
``draw, after stop`` is drawn during brewing but decided after stopping. Prices are not copied
here: they are read from the base ruleset's ``[prices.setN]`` tables (``base.toml``). Every text
is a short paraphrase in our own words, with the simulator's settled readings (decisions.md)
folded in; ``choices`` names the decisions an effect leaves to the player (a strategy).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from sim.rules import chips
from sim.rules.book_files import USER_BOOKS
from sim.rules.book_numbers import QUESTION_IDS, QUESTIONS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# The prices are read from the base ruleset's file itself, not through sim.rules.ruleset: the
# ruleset schema derives the sets it accepts from the declarations here (no import cycle).
BASE_RULESET = Path(__file__).parent / "rulesets" / "base.toml"

DRAW, B, PASSIVE, AFTER_STOP, NONE = "draw", "B", "passive", "draw, after stop", "none"
SETS = (1, 2, 3, 4, 5, 6)
COLOURED = ("green", "blue", "red", "yellow", "purple")


@dataclass(frozen=True)
class Book:
    """One ingredient book (or one side of the black book) and its chip prices (chip -> coins)."""

    colour: str
    set: int | None  # None: orange and black have one book for every set
    side: str | None  # the black book: "2 players" or "3-4 players"
    ingredient: str
    timing: str
    prices: tuple[tuple[str, int], ...]
    text: str
    choices: tuple[str, ...] = ()

    @property
    def module(self) -> str | None:
        """The kernel module of its effect, ``sim.kernel.books.<module>`` (None: no effect). Both
        sides of the base black book are ``black_1``."""
        return None if self.timing == NONE else f"{self.colour}_{self.set or 1}"

    @property
    def price_text(self) -> str:
        """The prices of the 1-, 2- and 4-chip as the books print them: ``4/8/14``."""
        return "/".join(str(p) for _, p in self.prices)

    def as_json(self) -> dict:
        return {"colour": self.colour, "set": self.set, "side": self.side,
                "ingredient": self.ingredient, "timing": self.timing, "prices": dict(self.prices),
                "text": self.text, "choices": list(self.choices),
                "implemented": (self.set or 1) in implemented_sets().get(self.colour, set())}


INGREDIENT = {"orange": "pumpkin", "green": "garden spider", "blue": "crow skull",
              "red": "toadstool", "yellow": "mandrake", "purple": "ghost's breath",
              "black": "hawkmoth", "locoweed": "locoweed"}

# (colour, set) -> (timing, effect, choices)
_EFFECTS: dict[tuple[str, int], tuple[str, str, tuple[str, ...]]] = {
    ("green", 1): (B, "1 ruby for each green chip that is the last or next-to-last chip in the "
                      "pot, whatever its value.", ()),
    ("green", 2): (B, "Each green chip last or next-to-last earns a free chip into the bag: "
                      "green 1 an orange 1; green 2 a blue 1 or red 1; green 4 a yellow 1 or "
                      "purple 1 (only once that book is out).",
                   ("which chip to take (or none)",)),
    ("green", 3): (B, "If the white chips total exactly the explosion limit (7, before any raise), "
                      "the last chip moves on by the sum of all green values in the pot; after "
                      "the bonus die, so it changes the scoring space only.", ()),
    ("green", 4): (B, "For each green chip last or next-to-last, the player may pay 1 ruby to move "
                      "the droplet 1 space.",
                   ("pay a ruby or not, per green chip",)),
    ("blue", 1): (DRAW, "Look at as many chips as the blue value (1/2/4); one of them may be "
                        "placed next (its action resolves, a white may explode), the rest go back.",
                  ("which chip to place, or none",)),
    ("blue", 2): (DRAW, "If the pot explodes within the next 1/2/4 chips drawn, the player still "
                        "gets both VP and coins (no bonus die). Windows never add up: the longer "
                        "remaining one counts.", ()),
    ("blue", 3): (DRAW, "A blue chip landing on a ruby space earns 1 ruby at once, whatever its "
                        "value.", ()),
    ("blue", 4): (DRAW, "A blue chip landing on a ruby space scores its value (1/2/4) in VP at "
                        "once.", ()),
    ("red", 1): (DRAW, "With 1-2 orange chips already in the pot the red chip moves 1 extra space, "
                       "with 3 or more 2 extra.",
                 ("take or decline the extra distance",)),
    ("red", 2): (AFTER_STOP, "Set beside the pot when drawn. After stopping (or exploding) each "
                             "one is placed after the last chip (moving its value; into the "
                             "overflow bowl past the last space), kept for a later round, or "
                             "returned to the bag. A Second Chance's restart puts the chips set "
                             "aside in the abandoned potion back into the bag.",
                 ("per red chip: place, keep or return",)),
    ("red", 3): (DRAW, "If the chip placed right before it is white, the red chip moves its own "
                       "value plus that white's value.",
                 ("take or decline the extra distance",)),
    ("red", 4): (PASSIVE, "Once a red chip is in the pot, every white 1-chip drawn after it moves "
                          "2 spaces (it still counts 1 towards the limit); more reds add nothing.",
                 ("take or decline the extra space, per white 1-chip",)),
    ("yellow", 1): (DRAW, "Drawn right after a white chip, the yellow may send that white back to "
                          "the bag; the white's space stays empty and the white total drops.",
                    ("return the white or not",)),
    ("yellow", 2): (DRAW, "The next chip placed moves twice as far (its value plus any extra from "
                          "its own book), whatever the yellow's value.",
                    ("take or decline the doubling, when the next chip is placed",)),
    ("yellow", 3): (PASSIVE, "The explosion limit rises by 1 after the round's first yellow and by "
                             "2 after its third; with Living in Luxury the larger raise counts.",
                    ()),
    ("yellow", 4): (DRAW, "The round's 1st, 2nd and 3rd yellow chips move 1, 2 and 3 extra spaces; "
                          "later ones nothing extra.",
                    ("take or decline the extra distance",)),
    ("purple", 1): (B, "Purple chips in the pot: 1 gives 1 VP; 2 give 1 VP and 1 ruby; 3 or more "
                       "give 2 VP and droplet +1. One tier only.",
                    ("a lower tier (or none) is allowed",)),
    ("purple", 2): (B, "Purple chips may go back to the supply for one trade: 1 for a black 1, "
                       "1 VP, 1 ruby; 2 for a green 1, blue 2, 3 VP, droplet +1; 3 for a yellow 4, "
                       "6 VP, 1 ruby, droplet +2.",
                    ("which trade (or none)",)),
    ("purple", 3): (B, "Each purple chip scores by the printed coin number of its space: 0-9 none, "
                       "10-19 1 VP, 20-29 2 VP, 30 or more 3 VP.", ()),
    ("green", 5): (B, "For each green chip last or next-to-last, the player may pick a chip in the "
                      "pot worth no more than that green (locoweed counts 1); next round it is "
                      "placed first, before any draw, with its action (two: in the order picked; "
                      "again in a potion A Second Chance restarts).",
                   ("which chip to place first next round (or none)",)),
    ("green", 6): (B, "For each green chip last or next-to-last, the player rolls the bonus die "
                      "once (twice with The Pot is Full).", ()),
    ("blue", 5): (DRAW, "With at least as many orange chips in the pot as the blue chip's "
                        "value (an orange 6 counts as one chip), the blue scores its value in VP "
                        "at once.",
                  ()),
    ("blue", 6): (DRAW, "The blue chip looks at the chips placed just before it, as many as its "
                        "value: 1 ruby for each white 1-chip among them.", ()),
    ("red", 5): (DRAW, "With a red chip of a higher value already in the pot, the red chip moves "
                       "that higher value instead of its own.",
                 ("take or decline the higher value",)),
    ("red", 6): (DRAW, "After the red chip, one more chip is drawn and set beside the pot; it must "
                       "be placed this round: at once or before any later draw (with its action), "
                       "or when the potion ends (then placed like a drawn chip, with its book's "
                       "distance and the card's bonuses but no action, into the overflow bowl "
                       "past the last space; a white still counts towards the explosion, even "
                       "after one).",
                 ("place the chip drawn at once, or hold it",
                  "before each later draw: place a held chip now, or keep holding it")),
    ("yellow", 5): (DRAW, "After the yellow chip, one more chip is drawn: the yellow moves on by "
                          "its value (locoweed 1) and the chip goes back to the bag, with no "
                          "effect.",
                    ("take or decline the move on",)),
    ("yellow", 6): (DRAW, "The player may pay 1 ruby to move the yellow chip 3 spaces further "
                          "(one ruby per yellow chip).",
                    ("pay a ruby or not, per yellow chip",)),
    ("purple", 5): (B, "The VP printed on the spaces holding purple chips add up to coins, spent "
                       "at once on up to 2 chips of different colours (never added to the shop's "
                       "coins); in the last round they buy VP, 5 coins each.",
                    ("which chips to buy",)),
    ("purple", 6): (B, "Each purple chip scores VP equal to the printed value of the chip placed "
                       "right after it (locoweed 1).", ()),
    ("purple", 4): (B, "Purple chips in the pot: 1 upgrades a 1-chip to a 2-chip of its colour, 2 "
                       "a 2-chip to a 4-chip, 3 or more a 1-chip to a 4-chip (new chip into the "
                       "bag, old to supply).",
                    ("which chip to upgrade; a lower tier (or none) is allowed",)),
}

_ORANGE = (NONE, "No action: a pumpkin only fills spaces. The same book in every set.", ())
_BLACK_HW = {
    5: (B, "Herb Witches (any player count): a black chip bought, or given by a card, goes into "
           "the left neighbour's bag and the buyer's droplet moves 1; at B, 1 ruby per black chip "
           "in the left neighbour's pot and per own black chip last or next-to-last.", ()),
    6: (B, "Herb Witches (any player count): the furthest black chip of all pots moves its owner's "
           "droplet 1, the second furthest gives its owner 1 ruby; ties all receive; one player "
           "may get both.", ()),
}
_LOCOWEED = {
    5: (DRAW, "A locoweed moves the spaces the rat stone moved this round (cards included) + 1, "
              "at most 4 (the cap applies last, after a yellow Set 2 doubling).", ()),
    6: (DRAW, "A locoweed moves as the last coloured (non-white) chip in the pot and takes its "
              "on-draw action; with none, 1 space and no action. It counts as a locoweed for "
              "everything else.", ()),
}
_BLACK = {
    "2 players": (B, "As many black chips as the opponent: droplet +1; more: droplet +1 and 1 "
                     "ruby. A player who brewed no black chip gets nothing.", ()),
    "3-4 players": (B, "More black chips than one neighbour: droplet +1; more than both: droplet "
                       "+1 and 1 ruby. Also used with 5 players.", ()),
}


ORANGE_SETS = (1, 5, 6)  # books.orange: 1 the base pumpkin book, 5 and 6 the Herb Witches one


def implemented_sets() -> dict[str, set[int]]:
    """The sets a ruleset may choose per colour (``books.<colour> = n``), derived from the
    declarations above: a book is declared here once the kernel implements it (its module in
    ``sim.kernel.books`` and its lines in the hook table). The base black book is set 1 (for
    Sets 1-4); orange 5 and 6 are the Herb Witches pumpkin book (the orange 6-chip)."""
    out: dict[str, set[int]] = {}
    for colour, set_ in _EFFECTS:
        out.setdefault(colour, set()).add(set_)
    out["orange"] = set(ORANGE_SETS)
    out["black"] = {1, *_BLACK_HW}
    out["locoweed"] = set(_LOCOWEED)
    for b in USER_BOOKS:  # a user's book (a rules file), once loaded
        out.setdefault(b.decl.colour, set()).add(b.decl.set)
    return out


# Round-file keys (``quacks round``) of the books: key -> (kind, the books it serves and what it
# holds). ``SCRIPTED`` keys answer a book's choices in the round (also in a game file's script);
# ``STATE`` keys set what a book left from an earlier round. Parsed in ``sim.api.round_script``
# and ``sim.api.round_file``, whose ``PLAYER_KEYS`` and ``SCRIPT_KEYS`` are built from this.
SCRIPTED, STATE = "scripted", "state"
ROUND_FILE_KEYS: dict[str, tuple[str, str]] = {
    "red": (SCRIPTED, "red Sets 1, 3, 5: take each red chip's extra distance"),
    "extra": (SCRIPTED, "red Set 4, yellow Sets 2, 4, 5: take each other extra distance, in order"),
    "blue": (SCRIPTED, "blue Set 1: the chip placed of those a blue chip looks at"),
    "yellow": (SCRIPTED, "yellow Set 1: put the white before the yellow chip back"),
    "purple": (SCRIPTED, "purple Sets 1, 2: the tier"),
    "red_after": (SCRIPTED, "red Set 2: place, keep or return each chip beside the pot"),
    "green": (SCRIPTED, "green Sets 2, 4, 5: one answer per green chip last or next-to-last"),
    "upgrade": (SCRIPTED, "purple Set 4: the chip upgraded and its upgrade"),
    "red_hold": (SCRIPTED, "red Set 6: place the chip drawn after a red chip at once"),
    "red_place": (SCRIPTED, "red Set 6: the held chip placed before each draw"),
    "yellow_ruby": (SCRIPTED, "yellow Set 6: pay a ruby for 3 more spaces"),
    "purple_buy": (SCRIPTED, "purple Set 5: the chips bought at B"),
    "beside": (STATE, "red Set 2: red chips kept beside the pot from earlier rounds"),
    "first": (STATE, "green Set 5: chips picked last round, placed first"),
}


@dataclass(frozen=True)
class BookQuestion:
    """A decision a book leaves to the player: its number (the ``a`` a strategy's book slot gets,
    ``sim.kernel.decisions.slots.Q_*``), id, book, the argument ``b`` and the answer expected."""

    number: int
    id: str
    colour: str
    set: int
    argument: str
    answer: str


# id: (the argument b, the answer expected), in the order of sim.rules.book_numbers.QUESTIONS
# (their numbers; checked below)
_QUESTION_TEXTS = {
    "green-chip": ("the green chip's value", "chip type to take, -1 none"),
    "green-ruby": ("", "1 = pay a ruby for droplet +1"),
    "red-after": ("red chip type", "0 place it, 1 keep it aside, 2 return it"),
    "purple-trade": ("purple chips in the pot", "tier 0..3"),
    "purple-upgrade": ("purple chips", "tier * 32 + chip type in the pot, -1 none"),
    "green-first": ("the green chip's value", "chip type in the pot, -1 none"),
    "red-hold": ("the chip drawn after the red", "1 place it now, 0 at the end"),
    "yellow-ruby": ("yellow chip type", "1 pay a ruby for 3 more spaces"),
    "red-place": ("chips held (HOLD_T), asked before each draw while chips are held",
                  "index of the held chip placed now, with its action, -1 none (held to the end)"),
}
if tuple(_QUESTION_TEXTS) != QUESTION_IDS:
    raise ValueError("sim.rules.books: one text per book question, in the order of QUESTIONS")
BOOK_QUESTIONS: tuple[BookQuestion, ...] = tuple(
    BookQuestion(number, *q, *_QUESTION_TEXTS[q[0]]) for number, q in enumerate(QUESTIONS, 1))


def _prices(price_tables: dict, colour: str, set_: int) -> tuple[tuple[str, int], ...]:
    """(chip, price) for the chips of a colour in the base ruleset's ``[prices.set<set_>]``."""
    letter = chips.COLOUR_LETTERS[chips.COLOUR_NAMES.index(colour)]
    table = price_tables[f"set{set_}"]
    return tuple((k, table[k]) for k in (chips.chip_name(t) for t in range(chips.N_TYPES))
                 if k[0] == letter and k in table)


def books() -> tuple[Book, ...]:
    """Every book: the five coloured books in Sets 1-6, then orange (the base book and the Herb
    Witches one), the two black sides, black Sets 5 and 6 and the locoweed books, then a user's
    books (rules files: ``sim.rules.book_files``), in load order.
    Orange and black cost the same in Sets 1-4; their prices come from ``[prices.set1]``."""
    tables = _price_tables()
    return _shipped_books() + tuple(
        Book(b.decl.colour, b.decl.set, None, INGREDIENT[b.decl.colour], b.decl.timing,
             _prices(tables, b.decl.colour, b.decl.prices), b.decl.doc) for b in USER_BOOKS)


@lru_cache(maxsize=1)
def _price_tables() -> dict:
    return tomllib.loads(BASE_RULESET.read_text(encoding="utf-8"))["prices"]


@lru_cache(maxsize=1)
def _shipped_books() -> tuple[Book, ...]:
    tables = _price_tables()
    out = [Book(c, s, None, INGREDIENT[c], timing, _prices(tables, c, s), text, choices)
           for c in COLOURED for s in SETS for timing, text, choices in [_EFFECTS[(c, s)]]]
    timing, text, choices = _ORANGE
    out.append(Book("orange", None, None, INGREDIENT["orange"], timing,
                    _prices(tables, "orange", 1), text, choices))
    out.append(Book("orange", 5, None, INGREDIENT["orange"], NONE, _prices(tables, "orange", 5),
                    "Herb Witches pumpkin book (books.orange = 5, the herb-witches default): the "
                    "orange 1- and the orange 6-chip, no action; no book, witch or card upgrades "
                    "an orange chip.", ()))
    for side, (timing, text, choices) in _BLACK.items():
        out.append(Book("black", None, side, INGREDIENT["black"], timing,
                        _prices(tables, "black", 1), text, choices))
    for set_, (timing, text, choices) in _BLACK_HW.items():
        out.append(Book("black", set_, None, INGREDIENT["black"], timing,
                        _prices(tables, "black", set_), text, choices))
    for set_, (timing, text, choices) in _LOCOWEED.items():
        out.append(Book("locoweed", set_, None, INGREDIENT["locoweed"], timing,
                        _prices(tables, "locoweed", set_), text, choices))
    return tuple(out)
