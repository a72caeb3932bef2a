"""A witch's text is written once, as the opening paragraph of her module's docstring
(``witch(..., doc=__doc__)``), and reads the same whether her declaration is read without
importing the kernel (``read_witch``) or imported."""

from __future__ import annotations

import ast
import importlib

from sim.rules.declare import rule_text
from sim.rules.witch_files import SHIPPED_WITCH_FOLDER, read_witch, shipped_witches


def test_rule_text_is_the_first_paragraph_joined():
    assert rule_text("One line.") == "One line."
    assert rule_text("Two\nlines.\n\nMore about it.\n") == "Two lines."
    assert rule_text("\nIndented\n    lines.\n") == "Indented lines."


def test_a_user_witch_may_take_her_text_from_the_docstring(tmp_path):
    """Read without importing, ``doc=__doc__`` is the file's docstring (not the builtins')."""
    path = tmp_path / "purse.py"
    path.write_text('"""Before buying, 1 coin for every\norange chip.\n\nHow she plays: ..."""\n\n'
                    "from sim.rules.declare import witch\n\n"
                    "WITCH = witch(0, 'purse', 'buying', name='Purse', doc=__doc__)\n",
                    encoding="utf-8")
    src = read_witch(path)
    assert src.decl.doc == "Before buying, 1 coin for every orange chip."


def test_every_shipped_witch_opens_her_docstring_with_her_text():
    for src in shipped_witches():
        path = SHIPPED_WITCH_FOLDER / f"{src.module}.py"
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        assert src.decl.doc and rule_text(doc) == src.decl.doc, src.decl.id
        mod = importlib.import_module(f"sim.kernel.witches.{src.module}")
        assert mod.WITCH.doc == src.decl.doc, src.decl.id
        assert src.decl.doc not in path.read_text(encoding="utf-8").split('"""', 2)[2], \
            f"{src.decl.id}: her text written again below the docstring"
