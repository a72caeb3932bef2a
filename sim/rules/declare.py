"""How a rule declares itself: the one declaration a fortune-teller card's module makes (shipped
in ``sim/kernel/cards/`` or in a user's rules file, ``--rules-file``), and the hook points a card
may use.

A card is one Python module. At its top it declares what every layer needs to know of it::

    from sim.rules.declare import BLUE, card

    CARD = card(28, "lucky-find", BLUE, name="Lucky Find",
                doc="Each player's first white chip ... ")

(``number``: the kernel's number, a contract for the shipped cards, 1-27; a user's card leaves it
out and is numbered after every shipped card, in the order the files are loaded). Below, plain
functions named after the hook points it uses (``CARD_HOOK_POINTS``), compiled by Numba, and
``default(P, s, arg, G, R)``, the built-in answer to its choice if it asks one; helpers' names
start with ``_``. The hook dispatch (``sim.kernel.cards.hooks``) is generated from these: a hook
point calls a card's function with the arguments the function names (a subset of the hook
point's own ``params``), when the round's card is that card.

The declaration is read without importing the module (``sim.rules.cards`` evaluates the
``CARD = card(...)`` statement with the module's ``sim.rules`` imports), so the rules and api
layers know every card without importing the kernel. ``doc=`` is the card's text (what ``quacks
rules`` shows): documentation, left out of the compiled code's cache stamp, so editing a text
recompiles nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.rules.event_declare import (  # noqa: F401 - rules files import event from here
    EVENTS_PER_RULE,
    EventDeclaration,
    checked_events,
    event,
)
from sim.rules.hook_points import USER_NUMBER, HookPoint, rule_text  # noqa: F401 - re-exported
from sim.rules.hook_points import hook_params as _p
from sim.rules.witch_declare import (  # noqa: F401 - rules files import a witch's from here
    SCRIPT_BOUGHT,
    SCRIPT_CALL,
    SCRIPT_FORMS,
    SCRIPT_POT_ENTRY,
    SCRIPT_SIX,
    SCRIPT_WHITES,
    USER_WITCH_NUMBERS,
    WITCH_GROUPS,
    WITCH_HOOK_POINTS,
    WITCH_HOOKS,
    WITCH_SPECIAL_FUNCTIONS,
    WitchDeclaration,
    witch,
)

PURPLE, BLUE = "purple", "blue"  # resolved once before the round / a rule for the round or its end
TIMINGS = (PURPLE, BLUE)
HERB_WITCHES = "herb-witches"  # in the deck only with witches.enabled
# the numbers given to the user's cards as their files are loaded (id -> number), so that a rules
# file's ``CARD.number`` is its number when the kernel imports it
USER_NUMBERS: dict[str, int] = {}
TAKE_OTHER = 99  # a card's answer: the other option (rubies, VP), see the kernel's card modules


@dataclass(frozen=True)
class CardDeclaration:
    """What a card's module declares of it (see the module docstring)."""

    number: int
    id: str
    timing: str
    name: str
    doc: str
    needs: str = ""  # HERB_WITCHES: in the deck only with the witches
    words: tuple = ()  # (word, answer): what a round file's card_choice may say for its choice
    draws_after: bool = False  # a round file's card_draws follow the potion's draws (else precede)
    puts_back: str = ""  # "white" / "any": chips it may put back into the bag during a potion
    events: tuple = ()  # its own events (``event(...)``, sim.rules.event_declare)


def card(number: int, id: str, timing: str, *, name: str, doc: str, needs: str = "",
         words: tuple = (), draws_after: bool = False, puts_back: str = "",
         events: tuple = ()) -> CardDeclaration:
    """A card's declaration (``number``: ``USER_NUMBER`` in a user's file); ValueError (one line)
    for a value that cannot be right."""
    if not isinstance(id, str) or not id or id != id.lower() or " " in id:
        raise ValueError(f"card id {id!r}: lower case words joined by '-'")
    if timing not in TIMINGS:
        raise ValueError(f"card '{id}': timing {timing!r}, expected one of {', '.join(TIMINGS)}")
    if needs not in ("", HERB_WITCHES):
        raise ValueError(f"card '{id}': needs {needs!r}, expected '' or '{HERB_WITCHES}'")
    if puts_back not in ("", "white", "any"):
        raise ValueError(f"card '{id}': puts_back {puts_back!r}, expected '', 'white' or 'any'")
    if not isinstance(number, int) or number < 0:
        raise ValueError(f"card '{id}': number {number!r}")
    words = tuple((str(w), int(a)) for w, a in words)
    number = number or USER_NUMBERS.get(id, USER_NUMBER)
    return CardDeclaration(number, id, timing, str(name), str(doc), needs, words,
                           bool(draws_after), puts_back, checked_events(f"card '{id}'", events))


