"""Fixtures shared by test modules."""

from __future__ import annotations

import os

import pytest

# The tests' console widths are the piped defaults, whatever the terminal and however pytest runs.
# Importing GNU readline (pytest's capture does, before any conftest) puts COLUMNS=80 and LINES=24
# into the C environment of a process whose terminal it cannot measure: os.environ does not show
# them, but every child inherits them, so pytest-xdist's workers and the commands tests start
# print 80-column tables where a plain run prints 200 (sim.cli.printing.stdout_console honours
# $COLUMNS through a pipe). Removed here, before any test module imports the CLI; a test that
# wants a width sets it itself (CliRunner's env, monkeypatch.setenv).
for _name in ("COLUMNS", "LINES"):
    os.environ.pop(_name, None)
    os.unsetenv(_name)  # the C environment's copy, which os.environ may not know of


def pytest_configure(config):
    """Under pytest-xdist's ``--dist loadfile`` the workers take the files in
    ``tests/run_order.py``'s order, not xdist's (most tests first): set in the controller."""
    if not hasattr(config, "workerinput") and config.getoption("dist", "no") == "loadfile":
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(config, items):
    """In an xdist worker, the tests in ``tests/run_order.py``'s order (every worker collects
    the same order, which the controller keeps); under ``-m slow``, the slow suite's order."""
    if hasattr(config, "workerinput"):
        from run_order import run_order

        slow = (config.getoption("markexpr", "") or "").strip() == "slow"  # CI's second run
        items[:] = [items[i] for i in run_order([item.nodeid for item in items], slow=slow)]


@pytest.fixture(scope="module")
def optimal_kernel():
    """The slot-function table with UF[0] the compiled optimal stopper (compiled once, ~30-60 s,
    and cached on disk).

    ``slot_table()`` builds the table without the optimal stopper on its first call when the
    table was never built (see test_optimal.py::test_first_slot_table_includes_the_optimal_stopper),
    so it is called until the stopper is in."""
    from strategies import plugin
    from strategies.builtin import parse_strategy
    from strategies.registry import slot_table

    parse_strategy("optimal")
    for _ in range(3):
        table = slot_table()
        if plugin._OPTIMAL is not None and plugin.table_functions(table)[0] is plugin._OPTIMAL:
            return table
    pytest.fail("slot_table() never put the optimal stopper into UF[0]")


@pytest.fixture
def restore_threads():
    """Numba's thread count after the test as before it (for tests that set it)."""
    import numba

    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)
