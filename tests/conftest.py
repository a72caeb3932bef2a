"""Fixtures shared by test modules."""

from __future__ import annotations

import pytest


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
