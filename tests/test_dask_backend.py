"""``--backend dask`` (the optional ``dist`` extra): chunks of games as Dask tasks give the local
backend's answer to the last digit.

A local cluster on the loopback interface with two worker processes (one thread each), started
and stopped here, plays tournaments, sweeps and tune evaluations; every summary (the whole JSON
object but its timings) and every parquet table must equal the local run's for the same seed,
also when a worker is killed in the middle of a run, when the run is interrupted and resumed,
and when ``--until-ci`` stops it with chunks already submitted beyond the stop. Without the
extra, ``--backend dask`` is one line with the install command and exit status 2. The cluster
tests are skipped when ``distributed`` is not installed.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_helpers import assert_user_error, invokers
from test_tournament import frames_equal

from sim.cli.main import app
from sim.rules.ruleset import load_ruleset
from sim.study.tournament.backend import make_backend
from sim.study.tournament.local import LOCAL
from sim.study.tournament.plan import TournamentConfig, resolve_plan
from sim.study.tournament.run import RunInterrupted, run_tournament
from sim.study.tune.run import parse_tune_param, tune

ROOT = Path(__file__).resolve().parent.parent
THREE = ("threshold", "threshold:t=7", "random")
SMALL = dict(first_chunk_games=900, max_chunk_games=1800)
TIMINGS = ("seconds", "games_per_second", "report_seconds", "out")

invoke, ok = invokers(app)


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes (one thread each) on 127.0.0.1, for this module's tests."""
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0", silence_logs=logging.ERROR) as c:
        yield c


@pytest.fixture
def dask(cluster):
    """The dask backend on the module's cluster, entered."""
    with make_backend("dask", scheduler=cluster.scheduler_address) as be:
        yield be


def without_timings(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in TIMINGS}


def assert_same_summary(a, b):
    """Two tournament results: the whole JSON summary (but its timings) and every table."""
    assert without_timings(a.to_json()) == without_timings(b.to_json())
    frames_equal(a, b)


def assert_same_files(a: Path, b: Path, names=("games.parquet", "rounds.parquet")):
    for name in names:
        if (a / name).exists() or (b / name).exists():
            pd.testing.assert_frame_equal(pd.read_parquet(a / name), pd.read_parquet(b / name),
                                          check_exact=True, obj=name)


# --- the same answer --------------------------------------------------------------------------

def test_tournament_cli_same_as_local(cluster, tmp_path):
    args = ["tournament", "--strategies", "threshold,threshold:t=7,random,balanced", "--players", 3,
            "--games", 12_000, "--seed", 11, "--detail", "rounds", "--no-plots", "--json"]
    local = json.loads(ok(*args, "--out", tmp_path / "local").stdout)
    r = ok(*args, "--out", tmp_path / "dask", "--backend", "dask",
           "--scheduler", cluster.scheduler_address)
    assert "playing on Dask: 2 worker processes" in r.stderr
    dist = json.loads(r.stdout)
    assert dist["format"] == "round-robin" and dist["games"] == 12_000
    assert without_timings(dist) == without_timings(local)
    assert_same_files(tmp_path / "local", tmp_path / "dask")
    for csv in sorted(p.name for p in (tmp_path / "local").glob("*.csv")):
        assert ((tmp_path / "local" / csv).read_bytes()
                == (tmp_path / "dask" / csv).read_bytes()), csv


def test_sweep_cli_same_as_local(cluster, tmp_path):
    args = ["sweep", "--strategy", "threshold", "--param", "t=5:7:1", "--vs", "balanced",
            "--games", 3000, "--seed", 4, "--no-plots", "--json"]
    local = json.loads(ok(*args, "--out", tmp_path / "local").stdout)
    dist = json.loads(ok(*args, "--out", tmp_path / "dask", "--backend", "dask", "--scheduler",
                         cluster.scheduler_address, "--quiet").stdout)
    assert len(dist["strategies"]) == 3
    assert without_timings(dist) == without_timings(local)
    for sub in ("t=5", "t=6", "t=7"):
        assert_same_files(tmp_path / "local" / sub, tmp_path / "dask" / sub)


