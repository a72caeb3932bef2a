"""The core names no book (issue 46): outside ``sim/kernel/books`` the kernel and the api import no
book's module, name no book question by a ``Q_*`` constant, keep no book's scripted answers in a
field of their own and read no book's round-file key by name; the books declare those
(``book(..., script=...)``, ``scripted``) and the cards reach them through hook points
(``sim.kernel.books.gain_hooks``)."""

from __future__ import annotations

import re
from pathlib import Path

from sim.kernel.decisions import slots as S
from sim.rules.book_files import script_keys, shipped_books
from sim.rules.declare import BOOK_COLOUR_NAMES

ROOT = Path(__file__).resolve().parent.parent
BOOKS = ROOT / "sim" / "kernel" / "books"
COLOURS = "|".join(c.upper() for c in BOOK_COLOUR_NAMES)


def _core() -> list[Path]:
    """Every module of the kernel (but the books') and of the api."""
    files = [*(ROOT / "sim" / "kernel").rglob("*.py"), *(ROOT / "sim" / "api").rglob("*.py")]
    return [p for p in files if BOOKS not in p.parents]


def test_the_core_imports_no_book_module():
    stems = "|".join(s.path.stem for s in shipped_books())
    book_module = re.compile(rf"sim\.kernel\.books(?:\.({stems})\b| import .*\b({stems})\b)")
    for path in _core():
        assert not book_module.search(path.read_text(encoding="utf-8")), path


def test_the_core_names_no_book_question_or_answer_field():
    question = re.compile(rf"\bQ_({COLOURS})_\w+")
    for path in _core():
        assert not question.search(path.read_text(encoding="utf-8")), path
    assert not [name for name in vars(S) if question.fullmatch(name)]
    # the scripted decisions keep no book's field: each book has its colour's part of SC_BOOK
    fields = {f.name for f in S.SCRIPT.named()}
    for key in script_keys():
        assert key not in fields and f"n{key}" not in fields, key


def test_the_round_file_reads_the_books_keys_from_their_declarations():
    keys = script_keys()
    assert {"red_after", "green", "upgrade", "red_hold", "red_place", "yellow_ruby",
            "purple_buy"} <= set(keys)
    api = ROOT / "sim" / "api"
    for name in ("round_file.py", "round_script.py", "game_file.py", "potion.py"):
        text = (api / name).read_text(encoding="utf-8")
        for key in keys:
            assert f'"{key}"' not in text and f"'{key}'" not in text, (name, key)
        assert '["blue"]' not in text, name  # the potion's protected outcome: a declared flag


def test_the_books_declare_their_round_file_state_keys():
    """``beside`` (red Set 2) and ``first`` (green Set 5) are declared by their books
    (``state_key``), read and written by their plain-Python ``read_state`` / ``write_state``: the
    api and the books' data name neither."""
    from sim.rules.book_files import state_keys
    from sim.rules.books import STATE, round_file_keys

    keys = state_keys()
    assert {k: [src.decl.id for src, _ in users] for k, users in keys.items()} == {
        "first": ["green-5"], "beside": ["red-2"]}
    assert round_file_keys()["beside"] == (
        STATE, "red Set 2: red chips kept beside the pot from earlier rounds")
    assert round_file_keys()["first"] == (
        STATE, "green Set 5: chips picked last round, placed first")
    for src in (users[0][0] for users in keys.values()):
        assert "def read_state(" in src.path.read_text(encoding="utf-8"), src.path
    api = ROOT / "sim" / "api"
    for path in [*(api / n for n in ("round_file.py", "round_script.py", "game_file.py")),
                 ROOT / "sim" / "rules" / "books.py"]:
        text = path.read_text(encoding="utf-8")
        for key in keys:
            assert f'"{key}"' not in text and f"'{key}'" not in text, (path.name, key)


def book_fields() -> set[str]:
    """The player-row fields a book keeps, read from their layout declarations: the doc names a
    book's set ("green Set 5") and no card (``base_limit``: "yellow Set 3, cards")."""
    from sim.kernel.layout import PLAYER

    book = re.compile(rf"\b({'|'.join(BOOK_COLOUR_NAMES)}) Sets? \d", re.I)
    return {PLAYER.const_name(f) for f in PLAYER.named()
            if book.search(f.doc) and "card" not in f.doc.lower()}


