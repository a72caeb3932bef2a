"""A shipped book's text is written once, as the opening paragraph of its module's docstring
(``book(..., doc=__doc__)``), and reads the same whether its declaration is read without importing
the kernel (``read_book``) or imported; a user's book may still give its text as a string."""

from __future__ import annotations

import ast
import importlib

from sim.rules.book_files import SHIPPED_BOOKS_FOLDER, shipped_books
from sim.rules.card_files import read_book
from sim.rules.declare import book, rule_text


def test_a_book_takes_the_first_paragraph_of_a_docstring_as_its_text():
    d = book("green", 7, "draw", name="Sprouts", doc="A green chip\n    scores.\n\nHow: ...\n")
    assert d.doc == "A green chip scores."
    assert book("green", 7, "draw", name="Sprouts", doc="One line.").doc == "One line."


def test_a_user_book_may_take_its_text_from_the_docstring_or_a_string(tmp_path):
    """Read without importing, ``doc=__doc__`` is the file's docstring (not the builtins')."""
    head = "from sim.rules.declare import book\n\n"
    path = tmp_path / "sprouts.py"
    path.write_text('"""A green chip placed scores\nits value.\n\nHow it plays: ..."""\n\n' + head
                    + "BOOK = book('green', 7, 'draw', name='Sprouts', doc=__doc__)\n",
                    encoding="utf-8")
    assert read_book(path).decl.doc == "A green chip placed scores its value."
    path.write_text('"""Developer notes."""\n\n' + head + "BOOK = book('green', 7, 'draw', "
                    "name='Sprouts', doc=('A green chip placed scores ' 'its value.'))\n",
                    encoding="utf-8")
    assert read_book(path).decl.doc == "A green chip placed scores its value."


def test_every_shipped_book_opens_its_docstring_with_its_text():
    books = shipped_books()
    assert len(books) >= 30
    for src in books:
        path = SHIPPED_BOOKS_FOLDER / f"{src.decl.colour}_{src.decl.set}.py"
        text = path.read_text(encoding="utf-8")
        doc = ast.get_docstring(ast.parse(text))
        assert src.decl.doc and rule_text(doc) == src.decl.doc, src.decl.id
        assert "\n" not in src.decl.doc and src.decl.doc != doc, src.decl.id
        mod = importlib.import_module(f"sim.kernel.books.{path.stem}")
        assert mod.BOOK.doc == src.decl.doc, src.decl.id
        assert "doc=__doc__" in text.split('"""', 2)[2], f"{src.decl.id}: text not doc=__doc__"
