"""``play_batch(out=...)``: results written into a caller's buffer (``quacks play`` reuses one
for every piece) are the results of a fresh batch, whatever the buffer held before."""

from __future__ import annotations

import numpy as np
import pytest

from sim.api import game as G
from sim.kernel.records import O_WIDTH
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy

SPECS = ["threshold", "threshold:t=5", "threshold:t=7", "random"]


def batch(rs, games, seed, out=None):
    lineup = [parse_strategy(s) for s in SPECS]
    idx = np.arange(games, dtype=np.int64)
    return G.play_batch(rs, lineup, games=idx, rotations=idx % len(SPECS), seed=seed, out=out)


@pytest.mark.parametrize("sets", [["cards.deck=false"], [], ["game.teams=true"]])
def test_a_used_buffer_gives_the_fresh_results(sets):
    rs = load_ruleset("base", sets)
    buf = G.result_buffer(500, len(SPECS))
    buf[:] = -7  # what an earlier batch left, in every field: each must be written again
    for games, seed in ((500, 3), (321, 4)):  # the second batch shorter: a view of the buffer
        res = batch(rs, games, seed, out=buf)
        assert res.out.shape == (games, len(SPECS), O_WIDTH)
        assert np.shares_memory(res.out, buf)
        np.testing.assert_array_equal(res.out, batch(rs, games, seed).out)


def test_a_buffer_that_does_not_fit_is_refused():
    rs = load_ruleset("base", [])
    n = len(SPECS)
    for bad in (G.result_buffer(99, n), G.result_buffer(200, n - 1),
                G.result_buffer(200, n).astype(np.int32), G.result_buffer(400, n)[::2]):
        with pytest.raises(ValueError, match="out: expected an int64 buffer"):
            batch(rs, 100, 1, out=bad)


def test_no_buffer_is_new_memory_every_batch():
    rs = load_ruleset("base", [])
    a, b = batch(rs, 50, 1), batch(rs, 50, 1)
    assert not np.shares_memory(a.out, b.out)
    np.testing.assert_array_equal(a.out, b.out)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_strategy_seat_inverts_seat_strategy(n):
    rot = np.array([0, 1, 2, 7, -1, -6, 10**9 + 3], dtype=np.int64)
    res = G.BatchResult(np.arange(len(rot)), rot, np.zeros((len(rot), n, O_WIDTH), np.int64),
                        None, [None] * n)
    seat = res.strategy_seat()  # PlayStats.add's rows: strategy j sits at seat[k, j]
    np.testing.assert_array_equal(np.take_along_axis(res.seat_strategy(), seat, axis=1),
                                  np.broadcast_to(np.arange(n), (len(rot), n)))
    np.testing.assert_array_equal(seat, np.argsort(res.seat_strategy(), axis=1))
