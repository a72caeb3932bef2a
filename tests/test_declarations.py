"""The declared tables (state rows, records, event codes, card / witch / question numbers) are
consistent, and the constants the kernel uses are the ones they compute. Imports only; compiles
no kernel."""

from __future__ import annotations

import ast
import importlib
import re
import string
from pathlib import Path

import pyarrow as pa
import pytest

from sim.api import event_table
from sim.api import events as api_events
from sim.api.event_table import EVENTS
from sim.api.game import result_fields, round_fields
from sim.kernel import cards as K
from sim.kernel import layout as L
from sim.kernel import records
from sim.kernel.cards import hooks
from sim.kernel.decisions import slots as S
from sim.kernel.event_codes import EVENT_CODES, EVENT_CONSTANTS
from sim.kernel.fields import Field
from sim.rules import chips
from sim.rules.books import BOOK_QUESTIONS, books
from sim.rules.cards import CARDS, card_number
from sim.rules.witches import GROUPS, WITCHES
from sim.study.reports.schema import ROUND_TYPES, game_types
from sim.study.tournament.statistics import BOUGHT_COLUMNS, ROUND_METRIC_NAMES

TABLES = [(L, L.PLAYER), (L, L.GAME), (L, L.RULES), (records, records.SCRATCH),
          (records, records.ROUND), (records, records.RESULT)]
TABLE_IDS = [t.width_name for _, t in TABLES]


@pytest.mark.parametrize(("module", "table"), TABLES, ids=TABLE_IDS)
def test_fields_do_not_overlap_and_fill_the_width(module, table):
    spans = sorted((off, off + width, name) for name, off, width in table.layout())
    for (_, end, name), (start, _, nxt) in zip(spans, spans[1:]):
        assert end <= start, f"{name} overlaps {nxt}"
    declared = sum(f.width for f in table.fields)  # named fields and spare room
    assert declared == table.width == getattr(module, table.width_name)
    assert spans[-1][1] <= table.width


@pytest.mark.parametrize(("module", "table"), TABLES, ids=TABLE_IDS)
def test_exported_constants_are_the_declared_offsets(module, table):
    for f in table.named():
        value = getattr(module, table.const_name(f))
        assert type(value) is int  # Numba freezes module ints as compile-time constants
        assert value == table.offsets[f.name], table.const_name(f)


def test_kernel_constants_come_from_the_declarations():
    assert L.F_SCORE == L.PLAYER.offsets["score"] == 0
    assert L.BAGCNT == L.PLAYER.offsets["bagcnt"]
    assert L.POT_P == L.POT_T + L.MAX_POT and L.CHIPS == L.POT_P + L.MAX_POT
    assert L.G_DECK == L.GAME.offsets["deck"] and L.R_WITCH_FIXED == L.RULES.offsets["witch_fixed"]
    assert records.O_BOUGHT == records.RESULT.offsets["bought"]
    assert records.RD_CARD == records.ROUND.offsets["card"]
    assert [records.GERR_BUY_UNAVAILABLE, records.GERR_BLUE] == [1, len(records.GAME_ERRORS)]


def test_api_record_fields_name_the_constants():
    for prefix, fields, width in (("O_", result_fields(), records.O_WIDTH),
                                  ("RD_", round_fields(), records.RD_WIDTH)):
        for name, off, w in fields:
            assert name == name.lower() and getattr(records, prefix + name.upper()) == off
            assert off + w <= width
    assert ("bought", records.O_BOUGHT, chips.N_COLOURS) in result_fields()
    assert ("bag", records.RD_BAG, chips.N_COLOURS) in round_fields()
    assert ("card", records.RD_CARD, 1) in round_fields()


