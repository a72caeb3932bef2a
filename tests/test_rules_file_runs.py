"""A run that loaded rules files (``--rules-file``) is resumed and scaled out like any other: an
interrupted tournament continued with ``--resume --out DIR`` alone loads the rules files its
settings name before the saved ruleset (which names their cards) is read, and the Dask
backend's workers load the client's rules files, in its order, before the run's settings, so
both give the uninterrupted local run's numbers to the digit.

The games run in subprocesses that load the rules files first (a process's kernel hook tables
are built once), the compiled rules tests' one set (tests/rules_set.py), so they share its
compiled kernels.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from rules_set import ROOT, shared_rules_files
from test_rules_files import _env

EXTRA = 'cards.extra=["lucky-clover"]'
RUN = ["tournament", "--strategies", "threshold,balanced,random", "--games", "5400", "--seed",
       "4", "--set", EXTRA, "--json", "--no-plots", "--quiet"]
TIMINGS = ("seconds", "games_per_second", "report_seconds", "out")

# plays the run straight into argv[1] and, stopped by a Ctrl-C after its first chunk, into argv[2]
INTERRUPTED = """
import json, sys
import sim

files = sys.argv[3:]
kw = dict(strategies="threshold,balanced,random", games=5400, seed=4, rules_file=files,
          set='cards.extra=["lucky-clover"]', plots=False)
print(json.dumps(sim.tournament(out=sys.argv[1], **kw).result.to_json()))


def ctrl_c(done, total):
    if done > 0:
        raise KeyboardInterrupt


try:
    sim.tournament(out=sys.argv[2], progress=ctrl_c, **kw)
except KeyboardInterrupt:
    pass
"""


def _quacks(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sim.cli.main", *map(str, args)],
                          capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=1800)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> list[str]:
    """The compiled rules tests' one set of rules files (tests/rules_set.py)."""
    return [str(f) for f in shared_rules_files(tmp_path_factory.mktemp("rules"))]


def _without_timings(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in TIMINGS}


@pytest.fixture(scope="module")
def straight(tmp_path_factory, files):
    """The uninterrupted run's JSON, and the folder of the same run interrupted."""
    tmp = tmp_path_factory.mktemp("runs")
    got = subprocess.run([sys.executable, "-c", INTERRUPTED, tmp / "a", tmp / "b", *files],
                         capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=3600)
    assert got.returncode == 0, got.stderr[-3000:]
    assert (tmp / "b" / ".run.json.partial").is_file()  # interrupted, chunks kept
    return json.loads(got.stdout.strip().splitlines()[-1]), tmp / "b"


def test_resume_loads_the_runs_rules_files(straight):
    whole, out = straight
    r = _quacks("tournament", "--out", out, "--resume", "--json", "--no-plots", "--quiet")
    assert r.returncode == 0, r.stderr[-2000:]
    resumed = json.loads(r.stdout)
    assert resumed["games"] == whole["games"] == 5400
    assert resumed["notes"] == [f"resuming after 1,998 games kept in {out}"]
    assert whole["notes"] == []
    assert _without_timings(resumed) == _without_timings(whole) | {"notes": resumed["notes"]}


def test_resume_with_a_rules_file_gone_is_one_line(tmp_path):
    run = tmp_path / "r"
    run.mkdir()
    gone = tmp_path / "gone.py"
    settings = {"strategies": ["threshold", "random"], "rules_files": [str(gone)]}
    (run / ".run.json.partial").write_text(json.dumps({"settings": settings}))
    r = _quacks("tournament", "--out", run, "--resume", "--no-plots")
    assert r.returncode == 2
    assert r.stderr.strip() == (f"error: --resume: the interrupted run loaded the rules file "
                                f"{gone}; it is gone, restore it to resume")


def test_dask_workers_load_the_rules_files(straight, files):
    pytest.importorskip("distributed")
    whole, _ = straight
    rules = [a for f in files for a in ("--rules-file", f)]
    r = _quacks(*RUN, *rules, "--backend", "dask", "--workers", "2", "--threads", "1")
    assert r.returncode == 0, r.stderr[-2000:]
    assert _without_timings(json.loads(r.stdout)) == _without_timings(whole)
