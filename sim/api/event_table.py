"""What a person reads of the kernel's events, declared once per event: how its row's fields
``a``, ``b``, ``c`` decode into named, JSON-ready fields, what they mean, and its replay text.

The kernel's side, the core's codes and names in their order, is ``sim.kernel.event_codes``; this
module is never imported by a kernel, so editing a text here recompiles nothing. Every core event
there has its entry here, in the same order (checked at import). A book's or card's own events
are declared with it (``event(...)``, ``sim.rules.event_declare``), a witch's too (her call's
event ``witch`` first): ``rule_events`` builds their entries from the declarations of the rules
loaded, the user's too.

``decode`` turns ``(a, b, c)`` into the event's fields (None: it has none); ``text`` is a template
over the decoded event, filled by ``sim.api.events.event_text``: ``{k:~noun}`` /
``{k:~noun/nouns}`` writes the count with its noun in the right number, ``{k:?yes/no}`` one of
two words by truth, ``{k:|word}`` the value or ``word`` when it is empty, ``{a|b}`` the first of
two keys the event has; ``{title}{fields}`` is the event's name and its named fields (for events
whose fields vary). With ``text_by``, ``text`` maps that key's values to templates; a ``heading``
event's text is not prefixed with the seat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from sim.kernel import layout as L
from sim.kernel.event_codes import EVENT_CODES, rule_events_base
from sim.rules import chips
from sim.rules.card_numbers import CARD_GAINS as GAIN_KINDS
from sim.rules.event_declare import NAMED_FIELDS, EventDeclaration
from sim.rules.event_declare import chip_field as chip

DIE_NAMES = ("1 VP", "2 VP", "ruby", "droplet", "pumpkin")
FACE_KEYS = ("vp1", "vp2", "ruby", "droplet", "pumpkin")
CARD_GAINS = dict(enumerate(GAIN_KINDS))  # EV_CARD_GAIN kind -> its name
# why brewing ended (the stop event's reason), for every STOP_* of sim.kernel.layout
STOP_NAMES = {L.STOP_CHOICE: "stopped", L.STOP_EMPTY: "bag empty", L.STOP_TRACK: "end of track",
              L.STOP_EXPLODED: "exploded", L.STOP_SCRIPT: "end of listed draws"}

Decoder = Callable[[int, int, int], dict]


@dataclass(frozen=True)
class EventCode:
    """One event: code, constant and name (``sim.kernel.event_codes``), how its fields decode,
    what ``a``, ``b``, ``c`` mean, and its replay text template."""

    const: str
    name: str
    code: int
    decode: Decoder | None
    text: str | dict[str, str] = NAMED_FIELDS
    a: str = ""
    b: str = ""
    c: str = ""
    text_by: str = ""
    heading: bool = False  # a heading of the replay: its text is not a seat's line
    rule: str = ""  # a rule's own event: the rule declaring it (a book's colour-set, a card's id)
    takes_draw: bool = False  # quacks potion --draws: it takes a chip from the listed draws
    returns: str = ""  # quacks potion --draws: it puts its chip back into the bag, by this


def _ints(*keys: str) -> Decoder:
    """``a``, ``b``, ``c`` as they are, under these keys (in order)."""
    return lambda a, b, c: dict(zip(keys, (a, b, c)))


def _chip(*keys: str) -> Decoder:
    """``a`` is a chip type (``chip``); ``b`` and ``c`` as they are, under these keys."""
    return lambda a, b, c: {"chip": chip(a), **dict(zip(keys, (b, c)))}


def _place(a, b, c):
    # c: red Set 6's chip held beside the pot, placed once the potion ended
    return {"chip": chip(a), "index": b, **({"held": True} if c else {})}


def _card(a, b, c):
    from sim.rules.cards import card_numbered

    return {"card": card_numbered(a).id}


def _card_effect(a, b, c):
    effect = CARD_GAINS.get(a, str(a))
    if effect in ("chip", "chip_removed"):
        return {"effect": effect, "chip": chips.chip_name(b)}
    if effect in ("penny_given", "penny_back"):
        from sim.rules.witches import GROUPS

        return {"effect": effect, "group": GROUPS[b]}
    return {"effect": effect, "amount": b}


def _witches(a, b, c):
    from sim.rules.witches import witch_by_number

    return {"witches": [witch_by_number(w).id for w in (a, b, c) if w > 0]}


def _visit(a, b, c):
    from sim.rules.witches import witch_by_number

    return {"witch": witch_by_number(a).id if a > 0 else None}


def _pennies(a, b, c):
    return {"pennies_kept": b, "vp": c}


def glass_name(code: int) -> str:
    """A test-tube glass bonus code as the ruleset writes it: ``ruby``, ``vp:2``, ``b1``."""
    if code >= L.TUBE_VP:
        return f"vp:{code - L.TUBE_VP}"
    if code >= L.TUBE_RUBY:
        return "ruby" if code == L.TUBE_RUBY + 1 else f"ruby:{code - L.TUBE_RUBY}"
    return chips.chip_name(code)


def _colour(a, b, c):
    return {"colour": chips.COLOUR_NAMES[a]}


def _stop(a, b, c):
    return {"reason": STOP_NAMES.get(a, str(a)), "reward_space": b, "white_total": c}


def _face(a, b, c):
    return {"face": FACE_KEYS[a]}


def _choice(a, b, c):
    return {"choice": "coins" if a else "vp"}


def _spend(a, b, c):
    return {"on": "droplet" if a == L.SPEND_DROPLET else "flask", "rubies_left": b}


def _final(a, b, c):
    return {"rank": a, "score": b, "win_share": c / 1e6}


def _red(a, b, c):
    return {"chip": chip(a), "extra": b, "taken": bool(c)}


def _upgrade(a, b, c):
    return {"chip": chip(a), "to": chips.chip_name(b)}


def _tube(a, b, c):
    return {"glass": a, "bonus": glass_name(b), "given": not c}



def _ev(name: str, decode: Decoder | None, text: str | dict[str, str], **more) -> tuple:
    return name, decode, text, more


_DECLARED = (
    _ev("round", _ints("start_player"), "Round {round} (start player seat {start_player})",
        a="start player", heading=True),
    _ev("book", _colour, "  the {colour} book is out", a="colour now buyable", heading=True),
    _ev("white_added", _chip(), "adds a w1 to the bag", a="chip type"),
    _ev("rat", _ints("tails", "start"), "rat {tails:~space}; brews from space {start}", a="tails",
        b="start space"),
    _ev("draw", _chip(), "draws {chip}", a="chip type"),
    _ev("place", _place, "{chip} -> space {index}{held:? (held beside the pot)/}", a="chip type",
        b="space", c="1: a chip held beside the pot (red Set 6) placed once the potion ended"),
    _ev("explode", _ints("white_total"), "EXPLODES (white total {white_total})", a="white total"),
    _ev("flask", _chip("index"), "flask returns {chip} from space {index} to the bag",
        a="white chip type returned", b="the space it leaves empty"),
    _ev("stop", _stop, "{reason}; reward space {reward_space} (white {white_total})",
        a="reason (STOP_*)", b="reward space", c="white total"),
    _ev("reward", _ints("space", "coins", "vp"), "reward space {space}: {coins:~coin}, {vp} VP",
        a="space", b="coins", c="VP"),
    _ev("die", _face, "rolls the bonus die: {face}", a="face"),
    _ev("black", _ints("droplet", "ruby"), "black: droplet +{droplet}, ruby +{ruby}", a="droplet",
        b="ruby"),
    _ev("ruby", _ints("rubies"), "{rubies:~ruby/rubies} from the reward space",
        a="rubies from the reward space"),
    _ev("choice", _choice, "exploded, takes the {choice}", a="0 VP / 1 coins"),
    _ev("vp", _ints("vp", "score"), "+{vp} VP (score {score})", a="VP from the reward space",
        b="score"),
    _ev("buy", _chip("price"), "buys {chip} for {price}", a="chip type", b="price"),
    _ev("spend", _spend, "spends {cost:~ruby/rubies} on {on} ({rubies_left} left)",
        a="1 droplet / 2 flask", b="rubies left"),
    _ev("convert", _ints("vp_from_coins", "vp_from_rubies"),
        "converts: +{vp_from_coins} VP from coins, +{vp_from_rubies} VP from rubies",
        a="VP from coins", b="VP from rubies"),
    _ev("score", _ints("score", "rubies", "droplet"),
        "ends the round with {score} VP, {rubies:~ruby/rubies}, droplet {droplet}", a="score",
        b="rubies", c="droplet"),
    _ev("final", _final, "FINAL: rank {rank}, {score} VP, win share {win_share:.3g}", a="rank",
        b="score", c="win share * 1e6"),
    _ev("die_roll", None, NAMED_FIELDS, a="die face index rolled (before applying)"),
    _ev("red", _red, "{chip}: {taken:?takes/declines} +{extra} extra", a="chip type",
        b="extra distance offered (a red chip, yellow Sets 2/4/5, red Set 4's w1)",
        c="1 taken / 0 declined"),
    _ev("protected", None, "the explosion falls in the protection window: VP and coins"),
    _ev("limit", _ints("limit"), "explosion limit now {limit}", a="explosion limit now"),
    _ev("upgrade", _upgrade, "purple: {chip} becomes {to}", a="old chip type",
        b="new chip type (purple Set 4)"),
    _ev("card", _card, "fortune card: {card}", a="card number of the round"),
    _ev("card_effect", _card_effect, "card: {effect} {chip|amount}",
        a="what (GAIN_* of sim.kernel.cards)", b="amount, chip type or witch group", c="card"),
    _ev("card_look", _chip(), "card draws {chip}", a="chip type a card drew"),
    _ev("tube", _tube,
        "test-tube droplet to glass {glass}: {bonus}{given:?/ (not given: book not out or none "
        "left)}", a="glass entered", b="its bonus (TUBE_* code)",
        c="1 if a granted chip was not given"),
    _ev("bowl", _chip("bowl_value"), NAMED_FIELDS, a="chip type into the overflow bowl",
        b="the bowl's total value"),
    _ev("bowl_vp", _ints("vp", "score"), "bowl vp: vp {vp}, score {score}",
        a="VP from the overflow bowl", b="score"),
    _ev("witches", _witches, NAMED_FIELDS, a="witch in play in group 1 (set-up)", b="in group 2",
        c="in group 3"),
    _ev("witch", _pennies, NAMED_FIELDS, a="0: the pennies scored at the end (a witch's call is "
        "her own event of this name, declared with her)", b="pennies kept", c="their VP"),
    _ev("first", _chip(), NAMED_FIELDS, a="chip type placed first, before any draw (green Set 5)"),
    _ev("purple_coins", _ints("coins", "vp"), "purple coins: coins {coins}, vp {vp}",
        a="coins from the purple chips' spaces (purple Set 5)", b="VP (last round)"),
    _ev("visit", _visit, NAMED_FIELDS, a="the witch visiting this round (Visit from a Witch)"),
)

if tuple(name for name, *_ in _DECLARED) != tuple(name for _const, name in EVENT_CODES):
    raise ValueError("sim.api.event_table: one entry per event of sim.kernel.event_codes, in "
                     "its order")
EVENTS: tuple[EventCode, ...] = tuple(
    EventCode(const, name, code, decode, text, **more)
    for code, ((const, name), (_name, decode, text, more))
    in enumerate(zip(EVENT_CODES, _DECLARED), start=1)
)
BY_CODE: dict[int, EventCode] = {e.code: e for e in EVENTS}
BY_NAME: dict[str, EventCode] = {e.name: e for e in EVENTS}
# how a rule's event field shows, by its declared kind (sim.rules.event_declare.FIELD_KINDS)
FIELD_VALUES: dict[str, Callable[[int], object]] = {
    "int": int, "chip": chip, "bool": bool, "opt": lambda v: v if v >= 0 else None}


def _decoder(decl: EventDeclaration) -> Decoder | None:
    """A rule's event's decoder: its own (``decode=``), or its fields by their kinds."""
    if decl.decode is not None or not decl.fields:
        return decl.decode
    fields = decl.fields  # a field left unnamed (a witch's call's ``a``) is not shown
    return lambda a, b, c: {key: FIELD_VALUES[kind](v)
                            for (key, kind), v in zip(fields, (a, b, c)) if key}


def _rule_entries(rule: str, base: int, events: tuple[EventDeclaration, ...]) -> list[EventCode]:
    return [EventCode("", e.name, base + i, _decoder(e), e.template, e.a, e.b, e.c, e.text_by,
                      rule=rule, takes_draw=e.takes_draw, returns=e.returns)
            for i, e in enumerate(events)]


def _witch_entries(decl, base: int) -> list[EventCode]:
    """A witch's events: her call's first (``WITCH_CALL``), its fields which witch, then what
    she did as she declares it."""
    entries = _rule_entries(decl.id, base, decl.events)

    def call(a, b, c, wid=decl.id, fields=entries[0].decode):
        return {"witch": wid, **(fields(a, b, c) if fields is not None else {})}

    return [replace(entries[0], decode=call), *entries[1:]]


# the rules loaded when last built, their events by code, and by name (the first of a name)
_RULES_SEEN: list = [None, {}, {}]


def rule_events() -> dict[int, EventCode]:
    """The events the books, cards and witches loaded declare (shipped and a user's), by code:
    rebuilt when a rules file added one."""
    from sim.rules.book_files import book_sources
    from sim.rules.card_numbers import CARD_SOURCES
    from sim.rules.witch_files import WITCH_SOURCES

    books = book_sources()
    seen = (len(books), len(CARD_SOURCES), len(WITCH_SOURCES))
    if _RULES_SEEN[0] != seen:
        entries = [e for src in books if src.decl.events for e in _rule_entries(
            src.decl.id, rule_events_base(src.decl), src.decl.events)]
        entries += [e for n, src in enumerate(CARD_SOURCES, 1) if src.decl.events
                    for e in _rule_entries(src.decl.id, rule_events_base(src.decl, n),
                                           src.decl.events)]
        entries += [e for src in WITCH_SOURCES
                    for e in _witch_entries(src.decl, rule_events_base(src.decl))]
        by_name: dict[str, EventCode] = {}
        for e in entries:
            by_name.setdefault(e.name, e)
        _RULES_SEEN[:] = [seen, {e.code: e for e in entries}, by_name]
    return _RULES_SEEN[1]


def event_by_code(code: int) -> EventCode | None:
    """The declared event with this code (the core's or a rule's), or None."""
    return BY_CODE.get(code) or rule_events().get(code)


def event_by_name(name: str) -> EventCode | None:
    """The declared event of this name (the core's, else the first rule declaring it: rules that
    declare one name declare it alike, checked by tests/test_core_names_no_book.py), or None."""
    if name in BY_NAME:
        return BY_NAME[name]
    rule_events()
    return _RULES_SEEN[2].get(name)