@pytest.mark.parametrize(("table", "types", "keys"), [
    (records.RESULT, game_types(True), ("game", "deal", "seed", "combo", "rotation", "seat",
                                        "strategy")),
    (records.ROUND, ROUND_TYPES, ("game", "deal", "round", "seat", "strategy")),
], ids=["games", "rounds"])
def test_every_record_field_reaches_the_report_or_is_internal(table, types, keys):
    declared = []
    for f in table.named():
        assert f.internal or f.columns, f"{f.name}: no report column and not marked internal"
        assert f.internal or len(f.columns) in (1, f.width), f.name
        for c in f.columns:
            assert c in types, f"{f.name} -> {c}: not a report column"
            assert types[c] == getattr(pa, f.arrow)(), c
            if c not in declared:
                declared.append(c)
    assert list(types) == [*keys, *declared]  # nothing else in the report, in declared order


def test_record_columns_agree_with_the_report_statistics():
    cols = list(records.ROUND.column_types())
    assert cols == [*ROUND_METRIC_NAMES, "card"]
    assert ([c for c in records.RESULT.column_types() if c.startswith("bought_")]
            == list(BOUGHT_COLUMNS))


def test_event_codes_are_unique_named_and_have_a_text():
    codes = [e.code for e in EVENTS]
    assert codes == list(range(1, len(EVENTS) + 1))
    for attr in ("const", "name"):
        values = [getattr(e, attr) for e in EVENTS]
        assert all(values) and len(set(values)) == len(values), attr
    assert all(e.text for e in EVENTS)
    assert all(e.const.startswith("EV_") and getattr(L, e.const) == e.code for e in EVENTS)
    assert L.EV_WIDTH == 6 and "EV_WIDTH" not in EVENT_CONSTANTS
    layout_codes = {k: v for k, v in vars(L).items() if k.startswith("EV_") and k != "EV_WIDTH"}
    assert layout_codes == EVENT_CONSTANTS
    assert api_events.EVENT_NAMES == {e.code: e.name for e in EVENTS}
    assert [(e.const, e.name) for e in EVENTS] == list(EVENT_CODES)


def test_every_stop_reason_has_a_text():
    stops = {v for k, v in vars(L).items() if k.startswith("STOP_") and type(v) is int}
    assert stops == set(range(1, len(L.STOP_REASONS) + 1)) == set(event_table.STOP_NAMES)
    assert all(event_table.STOP_NAMES.values())


def test_a_field_doc_is_given_by_keyword():
    """The Numba cache's stamp leaves out ``doc=`` keyword arguments (a field's meaning is no
    code); a doc given by position would count as code, so it is refused."""
    assert Field("x", 2, doc="what it holds").doc == "what it holds"
    with pytest.raises(TypeError):
        Field("x", 2, "what it holds")


PSEUDO_FIELDS = {"title", "fields", "cost"}


def _template_keys(template: str) -> list[tuple[str, str]]:
    return [(name, spec) for _, name, spec, _ in string.Formatter().parse(template) if name]


@pytest.mark.parametrize("event", EVENTS, ids=[e.name for e in EVENTS])
def test_event_text_uses_fields_the_event_has(event):
    decoded = 0
    for a, b, c in ((1, 0, 5), (1, 1, 1), (1, 2, 0), (2, 0, 60)):  # c = 60: past the last space
        try:
            d = api_events.event_dict((2, 0, event.code, a, b, c))
        except IndexError:  # a field value this event never has (a witch 60)
            continue
        decoded += 1
        assert d["event"] == event.name
        template = event.text[d[event.text_by]] if event.text_by else event.text
        for name, spec in _template_keys(template):
            alternatives = name.split("|")
            optional = spec.startswith("?")  # a truth test: an absent key reads as false
            assert optional or any(k in d or k in PSEUDO_FIELDS for k in alternatives), (
                f"{event.name}: {{{name}}} not in {sorted(d)}")
        assert api_events.event_text(d, ["P0", "P1"])
    assert decoded


def test_card_numbers_are_unique_and_agree_with_the_kernel():
    assert [c.number for c in CARDS] == list(range(1, len(CARDS) + 1))
    assert len({c.id for c in CARDS}) == len(CARDS)
    assert K.N_CARDS == len(CARDS)
    kernel = {S.CARD_JUST_IN_TIME: "just-in-time", S.CARD_WELL_STIRRED: "well-stirred",
              S.CARD_JOYFUL_REUNION: "a-joyful-reunion"}
    for number, cid in kernel.items():
        assert CARDS[number - 1].id == cid == CARDS[card_number(cid) - 1].id
    card_consts = {v for k, v in vars(S).items() if k.startswith("CARD_") and type(v) is int}
    assert card_consts - {S.CARD_DEFAULT, S.CARD_TAKE_OTHER} <= {c.number for c in CARDS}


