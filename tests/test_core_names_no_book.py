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


def test_the_book_fields_are_read_from_the_layout():
    assert {"ASIDE", "ASIDE_NEW", "FIRST_T", "F_NFIRST", "F_FIRST_USED", "HOLD_T", "F_NHOLD",
            "F_HELD_PTR", "F_NRED", "F_DOUBLE", "F_PROTECT"} <= book_fields()
    assert "F_BASE_LIMIT" not in book_fields() and "F_WHITE" not in book_fields()


def test_the_cards_touch_no_book_field():
    """A Second Chance's restart gives red Set 2's chips set aside back and has green Set 5's
    picks placed first again through the books' hook point ``potion_restarted``
    (``sim.kernel.books.gain_hooks``), not by their fields: no card names a book's field."""
    assert cards_naming(book_fields()) == []
    for book in ("red_2", "green_5"):
        assert "def potion_restarted(" in (BOOKS / f"{book}.py").read_text(encoding="utf-8")


def test_a_card_naming_a_book_field_is_caught(tmp_path):
    """The check above fails on a card that names one (the old A Second Chance's lines)."""
    old = "first = P[s, F_FIRST_USED]\nP[s, F_NFIRST] = first\nP[s, ASIDE + j] -= 1\n"
    (tmp_path / "old.py").write_text(old, encoding="utf-8")
    assert cards_naming(book_fields(), tmp_path) == [
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
