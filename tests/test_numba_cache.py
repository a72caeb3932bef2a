"""The Numba cache's freshness stamp reads each kernel module's imports with a regular expression
(fast at start-up); it must find every project module that Python's own parser finds, or a stale
compiled kernel could survive an edit to a module it depends on."""

from __future__ import annotations

import ast
import re
import shutil

import pytest

from sim import numba_cache as nc

FILES = sorted(p.relative_to(nc.ROOT).as_posix()
               for pattern in ("sim/**/*.py", "strategies/**/*.py") for p in nc.ROOT.glob(pattern))


def parsed_imports(rel: str) -> set[str]:
    """The project modules ``rel`` imports, by ``ast`` (every name of a ``from`` import tried as
    a submodule), and those its ``# numba-cache-depends: <glob>`` lines name (a module that
    imports by a computed name: the cards' generated hook table), with the package ``__init__``
    dropped where a module inside it was found."""
    package = rel.rsplit("/", 1)[0].replace("/", ".")
    found: set[str] = set()
    for line in (nc.ROOT / rel).read_text(encoding="utf-8").splitlines():
        if line.startswith("# numba-cache-depends: "):
            found |= {p.relative_to(nc.ROOT).as_posix() for p in nc.ROOT.glob(line.split()[-1])
                      if p.relative_to(nc.ROOT).as_posix() != rel}
    for node in ast.walk(ast.parse((nc.ROOT / rel).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:
                parts = package.split(".")
                mod = ".".join(parts[:len(parts) - node.level + 1] + ([mod] if mod else []))
            names = [mod, *(f"{mod}.{a.name}" for a in node.names)]
        else:
            continue
        for name in names:
            f = module_file(name)
            if f is not None and f != rel:
                found.add(f)
    return {f for f in found if not (f.endswith("__init__.py") and any(
        g != f and g.startswith(f[: -len("__init__.py")]) for g in found))}


def module_file(name: str) -> str | None:
    """The project file of a dotted module name (as the cache resolves it)."""
    base = name.replace(".", "/")
    for rel in (f"{base}.py", f"{base}/__init__.py"):
        if name.split(".")[0] in nc.PACKAGES and (nc.ROOT / rel).is_file():
            return rel
    return None


@pytest.mark.parametrize("rel", FILES)
def test_import_scan_agrees_with_the_parser(rel):
    assert set(nc.imports_of(rel)) == parsed_imports(rel)


def test_import_scan_reads_every_form(tmp_path, monkeypatch):
    pkg = tmp_path / "sim" / "kernel"
    pkg.mkdir(parents=True)
    for name in ("__init__.py", "a.py", "b.py", "c.py", "d.py"):
        (pkg / name).write_text("")
    (tmp_path / "sim" / "__init__.py").write_text("")
    (tmp_path / "sim" / "rules.py").write_text("")
    (pkg / "e.py").write_text(
        "from sim.kernel import (\n    a,  # the first\n    b as bee,\n)\n"
        "def f():\n    from . import c\n    import sim.rules as r\n"
        "from .d import thing\nimport numpy as np\n")
    monkeypatch.setattr(nc, "ROOT", tmp_path)
    nc.imports_of.cache_clear()
    try:
        assert nc.imports_of("sim/kernel/e.py") == (
            "sim/kernel/a.py", "sim/kernel/b.py", "sim/kernel/c.py", "sim/kernel/d.py",
            "sim/rules.py")
    finally:
        nc.imports_of.cache_clear()


# --- the stamp hashes code, not text -------------------------------------------------------------

KERNEL_SOURCE = re.compile(r"^\s*@kernel\b|cache=True", re.M)


def compiled_modules(root) -> list[str]:
    """The project modules that define a function Numba caches on disk."""
    return sorted(p.relative_to(root).as_posix() for pkg in nc.PACKAGES
                  for p in (root / pkg).rglob("*.py")
                  if KERNEL_SOURCE.search(p.read_text(encoding="utf-8")))


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A copy of the project's sources as the cache's root, and a function giving every compiled
    module's stamp after editing the copy: ``stamps(edits)``, edits ``(file, old, new)``."""
    for pkg in nc.PACKAGES:
        shutil.copytree(nc.ROOT / pkg, tmp_path / pkg)
    monkeypatch.setattr(nc, "ROOT", tmp_path)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    caches = (nc.imports_of, nc.closure, nc.code_hash, nc.module_stamp, nc._code_hash_memo)

    def stamps(edits=()):
        for rel, old, new in edits:
            path = tmp_path / rel
            text = path.read_text(encoding="utf-8")
            assert old in text, (rel, old)
            path.write_text(text.replace(old, new, 1), encoding="utf-8")
        for f in caches:
            f.cache_clear()
        return {m: nc.module_stamp(m) for m in compiled_modules(tmp_path)}

    yield stamps
    for f in caches:
        f.cache_clear()


def changed(before: dict, after: dict) -> list[str]:
    return sorted(m for m in before if before[m] != after[m])


def test_code_text_ignores_docstrings_comments_layout_and_docs():
    code = ('"""Module."""\nimport x\n\n\nclass A:\n    """A."""\n\n    def f(self, a):\n'
            '        """F."""\n        return g(a, doc="the meaning")  # why\n')
    same = ('"""Another text,\nover two lines."""\nimport x\nclass A:\n    """B."""\n'
            '    def f(self, a):\n        """G."""\n\n        return g(a,\n'
            '                 doc="other")\n')
    assert nc.code_text(code) == nc.code_text(same)
    for old, new in (("return g(a", "return g(a + 1"), ('doc="the', 'what="the'),
                     ("import x", "import y")):
        other = code.replace(old, new)
        assert nc.code_text(other) != nc.code_text(code)


def test_a_docstring_comment_or_field_doc_edit_changes_no_stamp(tree):
    before = tree()
    assert len(before) > 100
    after = tree([
        ("sim/kernel/layout.py", '"""Fixed layouts', '"""Fixed (edited)\n\nlayouts'),
        ("sim/kernel/bag.py", "from __future__", "# a new comment\nfrom __future__"),
        ("sim/kernel/layout.py", 'doc="1 = full"', 'doc="1: the flask is full"'),
        ("sim/kernel/jit.py", '"""Compile ``fn`` as a kernel function.',
         '"""Compile ``fn`` as a kernel function (edited).'),
        # a card's text is the doc= of its declaration, in its own module
        ("sim/kernel/cards/rat_infestation.py", '"Rat tails count double this round."',
         '"Rat tails count twice this round."'),
        # a witch's is the first paragraph of her module's docstring (doc=__doc__)
        ("sim/kernel/witches/second_flask.py", "bag, the flask empties",
         "bag, the flask is emptied"),
        # and a book's, of its module's docstring (doc=__doc__)
        ("sim/kernel/books/red_1.py", "the red chip moves 1 extra space",
         "the red chip moves one extra space"),
    ])
    assert changed(before, after) == []


def test_a_code_edit_changes_the_stamps_of_its_users(tree):
    before = tree()
    after = tree([("sim/kernel/bag.py", "from __future__ import annotations",
                   "from __future__ import annotations\nX_NEW = 1")])
    hit = changed(before, after)
    assert "sim/kernel/bag.py" in hit and "sim/kernel/game.py" in hit
    assert set(hit) == {m for m in before if "sim/kernel/bag.py" in nc.closure(m)}


def test_a_cached_function_is_not_named_by_its_line():
    from sim.kernel.bag import draw_chip

    loc = nc.ProjectCacheLocator.from_function(draw_chip.py_func, draw_chip.py_func.__code__
                                               .co_filename)
    # named by its module's code stamp (tests/test_cache_stamps.py), not by its line number
    assert loc.get_disambiguator() == nc.CACHE_DISAMBIGUATOR + nc.module_stamp("sim/kernel/bag.py")


# human texts live where no kernel looks: each edit below is one a writer makes (an event's replay
# text, a stop reason, a card's text and name, a card effect's text, a book's text; a witch's
# text is the doc= of her declaration, below)
TEXT_EDITS = [
    ("sim/api/event_table.py", '"draws {chip}"', '"draws the chip {chip}"'),
    ("sim/api/event_table.py", '"bag empty"', '"the bag is empty"'),
    ("sim/api/event_table.py", '"card: {effect} {chip|amount}"', '"card effect: {effect} '
     '{chip|amount}"'),
    ("sim/rules/books.py", '"tier 0..3"', '"the tier, 0..3"'),
]
TEXT_MODULES = sorted({rel for rel, _, _ in TEXT_EDITS})


def test_no_compiled_module_imports_a_text_module():
    for m in compiled_modules(nc.ROOT):
        assert not set(nc.closure(m)) & set(TEXT_MODULES), m


def test_a_text_edit_changes_no_stamp(tree):
    before = tree()
    assert changed(before, tree(TEXT_EDITS)) == []


def test_a_card_rule_edit_changes_only_what_uses_that_card(tree):
    """A card's own number (Just in Time's 4 VP) is declared in its module: editing it changes
    the stamps of that module and of the modules that call it (the hook table and the round
    above it, master's card choices), no other card's and no book's or witch's."""
    card = "sim/kernel/cards/just_in_time.py"
    before = tree()
    hit = changed(before, tree([(card, "JUST_IN_TIME_VP = 4", "JUST_IN_TIME_VP = 5")]))
    assert card in hit and "sim/kernel/decisions/master_choices.py" in hit
    assert set(hit) == {m for m in before if card in nc.closure(m)}
    assert not [m for m in hit if m.startswith("sim/kernel/cards/")
                and m not in (card, "sim/kernel/cards/hooks.py")]
    assert len(hit) < len(before) // 4


def test_a_card_that_calls_no_books_hook_point_keeps_the_shared_cache_with_rules_files():
    """Only a card that calls one of the books' hook points the cards share (``GAIN_POINTS`` of
    the generated ``sim.kernel.books.gain_hooks``: a user's book changes them), itself or
    through ``grant_chip``, depends on a generated hook table; the other cards and the cards'
    ``common`` helpers keep the shared cache while a rules file is loaded, so a rules file
    compiles only what its rules reach (``nc.cache_folder``)."""
    from sim.kernel.books.table import GAIN_POINTS

    calls = re.compile(r"\b(" + "|".join((*GAIN_POINTS, "grant_chip")) + r")\(")
    cards = sorted(p.relative_to(nc.ROOT).as_posix()
                   for p in (nc.ROOT / "sim/kernel/cards").glob("*.py")
                   if p.stem not in ("__init__", "hooks"))
    # a rules file whose book changes the books' tables and whose witch the witches' (not the
    # ruby prices): set here, not read from this process's TABLES_AS_SHIPPED, which depends on
    # what the worker imported before this test
    changed = set(nc.RULES_TABLES) - {"sim/kernel/witches/called_hooks.py",
                                      "sim/kernel/cards/hooks.py"}
    apart = {rel for rel in cards if set(nc.closure(rel)) & changed}
    assert "sim/kernel/cards/common.py" not in apart
    assert apart == {rel for rel in cards
                     if calls.search((nc.ROOT / rel).read_text(encoding="utf-8"))}
    assert len(apart) < len(cards) // 2


def test_a_table_no_rules_file_changes_keeps_its_dependents_in_the_shared_cache(monkeypatch):
    """The witches' ruby prices (``called_hooks``) sit under every decision (``decide`` imports
    ``costs``): while no user's witch uses their hook points the table is the shipped one, and a
    rules file sends none of its dependents apart; a table a rules file does change does."""
    rel = "sim/kernel/decisions/decide.py"
    called = "sim/kernel/witches/called_hooks.py"
    assert called in nc.closure(rel)
    monkeypatch.setitem(nc.RULES_FILES, "/x/my_rule.py", "0" * 32)
    others = set(nc.closure(rel)) & set(nc.RULES_TABLES) - {called}
    monkeypatch.setattr(nc, "TABLES_AS_SHIPPED", {called} | others)
    assert nc.rules_key() not in nc.cache_folder(rel)
    monkeypatch.setattr(nc, "TABLES_AS_SHIPPED", set(others))
    assert nc.rules_key() in nc.cache_folder(rel)
    with pytest.raises(ValueError, match="no generated hook table"):
        nc.table_as_shipped("sim/kernel/costs.py")
    # a user's witch using a called hook point makes the table hers:
    # test_a_rules_file_sends_apart_only_the_tables_its_rules_change[ruby_kin.py]


TABLES_IMPORT = """
import json, sys
from sim.cli.user_input import load_rules_files
load_rules_files(sys.argv[1:])
import sim.kernel.books.gain_hooks, sim.kernel.books.hooks, sim.kernel.cards.hooks
import sim.kernel.witches.called_hooks, sim.kernel.witches.hooks, sim.kernel.witches.potion_hooks
from sim import numba_cache as nc
print(json.dumps(sorted(set(nc.RULES_TABLES) - nc.TABLES_AS_SHIPPED)))
"""
# a purple card with no hook point: the cards' table text is the shipped one, but the bits of the
# purple cards (PURPLE_CARDS, named by it) are not
PURPLE_NO_HOOKS = """
from sim.rules.declare import PURPLE, card

CARD = card(0, "quiet-purple", PURPLE, name="Quiet Purple", doc="Nothing happens.")
"""
# a witch at a hook point of the called witches (the ruby prices under every decision)
RUBY_KIN = """
from sim.rules.declare import witch

WITCH = witch(0, "ruby-kin", "buying", name="Ruby Kin", phase="step F", doc="Usual prices.")


def ruby_price(P, s, price):
    return price
"""
USER_FILES = {"quiet_purple.py": PURPLE_NO_HOOKS, "ruby_kin.py": RUBY_KIN}


@pytest.mark.parametrize(("files", "changed"), [
    (["lucky_clover.py"], ["cards/hooks"]),
    (["green_sprouts.py"], ["books/hooks"]),  # placed: not a hook point the cards call too
    (["pumpkin_purse.py"], ["witches/hooks"]),  # before_buying only
    (["lucky_clover.py", "pumpkin_purse.py"], ["cards/hooks", "witches/hooks"]),
    (["quiet_purple.py"], ["cards/hooks"]),
    (["ruby_kin.py"], ["witches/called_hooks"]),
])
def test_a_rules_file_sends_apart_only_the_tables_its_rules_change(tmp_path, files, changed):
    """Each generated hook table compares its text (and the values it names) with the one the
    shipped rules alone generate: a rules file with only a card changes the cards' table and
    no book's or witch's, so their dependents keep the shared cache (``nc.TABLES_AS_SHIPPED``)."""
    import json
    import os
    import subprocess
    import sys

    for name, text in USER_FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    paths = [str(tmp_path / f if f in USER_FILES else nc.ROOT / "experiments/rules" / f)
             for f in files]
    got = subprocess.run([sys.executable, "-c", TABLES_IMPORT, *paths], capture_output=True,
                         text=True, cwd=nc.ROOT, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(nc.ROOT)})
    assert got.returncode == 0, got.stderr[-2000:]
    assert json.loads(got.stdout.splitlines()[-1]) == [f"sim/kernel/{t}.py" for t in changed]