def test_every_card_is_a_unit():
    """Each card is one module in sim.kernel.cards (named after the id) that declares it (CARD =
    card(...), the one place its number is written: its functions read the round's card), the
    generated hook table calls it at every hook point it names, and no round, brewing or
    evaluation module names a card."""
    from sim.rules.card_files import shipped_cards

    assert [s.decl.id for s in shipped_cards()] == [c.id for c in CARDS]
    for src in shipped_cards():
        c = src.decl
        name = c.id.replace("-", "_")
        mod = importlib.import_module(f"sim.kernel.cards.{name}")
        assert mod.CARD == c, name
        text = Path(mod.__file__).read_text(encoding="utf-8")
        assert "CARD.number" not in text and "card_answer(" not in text, (
            f"{name}.py: the card's number again (its functions read G[G_CARD]: common.answer, "
            "common.card_event)")
        assert src.hooks, f"{name}.py uses no hook point"
        for point in src.hooks:
            assert f"        {name}.{point}(" in hooks.SOURCE \
                or f"        return {name}.{point}(" in hooks.SOURCE, (name, point)
    kernel = Path(hooks.__file__).resolve().parent.parent
    for path in [*kernel.glob("*.py"), *kernel.glob("books/*.py")]:
        src = path.read_text(encoding="utf-8")
        assert "card_number(" not in src and "from sim.kernel.cards import" not in src, path
    for path in kernel.glob("cards/*.py"):  # the cards take their numbers from their declaration
        assert "card_number(" not in path.read_text(encoding="utf-8"), path


def test_the_generated_hook_table_is_todays_switch():
    """Each hook point compares the round's card with each card that uses it, in number order,
    and calls the card's function with the arguments it names."""
    src = hooks.SOURCE
    assert ("    if card == 24:\n        return a_second_chance.after_chip(P, s, G, R, SK, SP, "
            "SC, rng, E, UF)\n    return False") in src
    assert ("    if card == 1:\n        roll_the_die.purple_seat(P, s, G, die, DS, supply, rng, E)"
            "\n    elif card == 2:\n        the_pot_is_filling_up.purple_seat(P, s, G, E)") in src
    assert "if card == 4:\n        return rat_infestation.rat_tails(tails_n)" in src
    assert hooks.PURPLE_CARDS == sum(1 << c.number for c in CARDS if c.timing == "purple")


def test_every_book_is_a_unit():
    """Each declared book with an effect has its module in sim.kernel.books (``<colour>_<set>``),
    the book hook table uses it, every module there is a declared book (or the package's own), and
    nothing outside sim/kernel/books tests a book number."""
    from sim.kernel.books import gain_hooks
    from sim.kernel.books import hooks as book_hooks

    hooks_src = book_hooks.SOURCE + gain_hooks.SOURCE  # generated from the books' declarations
    modules = {b.module for b in books() if b.module}
    for name in sorted(modules):
        importlib.import_module(f"sim.kernel.books.{name}")
        assert f"{name}." in hooks_src, f"sim/kernel/books/hooks.py does not use {name}"
    package = Path(book_hooks.__file__).resolve().parent
    found = {p.stem for p in package.glob("*.py")} - {"__init__", "common", "hooks", "table",
                                                      "gain_hooks"}
    assert found == modules, f"modules without a declared book: {sorted(found - modules)}"
    root = package.parent.parent.parent
    book_test = re.compile(r"R_BOOK \+ \w+\]\s*[!=]=")
    for path in [*root.glob("sim/**/*.py"), *root.glob("strategies/**/*.py")]:
        if package in path.resolve().parents:
            continue
        assert not book_test.search(path.read_text(encoding="utf-8")), \
            f"{path}: tests a book number (call a hook in sim/kernel/books/hooks.py)"