_ROUND = "P G R supply die DS FD SK SP SC rng E UF"
_SEAT = "P s G R SK SP SC rng E UF"

# in the order of a round
CARD_HOOK_POINTS: tuple[HookPoint, ...] = (
    HookPoint("before_round", _p(_ROUND), doc="the card just turned up, before the rats (Visit "
              "from a Witch)"),
    HookPoint("purple_first", _p("P G"), "0", doc="purple, before any seat: a value every seat's "
              "part reads as `first` (Charity: the fewest rubies)"),
    HookPoint("purple_seat", _p("P s first " + _ROUND[2:]), doc="purple, each seat in "
              "start-player order (Just in Time)"),
    HookPoint("purple_last", _p(_ROUND), doc="purple, after every seat (Less is More)"),
    HookPoint("rat_tails", _p("P s tails_n G R supply SK SP SC rng E UF"), "tails_n",
              doc="the rat tails seat s gets, given the printed ones (A Good Start)"),
    HookPoint("potion_setup", _p("P s G E"), draw_time=True, doc="a seat's potion starts, its "
              "pot empty (Living in Luxury)"),
    HookPoint("free_draws", _p("P s G"), "False", draw_time=True, per_chip=True,
              doc="True while a chip placed now carries no risk (A Second Chance)"),
    HookPoint("placed_move", _p("c G"), "0", draw_time=True, per_chip=True,
              doc="extra spaces of a placed chip of colour c (orange, green, blue, black, "
              "purple: Pumpkin Patch Party)"),
    HookPoint("after_placed", _p("P s t G R SK SP SC rng E UF"), draw_time=True, per_chip=True,
              doc="drawn chip t placed, pot intact, before the flask (Well Stirred)"),
    HookPoint("after_chip", _p(_SEAT), "False", draw_time=True, per_chip=True,
              doc="after the chip and the flask; True starts the potion again (A Second "
              "Chance)"),
    HookPoint("exploded", _p(_SEAT), "False", draw_time=True, doc="the pot exploded; True "
              "starts the potion again (A Second Chance)"),
    HookPoint("after_brewing", _p("P G R supply FD SK SP SC rng E UF"), doc="every potion has "
              "ended (Strong Ingredient)"),
    HookPoint("die_rolls", _p("G"), "1", doc="bonus-die rolls instead of one (The Pot is Full)"),
    HookPoint("ruby_space_rubies", _p("G"), "1", doc="step C: rubies of a ruby space (It's "
              "Shining Extra Bright)"),
    HookPoint("after_ruby_space", _p("P s G E"), doc="step C, after seat s took a ruby space's "
              "rubies (Lucky Devil)"),
    HookPoint("buy_coins", _p("P s cn G R supply SK SP SC rng E UF"), "cn", doc="step E, "
              "before seat s buys: the coins cn it may spend (after the witches)"),
    HookPoint("end_of_round", _p("P G R SK SP SC rng E UF"), doc="after step F (Magic Potion)"),
)
CARD_HOOKS: dict[str, HookPoint] = {h.name: h for h in CARD_HOOK_POINTS}
# a card module's other public names: its choice's built-in answer
CARD_SPECIAL_FUNCTIONS = ("default",)


# --- ingredient books: a colour's effect for a new set number ------------------------------------

