"""The order pytest-xdist's workers take the test files in (tests/run_order.py): the compile of
every shared kernel and the compile of the rules files' kernels first, side by side, then the
files that compile nothing, the longest files, and the rest, most tests first."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import conftest
from run_order import COMPILE_FREE, LONG_FILES, RULES_FILES_TESTS, WARMUP_TEST, file_of, run_order

ROOT = Path(__file__).resolve().parent.parent


def test_the_two_compiles_first_then_the_compile_free_files_then_the_long_then_the_rest():
    robust = file_of(WARMUP_TEST)
    ids = ["tests/test_a.py::t1", f"{robust}::before", "tests/test_b.py::t1",
           "tests/test_b.py::t2", LONG_FILES[0] + "::t", f"{RULES_FILES_TESTS}::t",
           COMPILE_FREE[1] + "::t", COMPILE_FREE[0] + "::t", WARMUP_TEST, f"{robust}::after",
           "tests/test_a.py::t0"]
    got = [ids[i] for i in run_order(ids)]
    assert got == [WARMUP_TEST, f"{robust}::before", f"{robust}::after",
                   f"{RULES_FILES_TESTS}::t", COMPILE_FREE[0] + "::t", COMPILE_FREE[1] + "::t",
                   LONG_FILES[0] + "::t",
                   # the rest: most tests first, then by name; a file's tests in their order
                   "tests/test_a.py::t1", "tests/test_a.py::t0", "tests/test_b.py::t1",
                   "tests/test_b.py::t2"]
    assert sorted(run_order(ids)) == list(range(len(ids)))  # every test once


def test_every_named_test_is_in_the_fast_suite():
    files = [file_of(WARMUP_TEST), RULES_FILES_TESTS, *COMPILE_FREE, *LONG_FILES]
    got = subprocess.run([sys.executable, "-m", "pytest", "-q", "--collect-only", "-m",
                          "not slow", "-p", "no:cacheprovider", *files], capture_output=True,
                         text=True, cwd=ROOT, timeout=600)
    collected = {file_of(line) for line in got.stdout.splitlines() if "::" in line}
    assert WARMUP_TEST in got.stdout.splitlines(), got.stdout[-2000:]
    assert collected == set(files), got.stdout[-2000:]


class FakeWorker:
    """A worker as xdist's scheduler sees it: it records the files it is sent."""

    def __init__(self, name: str, collection: list[str]):
        self.gateway = SimpleNamespace(id=name)
        self.collection, self.files, self.shutting_down = collection, [], False

    def send_runtest_some(self, indexes: list[int]) -> None:
        self.files.append(file_of(self.collection[indexes[0]]))

    def shutdown(self) -> None:
        self.shutting_down = True


def scheduled(order: list[str]) -> list[FakeWorker]:
    """Two workers after xdist's own scheduler (--dist loadfile, with the option conftest.py
    sets) has handed out ``order``, each with the files it was sent."""
    from xdist.scheduler import LoadFileScheduling

    option = SimpleNamespace(loadscopereorder=True, dist="loadfile")
    config = SimpleNamespace(option=option, getoption=lambda name, default: option.dist,
                             getvalue=lambda name: ["2*popen"] if name == "tx" else None)
    conftest.pytest_configure(config)
    sched = LoadFileScheduling(config)
    workers = [FakeWorker("gw0", order), FakeWorker("gw1", order)]
    for w in workers:
        sched.add_node(w)
        sched.add_node_collection(w, order)
    sched.schedule()
    return workers


def test_the_two_workers_start_with_the_two_compiles():
    """xdist's own scheduler (--dist loadfile), given the workers' collection in this order and
    the option conftest.py sets: one worker starts with the warm-up's file, the other with the
    rules files' (xdist's own order would start them on the two files with the most tests)."""
    ids = [f"tests/test_many.py::t{i}" for i in range(50)] + [
        WARMUP_TEST, f"{RULES_FILES_TESTS}::t", COMPILE_FREE[0] + "::t"]
    order = [ids[i] for i in run_order(ids)]
    workers = scheduled(order)
    assert [w.files[0] for w in workers] == [file_of(WARMUP_TEST), RULES_FILES_TESTS]


def test_xdist_keeps_this_order_under_loadfile_only():
    def config(dist):
        return SimpleNamespace(option=SimpleNamespace(loadscopereorder=True),
                               getoption=lambda name, default: dist)

    for dist, reorder in (("loadfile", False), ("load", True), ("no", True)):
        c = config(dist)
        conftest.pytest_configure(c)
        assert c.option.loadscopereorder is reorder, dist
    worker = config("loadfile")
    worker.workerinput = {}
    conftest.pytest_configure(worker)  # a worker leaves the controller's option alone
    assert worker.option.loadscopereorder is True
