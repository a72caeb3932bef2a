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

PURPLE, BLUE = "purple", "blue"  # resolved once before the round / a rule for the round or its end
TIMINGS = (PURPLE, BLUE)
HERB_WITCHES = "herb-witches"  # in the deck only with witches.enabled
USER_NUMBER = 0  # a user's card: numbered after the shipped cards when loaded
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


def card(number: int, id: str, timing: str, *, name: str, doc: str, needs: str = "",
         words: tuple = (), draws_after: bool = False, puts_back: str = "") -> CardDeclaration:
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
                           bool(draws_after), puts_back)


@dataclass(frozen=True)
class HookPoint:
    """A point where a card can change the round: its name (a card's function of that name is
    called there), the arguments it can hand on (a card's function names a subset, in any
    order), what it returns when no card acts (a Python expression; None: nothing), and whether
    it acts while a potion is brewed (``draw_time``: such a card plays in ``quacks potion
    --card``)."""

    name: str
    params: tuple[str, ...]
    default: str | None = None
    draw_time: bool = False
    per_chip: bool = False  # on the per-chip path: the card's function should be inlined
    doc: str = ""


def _p(names: str) -> tuple[str, ...]:
    return tuple(names.split())


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

BOOK_TIMINGS = ("draw", "B")  # when its effect acts: a chip of its colour placed / evaluation B
BOOK_COLOUR_NAMES = ("orange", "green", "blue", "red", "yellow", "purple", "black", "locoweed")
FIRST_USER_SET = 7  # the shipped books are Sets 1-6: a user's book is Set 7 or later


@dataclass(frozen=True)
class BookDeclaration:
    """What a user's book module declares of it: its colour, its set number (7 or more: chosen
    by ``books.<colour> = set``), its timing, name and text, and the set whose prices its chips
    cost (``[prices.set<prices>]`` of the ruleset)."""

    colour: str
    set: int
    timing: str
    name: str
    doc: str
    prices: int = 1

    @property
    def id(self) -> str:
        """``<colour>-<set>``: how a rules file's book is named in messages and run.json."""
        return f"{self.colour}-{self.set}"


def book(colour: str, set: int, timing: str, *, name: str, doc: str,  # noqa: A002
         prices: int = 1) -> BookDeclaration:
    """A book's declaration (see ``BOOK_HOOK_POINTS``); ValueError (one line) for a value that
    cannot be right."""
    if colour not in BOOK_COLOUR_NAMES:
        raise ValueError(f"book colour {colour!r}, expected one of {', '.join(BOOK_COLOUR_NAMES)}")
    if not isinstance(set, int) or set < FIRST_USER_SET:
        raise ValueError(f"book {colour} set {set!r}: a user's book is Set {FIRST_USER_SET} or "
                         "later (Sets 1-6 are the shipped books)")
    if timing not in BOOK_TIMINGS:
        raise ValueError(f"book '{colour}-{set}': timing {timing!r}, expected one of "
                         f"{', '.join(BOOK_TIMINGS)}")
    if not isinstance(prices, int) or not 1 <= prices <= 6:
        raise ValueError(f"book '{colour}-{set}': prices {prices!r}, expected a set 1-6")
    return BookDeclaration(colour, set, timing, str(name), str(doc), prices)


# A book's functions, named after these (called when the ruleset chose the book for its colour)
BOOK_HOOK_POINTS: tuple[HookPoint, ...] = (
    HookPoint("placed", _p("P s t G R SK SP SC FD rng E UF"), draw_time=True, per_chip=True,
              doc="a chip t of the book's colour was just placed, the pot intact: its action"),
    HookPoint("at_b", _p("P s G R supply die DS SK SP SC rng E UF"), doc="evaluation step B "
              "for seat s, in start-player order (after the shipped books' green, purple and "
              "black)"),
)
BOOK_HOOKS: dict[str, HookPoint] = {h.name: h for h in BOOK_HOOK_POINTS}


# --- herb witches: one module each (shipped in sim/kernel/witches/, a user's in a rules file) ----

WITCH_GROUPS = ("potion", "buying", "points")  # a group's witch is number 4 g + k (k 1-4) shipped
# how a round file's ``witch.<id>`` answers her (``sim.api.round_script``): true/false (call),
# whites-back's true, 1, 2 or {after, whites}, six-chips' {after, place}, upgrade's "last2", an
# index or "none", free-twin's chip bought
SCRIPT_CALL, SCRIPT_WHITES, SCRIPT_SIX = "call", "whites", "six"
SCRIPT_POT_ENTRY, SCRIPT_BOUGHT = "pot-entry", "bought"
SCRIPT_FORMS = (SCRIPT_CALL, SCRIPT_WHITES, SCRIPT_SIX, SCRIPT_POT_ENTRY, SCRIPT_BOUGHT)
# the numbers given to the user's witches as their files are loaded (id -> number), so that a
# rules file's ``WITCH.number`` is her number when the kernel imports it
USER_WITCH_NUMBERS: dict[str, int] = {}