# when its effect acts: a chip of its colour placed / evaluation B / a rule for the round / drawn
# during brewing, decided after stopping
BOOK_TIMINGS = ("draw", "B", "passive", "draw, after stop")
BOOK_COLOUR_NAMES = ("orange", "green", "blue", "red", "yellow", "purple", "black", "locoweed")
FIRST_USER_SET = 7  # the shipped books are Sets 1-6: a user's book is Set 7 or later
BOOK_SETS = 32  # a colour's books are Sets 1 to BOOK_SETS - 1 (each has its own event codes)
# the numbers given to the user's books' questions as their files are loaded (id -> number, after
# the shipped books' ``sim.rules.book_numbers.QUESTIONS``), so that ``BOOK.question(id)`` is its
# number when the kernel imports the file
USER_QUESTION_NUMBERS: dict[str, int] = {}
# the chip colours a book's per-chip hook points may see (white has no book, but red Set 4 acts
# on white chips)
CHIP_COLOUR_NAMES = ("white", *BOOK_COLOUR_NAMES)


# A book's round-file keys (``quacks round``, a game file's script): ``book(..., script=(
# script_key(...), ...))``. The api reads each key's value in its form and keeps it in the book's
# part of the scripted decisions (``SC``: each colour's book has ``BOOK_SCRIPT_WIDTH`` slots, one
# book of a colour plays), the keys one after the other in declaration order; the book's
# ``scripted`` function reads them back (``sim.kernel.decisions.slots.script_slot``).
# Forms: a list of the declared ``words`` (each kept as its index); a list of one chip or "none"
# (-1) each, true/false too with ``bools``; a list of true/false kept as bits; bag notation; "none"
# or a chip and its upgrade ("r1>r2"), its ``words`` the "from>to" values and their tier.
SCRIPT_WORDS, SCRIPT_CHIPS, SCRIPT_BITS, SCRIPT_BAG, SCRIPT_UPGRADE = (
    "words", "chips", "bits", "bag", "upgrade")
BOOK_SCRIPT_FORMS = (SCRIPT_WORDS, SCRIPT_CHIPS, SCRIPT_BITS, SCRIPT_BAG, SCRIPT_UPGRADE)
BOOK_SCRIPT_WIDTH = 12  # SC slots of one colour's book
NOT_SCRIPTED = -2  # an upgrade key the round file does not give
MAX_BITS = 16  # a bits key's list holds at most this many answers


@dataclass(frozen=True)
class ScriptKey:
    """One round-file key of a book: its name, its form (``BOOK_SCRIPT_FORMS``), the most
    entries it takes, what its entries stand for (``doc``, in messages) and the words of its
    form."""

    key: str
    form: str
    most: int = 1
    doc: str = ""
    words: tuple = ()
    bools: bool = False

    @property
    def shape(self) -> tuple:
        """How its value is read (form, most entries, words): the same for every book declaring
        the key."""
        return self.form, self.most, self.words, self.bools

    @property
    def size(self) -> int:
        """Its SC slots: a count and the entries (a list), a count and the bits, or one value."""
        return {SCRIPT_BITS: 2, SCRIPT_UPGRADE: 1}.get(self.form, 1 + self.most)


def script_key(key: str, form: str, most: int = 1, *, doc: str, words: tuple = (),
               bools: bool = False) -> ScriptKey:
    """A book's round-file key (see ``BOOK_SCRIPT_FORMS``); ValueError (one line) for a value
    that cannot be right."""
    if not isinstance(key, str) or not key or key != key.lower() or " " in key:
        raise ValueError(f"round-file key {key!r}: lower case words joined by '_'")
    if form not in BOOK_SCRIPT_FORMS:
        raise ValueError(f"round-file key '{key}': form {form!r}, expected one of "
                         f"{', '.join(BOOK_SCRIPT_FORMS)}")
    top = MAX_BITS if form == SCRIPT_BITS else BOOK_SCRIPT_WIDTH - 1  # bits: one slot
    if not isinstance(most, int) or not 1 <= most <= top:
        raise ValueError(f"round-file key '{key}': most {most!r}, expected 1 to {top}")
    return ScriptKey(key, form, most, str(doc), tuple(words), bool(bools))


# A book's round-file STATE keys (``quacks round``): what the book left from an earlier round,
# ``book(..., state=(state_key(...), ...))``. The api reads each one's value in bag notation and
# hands the chips to the book module's plain-Python ``read_state(P, s, key, chips, bag)`` (its
# error message, or None), after the seat's bag is in ``P``; ``write_state(P, s)`` gives the keys
# the round's output shows for the seat (a dict, empty for none). ``potion=True``: ``quacks potion
# --draws`` shows the key too, what the book left after the potion ("" when nothing), by the same
# ``write_state``.
@dataclass(frozen=True)
class StateKey:
    """One round-file state key of a book: its name, what it holds (``doc``) and whether a
    single potion's output shows it (``potion``)."""

    key: str
    doc: str = ""
    potion: bool = False


