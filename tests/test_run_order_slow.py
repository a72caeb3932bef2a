"""The order of the slow tests (``-m slow``, CI's second run; tests/run_order.py's SLOW_FIRST):
the patches-off test's file starts on one worker and the witch rewrite's on the other, and the
file xdist queues at once behind the patches-off test is a short one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import conftest
from run_order import SLOW_FIRST, file_of, run_order

ROOT = Path(__file__).resolve().parent.parent
PATCHES_OFF = "tests/test_numba_patches.py::test_the_same_games_with_the_patches_off"


def test_the_slow_suite_starts_with_its_longest_files_then_the_rest_most_tests_first():
    ids = ["tests/test_a.py::t1", f"{SLOW_FIRST[2]}::t", "tests/test_b.py::t1",
           "tests/test_b.py::t2", f"{SLOW_FIRST[1]}::t", PATCHES_OFF, "tests/test_b.py::t0"]
    got = [ids[i] for i in run_order(ids, slow=True)]
    assert got == [PATCHES_OFF, f"{SLOW_FIRST[1]}::t", f"{SLOW_FIRST[2]}::t",
                   # the rest: most tests first; a file's tests in their order
                   "tests/test_b.py::t1", "tests/test_b.py::t2", "tests/test_b.py::t0",
                   "tests/test_a.py::t1"]
    # the fast suite's order is not this one
    assert [ids[i] for i in run_order(ids)][0] != PATCHES_OFF


def test_conftest_orders_the_slow_suite_under_m_slow_only():
    items = [SimpleNamespace(nodeid=n) for n in ("tests/test_a.py::t", PATCHES_OFF)]
    for expr, first in (("slow", PATCHES_OFF), (" slow ", PATCHES_OFF),
                        ("not slow", "tests/test_a.py::t"), ("", "tests/test_a.py::t")):
        config = SimpleNamespace(workerinput={}, getoption=lambda name, default, e=expr: e)
        got = list(items)
        conftest.pytest_collection_modifyitems(config, got)
        assert got[0].nodeid == first, expr


def test_xdist_starts_the_two_longest_on_two_workers_and_queues_a_short_file_behind_the_first():
    """xdist's own scheduler (--dist loadfile) with the slow suite's order: the patches-off file
    on one worker, the witch rewrite's on the other; a worker with at most two tests pending is
    sent a further file at once, so SLOW_FIRST[2] waits behind the patches-off test."""
    from test_run_order import scheduled

    ids = [PATCHES_OFF] + [f"tests/test_many.py::t{i}" for i in range(20)] + [
        f"{f}::t" for f in SLOW_FIRST[1:]]
    order = [ids[i] for i in run_order(ids, slow=True)]
    workers = scheduled(order)
    assert workers[0].files[:2] == [file_of(PATCHES_OFF), SLOW_FIRST[2]]
    assert workers[1].files[0] == SLOW_FIRST[1]


def test_every_file_named_has_a_slow_test():
    got = subprocess.run([sys.executable, "-m", "pytest", "-q", "--collect-only", "-m", "slow",
                          "-p", "no:cacheprovider", *SLOW_FIRST], capture_output=True, text=True,
                         cwd=ROOT, timeout=600)
    lines = got.stdout.splitlines()
    assert PATCHES_OFF in lines, got.stdout[-2000:]
    assert {file_of(line) for line in lines if "::" in line} == set(SLOW_FIRST), got.stdout[-2000:]
