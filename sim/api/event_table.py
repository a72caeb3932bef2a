"""What a person reads of the kernel's events, declared once per event: how its row's fields
``a``, ``b``, ``c`` decode into named, JSON-ready fields, what they mean, and its replay text.

The kernel's side, the codes and names in their order, is ``sim.kernel.event_codes``; this module
is never imported by a kernel, so editing a text here recompiles nothing. Every event there has
its entry here, in the same order (checked at import).

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
from dataclasses import dataclass

from sim.kernel import layout as L
from sim.kernel.event_codes import EVENT_CODES
from sim.rules import chips
from sim.rules.card_numbers import CARD_GAINS as GAIN_KINDS

NAMED_FIELDS = "{title}{fields}"  # "witch: witch upgrade, chips upgraded 2"
DIE_NAMES = ("1 VP", "2 VP", "ruby", "droplet", "pumpkin")
FACE_KEYS = ("vp1", "vp2", "ruby", "droplet", "pumpkin")
CARD_GAINS = dict(enumerate(GAIN_KINDS))  # EV_CARD_GAIN kind -> its name
LAST_CHIP_SPACE = 52  # every ruleset's last chip space (game.last_chip_space); past it: the bowl
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


def chip(t: int) -> str | None:
    """A chip type's name, or None for a value that is no chip type (-1: none)."""
    return chips.chip_name(t) if 0 <= t < chips.N_TYPES else None


def _ints(*keys: str) -> Decoder:
    """``a``, ``b``, ``c`` as they are, under these keys (in order)."""
    return lambda a, b, c: dict(zip(keys, (a, b, c)))


def _chip(*keys: str) -> Decoder:
    """``a`` is a chip type (``chip``); ``b`` and ``c`` as they are, under these keys."""
    return lambda a, b, c: {"chip": chip(a), **dict(zip(keys, (b, c)))}


def _place(a, b, c):
    # c: red Set 6's chip held beside the pot, placed once the potion ended
    return {"chip": chip(a), "index": b, **({"held": True} if c else {})}


def _red_after(a, b, c):
    if b == 0 and c > LAST_CHIP_SPACE:  # placed past the last space: into the overflow bowl
        return {"chip": chip(a), "action": "bowl", "index": None}
    return {"chip": chip(a), "action": ("place", "keep", "return")[b], "index": c}


def _red_hold(a, b, c):
    # b == 2: a held chip placed now, before a draw, with its action
    return {"chip": chip(a), "held": b == 1, **({"placed_from_beside": True} if b == 2 else {})}


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


def witch_event(w: int, b: int, c: int) -> dict:
    """The fields of a witch event: which witch and what she did (``Witch.event`` in
    ``sim.rules.witches``; w = 0: pennies scored at the end)."""
    from sim.rules.witches import witch_by_number

    if w == 0:
        return {"pennies_kept": b, "vp": c}
    witch = witch_by_number(w)
    return {"witch": witch.id, **witch.event(b, c)}  # her fields are declared with her


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