def state_key(key: str, *, doc: str, potion: bool = False) -> StateKey:
    """A book's round-file state key (read in bag notation by its ``read_state``); ValueError
    (one line) for a name that cannot be right."""
    if not isinstance(key, str) or not key or key != key.lower() or " " in key:
        raise ValueError(f"round-file key {key!r}: lower case words joined by '_'")
    return StateKey(key, str(doc), bool(potion))


@dataclass(frozen=True)
class BookDeclaration:
    """What a book's module declares of it (a shipped one in ``sim/kernel/books/``, a user's in a
    rules file): its colour, its set number (chosen by ``books.<colour> = set``; a user's is 7
    or more), its timing, name and text, the set whose prices its chips cost
    (``[prices.set<prices>]`` of the ruleset), the decisions it leaves to the player
    (``choices``, texts), the colours of the chips its per-chip hook points see (``chips``: its
    own colour when empty) and the flag hook points it raises (``flags``, ``BOOK_FLAGS``)."""

    colour: str
    set: int
    timing: str
    name: str
    doc: str
    prices: int = 1
    choices: tuple = ()
    chips: tuple = ()
    flags: tuple = ()
    questions: tuple = ()  # a user's book: (id, the argument b, the answer expected) per question
    script: tuple = ()  # its round-file keys (``script_key``)
    state: tuple = ()  # its round-file state keys (``state_key``)
    puts_back: str = ""  # "white" / "any": chips it may put back into the bag during a potion
    events: tuple = ()  # its own events (``event(...)``, sim.rules.event_declare)

    def script_at(self, key: str) -> int:
        """Where round-file key ``key`` starts in the book's part of SC (its first slot: 0)."""
        at = 0
        for k in self.script:
            if k.key == key:
                return at
            at += k.size
        raise ValueError(f"book '{self.id}': no round-file key {key!r} is declared")

    def question(self, question_id: str) -> int:
        """The number of one of a user's book's questions (the ``q`` its effect hands to
        ``book_answer``, and a strategy's book slot gets), given when its file was loaded (0
        before)."""
        if question_id not in (q[0] for q in self.questions):
            raise ValueError(f"book '{self.id}': no question {question_id!r} is declared")
        return USER_QUESTION_NUMBERS.get(question_id, 0)

    @property
    def chip_colours(self) -> tuple[str, ...]:
        """The colours of the chips its per-chip hook points are called for."""
        return self.chips or (self.colour,)

    @property
    def id(self) -> str:
        """``<colour>-<set>``: how a rules file's book is named in messages and run.json."""
        return f"{self.colour}-{self.set}"


