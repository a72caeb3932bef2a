"""A plain install has everything (issue 44 item 5): the wheel carries the shipped experiments
(with their rounds/, strategies/ and targets/ folders), rulesets, models and report templates,
found with importlib.resources; an installed copy outside the source tree lists and runs the
shipped experiments from any folder; ``quacks experiment list`` with nothing found is an error.

The slow test builds the wheel from a copy of the tree (setuptools writes build/ and *.egg-info
beside the sources, so never in the checkout), installs it with ``--no-deps`` into a fresh
virtualenv that sees this interpreter's packages (numpy, numba, ...), and runs from an empty
folder. It skips when the ``build`` package is missing, unless QUACKS_REQUIRE_WHEEL=1 (CI).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from importlib import resources
from pathlib import Path

import pytest
from cli_helpers import invokers

from sim.cli.main import app
from sim.numba_cache import cache_base
from sim.study.experiments import file as expfile

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("sim", "strategies", "experiments")  # the top-level folders the wheel ships
invoke, _ = invokers(app)

# run inside the installed copy: where each package and data folder was found, every shipped
# experiment loaded, and every file an experiment names (ends .toml or .py) resolved
PROBE = r"""
import json, sys
from pathlib import Path
import experiments, sim, strategies
from jinja2 import PackageLoader
from sim.numba_cache import kernel_source_hash
from sim.rules.ruleset import BUILTIN_DIR, builtin_names
from sim.study.experiments.file import load_experiment, shipped_dir, shipped_experiments
from strategies.value_model_file import SHIPPED

def named_files(v):
    if isinstance(v, str) and v.endswith((".toml", ".py")):
        yield v
    elif isinstance(v, (list, tuple)):
        for x in v:
            yield from named_files(x)
    elif isinstance(v, dict):
        for x in v.values():
            yield from named_files(x)

named = {}
for p in shipped_experiments():
    e = load_experiment(p)
    named[e.name] = [[f, Path(f).is_file()] for q in e.parts for f in named_files(q)]
