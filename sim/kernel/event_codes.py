"""The kernel's event codes, declared once: per code its constant (``EV_*``, exported by
``sim.kernel.layout``) and its name in replays and JSON.

An event row is ``round, seat, code, a, b, c`` (``EVENT_ROW``); codes are numbered from 1 in the
order of ``EVENT_CODES`` (0 is an empty row), so new events go at the end. What ``a``, ``b``, ``c``
mean, how they decode into named fields and the replay text are declared with each event in
``sim.api.event_table``, which no kernel imports: editing a text recompiles nothing.
"""

from __future__ import annotations

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
    ("EV_BLUE_LOOK", "blue_look"),
    ("EV_BLUE_PICK", "blue_pick"),
    ("EV_YELLOW", "yellow_return"),
    ("EV_FLASK", "flask"),
    ("EV_STOP", "stop"),
    ("EV_REWARD", "reward"),
    ("EV_DIE", "die"),
    ("EV_GREEN", "green"),
    ("EV_PURPLE", "purple"),
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
    ("EV_ASIDE", "red_aside"),
    ("EV_RED_AFTER", "red_after"),
    ("EV_PROTECT", "protect"),
    ("EV_PROTECTED", "protected"),
    ("EV_BLUE_RUBY", "blue_ruby"),
    ("EV_BLUE_VP", "blue_vp"),
    ("EV_DOUBLE", "double"),
    ("EV_LIMIT", "limit"),
    ("EV_GREEN_CHIP", "green_chip"),
    ("EV_GREEN_MOVE", "green_move"),
    ("EV_GREEN_DROPLET", "green_droplet"),
    ("EV_PURPLE_TRADE", "purple_trade"),
    ("EV_PURPLE_VP", "purple_vp"),
    ("EV_UPGRADE", "upgrade"),
    ("EV_CARD", "card"),
    ("EV_CARD_GAIN", "card_effect"),
    ("EV_CARD_LOOK", "card_look"),
    ("EV_TUBE", "tube"),
    ("EV_BOWL", "bowl"),
    ("EV_BOWL_VP", "bowl_vp"),
    ("EV_WITCHES", "witches"),
    ("EV_WITCH", "witch"),
    ("EV_WITCH_LOOK", "witch_look"),
    ("EV_GREEN_FIRST", "green_first"),
    ("EV_GREEN_DIE", "green_die"),
    ("EV_FIRST", "first"),
    ("EV_RED_HOLD", "red_hold"),
    ("EV_YELLOW_PUSH", "yellow_push"),
    ("EV_YELLOW_RUBY", "yellow_ruby"),
    ("EV_PURPLE_COINS", "purple_coins"),
    ("EV_BLACK_GIFT", "black_gift"),
    ("EV_LOCO", "locoweed"),
    ("EV_BLACK_RUBY", "black_ruby"),
    ("EV_VISIT", "visit"),
    ("EV_BLUE_ORANGE", "blue_orange"),
    ("EV_BLUE_WHITE", "blue_white"),
)
EVENT_CONSTANTS: dict[str, int] = {const: code for code, (const, _) in enumerate(EVENT_CODES, 1)}