def book(colour: str, set: int, timing: str, *, doc: str, name: str = "",  # noqa: A002
         prices: int = 1, choices: tuple = (), chips: tuple = (), flags: tuple = (),
         questions: tuple = (), script: tuple = (), state: tuple = (),
         puts_back: str = "", events: tuple = ()) -> BookDeclaration:
    """A book's declaration (see ``BOOK_HOOK_POINTS``; ``doc``: its text, or its module's
    docstring, ``doc=__doc__``, whose first paragraph is its text; ``name``: "<Colour> Set <set>"
    when left out); ValueError (one line) for a value that cannot be right. A user's book is Set
    7 or later (checked when its file is loaded: ``sim.rules.book_files.add_book``)."""
    if colour not in BOOK_COLOUR_NAMES:
        raise ValueError(f"book colour {colour!r}, expected one of {', '.join(BOOK_COLOUR_NAMES)}")
    if not isinstance(set, int) or not 1 <= set < BOOK_SETS:
        raise ValueError(f"book {colour} set {set!r}: a set number is 1 to {BOOK_SETS - 1}")
    if timing not in BOOK_TIMINGS:
        raise ValueError(f"book '{colour}-{set}': timing {timing!r}, expected one of "
                         f"{', '.join(BOOK_TIMINGS)}")
    if not isinstance(prices, int) or not 1 <= prices <= 6:
        raise ValueError(f"book '{colour}-{set}': prices {prices!r}, expected a set 1-6")
    chips = (chips,) if isinstance(chips, str) else tuple(chips)
    bad = [c for c in chips if c not in CHIP_COLOUR_NAMES]
    if bad:
        raise ValueError(f"book '{colour}-{set}': chips {bad[0]!r}, expected colours of "
                         f"{', '.join(CHIP_COLOUR_NAMES)}")
    flags = (flags,) if isinstance(flags, str) else tuple(flags)
    bad = [f for f in flags if f not in BOOK_FLAGS]
    if bad:
        raise ValueError(f"book '{colour}-{set}': flag {bad[0]!r}, expected one of "
                         f"{', '.join(BOOK_FLAGS)}")
    if any(not isinstance(q, tuple) or len(q) != 3 for q in questions):
        raise ValueError(f"book '{colour}-{set}': each question is (id, argument, answer)")
    questions = tuple(tuple(str(x) for x in q) for q in questions)
    script = tuple(script)
    if not all(isinstance(k, ScriptKey) for k in script) \
            or len({k.key for k in script}) != len(script):
        raise ValueError(f"book '{colour}-{set}': script is a tuple of script_key(...), one a key")
    if sum(k.size for k in script) > BOOK_SCRIPT_WIDTH:
        raise ValueError(f"book '{colour}-{set}': its round-file keys take more than "
                         f"{BOOK_SCRIPT_WIDTH} slots")
    state = tuple(state)
    if not all(isinstance(k, StateKey) for k in state) \
            or len({k.key for k in (*script, *state)}) != len(script) + len(state):
        raise ValueError(f"book '{colour}-{set}': state is a tuple of state_key(...), one a key "
                         "(not one of its script keys)")
    if puts_back not in ("", "white", "any"):
        raise ValueError(f"book '{colour}-{set}': puts_back {puts_back!r}, expected '', 'white' "
                         "or 'any'")
    name = name or f"{colour.capitalize()} Set {set}"
    return BookDeclaration(colour, set, timing, str(name), rule_text(str(doc)), prices,
                           tuple(str(c) for c in choices), chips, flags, questions, script, state,
                           puts_back, checked_events(f"book '{colour}-{set}'", events))


