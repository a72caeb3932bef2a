"""``quacks --version``, ``quacks --help`` and every ``quacks COMMAND --help`` start without the
simulation: no Numba, NumPy, pandas, pyarrow, matplotlib, optuna or dask is imported, and no
source file is hashed for the Numba cache (issue 23). Not timed: benchmarks/bench_startup.py
measures the speed.

Each case runs in a fresh interpreter (``sys.modules`` of this test process holds everything
already) whose atexit hook writes the heavy modules it ended with to a JSON file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("numba", "numpy", "pandas", "pyarrow", "matplotlib", "optuna", "dask")

PROBE = """
import atexit, json, sys

def report():
    nc = sys.modules.get("sim.numba_cache")
    hashed = nc is not None and (nc.module_stamp.cache_info().currsize > 0
                                 or nc.imports_of.cache_info().currsize > 0)
    heavy = sorted({m.split(".")[0] for m in sys.modules} & set(HEAVY))
    with open(OUT, "w") as f:
        json.dump({"heavy": heavy, "hashed": hashed}, f)

atexit.register(report)
if ARGS is None:
    import sim.cli.main
else:
    sys.argv = ["quacks", *ARGS]
    from sim.cli.main import main
    main()
"""


def _command_paths() -> list[list[str]]:
    """Every command and sub-command of ``quacks`` (``["rules", "show"]``, ...)."""
    import typer

    from sim.cli.app import app

    def walk(cmd, path):
        for name in sorted(getattr(cmd, "commands", {})):
            yield [*path, name]
            yield from walk(cmd.commands[name], [*path, name])

    return list(walk(typer.main.get_command(app), []))


def probe(tmp_path: Path, args: list[str] | None) -> tuple[dict, subprocess.CompletedProcess]:
    """Run ``import sim.cli.main`` (args None) or ``quacks ARGS`` in a fresh interpreter on this
    checkout; return what its atexit hook saw, and the finished process."""
    out = tmp_path / "modules.json"
    code = f"HEAVY = {HEAVY!r}\nOUT = {str(out)!r}\nARGS = {args!r}\n{PROBE}"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p), "COLUMNS": "100"}
    res = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert out.is_file(), res.stderr
    return json.loads(out.read_text()), res


CASES = [None, ["--version"], ["--help"], *([*p, "--help"] for p in _command_paths())]


@pytest.mark.parametrize("args", CASES,
                         ids=lambda a: "import sim.cli.main" if a is None else " ".join(a))
def test_starts_without_the_simulation(tmp_path, args):
    seen, res = probe(tmp_path, args)
    assert res.returncode == 0, res.stderr
    assert seen["heavy"] == [], f"imported {seen['heavy']}"
    assert not seen["hashed"], "hashed sources for the Numba cache"
    if args is not None:
        assert res.stdout.strip() and res.stderr == ""


def test_version_line(tmp_path):
    _, res = probe(tmp_path, ["--version"])
    assert res.stdout == "quacks-sim 0.1.0\n"


def test_every_command_is_probed():
    names = {" ".join(a[:-1]) for a in CASES if a and a[-1] == "--help"}
    assert {"tournament", "potion", "play", "rules show", "experiment run", "tune"} <= names
