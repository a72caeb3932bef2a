"""The ruleset schema: every section and key a ruleset may hold, with what is expected of it,
and the constants the rules layer names (die faces, information models, book colours, the sets
the kernel implements, test-tube glass bonuses)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.rules import chips
from sim.rules.book_files import BOOK_LISTENERS, USER_BOOKS
from sim.rules.books import implemented_sets
from sim.rules.track import SPOON, TRACK_LEN

BUILTIN_DIR = Path(__file__).parent / "rulesets"
MAX_ROUNDS = 20
DIE_FACES = ("vp1", "vp2", "ruby", "droplet", "pumpkin")
FACE_VP1, FACE_VP2, FACE_RUBY, FACE_DROPLET, FACE_PUMPKIN = range(5)
INFO_MODELS = ("independent", "synchronized", "sequential")
FLASK_SPACE = ("keep", "reuse")
BOOK_COLOURS = ("orange", "green", "blue", "red", "yellow", "purple", "black", "locoweed")
SET_COLOURS = ("green", "blue", "red", "yellow", "purple")  # the colours with a book per set
# Sets whose effects the kernel implements, per colour: every book declared in sim.rules.books.
IMPLEMENTED_SETS = {c: implemented_sets().get(c, set()) for c in BOOK_COLOURS}
# a user's book (a rules file, sim.rules.book_files) adds its set once loaded
BOOK_LISTENERS.append(lambda src: IMPLEMENTED_SETS[src.decl.colour].add(src.decl.set))
for _src in USER_BOOKS:  # loaded before this module
    IMPLEMENTED_SETS[_src.decl.colour].add(_src.decl.set)
HW_SET_COLOURS = (*SET_COLOURS, "black", "locoweed")  # the colours with a Set 5 and a Set 6 book


def is_int(x: Any) -> bool:
    """True for an int that is not a bool (TOML and JSON both give bools as ints)."""
    return isinstance(x, int) and not isinstance(x, bool)


# Schema: section -> key -> (description of what is expected, check(value) -> bool).
def _int_range(lo: int, hi: int):
    return (f"an integer from {lo} to {hi}", lambda v: is_int(v) and lo <= v <= hi)


def _book_set(colour: str):
    """books.<colour>: Sets 1-6 (locoweed 0-6), or a user's book of that colour once loaded."""
    lo = 0 if colour == "locoweed" else 1
    return (f"an integer from {lo} to 6 (or a set a rules file's book declares)",
            lambda v: is_int(v) and (lo <= v <= 6 or v in IMPLEMENTED_SETS[colour]))


def _choice(options):
    return (f"one of {', '.join(repr(o) for o in options)}", lambda v: v in options)


def _int_list(n: int | None, lo: int, hi: int):
    what = f"a list of {n if n is not None else 'any number of'} integers from {lo} to {hi}"
    return (
        what,
        lambda v: isinstance(v, list)
        and (n is None or len(v) == n)
        and all(is_int(x) and lo <= x <= hi for x in v),
    )


def _bag_spec():
    def check(v):
        if not isinstance(v, str):
            return False
        try:
            return len(chips.parse_chips(v)) > 0  # an empty bag never explodes: refused too
        except chips.BagSpecError:
            return False

    return ("at least one chip in bag notation such as 'w1x4,w2x2,w3,o1,g1'", check)


CHIP_KEYS = [chips.chip_name(t) for t in range(chips.N_TYPES)]


POT_SIDES = ("pot", "test-tube")


def _glass_bonus(v) -> bool:
    if v == "ruby" or (isinstance(v, str) and v.startswith("ruby:") and v[5:].isdigit()):
        return True
    if isinstance(v, str) and v.startswith("vp:") and v[3:].isdigit():
        return True
    return isinstance(v, str) and v in CHIP_KEYS and not v.startswith("w")


def _card_list():
    from sim.rules.cards import CARD_IDS

    return (f"a list of card ids ({', '.join(CARD_IDS)})",
            lambda v: (isinstance(v, list) and all(x in CARD_IDS for x in v)
                       and len(set(v)) == len(v)))