@dataclass(frozen=True)
class WitchDeclaration:
    """What a witch's module declares of her: her kernel number (a shipped witch's, 1-12; 0 in a
    user's file), id, group (``WITCH_GROUPS``), name and text (``doc``), the phase she acts in
    (words for a person), her ``witch`` event's fields from its ``b`` and ``c`` (``event``), the
    built-in strategy's first round and thresholds (``params``: ``(P_W_* name, offset in
    SP[s, SLOT_WITCH], default)``) and the form of a round file's answer (``script``)."""

    number: int
    id: str
    group: str
    name: str
    doc: str
    phase: str = ""
    event: object = None  # (b, c) -> the event's fields (a dict); None: {"b": b, "c": c}
    first_round: int = 1
    params: tuple = ()
    script: str = SCRIPT_CALL

    def param(self, name: str) -> int:
        """The offset in ``SP[s, SLOT_WITCH]`` of her declared threshold ``name``."""
        for n, off, _default in self.params:
            if n == name:
                return off
        raise KeyError(f"witch '{self.id}' declares no threshold {name}")


def witch(number: int, id: str, group: str, *, name: str, doc: str, phase: str = "",  # noqa: A002
          event=None, first_round: int = 1, params: tuple = (),
          script: str = SCRIPT_CALL) -> WitchDeclaration:
    """A witch's declaration (``number``: ``USER_NUMBER`` in a user's file); ValueError (one line)
    for a value that cannot be right."""
    if not isinstance(id, str) or not id or id != id.lower() or " " in id:
        raise ValueError(f"witch id {id!r}: lower case words joined by '-'")
    if group not in WITCH_GROUPS:
        raise ValueError(f"witch '{id}': group {group!r}, expected one of "
                         f"{', '.join(WITCH_GROUPS)}")
    if script not in SCRIPT_FORMS:
        raise ValueError(f"witch '{id}': script {script!r}, expected one of "
                         f"{', '.join(SCRIPT_FORMS)}")
    if not isinstance(number, int) or number < 0:
        raise ValueError(f"witch '{id}': number {number!r}")
    if not isinstance(first_round, int) or first_round < 1:
        raise ValueError(f"witch '{id}': first_round {first_round!r}, expected a round 1 or later")
    if event is not None and not callable(event):
        raise ValueError(f"witch '{id}': event must be a function (b, c) -> dict of fields")
    params = tuple((str(n), int(off), d) for n, off, d in params)
    number = number or USER_WITCH_NUMBERS.get(id, USER_NUMBER)
    return WitchDeclaration(number, id, group, str(name), str(doc), str(phase), event,
                            first_round, params, script)


_W_SEAT = "P s G R SK SP SC rng E UF"

# A witch's functions, named after these (called when she is in play and the seat holds her
# group's penny, or she visits: ``witch_ready``), in the order of a round. ``default(P, s, arg,
# G, R, SP)`` is her built-in answer (``witch_answer``'s ``ASK_DEFAULT``).
WITCH_HOOK_POINTS: tuple[HookPoint, ...] = (
    HookPoint("between_draws", _p("P s stopping G R SK SP SC FD rng E UF"), "False",
              draw_time=True, per_chip=True, doc="between draws of an intact pot (`stopping`: "
              "the seat would stop now); True if called: the first ready witch acts (six "
              "chips, whites back)"),
    HookPoint("exploded", _p("P s t bowl G R SK SP SC rng E UF"), "False", draw_time=True,
              doc="the pot just exploded on chip t (in the bowl if `bowl`), after the card; "
              "True if the potion goes on (second flask)"),
    HookPoint("at_die", _p(_W_SEAT), "False", doc="step A, before the bonus die, each seat in "
              "start-player order; True lets the seat roll if it got furthest (both rewards)"),
    HookPoint("at_rubies", _p("P s vp rubies G R SK SP SC rng E UF"), "rubies",
              doc="step C on a ruby space worth vp VP: the rubies seat s takes (ruby space)"),
    HookPoint("at_points", _p("P s take_vp G R SK SP SC rng E UF"), doc="step D, after seat s "
              "scored its reward space (`take_vp`: it took the VP; colours, bag points)"),
    HookPoint("before_buying", _p("P s coins G R supply SK SP SC rng E UF"), "coins",
              doc="step E, before seat s buys: the coins it may spend (upgrade, double coins, "
              "ruby coins)"),
    HookPoint("after_buying", _p("P s nbought G R supply SK SP SC rng E UF"), doc="step E, "
              "after seat s bought nbought chips, listed at G_OUT (free twin)"),
    HookPoint("at_spending", _p(_W_SEAT), doc="step F, before seat s spends rubies (cheap "
              "rubies)"),
    HookPoint("final_coins", _p("P s coins G R SK SP SC rng E UF"), "coins", doc="the last "
              "round, before seat s turns coins into VP: the coins converted (double coins)"),
)
WITCH_HOOKS: dict[str, HookPoint] = {h.name: h for h in WITCH_HOOK_POINTS}
WITCH_SPECIAL_FUNCTIONS = ("default",)