def test_book_round_file_keys_are_declared_and_read():
    """The books' round-file keys (sim.rules.books.ROUND_FILE_KEYS) are the round file's keys
    (scripted ones also in a game file's script); each is read by the round-file code by name or
    declared by a book (a scripted key read in its declared form,
    ``round_script.apply_book_script``; a state key by the book's own ``read_state``)."""
    from sim.api import game_file, round_file, round_script
    from sim.rules.book_files import script_keys, state_keys
    from sim.rules.books import ROUND_FILE_KEYS, SCRIPTED
    from sim.rules.declare import BOOK_SCRIPT_FORMS

    src = "".join(Path(m.__file__).read_text(encoding="utf-8") for m in (round_file, round_script))
    declared, state = script_keys(), state_keys()
    assert {"beside", "first"} <= set(state)
    for key, (kind, _) in ROUND_FILE_KEYS.items():
        assert key in round_file.PLAYER_KEYS
        assert (key in game_file.SCRIPT_KEYS) == (kind == SCRIPTED), key
        if key in declared:
            assert {k.form for _, k in declared[key]} <= set(BOOK_SCRIPT_FORMS), key
            assert len({k.shape for _, k in declared[key]}) == 1, f"{key}: one form for all"
        elif key in state:
            assert kind != SCRIPTED, key
            for src_, _ in state[key]:
                text = src_.path.read_text(encoding="utf-8")
                assert "def read_state(" in text, f"{key}: {src_.path.name} has no read_state"
        else:
            assert f'"{key}"' in src, f"no round-file code reads {key!r}"