def cards_naming(fields: set[str], cards: Path = ROOT / "sim" / "kernel" / "cards"
                 ) -> list[tuple[str, str]]:
    """(card module, field) for every card module under ``cards`` that names one of ``fields``."""
    word = re.compile(rf"\b({'|'.join(sorted(fields))})\b")
    return [(path.name, m) for path in sorted(cards.rglob("*.py"))
            for m in sorted(set(word.findall(path.read_text(encoding="utf-8"))))]


# The core's own placements that a book fills (their layout docs name no book): chips placed
# first, before any draw (``sim.kernel.brew.place_first``; green Set 5's picks) and chips held
# beside the pot, placed when the potion ends (``place_held``; red Set 6's). The core places them
# whoever put them there; when a held chip is placed before a draw is a book's hook point
# (``before_draw_chip``)
CORE_PLACEMENT_FIELDS = {"FIRST_T", "F_NFIRST", "F_FIRST_USED", "HOLD_T", "F_NHOLD"}

# Reads of a book's field the core still makes, each with why: none left (issue 46: ``quacks
# potion --draws``' key ``beside`` comes from red Set 2's ``write_state``, its state key declared
# ``potion=True``; ``test_a_single_potion_shows_the_books_declared_state``)
CORE_READS_LEFT: set[tuple[str, str]] = set()


def test_the_book_fields_are_read_from_the_layout():
    assert {"ASIDE", "ASIDE_NEW", "F_HELD_PTR", "F_NRED", "F_DOUBLE", "F_PROTECT"} <= book_fields()
    assert "F_BASE_LIMIT" not in book_fields() and "F_WHITE" not in book_fields()
    assert not CORE_PLACEMENT_FIELDS & book_fields()
    from sim.kernel import layout

    assert all(hasattr(layout, name) for name in CORE_PLACEMENT_FIELDS)


def core_naming(fields: set[str], files: list[Path]) -> list[tuple[str, str]]:
    """(module, field) for every module of ``files`` that names one of ``fields`` (the layout,
    which declares them, left out)."""
    word = re.compile(rf"\b({'|'.join(sorted(fields))})\b")
    return [(path.name, m) for path in sorted(files) if path.name != "layout.py"
            for m in sorted(set(word.findall(path.read_text(encoding="utf-8"))))]


def test_the_core_reads_no_book_field():
    """Brewing, the bag, the single potions and the api reach a book's state through hook points
    (``draw_protected``: blue Set 2's window; ``doubles_next``: yellow Set 2's doubling) and the
    layout's ``reset`` (the fields zeroed per potion, ``sim.kernel.bag.POTION_ZEROED``), never by
    a book's field; the reads left are listed, with why, in ``CORE_READS_LEFT``."""
    assert set(core_naming(book_fields(), _core())) == CORE_READS_LEFT


def test_a_single_potion_shows_the_books_declared_state():
    """``quacks potion --draws`` shows a book's state key declared ``potion=True`` (red Set 2's
    ``beside``) where it always has, under every ruleset: the red chips its ``write_state`` finds
    kept beside the pot, "" for none (the old reading of ``ASIDE`` in bag notation)."""
    import numpy as np

    from sim.api.potion import make_query
    from sim.api.potion_draws import book_state, forced
    from sim.kernel import layout as L
    from sim.rules import chips
    from sim.rules.book_files import state_keys
    from sim.rules.ruleset import load_ruleset

    potion = {k for k, users in state_keys().items() if any(sk.potion for _, sk in users)}
    assert potion == {"beside"}
    for sets in ([], ["books.red=2"]):
        res = forced(make_query("o1,w1", "never", None, 0, load_ruleset("base", sets)), "o1,w1")
        keys = list(res)
        assert keys[keys.index("book_vp") + 1] == "beside" and res["beside"] == "", sets
    P = np.zeros((1, L.PLAYER.width), dtype=np.int64)
    P[0, L.ASIDE : L.ASIDE + 3] = (2, 0, 1)
    assert book_state(P, None) == {"beside": "r1x2,r4"}
    counts = np.zeros(chips.N_TYPES, dtype=np.int64)
    counts[chips.R1 : chips.R1 + 3] = P[0, L.ASIDE : L.ASIDE + 3]
    assert book_state(P, None)["beside"] == chips.format_counts(counts)