# A book's functions, named after these (called when the ruleset chose the book for its colour:
# ``R_BOOK`` of its colour holds its set; a per-chip one only for a chip of the colours it acts
# on). The generated table ``sim.kernel.books.hooks`` compiles them into the functions the
# brewing, round and evaluation code call; the shipped books use them too.
_CHIP = "P s t G R SK SP SC FD rng E UF"
BOOK_HOOK_POINTS: tuple[HookPoint, ...] = (
    HookPoint("placed", _p(_CHIP), draw_time=True, per_chip=True, colour="TYPE_COLOUR[t]",
              doc="a chip t of the book's colour was just placed, the pot intact: its action"),
    HookPoint("at_b", _p("P s G R supply die DS SK SP SC rng E UF"), doc="evaluation step B "
              "for seat s, in start-player order (after the green, purple and black hook points)"),
    # added with the shipped books as plugins (issue 46), in the order of a round
    HookPoint("bag_refilled", _p("P s R"), doc="seat s's bag was just refilled, before its "
              "potion (red Set 2: its chips kept beside the pot stay out)"),
    HookPoint("draw_protected", _p("P s R"), "False", draw_time=True,
              doc="a chip was just drawn: True when an explosion on it still scores VP and coins "
              "(blue Set 2's window over the next draws; the book counts the draw off)"),
    HookPoint("not_placed", _p("P s t G R E"), "False", draw_time=True, per_chip=True,
              colour="TYPE_COLOUR[t]", doc="True: drawn chip t is set beside the pot instead "
              "of placed (red Set 2)"),
    HookPoint("acting_type", _p("P s t G R E"), "t", draw_time=True, per_chip=True,
              colour="TYPE_COLOUR[t]", doc="the chip whose value and action drawn chip t takes "
              "(locoweed Set 6)"),
    HookPoint("chip_move", _p("P s t c G R SK SP SC rng E UF"), "NO_BOOK_MOVE", draw_time=True,
              per_chip=True, colour="c", doc="the spaces chip t (colour c) moves when placed: "
              "its value and the book's extra distance (red Sets 1, 3-5, yellow Sets 4, 6, "
              "locoweed Set 5); a card's extra (Pumpkin Patch Party) is then not added"),
    HookPoint("doubles_next", _p("P s R"), "False", draw_time=True,
              doc="a chip is being placed: True when its distance doubles (the extra may be "
              "declined; yellow Set 2: the chip after its yellow chip; the book spends it)"),
    HookPoint("doubled_move", _p("c move R"), "move", draw_time=True, per_chip=True,
              colour="c", doc="a distance just doubled (yellow Set 2), as far as the chip's book "
              "lets it go (locoweed Set 5)"),
    HookPoint("chip_action", _p(_CHIP), "ACTION_NONE, 0", draw_time=True, per_chip=True,
              colour="TYPE_COLOUR[t]", doc="as `placed`, returning (the chip placed next, its "
              "draw number): ACTION_NONE for none, ACTION_ABORT when a scripted draw failed "
              "(blue Set 1, red Set 6, yellow Set 5)"),
    HookPoint("before_draw_chip", _p("P s G R SK SP SC rng E UF"), "-1", draw_time=True,
              doc="before a draw while seat s holds chips beside the pot: the one placed now, or "
              "-1 (red Set 6)"),
    HookPoint("potion_ended", _p("P s G R SK SP SC rng E UF"), draw_time=True, doc="seat s's "
              "potion has ended (stopped or exploded), in start-player order (red Set 2)"),
    HookPoint("green_at_b", _p("P s G R supply die DS SK SP SC rng E UF"), doc="evaluation step "
              "B for seat s, in start-player order, first (the green books)"),
    HookPoint("purple_at_b", _p("P s G R supply SK SP SC rng E UF"), doc="step B, after "
              "green_at_b (the purple books)"),
    HookPoint("coins_at_b", _p("P s R"), "0", doc="step B, after purple_at_b: coins seat s buys "
              "with at once (purple Set 5)"),
    HookPoint("bought_at_b", _p("P s out R SC"), "0", doc="step B, a seat scripted by a round "
              "file: the chips it buys at once with the coins of coins_at_b, listed into out; how "
              "many (purple Set 5)"),
    HookPoint("black_at_b", _p("P s black R G E"), doc="step B, after coins_at_b; black[s]: the "
              "black chips in seat s's pot, counted before anyone gains (the black books)"),
    HookPoint("chip_bought", _p("P s t G R E"), "False", doc="True when chip t that seat s gains "
              "(bought at step E, or given by a card) goes elsewhere than its bag (black Set 5's "
              "gift); the cards call it through sim.kernel.books.gain_hooks"),
    HookPoint("potion_restarted", _p("P s R"), doc="seat s's potion is put back to be brewed "
              "again (A Second Chance), before the pot is emptied and the bag refilled: what the "
              "book keeps of the abandoned potion (red Set 2: the chips set beside the pot during "
              "it go back; green Set 5: its picks are placed first again); the cards call it "
              "through sim.kernel.books.gain_hooks"),
)
BOOK_HOOKS: dict[str, HookPoint] = {h.name: h for h in BOOK_HOOK_POINTS}
# a book module's other public names: the built-in answer to its questions, and the round file's
# answer (``scripted(P, s, q, arg, SC)``: (answered, answer), read from its script keys; the book
# asks it in place of its strategy's when the seat is scripted, ``sim.kernel.books.common.ask``),
# and the plain-Python reader and writer of its state keys (``state_key``)
BOOK_SPECIAL_FUNCTIONS = ("default", "scripted", "read_state", "write_state")
# A book's flags (``book(..., flags=(...))``): hook points that are a property of the book, true
# while the ruleset chose it
BOOK_FLAG_POINTS: tuple[HookPoint, ...] = (
    HookPoint("grants_at_b", _p("R"), "False", doc="a book at B grants chips from the supply: "
              "it is shown to the strategies before each grant (green Set 2, purple Sets 2, 4)"),
    HookPoint("buying_moves_droplet", _p("R"), "False", doc="buying may move a droplet, so it "
              "settles after each seat buys (black Set 5)"),
    HookPoint("protects", _p("R"), "False", doc="an explosion may be protected (it scores VP and "
              "coins both): a potion shows its protected outcome (blue Set 2)"),
)
BOOK_FLAGS: dict[str, HookPoint] = {h.name: h for h in BOOK_FLAG_POINTS}