def test_witch_numbers_are_unique_and_agree_with_the_strategies():
    assert [w.number for w in WITCHES] == list(range(1, len(WITCHES) + 1)) and S.N_WITCHES == 12
    for w in WITCHES:
        assert getattr(S, "W_" + w.id.upper().replace("-", "_")) == w.number
        assert w.group == GROUPS[(w.number - 1) // 4]  # witch k of group g is 4 g + k
    assert S.WQ_SIX_NEXT > S.N_WITCHES


def test_book_questions_are_unique_and_name_a_book():
    assert [q.number for q in BOOK_QUESTIONS] == list(range(1, len(BOOK_QUESTIONS) + 1))
    assert len({q.id for q in BOOK_QUESTIONS}) == len(BOOK_QUESTIONS)
    known = {(b.colour, b.set) for b in books()}
    for q in BOOK_QUESTIONS:
        assert (q.colour, q.set) in known, q.id
        # the book's own module names its question (no Q_* constant in the strategy slots)
        module = Path(S.__file__).parent.parent / "books" / f"{q.colour}_{q.set}.py"
        assert f'question_number("{q.id}")' in module.read_text(encoding="utf-8"), q.id
        assert not hasattr(S, "Q_" + q.id.upper().replace("-", "_")), q.id



def test_every_witch_is_a_unit():
    """Each witch has her module in sim.kernel.witches (named after the id) holding her declared
    number and a built-in answer (``default``), and asks through ``witch_answer`` (or
    ``ask_witch``, ``ask_witch_when``, which fall back to her ``default``); the hook
    table uses the module; nothing outside
    sim.kernel.witches and the strategy slots names a witch by a ``W_*`` constant, and no round,
    brewing, explosion or evaluation module imports a witch's module or numbers a witch."""
    from sim.kernel.witches import hooks as witch_hooks
    from sim.kernel.witches import potion_hooks
    from sim.rules.witch_declare import SCRIPT_FORMS

    hooks_src = witch_hooks.SOURCE + potion_hooks.SOURCE  # the generated tables
    names = []
    for w in WITCHES:
        name = w.id.replace("-", "_")
        names.append(name)
        mod = importlib.import_module(f"sim.kernel.witches.{name}")
        numbers = {v for k, v in vars(mod).items() if k.isupper() and type(v) is int}
        assert w.number in numbers, f"{name}.py: no constant witch_number({w.id!r})"
        assert callable(getattr(mod, "default", None)), name
        assert re.search(r"\b(witch_answer|ask_witch|ask_witch_when)\(",
                         Path(mod.__file__).read_text(encoding="utf-8")), name
        assert f"{name}." in hooks_src, \
            f"sim/kernel/witches/hooks.py (or potion_hooks.py) does not use {name}"
        assert w.script in SCRIPT_FORMS, w.id
        assert w.events[0].name == "witch", w.id  # her call's event first
    root = Path(witch_hooks.__file__).resolve().parents[3]
    witches_dir = Path(witch_hooks.__file__).resolve().parent
    slots_py = root / "sim" / "kernel" / "decisions" / "slots.py"
    consts = {"W_" + w.id.upper().replace("-", "_") for w in WITCHES}
    for top in ("sim", "strategies"):
        for path in (root / top).rglob("*.py"):
            if path.parent == witches_dir or path == slots_py:
                continue
            src = path.read_text(encoding="utf-8")
            found = sorted(c for c in consts if re.search(rf"\b{c}\b", src))
            assert not found, f"{path}: names {found} (only sim/kernel/witches and slots.py may)"
            for node in ast.walk(ast.parse(src)):
                if isinstance(node, ast.ImportFrom) \
                        and (node.module or "").startswith("sim.kernel.witches"):
                    imported = {node.module.rsplit(".", 1)[-1], *(a.name for a in node.names)}
                    assert not imported & set(names), f"{path} imports a witch's module"
            if "kernel" in path.relative_to(root).parts:
                assert "witch_number(" not in src, path


def test_witch_defaults_are_declared_with_each_witch():
    """WITCH_DEFAULTS (copied into every built-in strategy) and the P_W_* offsets come from the
    declaration, and are what they have always been."""
    from sim.rules.witches import param_offset

    assert S.WITCH_DEFAULTS == (0.0, 1, 6, 4, 1, 3, 1, 2, 2, 1, 1, 1, 1, 6, 2.0, 20, 6, 12, 4, 8, 4,
                                4, 0.25)
    assert [S.WITCH_DEFAULTS[w.number] for w in WITCHES] == [w.first_round for w in WITCHES]
    declared = {n: (off, d) for w in WITCHES for n, off, d in w.params}
    slots_params = {k: v for k, v in vars(S).items() if k.startswith("P_W_")}
    assert set(declared) == set(slots_params)
    for name, (off, default) in declared.items():
        assert slots_params[name] == off == param_offset(name) and S.WITCH_DEFAULTS[off] == default
    assert max(off for off, _ in declared.values()) < S.PARAM_WIDTH


def test_record_columns_are_the_report_schema():
    """games.parquet's and rounds.parquet's record columns come from one declaration (the
    records' fields): the columns read from a kernel result are the schema's, with its types,
    and the tournament's round metrics are the round columns but the card."""
    import numpy as np

    from sim.api import columns
    from sim.study.tournament import statistics

    rng = np.random.default_rng(0)
    out = rng.integers(1, 40, (3, 4, records.O_WIDTH))
    rd = rng.integers(-1, 40, (3, 20, 4, records.RD_WIDTH))
    for witches in (False, True):
        types = {k: v for k, v in game_types(witches).items() if k in records.RESULT.column_types()}
        got = columns.game_columns(out, witches)
        assert {k: pa.from_numpy_dtype(v.dtype) for k, v in got.items()} == types
        assert all(len(v) == 12 for v in got.values())
    got = columns.round_columns(rd)
    assert {k: pa.from_numpy_dtype(v.dtype) for k, v in got.items()} == {
        k: v for k, v in ROUND_TYPES.items() if k in records.ROUND.column_types()}
    assert np.array_equal(got["score"], rd[..., records.RD_SCORE].ravel())
    share = columns.game_columns(out, False)["win_share"]
    assert np.array_equal(share, (out[..., records.O_WIN] / out[..., records.O_NWIN]).ravel())
    assert statistics.ROUND_METRIC_NAMES == tuple(c for c in got if c != "card")