def test_a_core_module_naming_a_book_field_is_caught(tmp_path):
    """The check above fails on the old brewing (blue Set 2's window and yellow Set 2's doubling
    read in ``sim.kernel.brew``)."""
    old = ("protected = P[s, F_PROTECT] > 0\nif P[s, F_DOUBLE] != 0:\n"
           "    P[s, F_DOUBLE] = 0\n")
    (tmp_path / "brew.py").write_text(old, encoding="utf-8")
    assert core_naming(book_fields(), [tmp_path / "brew.py"]) == [
        ("brew.py", "F_DOUBLE"), ("brew.py", "F_PROTECT")]


def test_the_potion_fields_are_zeroed_from_the_layout():
    """Every potion starts the books' per-potion fields at 0 as the layout declares them
    (``reset="potion"``), a witch's chips in hand too (A Second Chance's restart)."""
    from sim.kernel import layout
    from sim.kernel.bag import POTION_ZEROED
    from sim.kernel.potions import SINGLE_ZEROED

    zeroed = set(POTION_ZEROED.tolist())
    for name in ("F_NRED", "F_DOUBLE", "F_PROTECT", "F_NHOLD", "F_FIRST_USED", "F_HELD_PTR",
                 "F_SIX_N", "F_NPOT", "F_WHITE"):
        assert getattr(layout, name) in zeroed, name
    assert {layout.ASIDE_NEW + j for j in range(3)} <= zeroed
    assert layout.F_NFIRST not in zeroed and layout.ASIDE not in zeroed  # kept across rounds
    assert SINGLE_ZEROED.tolist() == [layout.ASIDE + j for j in range(3)]


# The Herb Witches' own state, not one witch's: the overflow bowl, the witch pennies, which
# witches were called (the core scores and reports them)
EXPANSION_FIELDS = {"F_BOWL_N", "F_PENNY", "F_WITCHES"}

# Reads of one witch's field outside ``sim/kernel/witches``, each with why: none left (issue 46:
# step A's die callers, step F's ruby prices and their reset are the witches' hook points
# ``die_caller``, ``ruby_price``, ``after_spending``, ``sim.kernel.witches.called_hooks``)
WITCH_READS_LEFT: set[tuple[str, str]] = set()


def witch_fields() -> set[str]:
    """The player-row fields one witch keeps: the layout doc names a witch (the expansion's own,
    ``EXPANSION_FIELDS``, left out)."""
    from sim.kernel.layout import PLAYER

    return {PLAYER.const_name(f) for f in PLAYER.named()
            if "witch" in f.doc.lower()} - EXPANSION_FIELDS


def test_no_card_or_core_module_names_a_witch_field():
    """A Second Chance no longer zeroes the six-chips witch's ``F_SIX_N`` itself: emptying the
    pot does (``reset="potion"``). Outside ``sim/kernel/witches`` only the reads listed in
    ``WITCH_READS_LEFT`` remain."""
    assert {"F_SIX_N", "F_SIX_PTR", "F_BOTH", "F_CHEAP", "F_VISITED"} <= witch_fields()
    assert cards_naming(witch_fields()) == []
    witches = ROOT / "sim" / "kernel" / "witches"
    outside = [p for p in _core() if witches not in p.parents]
    assert set(core_naming(witch_fields(), outside)) == WITCH_READS_LEFT


def test_a_core_module_naming_a_witch_field_is_caught(tmp_path):
    """The check above fails on the old evaluation and costs (step A's die callers read by
    ``F_BOTH``, step F's cheap price by ``F_CHEAP``)."""
    old = ("if P[s, F_BOTH] != 0:\n    P[s, F_BOTH] = 0\nP[s, F_CHEAP] = 0\n")
    (tmp_path / "evaluation.py").write_text(old, encoding="utf-8")
    (tmp_path / "costs.py").write_text("return 1 if P[s, F_CHEAP] != 0 else R[R_RUBY_FLASK]\n",
                                       encoding="utf-8")
    assert set(core_naming(witch_fields(), sorted(tmp_path.glob("*.py")))) == {
        ("evaluation.py", "F_BOTH"), ("evaluation.py", "F_CHEAP"), ("costs.py", "F_CHEAP")}