def _locoweed(a, b, c):
    return {"copies": chip(a), "spaces": b if b >= 0 else None}


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
    _ev("blue_look", _chip(), "blue looks at {chip}", a="chip type seen"),
    _ev("blue_pick", _chip(), "blue places {chip:|nothing}", a="chip type placed, -1 none"),
    _ev("yellow_return", _chip("index"), "yellow returns {chip} from space {index} to the bag",
        a="white chip type returned", b="the space it leaves empty"),
    _ev("flask", _chip("index"), "flask returns {chip} from space {index} to the bag",
        a="white chip type returned", b="the space it leaves empty"),
    _ev("stop", _stop, "{reason}; reward space {reward_space} (white {white_total})",
        a="reason (STOP_*)", b="reward space", c="white total"),
    _ev("reward", _ints("space", "coins", "vp"), "reward space {space}: {coins:~coin}, {vp} VP",
        a="space", b="coins", c="VP"),
    _ev("die", _face, "rolls the bonus die: {face}", a="face"),
    _ev("green", _ints("rubies"), "green: +{rubies:~ruby/rubies}", a="rubies"),
    _ev("purple", _ints("tier"), "purple tier {tier}", a="tier"),
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
    _ev("red_aside", _chip(), "{chip} set beside the pot",
        a="red chip type set beside the pot (red Set 2)"),
    _ev("red_after", _red_after, {
        "place": "{chip} from beside the pot -> space {index}",
        "bowl": "{chip} from beside the pot into the overflow bowl",
        "keep": "{chip} kept beside the pot",
        "return": "{chip} back to the bag",
    }, a="red chip type", b="0 placed / 1 kept beside the pot / 2 returned", c="space placed",
        text_by="action"),
    _ev("protect", _ints("draws"), "protected for the next {draws:~draw}",
        a="draws in the protection window now (blue Set 2)"),
    _ev("protected", None, "the explosion falls in the protection window: VP and coins"),
    _ev("blue_ruby", _ints("rubies"), "blue on a ruby space: +1 ruby", a="rubies (blue Set 3)"),
    _ev("blue_vp", _ints("vp"), "blue on a ruby space: +{vp} VP", a="VP (blue Set 4)"),
    _ev("double", None, "the next chip moves twice as far"),
    _ev("limit", _ints("limit"), "explosion limit now {limit}", a="explosion limit now"),
    _ev("green_chip", _chip(), "green: takes {chip}", a="chip type taken (green Set 2)"),
    _ev("green_move", _ints("spaces", "reward_space"),
        "green: last chip +{spaces}; reward space {reward_space}", a="spaces",
        b="new reward space (green Set 3)"),
    _ev("green_droplet", _ints("droplet"),
        "green: pays {droplet:~ruby/rubies} for droplet +{droplet}",
        a="droplet moves bought with rubies (green Set 4)"),
    _ev("purple_trade", _ints("tier"), "purple: trades tier {tier}", a="tier",
        b="purple chips discarded (purple Set 2)"),
    _ev("purple_vp", _ints("vp"), "purple: +{vp} VP", a="VP (purple Set 3)"),
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
    _ev("witch", witch_event, NAMED_FIELDS, a="witch called (0: pennies scored at the end)",
        b="what she did (see sim.api.events.witch_event)", c="more of what she did"),
    _ev("witch_look", _chip(), NAMED_FIELDS, a="chip type a witch drew to choose from"),
    _ev("green_first", _chip(), NAMED_FIELDS,
        a="chip type to place first next round (green Set 5)"),
    _ev("green_die", _ints("rolls"), "green die: rolls {rolls}", a="bonus die rolls (green Set 6)"),
    _ev("first", _chip(), NAMED_FIELDS, a="chip type placed first, before any draw (green Set 5)"),
    _ev("red_hold", _red_hold, NAMED_FIELDS, a="chip type drawn after a red chip (red Set 6)",
        b="1 held for the end / 0 placed at once / 2 a held chip placed now, before a draw"),
    _ev("yellow_push", _chip("spaces", "index"), NAMED_FIELDS, a="chip type drawn",
        b="spaces the yellow moves on", c="its new space (yellow Set 5)"),
    _ev("yellow_ruby", _ints("spaces"), "yellow ruby: spaces {spaces}",
        a="spaces bought with a ruby (yellow Set 6)"),
    _ev("purple_coins", _ints("coins", "vp"), "purple coins: coins {coins}, vp {vp}",
        a="coins from the purple chips' spaces (purple Set 5)", b="VP (last round)"),
    _ev("black_gift", _ints("to_seat"), "black gift: to seat {to_seat}",
        a="seat whose bag the black chip goes into (black Set 5)"),
    _ev("locoweed", _locoweed, NAMED_FIELDS, a="chip type copied (-1 none)",
        b="spaces moved (locoweed)"),
    _ev("black_ruby", _ints("rubies"), "black ruby: rubies {rubies}", a="rubies (black Set 5 / 6)"),
    _ev("visit", _visit, NAMED_FIELDS, a="the witch visiting this round (Visit from a Witch)"),
    _ev("blue_orange", _ints("vp", "orange"),
        "blue: {orange:~orange chip} in the pot, at least its value: +{vp} VP",
        a="VP: the blue chip's value (blue Set 5)", b="orange chips in the pot"),
    _ev("blue_white", _ints("rubies", "looked"),
        "blue: +{rubies:~ruby/rubies}, one per white 1-chip among the {looked:~chip} before it",
        a="rubies: white 1-chips among the chips looked at (blue Set 6)",
        b="chips looked at (the blue chip's value, fewer if the pot has fewer)"),
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


def event_by_code(code: int) -> EventCode | None:
    """The declared event with this code, or None."""
    return BY_CODE.get(code)
