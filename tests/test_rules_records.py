"""A user's rules file (issue 46) as it is recorded and checked, without compiling a kernel: the
books a rules file declares, what a run records of the files loaded (path and code hash, the
ruleset's hash), the cache of the kernels compiled with them, and bad files refused in one line.
The rules played in games are tests/test_rules_files.py's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sim import numba_cache as nc
from sim.rules.card_files import RulesFileError, read_book
from sim.rules.card_numbers import add_card_file
from sim.study.reports.replay import ReplayError, load_run_rules_files

ROOT = Path(__file__).resolve().parent.parent
SPROUTS = ROOT / "experiments" / "rules" / "green_sprouts.py"
CLOVER = ROOT / "experiments" / "rules" / "lucky_clover.py"


def _run(code: str) -> dict:
    got = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT,
                         timeout=300)
    assert got.returncode == 0, got.stderr[-2000:]
    return json.loads(got.stdout.strip().splitlines()[-1])


def _write(tmp_path: Path, name: str, body: str) -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(body), encoding="utf-8")
    return p


def test_a_book_declares_its_colour_set_and_hook_points():
    src = read_book(SPROUTS)
    assert (src.decl.colour, src.decl.set, src.decl.timing, src.decl.prices) == ("green", 7,
                                                                                 "draw", 1)
    assert src.decl.id == "green-7" and src.hooks == ("placed",)


def test_a_loaded_book_is_a_set_the_ruleset_accepts_and_lists():
    got = _run(f"""
        import json
        from sim.rules.ruleset import RulesetError, load_ruleset
        try:
            load_ruleset("base", ["books.green=7"])
            before = ""
        except RulesetError as e:
            before = str(e)
        from sim.cli.user_input import load_rules_files
        load_rules_files([{str(SPROUTS)!r}])
        rs = load_ruleset("base", ["books.green=7"])
        rs.check_implemented()
        from sim.rules.books import books
        from sim.rules.chips import parse_chips
        print(json.dumps({{"before": before, "g2": int(rs.price[parse_chips("g2")[0]]),
                          "book": books()[-1].as_json()}}))
        """)
    assert "books.green" in got["before"]
    assert got["g2"] == 8  # Set 1's price (prices=1)
    assert got["book"]["set"] == 7 and got["book"]["implemented"]


def test_a_run_records_its_rules_files_and_the_ruleset_hash_holds_their_code():
    got = _run(f"""
        import json
        from sim.rules.ruleset import load_ruleset
        base = load_ruleset("base").hash
        from sim.cli.user_input import load_rules_files
        load_rules_files([{str(CLOVER)!r}, {str(SPROUTS)!r}])
        from sim.rules.card_numbers import loaded_rules_files
        print(json.dumps({{
            "files": loaded_rules_files(),
            "same": load_ruleset("base").hash == base,
            "extra": load_ruleset("base", ['cards.extra=["lucky-clover"]']).hash,
            "extra_data": load_ruleset("base", ['cards.extra=["lucky-clover"]']).data,
            "book": load_ruleset("base", ["books.green=7"]).hash}}))
        """)
    assert [f["rules"] for f in got["files"]] == [["lucky-clover"], ["green-7"]]
    assert [Path(f["path"]) for f in got["files"]] == [CLOVER, SPROUTS]
    assert all(len(f["code"]) == 32 for f in got["files"])
    # a ruleset without a user's rule keeps its hash; one that plays it hashes its code too
    import hashlib

    assert got["same"]
    plain = hashlib.sha256(json.dumps(got["extra_data"], sort_keys=True,
                                      separators=(",", ":")).encode()).hexdigest()
    assert got["extra"] != plain and got["book"] != got["extra"]


def test_the_kernels_that_depend_on_a_rules_file_are_cached_apart(monkeypatch):
    base = nc.cache_base()
    assert nc.cache_folder("sim/kernel/round.py") == os.path.join(base, "sim.kernel")
    monkeypatch.setitem(nc.RULES_FILES, "/x/my_card.py", "0" * 32)
    # as a rules file that changes every generated table would leave it (whatever the tables
    # this worker's process installed before said of themselves)
    monkeypatch.setattr(nc, "TABLES_AS_SHIPPED", set())
    key = nc.rules_key()
    assert key.startswith("rules-")
    # the round depends on the generated hook tables; a strategy's decisions do not, and keep
    # the shared cache (a rules file compiles only what it changes)
    assert nc.cache_folder("sim/kernel/round.py") == os.path.join(base, key, "sim.kernel")
    assert nc.cache_folder("sim/kernel/decisions/master.py") == os.path.join(
        base, "sim.kernel.decisions")
    assert nc.cache_base() == base


BOOK_HEADER = """\
from sim.rules.declare import book