def test_the_core_calls_the_witches_for_what_it_does_for_them():
    """Step A's die callers and step F's ruby prices and their end are hook points of the witches
    (``CALLED_HOOK_POINTS``), called by the core through the generated ``called_hooks``: both
    rewards and cheap rubies serve them, and a game without witches makes one compare at each
    (``R_WITCHES``)."""
    from sim.kernel.witches import called_hooks
    from sim.rules.witch_declare import CALLED_HOOK_POINTS, WITCH_HOOKS
    from sim.rules.witch_files import WITCH_SOURCES

    assert set(CALLED_HOOK_POINTS) <= set(WITCH_HOOKS)
    users = {p: [s.decl.id for s in WITCH_SOURCES if p in s.hooks] for p in CALLED_HOOK_POINTS}
    assert users == {"die_caller": ["both-rewards"], "ruby_price": ["cheap-rubies"],
                     "after_spending": ["cheap-rubies"]}
    for point in CALLED_HOOK_POINTS:
        body = called_hooks.SOURCE.split(f"def {point}(")[1].split("@kernel")[0]
        assert body.count("R[R_WITCHES] != 0") == 1, point
    # the cache stamp's marker names the modules of the witches that use these points, each
    markers = re.findall(r"^# numba-cache-depends: (\S+)$",
                         Path(called_hooks.__file__).read_text(encoding="utf-8"), flags=re.M)
    assert sorted(markers) == sorted({s.path.relative_to(ROOT).as_posix() for s in WITCH_SOURCES
                                      if set(s.hooks) & set(CALLED_HOOK_POINTS)})
    core = ROOT / "sim" / "kernel"
    assert "called_hooks.die_caller(" in (core / "evaluation.py").read_text(encoding="utf-8")
    assert "called_hooks.after_spending(" in (core / "evaluation.py").read_text(encoding="utf-8")
    assert (core / "costs.py").read_text(encoding="utf-8").count("ruby_price(") == 2


def test_a_card_naming_a_witch_field_is_caught(tmp_path):
    """The check above fails on the old A Second Chance's line."""
    (tmp_path / "old.py").write_text("P[s, F_SIX_N] = 0\n", encoding="utf-8")
    assert cards_naming(witch_fields(), tmp_path) == [("old.py", "F_SIX_N")]


def test_the_cards_touch_no_book_field():
    """A Second Chance's restart gives red Set 2's chips set aside back and has green Set 5's
    picks placed first again through the books' hook point ``potion_restarted``
    (``sim.kernel.books.gain_hooks``), not by their fields: no card names a book's field, nor
    the core's placements the books fill (``CORE_PLACEMENT_FIELDS``)."""
    assert cards_naming(book_fields() | CORE_PLACEMENT_FIELDS) == []
    for book in ("red_2", "green_5"):
        assert "def potion_restarted(" in (BOOKS / f"{book}.py").read_text(encoding="utf-8")


def test_a_card_naming_a_book_field_is_caught(tmp_path):
    """The check above fails on a card that names one (the old A Second Chance's lines)."""
    old = "first = P[s, F_FIRST_USED]\nP[s, F_NFIRST] = first\nP[s, ASIDE + j] -= 1\n"
    (tmp_path / "old.py").write_text(old, encoding="utf-8")
    assert cards_naming(book_fields() | CORE_PLACEMENT_FIELDS, tmp_path) == [
        ("old.py", "ASIDE"), ("old.py", "F_FIRST_USED"), ("old.py", "F_NFIRST")]


def test_the_core_tests_no_books_set_number():
    """No ``books.get("yellow") == 5`` or ``R[R_BOOK + c] == 2``: what a book does that the core
    must know (``quacks potion --draws``: which chips a potion may put back into the bag) is
    declared with the book (``puts_back``)."""
    set_test = re.compile(r"""(books(\.get\(|\[)["'][a-z]+["']\)?\]?|R_BOOK \+ \w+\])\s*==\s*\d""")
    for path in _core():
        assert not set_test.search(path.read_text(encoding="utf-8")), path
    declared = {(s.decl.colour, s.decl.set): s.decl.puts_back for s in shipped_books()}
    assert declared[("yellow", 1)] == "white" and declared[("yellow", 5)] == "any"
    assert {v for k, v in declared.items() if k not in (("yellow", 1), ("yellow", 5))} == {""}


# --- events: a book's own events are declared with it (event(...)), the core's list names none ---

def _book_events() -> dict[str, list]:
    """Every shipped book's own events: name -> (book, declaration) for each book declaring it."""
    out: dict[str, list] = {}
    for src in shipped_books():
        for e in src.decl.events:
            out.setdefault(e.name, []).append((src.decl, e))
    return out


