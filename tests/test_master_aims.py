"""benchmarks/master_aims.py, small: the aims' table with every game's master and parity rows
and the speed line, written whole to --out; a missing --out folder is one line and status 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "master_aims.py"


@pytest.mark.slow  # master's games in three rulesets, a fresh process: minutes on 2 cores
def test_master_aims_writes_every_game_s_rows(tmp_path):
    out = tmp_path / "aims.txt"
    r = subprocess.run([sys.executable, str(SCRIPT), "--games", "40", "--seed", "3",
                        "--out", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    for head in ("## base, 4 players (aim: master's win share at least 0.33)",
                 "## herb-witches, 4 players", "## base, 2 players"):
        assert head in text
    assert text.count("| master | ") == 3 and text.count("| expert | ") == 3
    assert "games per CPU second" in text and "--games 40 --seed 3" in text


def test_master_aims_refuses_a_missing_folder(tmp_path):
    out = tmp_path / "no" / "aims.txt"
    r = subprocess.run([sys.executable, str(SCRIPT), "--out", str(out)], capture_output=True,
                       text=True, cwd=ROOT)
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0
    assert "no such folder" in r.stderr and "Traceback" not in r.stderr and not out.exists()


def test_the_how_to_figures_are_the_stored_run_s():
    # every interval the how-to's "Where it stands" shows comes from the stored run
    import re

    how_to = (ROOT / "docs" / "how-to" / "train-master.md").read_text()
    section = how_to[how_to.index("## 5. Where it stands"):].replace("\n", " ")
    stored = (ROOT / "docs" / "examples" / "master-aims.txt").read_text()
    # the section shows the stored run itself and quotes it in prose: six distinct intervals
    figures = set(re.findall(r"\d\.\d{3} \[\d\.\d{3}, +\d\.\d{3}\]", section))
    assert len(figures) == 6
    for f in figures:
        assert re.sub(r" +", " ", f) in stored, f
    speed = re.search(r"plays ([\d,]+) games per CPU second", section).group(1)
    assert f"{speed} games per CPU second" in stored
