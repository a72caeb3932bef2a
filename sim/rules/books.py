"""The ingredient books, as data: Sets 1-4 (base game) and 5-6 (Herb Witches) for green, blue,
red, yellow and purple, the orange books (base, and the Herb Witches one with the 6-chip), the
base black book (a 2-player and a 3-4-player side), black Sets 5 and 6, and the two locoweed
books.

Timing (component-data.md section 7): ``draw`` resolves when the chip is drawn and placed, ``B``
in evaluation step B after everyone stopped, ``passive`` is a rule for the rest of the round, and
``draw, after stop`` is drawn during brewing but decided after stopping. Prices are not copied
here: they are read from the base ruleset's ``[prices.setN]`` tables (``base.toml``). The timing,
text and ``choices`` (the decisions an effect leaves to the player, a strategy) of a book with an
effect are its module's declaration (``BOOK = book(...)`` in ``sim/kernel/books/``, read as
text); the orange books and the base black book's two sides are written here. Every text is a
short paraphrase in our own words, with the simulator's settled readings (decisions.md) folded
in.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from sim.rules import chips
from sim.rules.book_files import USER_BOOKS, books_text, script_keys, shipped_books, state_keys
from sim.rules.book_numbers import QUESTION_IDS, QUESTIONS
from sim.rules.declare import USER_QUESTION_NUMBERS

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

def _declared() -> dict[tuple[str, int], tuple[str, str, tuple[str, ...]]]:
    """(colour, set) -> (timing, effect, choices) of every shipped book with an effect, from its
    module's declaration (``BOOK = book(...)`` in ``sim/kernel/books/<colour>_<set>.py``, read
    without importing the kernel)."""
    return {(b.decl.colour, b.decl.set): (b.decl.timing, b.decl.doc, b.decl.choices)
            for b in shipped_books()}


_ORANGE = (NONE, "No action: a pumpkin only fills spaces. The same book in every set.", ())
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
    ``sim.kernel.books``, declaring it). The base black book is set 1 (for Sets 1-4); orange 5
    and 6 are the Herb Witches pumpkin book (the orange 6-chip)."""
    out: dict[str, set[int]] = {}
    for colour, set_ in _declared():
        out.setdefault(colour, set()).add(set_)
    out["orange"] = set(ORANGE_SETS)
    for b in USER_BOOKS:  # a user's book (a rules file), once loaded
        out.setdefault(b.decl.colour, set()).add(b.decl.set)
    return out


# Round-file keys (``quacks round``) of the books: key -> (kind, the books it serves and what it
# holds). ``SCRIPTED`` keys answer a book's choices in the round (also in a game file's script);
# ``STATE`` keys set what a book left from an earlier round. Parsed in ``sim.api.round_script``
# and ``sim.api.round_file``, whose ``PLAYER_KEYS`` and ``SCRIPT_KEYS`` are built from this. The
# base game's chip decisions (each a strategy slot) are written here; every other key is declared
# with its book (``script_key``, ``state_key``, ``round_file_keys``).
SCRIPTED, STATE = "scripted", "state"
_BASE_KEYS: dict[str, tuple[str, str]] = {
    "red": (SCRIPTED, "red Sets 1, 3, 5: take each red chip's extra distance"),
    "extra": (SCRIPTED, "red Set 4, yellow Sets 2, 4, 5: take each other extra distance, in order"),
    "blue": (SCRIPTED, "blue Set 1: the chip placed of those a blue chip looks at"),
    "yellow": (SCRIPTED, "yellow Set 1: put the white before the yellow chip back"),
    "purple": (SCRIPTED, "purple Sets 1, 2: the tier"),
}


def round_file_keys() -> dict[str, tuple[str, str]]:
    """Every book's round-file key (``ROUND_FILE_KEYS``), with those the user's books loaded
    declare."""
    state = {key: (STATE, f"{books_text([(s.decl, k) for s, k in users])}: {users[0][1].doc}")
             for key, users in state_keys().items()}
    declared = {key: (SCRIPTED, f"{books_text(users)}: {users[0][1].doc}")
                for key, users in script_keys().items()}
    return {**_BASE_KEYS, **state, **declared}


ROUND_FILE_KEYS = round_file_keys()  # the shipped books'


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
    effects = _declared()
    out = [Book(c, s, None, INGREDIENT[c], timing, _prices(tables, c, s), text, choices)
           for c in COLOURED for s in SETS for timing, text, choices in [effects[(c, s)]]]
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
    for colour in ("black", "locoweed"):  # black Sets 5, 6 (Herb Witches), the locoweed books
        for (c, set_), (timing, text, choices) in effects.items():
            if c == colour and set_ > 1:
                out.append(Book(colour, set_, None, INGREDIENT[colour], timing,
                                _prices(tables, colour, set_), text, choices))
    return tuple(out)


def book_questions() -> tuple[BookQuestion, ...]:
    """Every book question: the shipped books' (``BOOK_QUESTIONS``), then those of the user's
    books loaded (rules files), numbered in load order."""
    return BOOK_QUESTIONS + tuple(
        BookQuestion(USER_QUESTION_NUMBERS[q[0]], q[0], b.decl.colour, b.decl.set, q[1], q[2])
        for b in USER_BOOKS for q in b.decl.questions)