def test_the_books_declare_their_events_and_the_core_list_names_none():
    from sim.kernel.event_codes import EVENT_CODES

    declared = _book_events()
    assert {"protect", "red_after", "blue_look", "yellow_return", "green", "purple",
            "locoweed", "blue_white"} <= set(declared)
    assert not set(declared) & {name for _, name in EVENT_CODES}
    # rules that declare one name (purple Sets 3, 6: purple_vp) declare it alike
    for name, users in declared.items():
        assert len({(e.text, e.fields, e.text_by)
                    for _, e in users}) == 1, name
    # the kernel outside the books and the api name no book's event: no EV_ constant of theirs
    # (none is in sim.kernel.layout), and the api no event name of theirs as a string (but a
    # colour's)
    from sim.kernel import layout as L

    consts = {line.split(" = event_code")[0] for src in shipped_books()
              for line in src.path.read_text(encoding="utf-8").splitlines()
              if " = event_code(BOOK," in line}
    assert "EV_PROTECT" in consts and not consts & set(vars(L))
    names = [n for n in declared if n not in BOOK_COLOUR_NAMES]
    for path in _core():
        text = path.read_text(encoding="utf-8")
        for name in names if ROOT / "sim" / "api" in path.parents else ():
            assert f'"{name}"' not in text and f"'{name}'" not in text, (path, name)
        for const in consts:
            assert not re.search(rf"\b{const}\b", text), (path, const)


def test_each_books_declared_event_is_recorded_with_its_code():
    """A book module's ``EV_X = event_code(BOOK, "name")``: one per declared event, each one
    recorded (``record(E, G, s, EV_X, ...)``) in the module."""
    for src in shipped_books():
        text = src.path.read_text(encoding="utf-8")
        got = re.findall(r'^(EV_\w+) = event_code\(BOOK, "(\w+)"\)$', text, flags=re.M)
        assert sorted(n for _, n in got) == sorted(e.name for e in src.decl.events), src.path
        for const, _ in got:
            assert re.search(rf"record\(E, G, \w+, {const}, ", text), (src.path, const)


def test_rule_event_codes_never_collide():
    """A rule's codes come from its declaration (a book's colour and set, a card's or witch's
    number) and its events' order: every book any colour may have, every card and witch the
    kernel has room for, and the core's, all distinct; the shipped rules' codes are those."""
    from sim.api.event_table import EVENTS, rule_events
    from sim.kernel.event_codes import (
        CARD_EVENTS,
        LAST_EVENT_CODE,
        RULE_EVENTS,
        WITCH_EVENTS,
        event_code,
    )
    from sim.rules.card_numbers import MAX_CARDS
    from sim.rules.declare import BOOK_SETS, EVENTS_PER_RULE, card, event
    from sim.rules.declare import book as declare_book
    from sim.rules.declare import witch as declare_witch
    from sim.rules.witch_files import MAX_WITCH, WITCH_SOURCES

    names = [f"e{i}" for i in range(EVENTS_PER_RULE)]
    evs = tuple(event(n, text=n) for n in names)
    codes = [e.code for e in EVENTS]
    for colour in BOOK_COLOUR_NAMES:
        for s in range(1, BOOK_SETS):
            b = declare_book(colour, s, "draw", name="x", doc="x", events=evs)
            codes += [event_code(b, n) for n in names]
    for number in range(1, MAX_CARDS + 1):
        c = card(number, "x", "blue", name="x", doc="x", events=evs)
        codes += [event_code(c, n) for n in names]
    wevs = (event("witch", b="b"), *evs[1:])
    for number in range(1, MAX_WITCH + 1):
        w = declare_witch(number, "x", "potion", name="x", doc="x", events=wevs)
        codes += [event_code(w, e.name) for e in wevs]
    assert len(set(codes)) == len(codes)
    assert max(e.code for e in EVENTS) < RULE_EVENTS <= min(codes[len(EVENTS):])
    assert max(codes) == LAST_EVENT_CODE and WITCH_EVENTS > CARD_EVENTS > RULE_EVENTS
    shipped = rule_events()
    assert len(shipped) == sum(len(s.decl.events) for s in shipped_books()) + sum(
        len(s.decl.events) for s in WITCH_SOURCES)
    assert all(c in codes for c in shipped)


