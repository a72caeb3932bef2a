"""The kernel's event codes, declared once: per core event its constant (``EV_*``, exported by
``sim.kernel.layout``) and its name in replays and JSON; and the codes of a rule's own events.

An event row is ``round, seat, code, a, b, c`` (``EVENT_ROW``); the core's codes are numbered from
1 in the order of ``EVENT_CODES`` (0 is an empty row), so new events go at the end. What ``a``,
``b``, ``c`` mean, how they decode into named fields and the replay text are declared with each
event in ``sim.api.event_table``, which no kernel imports: editing a text recompiles nothing.

The core's events are those the core records for every rule (a draw, a reward, a card turned up)
and those shared code records for several rules (``red``: an extra distance offered, red Sets 1,
3-5, yellow Sets 2, 4, 5; ``limit``: yellow Set 3, Living in Luxury; ``upgrade``: purple Set 4 and
a witch; ``witch``: the pennies scored at the end). A book's, card's or witch's own events are
declared with it (``book(..., events=(event(...), ...))``, ``sim.rules.event_declare``) and
recorded with ``event_code(BOOK, name)``: codes from ``RULE_EVENTS`` on, ``EVENTS_PER_RULE`` for
each rule, the books' by colour and set, then the cards' by number, then the witches' by number
(a witch's first event is her call, ``witch``, recorded by ``call_witch``), so no two rules
(shipped or a user's) share one and nothing is numbered by hand.
"""

from __future__ import annotations

from sim.rules.card_numbers import MAX_CARDS
from sim.rules.declare import (
    BOOK_COLOUR_NAMES,
    BOOK_SETS,
    BookDeclaration,
    CardDeclaration,
    WitchDeclaration,
)
from sim.rules.event_declare import EVENTS_PER_RULE, event_index
from sim.rules.witch_files import MAX_WITCH

EVENT_ROW = ("round", "seat", "code", "a", "b", "c")

# (constant, name), numbered 1.. in this order
EVENT_CODES: tuple[tuple[str, str], ...] = (
    ("EV_ROUND", "round"),
    ("EV_BOOK", "book"),
    ("EV_WHITE_ADDED", "white_added"),
    ("EV_RAT", "rat"),
    ("EV_DRAW", "draw"),
    ("EV_PLACE", "place"),
    ("EV_EXPLODE", "explode"),
    ("EV_FLASK", "flask"),
    ("EV_STOP", "stop"),
    ("EV_REWARD", "reward"),
    ("EV_DIE", "die"),
    ("EV_BLACK", "black"),
    ("EV_RUBY", "ruby"),
    ("EV_CHOICE", "choice"),
    ("EV_VP", "vp"),
    ("EV_BUY", "buy"),
    ("EV_SPEND", "spend"),
    ("EV_CONVERT", "convert"),
    ("EV_SCORE", "score"),
    ("EV_FINAL", "final"),
    ("EV_DIE_ROLL", "die_roll"),
    ("EV_RED", "red"),
    ("EV_PROTECTED", "protected"),
    ("EV_LIMIT", "limit"),
    ("EV_UPGRADE", "upgrade"),
    ("EV_CARD", "card"),
    ("EV_CARD_GAIN", "card_effect"),
    ("EV_CARD_LOOK", "card_look"),
    ("EV_TUBE", "tube"),
    ("EV_BOWL", "bowl"),
    ("EV_BOWL_VP", "bowl_vp"),
    ("EV_WITCHES", "witches"),
    ("EV_WITCH", "witch"),
    ("EV_FIRST", "first"),
    ("EV_PURPLE_COINS", "purple_coins"),
    ("EV_VISIT", "visit"),
)
EVENT_CONSTANTS: dict[str, int] = {const: code for code, (const, _) in enumerate(EVENT_CODES, 1)}

# the first code of the rules' own events (past the core's, checked below): the books', then the
# cards', then the witches' (by number; a witch's first is her call, recorded by ``call_witch``)
RULE_EVENTS = 100
CARD_EVENTS = RULE_EVENTS + len(BOOK_COLOUR_NAMES) * BOOK_SETS * EVENTS_PER_RULE
WITCH_EVENTS = CARD_EVENTS + (MAX_CARDS + 1) * EVENTS_PER_RULE
LAST_EVENT_CODE = WITCH_EVENTS + (MAX_WITCH + 1) * EVENTS_PER_RULE - 1
if len(EVENT_CODES) >= RULE_EVENTS:
    raise ValueError("sim.kernel.event_codes: the core's codes reach RULE_EVENTS")


def rule_events_base(decl, number: int = 0) -> int:
    """The first of the codes of a book's, card's or witch's own events (a card's: by
    ``number``, its declared number when 0; a witch's by her number)."""
    if isinstance(decl, BookDeclaration):
        slot = BOOK_COLOUR_NAMES.index(decl.colour) * BOOK_SETS + decl.set
        return RULE_EVENTS + slot * EVENTS_PER_RULE
    if isinstance(decl, CardDeclaration):
        return CARD_EVENTS + (number or decl.number) * EVENTS_PER_RULE
    if isinstance(decl, WitchDeclaration):
        return WITCH_EVENTS + (number or decl.number) * EVENTS_PER_RULE
    raise TypeError(f"no event codes for {decl!r}")


def event_code(decl, name: str, number: int = 0) -> int:
    """The code of event ``name`` that book, card or witch ``decl`` declares (``events=``);
    ValueError when it declares none of that name."""
    rule = f"{type(decl).__name__[:4].lower()} '{decl.id}'"
    return rule_events_base(decl, number) + event_index(rule, decl.events, name)