BOOK = book("red", 7, "draw", name="My Book", doc="Does something.")
"""


@pytest.mark.parametrize(("body", "message"), [
    (BOOK_HEADER.replace('"red", 7', '"red", 3'), "a user's book is Set 7 or later"),
    (BOOK_HEADER.replace('"draw"', '"later"'), "timing 'later', expected one of draw, B"),
    (BOOK_HEADER + "\n\ndef at_c(P, s):\n    return\n",
     "book 'red-7', function at_c: no such hook point (known: placed, at_b"),
    (BOOK_HEADER + "\n\ndef placed(P, s, coins):\n    return\n",
     "book 'red-7', function placed: argument 'coins' is not one the hook point gives"),
])
def test_a_bad_book_is_refused_in_one_line_naming_it(tmp_path, body, message):
    p = _write(tmp_path, "my_book.py", body)
    with pytest.raises(RulesFileError) as e:
        add_card_file(p)
    assert message in str(e.value) and "my_book.py" in str(e.value)
    assert len(str(e.value).splitlines()) == 1


def test_a_rules_file_that_fails_to_import_is_one_line_exit_2(tmp_path):
    # read without importing, it loads; the kernel imports it before the first game: an
    # ImportError there names the file and the book, exit 2, no traceback
    p = _write(tmp_path, "broken_book.py", BOOK_HEADER.replace(
        "from sim.rules.declare import book",
        "from sim.rules.declare import book\nfrom sim.kernel.layout import NO_SUCH_FIELD") +
        "\n\ndef placed(P, s):\n    return\n")
    got = subprocess.run([sys.executable, "-m", "sim.cli.main", "play", "--rules-file", str(p),
                          "--set", "books.red=7", "--games", "2", "--json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert got.returncode == 2, got.stderr[-2000:]
    err = got.stderr.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "broken_book.py: book 'red-7': ImportError" in err


def test_a_replay_whose_rules_file_is_gone_is_refused(tmp_path):
    run = {"rules_files": [{"path": str(tmp_path / "gone.py"), "code": "0" * 32,
                            "rules": ["gone"]}]}
    with pytest.raises(ReplayError, match=r"gone.py: the run loaded it, but it is gone"):
        load_run_rules_files(run, tmp_path, [])


@pytest.mark.parametrize(("error", "said"), [("len(s)", "No implementation of function"),
                                             ("undefined_name", "undefined_name")])
def test_numbas_typing_error_in_a_users_book_is_summarised_in_one_line(tmp_path, error, said):
    # The hook compiled alone (as the game kernel would compile it): Numba's typing error, many
    # lines long (or naming no place: an unknown name), becomes one line naming the file, the
    # book and the function.
    p = _write(tmp_path, "typo_book.py", BOOK_HEADER + f"""

from sim.kernel.layout import F_SCORE


def _helper(P):
    return P[0, 0]


def placed(P, s):
    P[s, F_SCORE] += {error}
""")
    got = _run(f"""
        import json
        import numpy as np
        from numba import njit
        from sim.cli.user_input import load_rules_files, rules_file_compile_error
        load_rules_files([{str(p)!r}])
        import sim.kernel.books.hooks as table
        mod = table.user_book_red_7
        try:
            njit(mod.placed.py_func)(np.zeros((2, 200), np.int64), 0)
            line, raw = None, ""
        except Exception as e:
            line, raw = rules_file_compile_error(e), str(e)
        print(json.dumps({{"line": line}}))
        """)
    line = got["line"]
    assert line.startswith(f"{p}: book 'red-7', function placed (line 14): Numba cannot "
                           "compile it: "), line
    assert said in line and "\n" not in line


def test_a_second_book_of_the_same_colour_and_set_is_refused(tmp_path):
    a = _write(tmp_path, "first.py", BOOK_HEADER)
    b = _write(tmp_path, "second.py", BOOK_HEADER)
    got = subprocess.run([sys.executable, "-m", "sim.cli.main", "rules", "--json",
                          "--rules-file", str(a), "--rules-file", str(b)],
                         capture_output=True, text=True, cwd=ROOT, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert got.returncode == 2
    err = got.stderr.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert f"{b}: book 'red-7': the set is taken (red Set 7 is already loaded)" in err


@pytest.mark.slow
def test_a_book_numba_cannot_compile_is_one_line_exit_2_from_the_cli(tmp_path):
    # End to end: a kernel is compiled with the book inside and its typing error of the hook is
    # one line naming the file, the book and the function. The single potion's kernel: the
    # smallest the command line compiles with a book's per-chip hook point in it (~50 CPU s to
    # the error with the shared kernels cached; the game kernel's, ``play``: ~110).
    p = _write(tmp_path, "bad_types.py", BOOK_HEADER + """

from sim.kernel.layout import F_SCORE


def placed(P, s):
    P[s, F_SCORE] += len(s)
""")
    got = subprocess.run([sys.executable, "-m", "sim.cli.main", "potion", "--rules-file", str(p),
                          "--set", "books.red=7", "--n", "4", "--json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=3600,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert got.returncode == 2, got.stderr[-2000:]
    err = [ln for ln in got.stderr.strip().splitlines() if not ln.startswith("compiling")]
    assert len(err) == 1 and "Traceback" not in got.stderr, got.stderr[-2000:]
    assert f"{p}: book 'red-7', function placed (line 10): Numba cannot compile it: " in err[0]