def test_a_rule_declares_at_most_its_codes_and_names_its_events():
    import pytest

    from sim.rules.declare import BOOK_SETS, EVENTS_PER_RULE, event
    from sim.rules.declare import book as declare_book

    many = tuple(event(f"e{i}", text="x") for i in range(EVENTS_PER_RULE + 1))
    with pytest.raises(ValueError, match="at most"):
        declare_book("red", 7, "draw", name="x", doc="x", events=many)
    with pytest.raises(ValueError, match="one a name"):
        declare_book("red", 7, "draw", name="x", doc="x", events=many[:1] * 2)
    with pytest.raises(ValueError, match="set number"):
        declare_book("red", BOOK_SETS, "draw", name="x", doc="x")
    with pytest.raises(ValueError, match="kind"):
        event("x", a="n:float")


def test_a_book_declares_one_event_without_a_tuple_and_is_named_by_its_colour_and_set():
    """``events=event(...)`` is a rule's one event (as ``events=(event(...),)``); a book that
    gives no ``name`` is called "<Colour> Set <set>", as the shipped books are."""
    from sim.rules.declare import book as declare_book
    from sim.rules.declare import card, event

    one = event("e0", a="n", text="x")
    b = declare_book("red", 7, "draw", doc="x", events=one)
    assert b.events == (one,) == declare_book("red", 7, "draw", doc="x", events=(one,)).events
    assert b.name == "Red Set 7"
    assert card(0, "x", "blue", name="x", doc="x", events=one).events == (one,)
    assert {s.decl.name for s in shipped_books() if s.decl.id == "locoweed-5"} == {
        "Locoweed Set 5"}


def test_a_books_event_decodes_and_reads_as_declared():
    """The api's entries for the books' events are built from their declarations: fields by
    kind, or the book's decoder, and the replay text (worked by hand)."""
    from sim.api.event_table import event_by_name
    from sim.api.events import event_dict, event_text
    from sim.kernel.event_codes import event_code
    blue2 = next(s.decl for s in shipped_books() if s.decl.id == "blue-2")
    code = event_code(blue2, "protect")
    assert event_by_name("protect").code == code and event_by_name("protect").rule == "blue-2"
    d = event_dict((3, 1, code, 2, 0, 0))
    assert d == {"round": 3, "event": "protect", "seat": 1, "draws": 2}
    assert event_text(d, ["ann", "bob"]) == "  bob (seat 1): protected for the next 2 draws"
    red2 = next(s.decl for s in shipped_books() if s.decl.id == "red-2")
    from sim.rules.chips import R1 as r1

    bowl = event_dict((1, 0, event_code(red2, "red_after"), r1, 0, 60))
    assert bowl == {"round": 1, "event": "red_after", "seat": 0, "chip": "r1", "action": "bowl",
                    "index": None}
    assert event_text(bowl, ["ann"]) == ("  ann (seat 0): r1 from beside the pot into the "
                                         "overflow bowl")
    loco = event_dict((1, 0, event_by_name("locoweed").code, -1, -1, 0))
    assert loco == {"round": 1, "event": "locoweed", "seat": 0, "copies": None, "spaces": None}


def test_an_event_text_is_left_out_of_the_cache_stamp():
    """``text=`` of an ``event(...)`` is documentation, like ``doc=``: the stamp's code text of a
    book module does not see it; a field's name it does, and another call's ``text=``."""
    from sim import numba_cache as nc

    src = (BOOKS / "blue_2.py").read_text(encoding="utf-8")
    old = '"protected for the next {draws:~draw}"'
    assert old in src
    assert nc.code_text(src) == nc.code_text(src.replace(old, '"protected: {draws:~draw}"'))
    assert nc.code_text(src) != nc.code_text(src.replace('a="draws"', 'a="window"'))
    other = "x = f(text='a')\n"
    assert nc.code_text(other) != nc.code_text(other.replace("'a'", "'b'"))


# --- a witch's events are declared with her: witch(..., events=(event("witch", ...), ...)) ---