PackageLoader("sim.study.reports", "templates").get_source(None, "report.html.j2")
print(json.dumps({
    "prefix": sys.prefix,
    "modules": [m.__file__ for m in (experiments, sim, strategies)],
    "shipped_dir": str(shipped_dir()),
    "experiments": [p.stem for p in shipped_experiments()],
    "named": named,
    "rulesets": [str(BUILTIN_DIR), builtin_names()],
    "models": [str(SHIPPED), sorted(p.name for p in SHIPPED.glob("*.json"))],
    "kernel_hash": kernel_source_hash(),
}))
"""


def shipped_names() -> set[str]:
    return {p.stem for p in (ROOT / "experiments").glob("*.toml")}


def test_shipped_dir_is_the_experiments_package():
    d = expfile.shipped_dir()
    assert d == Path(str(resources.files("experiments")))
    assert {p.stem for p in expfile.shipped_experiments()} == shipped_names()
    assert expfile.find_experiment("seat-advantage") == d / "seat-advantage.toml"


def test_list_without_the_package_is_an_error(monkeypatch):
    monkeypatch.setattr(expfile, "SHIPPED_PACKAGE", "no_such_quacks_package")
    assert expfile.shipped_dir() is None and expfile.shipped_experiments() == []
    r = invoke("experiment", "list")
    assert r.exit_code == 1, (r.exit_code, r.output, r.exception)
    assert r.stdout == "" and "Traceback" not in r.output
    assert r.stderr.strip().splitlines() == [
        "error: no shipped experiments found (the package 'no_such_quacks_package' is not "
        "installed); reinstall quacks-sim (pip install .)"]


def test_list_with_no_experiment_file_is_an_error(monkeypatch, tmp_path):
    """The old behaviour: an empty table and exit 0."""
    monkeypatch.setattr(expfile, "shipped_dir", lambda: tmp_path)
    r = invoke("experiment", "list")
    assert r.exit_code == 1, (r.exit_code, r.output, r.exception)
    assert r.stdout == ""
    assert r.stderr.strip().splitlines() == [
        f"error: no shipped experiments found (no experiment file in {tmp_path}); reinstall "
        "quacks-sim (pip install .)"]


def _copy_tree(dest: Path) -> list[str]:
    """The checkout's files (tracked, or new and not ignored: no build/, caches, reports) copied
    to ``dest``; their paths."""
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, capture_output=True, check=True).stdout.decode()
    files = [f for f in out.split("\0") if f and (ROOT / f).is_file()]
    for f in files:
        (dest / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, dest / f)
    return files


def _run(cmd, cwd, env, timeout=900):
    r = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=timeout)
    assert r.returncode == 0, (cmd, r.returncode, r.stdout[-3000:], r.stderr[-3000:])
    return r


def _build_wheel(tmp: Path) -> tuple[Path, Path, list[str]]:
    src, dist = tmp / "src", tmp / "dist"
    files = _copy_tree(src)
    _run([sys.executable, "-m", "build", "--wheel", "--outdir", dist, src], src, dict(os.environ))
    (wheel,) = dist.glob("quacks_sim-*.whl")
    return src, wheel, files


def _check_wheel_files(wheel: Path, files: list[str]) -> None:
    """Every file of the three package folders is in the wheel; nothing else but its metadata."""
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = sorted(f for f in files if f.split("/")[0] in PACKAGES and f not in names)
    assert not missing, missing
    top = {n.split("/")[0] for n in names}
    assert top - set(PACKAGES) == {next(t for t in top if t.endswith(".dist-info"))}, top
    assert not [n for n in names if "/tests/" in n or n.split("/")[-1].startswith("test_")]
    for data in ("experiments/targets/balance.toml", "experiments/rounds/red-and-flask.toml",
                 "experiments/strategies/careful.py", "sim/rules/rulesets/base.toml",
                 "strategies/models/base-4p.json", "sim/study/reports/templates/report.html.j2"):
        assert data in names, data


@pytest.mark.slow
def test_the_wheel_installed_outside_the_tree_lists_and_runs_the_shipped_experiments(tmp_path):
    try:
        import build  # noqa: F401
    except ImportError:
        if os.environ.get("QUACKS_REQUIRE_WHEEL") == "1":
            pytest.fail("QUACKS_REQUIRE_WHEEL=1 but the build package is not installed")
        pytest.skip("the build package is not installed (pip install -e '.[test]')")
    src, wheel, files = _build_wheel(tmp_path)
    _check_wheel_files(wheel, files)

    venv, work = tmp_path / "venv", tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    # the shared kernel cache: its stamps hash the sources, so the installed copy hits it
    env |= {"NUMBA_CACHE_DIR": str(Path(cache_base()).parent), "COLUMNS": "200"}
    _run([sys.executable, "-m", "venv", "--system-site-packages", venv], work, env)
    py = venv / "bin" / "python"
    _run([py, "-m", "pip", "install", "--quiet", "--no-deps", "--ignore-installed", wheel],
         work, env)

    got = json.loads(_run([py, "-c", PROBE], work, env).stdout)
    site = Path(got["prefix"]).resolve()
    assert site == venv.resolve()
    for where in (*got["modules"], got["shipped_dir"], got["rulesets"][0], got["models"][0]):
        assert Path(where).resolve().is_relative_to(site), where
    assert set(got["experiments"]) == shipped_names()
    assert {"base", "herb-witches"} <= set(got["rulesets"][1]) and got["models"][1]
    assert got["named"]["balance-base"], "a shipped experiment names a targets file"
    for name, refs in got["named"].items():
        for f, found in refs:
            assert found and Path(f).resolve().is_relative_to(site), (name, f)
    # the same sources, so the same cache stamp as the checkout they were built from
    tree_hash = _run([sys.executable, "-c", "import sys; sys.path.insert(0, '.'); "
                      "from sim.numba_cache import kernel_source_hash as h; print(h())"],
                     src, env).stdout.strip()
    assert got["kernel_hash"] == tree_hash

    quacks = venv / "bin" / "quacks"
    listed = _run([quacks, "experiment", "list"], work, env).stdout
    for name in shipped_names():
        assert name in listed, name
    _run([quacks, "experiment", "run", "seat-advantage", "--games", "40"], work, env)
    report = (work / "reports" / "seat-advantage" / "report.md").read_text()
    assert "Seat advantage by player count" in report
