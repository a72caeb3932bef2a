"""Reproducibility of sampled potions: potion i of a run with seed s uses stream (s, i) only, so
results do not depend on thread count, chunking, or how a run is split into pieces."""

from __future__ import annotations

import json

import numba
import numpy as np
import pytest
from typer.testing import CliRunner

from sim.api import potion as pot
from sim.cli.main import app
from sim.kernel.potions import potion_histograms
from sim.rules.ruleset import load_ruleset
from strategies.registry import slot_table

runner = CliRunner()
RS = load_ruleset("base")
# a bag that exercises every random path: blue looks, yellow returns, the flask, explosions
Q = pot.make_query("w1x4,w2x2,w3,o1x2,g1,b2,r1,y1", "white:6", 2, 0, RS)
Q_PLAIN = pot.make_query("start", "never", None, 0, RS)


def hist_range(q, seed, first, n, chunks=8):
    """Histogram of potions first..first+n-1 of the run with this seed (kernel entry point)."""
    R, SK, SP = q.arrays()
    bag = np.array(q.bag, dtype=np.int64)
    return potion_histograms(
        np.uint64(seed), first, n, bag, q.start, int(q.ruleset.game("explosion_limit")),
        1 if q.flask is not None else 0, R, SK, SP, max(1, min(chunks, n)), *slot_table(SK),
    )[:54]  # (rows 54+: the overflow bowl, which the base game has not)


def test_same_seed_same_histogram():
    a = pot.sample(Q, 50_000, seed=7)
    b = pot.sample(Q, 50_000, seed=7)
    assert a.sum() == 50_000
    assert np.array_equal(a, b)


def test_different_seeds_differ():
    a = pot.sample(Q, 50_000, seed=7)
    b = pot.sample(Q, 50_000, seed=8)
    assert not np.array_equal(a, b)
    c = pot.sample(Q_PLAIN, 50_000, seed=0)
    d = pot.sample(Q_PLAIN, 50_000, seed=1)
    assert not np.array_equal(c, d)


def test_one_vs_two_threads(restore_threads):
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("Numba has only one thread here")
    numba.set_num_threads(1)
    a = pot.sample(Q, 60_000, seed=3)
    numba.set_num_threads(2)
    b = pot.sample(Q, 60_000, seed=3)
    assert np.array_equal(a, b)


@pytest.mark.parametrize("chunks", [2, 7, 64, 1000])
def test_chunk_count_does_not_change_results(chunks):
    a = pot.sample(Q, 30_000, seed=11, chunks=1)
    b = pot.sample(Q, 30_000, seed=11, chunks=chunks)
    assert np.array_equal(a, b)


def test_fewer_potions_than_chunks():
    a = pot.sample(Q, 5, seed=2, chunks=64)
    assert a.sum() == 5
    assert np.array_equal(a, pot.sample(Q, 5, seed=2, chunks=1))


def test_run_splits_into_pieces():
    # a run of 1000 = potions [0, 500) + [500, 1000), and also = [0, 1) + [1, 999) + [999, 1000)
    whole = hist_range(Q, 5, 0, 1000)
    assert whole.sum() == 1000
    assert np.array_equal(whole, hist_range(Q, 5, 0, 500) + hist_range(Q, 5, 500, 500))
    assert np.array_equal(
        whole,
        hist_range(Q, 5, 0, 1) + hist_range(Q, 5, 1, 998, chunks=3) + hist_range(Q, 5, 999, 1)
    )


def test_potion_i_is_the_same_in_any_run():
    # Potion i alone equals the difference of the runs [0, i+1) and [0, i), and the sum of the
    # single potions 0..n-1 equals the run [0, n).
    n = 60
    singles = [hist_range(Q, 9, i, 1, chunks=1) for i in range(n)]
    assert all(s.sum() == 1 for s in singles)
    assert np.array_equal(singles[0], hist_range(Q, 9, 0, 1))
    for i in (1, 37, n - 1):
        assert np.array_equal(singles[i], hist_range(Q, 9, 0, i + 1) - hist_range(Q, 9, 0, i))
    assert np.array_equal(sum(singles), hist_range(Q, 9, 0, n))
    # the singles are not all the same potion (the streams differ)
    assert len({(int(np.argmax(s[:, 0] + s[:, 1])), int(s[:, 1].sum())) for s in singles}) > 1


def test_sample_is_run_from_zero():
    # sim.api.potion.sample(q, n, seed) is the run [0, n) of that seed
    assert np.array_equal(pot.sample(Q, 3000, seed=4), hist_range(Q, 4, 0, 3000))


def _cli(*args):
    r = runner.invoke(app, ["potion", "--bag", "w1x4,w2x2,w3,o1x2,b2,y1", "--flask", "2",
                            "--n", "40000", "--json", *args])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    d.pop("seconds")
    return d


def test_cli_same_seed_same_json_any_threads(restore_threads):
    a = _cli("--seed", "21")
    b = _cli("--seed", "21")
    assert a == b
    if numba.config.NUMBA_NUM_THREADS >= 2:
        c = _cli("--seed", "21", "--threads", "1")
        d = _cli("--seed", "21", "--threads", "2")
        assert a == c == d
    e = _cli("--seed", "22")
    assert e["distribution"] != a["distribution"]