def test_user_strategy_file_reaches_the_workers(cluster, tmp_path):
    src = (ROOT / "experiments" / "strategies" / "careful.py").read_text()
    f = tmp_path / "dask_careful.py"
    f.write_text(src.replace('"careful"', '"dask-careful"'))
    args = ["tournament", "--strategy-file", f, "--strategies", "dask-careful:t=5,balanced",
            "--games", 2000, "--seed", 8, "--no-plots", "--json", "--quiet"]
    local = json.loads(ok(*args, "--out", tmp_path / "local").stdout)
    dist = json.loads(ok(*args, "--out", tmp_path / "dask", "--backend", "dask",
                         "--scheduler", cluster.scheduler_address).stdout)
    assert without_timings(dist) == without_timings(local)


@pytest.mark.parametrize("sequential", [False, True])
def test_until_ci_stops_at_the_same_chunk(dask, sequential):
    """Also with --sequential (the stop by confidence sequences): the same chunk, the same
    intervals."""
    cfg = TournamentConfig(strategies=THREE, games=60_000, until_ci=0.015, sequential=sequential,
                           **SMALL)
    local = run_tournament(cfg)
    assert local.stopped == "until-ci"
    assert resolve_plan(cfg).games_after(2) < local.games < 60_000  # chunks remained at the stop
    dist = run_tournament(cfg, backend=dask)
    assert dist.games == local.games
    assert_same_summary(local, dist)
    assert dist.to_json().get("sequential", False) is sequential


def test_tune_same_as_local(dask):
    rs = load_ruleset("base")
    kw = dict(players=3, budget=6000, seed=5)
    params = [parse_tune_param("threshold", "t=4:9")]
    a = tune("threshold", params, ["balanced"], rs, **kw)
    b = tune("threshold", params, ["balanced"], rs, backend=dask, **kw)
    assert a.as_json() == b.as_json()
    pd.testing.assert_frame_equal(a.history, b.history, check_exact=True)
    # an evaluation split over both workers: the per-deal shares joined in deal order
    deals = np.arange(100, 2600, dtype=np.int64)
    specs = ["threshold:t=6", "balanced", "greedy"]
    x = LOCAL.deal_shares(rs, specs, 9, deals)
    y = dask.deal_shares(rs, specs, 9, deals)
    assert len(y) == len(deals) and np.array_equal(x, y)


def test_tune_cli_on_a_cluster_of_its_own():
    """--workers K starts a local cluster for the run (and stops it)."""
    pytest.importorskip("distributed")
    args = ["tune", "threshold", "--param", "t=4:9", "--vs", "balanced", "--players", 3,
            "--budget", 4000, "--seed", 6, "--json"]
    assert json.loads(ok(*args, "--backend", "dask", "--workers", 1).stdout) == \
        json.loads(ok(*args).stdout)


# --- lost workers, Ctrl-C and --resume ----------------------------------------------------------

def test_a_killed_worker_changes_nothing(cluster, dask):
    from distributed import Client

    cfg = TournamentConfig(strategies=THREE, games=18_000, seed=2, detail="rounds",
                           first_chunk_games=1200, max_chunk_games=2400)
    assert len(resolve_plan(cfg).chunk_bounds) - 1 >= 6
    local = run_tournament(cfg)
    killed = []
    with Client(cluster.scheduler_address, set_as_default=False) as watch:

        def kill_a_worker(info):  # after chunk 1: SIGKILL the worker playing or holding chunk 2
            if info.chunk != 1:
                return
            pids = watch.run(os.getpid)
            busy = [w for w, keys in watch.processing().items()
                    if any(str(k).endswith("-2") for k in keys)]
            holds = [w for k, ws in watch.who_has().items() if str(k).endswith("-2") for w in ws]
            target = (busy + holds + sorted(pids))[0]
            os.kill(pids[target], signal.SIGKILL)
            killed.append(pids[target])

        dist = run_tournament(cfg, backend=dask, on_chunk=kill_a_worker)
        assert killed
        with pytest.raises(ProcessLookupError):
            os.kill(killed[0], 0)
        assert_same_summary(local, dist)
        assert _replayed(cluster)  # the lost chunk was played again
        watch.wait_for_workers(2, timeout=60)  # the nanny restarted it, for the tests after this


def _replayed(cluster) -> bool:
    """True when the scheduler's transition log shows a chunk task sent to workers twice."""
    seen: dict = {}
    for t in cluster.scheduler.transition_log:
        key, finish = t[0], t[2]
        if str(key).startswith("quacks-chunk") and finish == "processing":
            seen[key] = seen.get(key, 0) + 1
    return any(n > 1 for n in seen.values())