def _card_id():
    from sim.rules.cards import CARD_IDS

    return (f'a card id ({", ".join(CARD_IDS)}) or "" for none',
            lambda v: isinstance(v, str) and (v == "" or v in CARD_IDS))


def _witch_list():
    from sim.rules.witches import WITCH_IDS, witch_group

    def check(v):
        return (isinstance(v, list) and all(x in WITCH_IDS for x in v)
                and len({witch_group(x) for x in v}) == len(v))

    return (f"a list of witch ids, at most one per group ({', '.join(WITCH_IDS)})", check)


def _extra_witch_list():
    from sim.rules.witches import WITCHES

    def check(v):
        users = {w.id: w.group for w in WITCHES if w.user}
        return (isinstance(v, list) and all(isinstance(x, str) and x in users for x in v)
                and len({users[x] for x in v}) == len(v))

    return ("a list of witch ids from rules files (--rules-file, plugins), at most one per "
            "group: each joins the random deal of her group (a shipped witch is dealt already)",
            check)


SCHEMA: dict[str, dict[str, tuple[str, Any]]] = {
    "game": {
        "rounds": _int_range(1, MAX_ROUNDS),
        "explosion_limit": _int_range(1, 40),
        "starting_rubies": _int_range(0, 20),
        "starting_bag": _bag_spec(),
        "starting_droplet": _int_range(0, 51),
        "round_white_chip": _int_range(0, 20),
        "min_players": _int_range(1, 5),
        "max_players": _int_range(1, 5),
        "max_buys": _int_range(0, 4),
        "ruby_cost_droplet": _int_range(1, 20),
        "ruby_cost_flask": _int_range(1, 20),
        "final_coins_per_vp": _int_range(1, 100),
        "final_rubies_per_vp": _int_range(1, 100),
        "flask_space": _choice(FLASK_SPACE),
        "info_model": _choice(INFO_MODELS),
        "final_info_model": _choice(INFO_MODELS),
        "rats_from_round": _int_range(1, 21),
        "teams": ("true or false", lambda v: isinstance(v, bool)),
        "overflow_bowl": ("true or false", lambda v: isinstance(v, bool)),
        "penny_vp": _int_range(0, 20),
    },
    "witches": {
        "enabled": ("true or false", lambda v: isinstance(v, bool)),
        "fixed": _witch_list(),
        "extra": _extra_witch_list(),
    },
    "pot": {
        "side": _choice(POT_SIDES),
        "test_tube": ("a list of 12 glass bonuses, each ruby, ruby:N, vp:N or a chip (b1, k1...)",
                      lambda v: isinstance(v, list) and len(v) == 12 and all(map(_glass_bonus, v))),
    },
    "track": {
        "last_chip_space": _int_range(SPOON - 1, SPOON - 1),
        "coins": _int_list(TRACK_LEN, 0, 1000),
        "vp": _int_list(TRACK_LEN, 0, 1000),
        "ruby_spaces": _int_list(None, 1, SPOON),
    },
    "rats": {
        "tails": _int_list(None, 0, 1000),
        "lap": _int_range(1, 1000),
    },
    "die": {
        "faces": (
            f"a list of 1 to 12 faces, each one of {', '.join(DIE_FACES)}",
            lambda v: isinstance(v, list) and 1 <= len(v) <= 12 and all(f in DIE_FACES for f in v),
        ),
    },
    "books": {c: _book_set(c) for c in BOOK_COLOURS},
    "cards": {
        "deck": ("true or false", lambda v: isinstance(v, bool)),
        "exclude": _card_list(),
        "extra": _card_list(),
        "order": _card_list(),
        "force": _card_id(),
        "force_round": _int_range(0, MAX_ROUNDS),
    },
    "book_round": {c: _int_range(1, 20) for c in BOOK_COLOURS},
    "supply": {k: _int_range(0, 200) for k in CHIP_KEYS},
}
TOP_KEYS = {"name": str, "description": str, "extends": str, "plugins": list}
PRICE_SETS = [f"set{i}" for i in range(1, 7)]
