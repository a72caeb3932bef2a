"""The kernel's event codes, declared once: per code its constant (``EV_*``, exported by
``sim.kernel.layout``), its name in replays and JSON, what the row's fields ``a``, ``b``, ``c``
mean, and the replay text.

An event row is ``round, seat, code, a, b, c`` (``EVENT_ROW``); codes are numbered from 1 in the
order of ``EVENTS`` (0 is an empty row), so new events go at the end. ``text`` is a template over
the decoded event (``sim.api.events.event_dict``'s keys), filled by ``sim.api.events.event_text``:
``{k:~noun}`` / ``{k:~noun/nouns}`` writes the count with its noun in the right number,
``{k:?yes/no}`` one of two words by truth, ``{k:|word}`` the value or ``word`` when it is empty,
``{a|b}`` the first of two keys the event has; ``{title}{fields}`` is the event's name and its
named fields (for events whose fields vary). With ``text_by``, ``text`` maps that key's values to
templates; a ``heading`` event's text is not prefixed with the seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field

EVENT_ROW = ("round", "seat", "code", "a", "b", "c")
NAMED_FIELDS = "{title}{fields}"  # "witch: witch upgrade, chips upgraded 2"


@dataclass(frozen=True)
class EventCode:
    """One event code: constant name, event name, meaning of a, b, c, replay text template."""

    const: str
    name: str
    a: str = ""
    b: str = ""
    c: str = ""
    text: str | dict[str, str] = NAMED_FIELDS
    text_by: str = ""
    heading: bool = False  # a heading of the replay: its text is not a seat's line
    code: int = field(default=0, compare=False)


def _ev(const, name, text, a="", b="", c="", text_by="", heading=False):
    return EventCode(const, name, a, b, c, text, text_by, heading)


_EVENTS = (
    _ev("EV_ROUND", "round", "Round {round} (start player seat {start_player})",
        a="start player", heading=True),
    _ev("EV_BOOK", "book", "  the {colour} book is out", a="colour now buyable",
        heading=True),
    _ev("EV_WHITE_ADDED", "white_added", "adds a w1 to the bag", a="chip type"),
    _ev("EV_RAT", "rat", "rat {tails:~space}; brews from space {start}",
        a="tails", b="start space"),
    _ev("EV_DRAW", "draw", "draws {chip}", a="chip type"),
    _ev("EV_PLACE", "place", "{chip} -> space {index}{held:? (held beside the pot)/}",
        a="chip type", b="space",
        c="1: a chip held beside the pot (red Set 6) placed once the potion ended"),
    _ev("EV_EXPLODE", "explode", "EXPLODES (white total {white_total})", a="white total"),
    _ev("EV_BLUE_LOOK", "blue_look", "blue looks at {chip}", a="chip type seen"),
    _ev("EV_BLUE_PICK", "blue_pick", "blue places {chip:|nothing}", a="chip type placed, -1 none"),
    _ev("EV_YELLOW", "yellow_return", "yellow returns {chip} from space {index} to the bag",
        a="white chip type returned", b="the space it leaves empty"),
    _ev("EV_FLASK", "flask", "flask returns {chip} from space {index} to the bag",
        a="white chip type returned", b="the space it leaves empty"),
    _ev("EV_STOP", "stop", "{reason}; reward space {reward_space} (white {white_total})",
        a="reason (STOP_*)", b="reward space", c="white total"),
    _ev("EV_REWARD", "reward", "reward space {space}: {coins:~coin}, {vp} VP",
        a="space", b="coins", c="VP"),
    _ev("EV_DIE", "die", "rolls the bonus die: {face}", a="face"),
    _ev("EV_GREEN", "green", "green: +{rubies:~ruby/rubies}", a="rubies"),
    _ev("EV_PURPLE", "purple", "purple tier {tier}", a="tier"),
    _ev("EV_BLACK", "black", "black: droplet +{droplet}, ruby +{ruby}", a="droplet", b="ruby"),
    _ev("EV_RUBY", "ruby", "{rubies:~ruby/rubies} from the reward space",
        a="rubies from the reward space"),
    _ev("EV_CHOICE", "choice", "exploded, takes the {choice}", a="0 VP / 1 coins"),
    _ev("EV_VP", "vp", "+{vp} VP (score {score})", a="VP from the reward space", b="score"),
    _ev("EV_BUY", "buy", "buys {chip} for {price}", a="chip type", b="price"),
    _ev("EV_SPEND", "spend", "spends {cost:~ruby/rubies} on {on} ({rubies_left} left)",
        a="1 droplet / 2 flask", b="rubies left"),
    _ev("EV_CONVERT", "convert",
        "converts: +{vp_from_coins} VP from coins, +{vp_from_rubies} VP from rubies",
        a="VP from coins", b="VP from rubies"),
    _ev("EV_SCORE", "score",
        "ends the round with {score} VP, {rubies:~ruby/rubies}, droplet {droplet}",
        a="score", b="rubies", c="droplet"),
    _ev("EV_FINAL", "final", "FINAL: rank {rank}, {score} VP, win share {win_share:.3g}",
        a="rank", b="score", c="win share * 1e6"),
    _ev("EV_DIE_ROLL", "die_roll", NAMED_FIELDS, a="die face index rolled (before applying)"),
    _ev("EV_RED", "red", "{chip}: {taken:?takes/declines} +{extra} extra",
        a="chip type", b="extra distance offered (a red chip, yellow Sets 2/4/5, red Set 4's w1)",
        c="1 taken / 0 declined"),
    _ev("EV_ASIDE", "red_aside", "{chip} set beside the pot",
        a="red chip type set beside the pot (red Set 2)"),
    _ev("EV_RED_AFTER", "red_after", {
        "place": "{chip} from beside the pot -> space {index}",
        "bowl": "{chip} from beside the pot into the overflow bowl",
        "keep": "{chip} kept beside the pot",
        "return": "{chip} back to the bag",
    }, a="red chip type", b="0 placed / 1 kept beside the pot / 2 returned", c="space placed",
        text_by="action"),
    _ev("EV_PROTECT", "protect", "protected for the next {draws:~draw}",
        a="draws in the protection window now (blue Set 2)"),
    _ev("EV_PROTECTED", "protected", "the explosion falls in the protection window: VP and coins"),
    _ev("EV_BLUE_RUBY", "blue_ruby", "blue on a ruby space: +1 ruby", a="rubies (blue Set 3)"),
    _ev("EV_BLUE_VP", "blue_vp", "blue on a ruby space: +{vp} VP", a="VP (blue Set 4)"),
    _ev("EV_DOUBLE", "double", "the next chip moves twice as far"),
    _ev("EV_LIMIT", "limit", "explosion limit now {limit}", a="explosion limit now"),
    _ev("EV_GREEN_CHIP", "green_chip", "green: takes {chip}", a="chip type taken (green Set 2)"),
    _ev("EV_GREEN_MOVE", "green_move", "green: last chip +{spaces}; reward space {reward_space}",
        a="spaces", b="new reward space (green Set 3)"),
    _ev("EV_GREEN_DROPLET", "green_droplet",
        "green: pays {droplet:~ruby/rubies} for droplet +{droplet}",
        a="droplet moves bought with rubies (green Set 4)"),
    _ev("EV_PURPLE_TRADE", "purple_trade", "purple: trades tier {tier}",
        a="tier", b="purple chips discarded (purple Set 2)"),
    _ev("EV_PURPLE_VP", "purple_vp", "purple: +{vp} VP", a="VP (purple Set 3)"),
    _ev("EV_UPGRADE", "upgrade", "purple: {chip} becomes {to}",
        a="old chip type", b="new chip type (purple Set 4)"),
    _ev("EV_CARD", "card", "fortune card: {card}", a="card number of the round"),
    _ev("EV_CARD_GAIN", "card_effect", "card: {effect} {chip|amount}",
        a="what (GAIN_* of sim.kernel.cards)", b="amount, chip type or witch group", c="card"),
    _ev("EV_CARD_LOOK", "card_look", "card draws {chip}", a="chip type a card drew"),
    _ev("EV_TUBE", "tube",
        "test-tube droplet to glass {glass}: {bonus}"
        "{given:?/ (not given: book not out or none left)}",
        a="glass entered", b="its bonus (TUBE_* code)", c="1 if a granted chip was not given"),
    _ev("EV_BOWL", "bowl", NAMED_FIELDS,
        a="chip type into the overflow bowl", b="the bowl's total value"),
    _ev("EV_BOWL_VP", "bowl_vp", "bowl vp: vp {vp}, score {score}",
        a="VP from the overflow bowl", b="score"),
    _ev("EV_WITCHES", "witches", NAMED_FIELDS,
        a="witch in play in group 1 (set-up)", b="in group 2", c="in group 3"),
    _ev("EV_WITCH", "witch", NAMED_FIELDS,
        a="witch called (0: pennies scored at the end)",
        b="what she did (see sim.api.events.witch_event)", c="more of what she did"),
    _ev("EV_WITCH_LOOK", "witch_look", NAMED_FIELDS,
        a="chip type a witch drew to choose from"),
    _ev("EV_GREEN_FIRST", "green_first", NAMED_FIELDS,
        a="chip type to place first next round (green Set 5)"),
    _ev("EV_GREEN_DIE", "green_die", "green die: rolls {rolls}",
        a="bonus die rolls (green Set 6)"),
    _ev("EV_FIRST", "first", NAMED_FIELDS,
        a="chip type placed first, before any draw (green Set 5)"),
    _ev("EV_RED_HOLD", "red_hold", NAMED_FIELDS,
        a="chip type drawn after a red chip (red Set 6)",
        b="1 held for the end / 0 placed at once / 2 a held chip placed now, before a draw"),
    _ev("EV_YELLOW_PUSH", "yellow_push", NAMED_FIELDS,
        a="chip type drawn", b="spaces the yellow moves on", c="its new space (yellow Set 5)"),
    _ev("EV_YELLOW_RUBY", "yellow_ruby", "yellow ruby: spaces {spaces}",
        a="spaces bought with a ruby (yellow Set 6)"),
    _ev("EV_PURPLE_COINS", "purple_coins", "purple coins: coins {coins}, vp {vp}",
        a="coins from the purple chips' spaces (purple Set 5)", b="VP (last round)"),
    _ev("EV_BLACK_GIFT", "black_gift", "black gift: to seat {to_seat}",
        a="seat whose bag the black chip goes into (black Set 5)"),
    _ev("EV_LOCO", "locoweed", NAMED_FIELDS, a="chip type copied (-1 none)",
        b="spaces moved (locoweed)"),
    _ev("EV_BLACK_RUBY", "black_ruby", "black ruby: rubies {rubies}", a="rubies (black Set 5 / 6)"),
    _ev("EV_VISIT", "visit", NAMED_FIELDS, a="the witch visiting this round (Visit from a Witch)"),
    _ev("EV_BLUE_ORANGE", "blue_orange",
        "blue: {orange:~orange chip} in the pot, at least its value: +{vp} VP",
        a="VP: the blue chip's value (blue Set 5)", b="orange chips in the pot"),
    _ev("EV_BLUE_WHITE", "blue_white",
        "blue: +{rubies:~ruby/rubies}, one per white 1-chip among the {looked:~chip} before it",
        a="rubies: white 1-chips among the chips looked at (blue Set 6)",
        b="chips looked at (the blue chip's value, fewer if the pot has fewer)"),
)

EVENTS: tuple[EventCode, ...] = tuple(
    EventCode(e.const, e.name, e.a, e.b, e.c, e.text, e.text_by, e.heading, code)
    for code, e in enumerate(_EVENTS, start=1)
)
EVENT_CONSTANTS: dict[str, int] = {e.const: e.code for e in EVENTS}


def event_by_code(code: int) -> EventCode | None:
    """The declared event with this code, or None."""
    return EVENTS[code - 1] if 1 <= code <= len(EVENTS) else None