def test_the_witches_declare_their_events():
    """Every witch's first event is her call's (``witch``: ``call_witch`` records it with her
    first code, its ``a`` her number), its fields declared from ``b`` and ``c``; six chips
    declares ``witch_look`` and records it with ``event_code(WITCH, "witch_look")``. The core's
    list names no witch's event (``witch`` there is the pennies scored at the end) and no module
    outside the witches names ``EV_WITCH_LOOK``."""
    from sim.kernel.event_codes import EVENT_CODES, WITCH_EVENTS, event_code
    from sim.rules.event_declare import EVENTS_PER_RULE
    from sim.rules.witch_declare import WITCH_CALL
    from sim.rules.witch_files import WITCH_SOURCES

    witches = ROOT / "sim" / "kernel" / "witches"
    for src in WITCH_SOURCES:
        d = src.decl
        assert d.events[0].name == WITCH_CALL and not d.events[0].a, d.id
        assert event_code(d, WITCH_CALL) == WITCH_EVENTS + d.number * EVENTS_PER_RULE
        text = src.path.read_text(encoding="utf-8")
        got = re.findall(r'^(EV_\w+) = event_code\(WITCH, "(\w+)"\)$', text, flags=re.M)
        assert sorted(n for _, n in got) == sorted(e.name for e in d.events[1:]), d.id
        for const, _ in got:
            assert re.search(rf"record\(E, G, \w+, {const}, ", text), (d.id, const)
    six = next(s.decl for s in WITCH_SOURCES if s.decl.id == "six-chips")
    assert [e.name for e in six.events] == ["witch", "witch_look"]
    assert "witch_look" not in {name for _, name in EVENT_CODES}
    common = (witches / "common.py").read_text(encoding="utf-8")
    assert "record(E, G, s, WITCH_EVENTS + w * EVENTS_PER_RULE, w, b, c)" in common
    for path in _core():
        if witches not in path.parents:
            assert "EV_WITCH_LOOK" not in path.read_text(encoding="utf-8"), path


def test_a_witchs_events_decode_and_read_as_before():
    """Worked by hand: her call shows which witch and the fields she declares (as her old
    ``event=`` lambda gave them), with the ``witch`` event's text; six chips' look, the chip; the
    pennies at the end stay the core's ``witch`` event."""
    from sim.api.events import event_dict, event_text
    from sim.kernel.event_codes import EVENT_CONSTANTS, event_code
    from sim.rules.witch_files import WITCH_SOURCES

    decl = {s.decl.id: s.decl for s in WITCH_SOURCES}
    both = event_dict((3, 1, event_code(decl["both-rewards"], "witch"), 4, 12, 0))
    assert both == {"round": 3, "event": "witch", "seat": 1, "witch": "both-rewards",
                    "reward_space": 12}
    assert event_text(both, ["ann", "bob"]) == \
        "  bob (seat 1): witch: witch both-rewards, reward space 12"
    whites = event_dict((2, 0, event_code(decl["whites-back"], "witch"), 3, 2, 2 * 32 + 1))
    assert whites == {"round": 2, "event": "witch", "seat": 0, "witch": "whites-back",
                      "whites": 2, "chips": ["w2", "w1"]}
    up = event_dict((5, 0, event_code(decl["upgrade"], "witch"), 5, 0, 1))
    assert up == {"round": 5, "event": "witch", "seat": 0, "witch": "upgrade",
                  "chips_upgraded": 1}
    from sim.rules.chips import R1

    look = event_dict((1, 1, event_code(decl["six-chips"], "witch_look"), R1, 0, 0))
    assert look == {"round": 1, "event": "witch_look", "seat": 1, "chip": "r1"}
    assert event_text(look, ["ann", "bob"]) == "  bob (seat 1): witch look: chip r1"
    pennies = event_dict((9, 0, EVENT_CONSTANTS["EV_WITCH"], 0, 2, 2))
    assert pennies == {"round": 9, "event": "witch", "seat": 0, "pennies_kept": 2, "vp": 2}


def test_a_witch_declared_the_old_way_is_told_how():
    import pytest

    from sim.rules.declare import event, witch

    with pytest.raises(ValueError, match=r"event= is now events="):
        witch(0, "x", "points", name="x", doc="x", event=lambda b, c: {})
    with pytest.raises(ValueError, match="comes first"):
        witch(0, "x", "points", name="x", doc="x",
              events=(event("look", a="chip:chip"), event("witch", b="vp")))
    with pytest.raises(ValueError, match="no text="):
        witch(0, "x", "points", name="x", doc="x", events=(event("witch", b="vp", text="{vp}"),))
    plain = witch(0, "x", "points", name="x", doc="x")
    assert [(e.name, e.b, e.c) for e in plain.events] == [("witch", "b", "c")]