def test_interrupted_and_resumed_across_backends(dask, tmp_path):
    cfg = TournamentConfig(strategies=THREE, games=12_000, seed=3, **SMALL)
    straight = run_tournament(cfg, out=tmp_path / "local", plots=False)

    def ctrl_c_after(chunk):  # Ctrl-C once this chunk is kept (chunks played ahead are dropped)
        def hook(info):
            if info.chunk == chunk:
                raise KeyboardInterrupt
        return hook

    out = tmp_path / "dask"
    with pytest.raises(RunInterrupted) as e:
        run_tournament(cfg, out=out, on_chunk=ctrl_c_after(2), plots=False, backend=dask)
    assert e.value.games_done == resolve_plan(cfg).games_after(2)
    with pytest.raises(RunInterrupted) as e:  # resumed here, interrupted again
        run_tournament(cfg, out=out, resume=True, on_chunk=ctrl_c_after(4), plots=False)
    assert e.value.games_done == resolve_plan(cfg).games_after(4)
    resumed = run_tournament(cfg, out=out, resume=True, plots=False, backend=dask)
    assert resumed.notes == [f"resuming after {e.value.games_done:,} games kept in {out}"]
    resumed.notes.clear()
    assert_same_summary(straight, resumed)
    assert_same_files(tmp_path / "local", out)


# --- without the extra, and bad options ---------------------------------------------------------

@pytest.mark.parametrize("command", [
    ["tournament", "--strategies", "threshold,random", "--games", 100],
    ["sweep", "--strategy", "threshold", "--param", "t=5:6:1", "--vs", "random", "--games", 100],
    ["tune", "threshold", "--param", "t=4:9", "--vs", "random", "--budget", 4000],
])
def test_without_the_extra_one_line_and_exit_2(command, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails
    out = [] if command[0] == "tune" else ["--out", tmp_path / "r"]
    r = invoke(*command, *out, "--backend", "dask", "--workers", 2)
    line = assert_user_error(r, "--backend dask", 'pip install -e ".[dist]"',
                             'pip install "quacks-sim[dist]"')
    assert "Traceback" not in line
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("extra, fragment", [
    (["--workers", 2], "--workers: only with --backend dask"),
    (["--scheduler", "tcp://127.0.0.1:8786"], "--scheduler: only with --backend dask"),
    (["--backend", "dask", "--workers", 2, "--scheduler", "tcp://127.0.0.1:8786"], "give one"),
    (["--backend", "dask", "--workers", 0], "--workers 0"),
])
def test_backend_option_errors(extra, fragment, tmp_path):
    r = invoke("tournament", "--strategies", "threshold,random", "--games", 100,
               "--out", tmp_path / "r", *extra)
    assert_user_error(r, fragment)
    assert not (tmp_path / "r").exists()


def test_experiment_same_as_local(dask, tmp_path):
    """An experiment's game parts (catch-up with rounds detail, seats) on the cluster give the
    local tables exactly."""
    from sim.study.experiments.file import find_experiment, load_experiment
    from sim.study.experiments.run import run_experiment

    for name in ("catch-up", "seat-advantage"):
        exp = load_experiment(find_experiment(name))
        a = run_experiment(exp, tmp_path / f"{name}-local", games=200)
        b = run_experiment(exp, tmp_path / f"{name}-dask", games=200, backend=dask)
        for pa, pb in zip(a.parts, b.parts):
            for t in pa.tables:
                pd.testing.assert_frame_equal(pa.tables[t], pb.tables[t], check_exact=True)


def test_train_same_as_local(dask, tmp_path, monkeypatch):
    """quacks train's self-play on the cluster (master with the iteration-0 model in iteration
    1) writes the local model file byte for byte. Pieces of 200 games (the client splits the
    games, so the workers need not know): two pieces an iteration, one for each worker, with
    a seventh of the games of the shipped piece size."""
    from sim.study.train import run
    from sim.study.train.run import TrainSettings, train

    monkeypatch.setattr(run, "PIECE", 200)
    settings = TrainSettings(players=3, games=run.PIECE + 150, iterations=2, seed=8)
    train(settings, tmp_path / "local.json")
    train(settings, tmp_path / "dask.json", backend=dask)
    local = json.loads((tmp_path / "local.json").read_text())
    remote = json.loads((tmp_path / "dask.json").read_text())
    for d in (local, remote):  # the run folders differ by name only
        d["training"]["lineup"] = [x.replace("dask.json", "local.json")
                                   for x in d["training"]["lineup"]]
    assert local == remote
