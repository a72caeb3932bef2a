"""Every report says how to reproduce it (issue 43 item 8, issue 44 item 6): the manifest of
every command that writes a report keeps one :class:`Provenance`, and both ``report.md`` and
``report.html`` render it: the ``quacks ...`` command (never the executable's path, the user's
relative paths as given), the seed, the ruleset's hash, the versions of quacks-sim, Python,
numpy and numba, and the git commit when the project is a checkout (``+changes`` when dirty)."""

from __future__ import annotations

import json
import platform
import re
import shlex
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pandas as pd
import pytest
from cli_helpers import invokers
from markupsafe import escape

from sim.cli.main import app
from sim.rules.ruleset import load_ruleset
from sim.study.reports.provenance import (
    PROVENANCE_PACKAGES,
    Provenance,
    git_commit,
    relative_command,
    typed_command,
)

invoke, ok = invokers(app)

EXE = "/opt/some/venv/bin/quacks"  # the executable as the shell found it: never shown
STRATEGY_FILE = Path(__file__).parents[1] / "experiments" / "strategies" / "careful.py"
EXPERIMENT = """
[experiment]
title = "provenance"
seed = 12
games = 20
players = 2
set = ["game.rats_from_round=21"]

[[part]]
kind = "seats"
name = "mirror"
strategy = "random"
player_counts = [2]
"""
# command: (args after quacks, out folder, manifest, seed, the rulesets as (name, overrides))
COMMANDS = {
    "tournament": (["tournament", "--strategies", "careful,random", "--strategy-file",
                    "careful.py", "--games", "20", "--seed", "4"], "t", "run.json", 4,
                   [("base", [])]),
    "sweep": (["sweep", "--strategy", "threshold", "--param", "t=5:6:1", "--vs", "random",
               "--players", "2", "--games", "20", "--seed", "5"], "sw", "run.json", 5,
              [("base", [])]),
    "tune": (["tune", "threshold", "--param", "t=4:9", "--vs", "random", "--players", "2",
              "--budget", "400", "--seed", "6", "--set", "game.rounds=8"], "tu", "tune.json", 6,
             [("base", ["game.rounds=8"])]),
    "compare": (["compare", "--variant", "x=game.rats_from_round=21", "--strategies",
                 "threshold,random", "--players", "2", "--games", "20", "--seed", "7"], "co",
                "run.json", 7, [("base", []), ("base", ["game.rats_from_round=21"])]),
    "balance": (["balance", "--games", "20", "--players", "2", "--parts", "game", "--seed", "8"],
                "ba", "run.json", 8, [("base", [])]),
    "sensitivity": (["sensitivity", "--players", "2", "--field", "threshold:t=6,flask=0,balanced",
                     "--games", "20", "--seed", "9", "--steps", "2", "--knob",
                     "game.explosion_limit=6:8"], "se", "run.json", 9, [("base", [])]),
    "design": (["design", "--target", "explosion_rate=0.08:0.13", "--knob",
                "game.explosion_limit=3:9", "--budget", "2000", "--players", "2", "--field",
                "threshold:t=5,flask=0", "--set", "game.rounds=1", "--set", "cards.deck=false",
                "--retest-games", "400", "--seed", "11"], "de", "run.json", 11,
               [("base", ["game.rounds=1", "cards.deck=false"])]),
    "experiment": (["experiment", "run", "exp.toml"], "ex", "experiment.json", 12,
                   [("base", ["game.rats_from_round=21"])]),
}
WITH_REPORT_MD = ("compare", "balance", "sensitivity", "design", "experiment")


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> tuple[Path, dict[str, Path]]:
    """Every report-writing command run once from a working folder with relative paths, as
    the shell would run ``quacks`` (its absolute path in argv[0])."""
    root = tmp_path_factory.mktemp("prov")
    shutil.copy(STRATEGY_FILE, root / "careful.py")
    (root / "exp.toml").write_text(EXPERIMENT)
    out = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        for kind, (args, folder, *_) in COMMANDS.items():
            argv = [EXE, *args, "--out", folder]
            mp.setattr(sys, "argv", argv)
            ok(*argv[1:])
            out[kind] = root / folder
    return root, out


def _provenance(kind: str, folder: Path) -> dict:
    manifest = json.loads((folder / COMMANDS[kind][2]).read_text())
    return manifest["provenance"]


@pytest.mark.parametrize("kind", list(COMMANDS))
def test_every_report_records_its_provenance(reports, kind):
    root, folders = reports
    args, folder, _, seed, rulesets = COMMANDS[kind]
    p = _provenance(kind, folders[kind])
    assert p["given"] == shlex.join(["quacks", *args, "--out", folder])
    command = p["command"]
    assert command.startswith("quacks " + " ".join(args[:2 if kind == "experiment" else 1]))
    assert EXE not in command and str(root) not in command, command  # relative, as given
    assert p["seed"] == seed
    assert [r["hash"] for r in p["rules"]] == [load_ruleset(name, over).hash
                                               for name, over in rulesets]
    assert p["versions"] == {"quacks-sim": version("quacks-sim"),
                             "python": platform.python_version(), "numpy": version("numpy"),
                             "numba": version("numba")}
    assert list(p["versions"]) == list(PROVENANCE_PACKAGES)
    here = git_commit()
    assert (p["commit"] is None) == (here is None)
    if here is not None:
        assert re.fullmatch(r"[0-9a-f]{7,40}(\+changes)?", p["commit"]), p["commit"]


def _shown(prov: Provenance) -> list[str]:
    return [prov.command, str(prov.seed), *[h for _, h in prov.rules], prov.version_text(),
            *([prov.commit] if prov.commit else [])]


@pytest.mark.parametrize("kind", list(COMMANDS))
def test_the_page_shows_the_provenance(reports, kind):
    _, folders = reports
    prov = Provenance.from_json(_provenance(kind, folders[kind]))
    html = (folders[kind] / "report.html").read_text(encoding="utf-8")
    html = html[:html.index('<section id="manifest">')]  # not the manifest's text in full
    assert f'<p class="label">reproduce with</p>\n<pre><code>{escape(prov.command)}</code>' in html
    for label, text in prov.rows():
        assert f"<dt>{label}</dt><dd>{escape(text)}</dd>" in html, label
    assert EXE not in html
    if prov.commit:
        assert "<dt>git commit</dt>" in html


@pytest.mark.parametrize("kind", WITH_REPORT_MD)
def test_report_md_shows_the_provenance(reports, kind):
    _, folders = reports
    prov = Provenance.from_json(_provenance(kind, folders[kind]))
    md = (folders[kind] / "report.md").read_text(encoding="utf-8")
    assert md.count("## Reproduce") == 1 and f"Reproduce with:\n\n    {prov.command}\n" in md
    for text in _shown(prov):
        assert text in md
    assert f"- seed: {prov.seed}" in md and EXE not in md


def test_quacks_report_renders_the_saved_provenance(reports, tmp_path):
    _, folders = reports
    copy = Path(shutil.copytree(folders["tournament"], tmp_path / "copy"))
    (copy / "report.html").unlink()
    ok("report", copy)
    html = (copy / "report.html").read_text(encoding="utf-8")
    prov = Provenance.from_json(_provenance("tournament", copy))
    assert str(escape(prov.command)) in html and "<dt>ruleset hash</dt>" in html
    # a manifest written before the provenance was kept still gets its page
    m = json.loads((copy / "run.json").read_text())
    del m["provenance"]
    (copy / "run.json").write_text(json.dumps(m))
    ok("report", copy)
    assert "reproduce with" in (copy / "report.html").read_text(encoding="utf-8")


def test_the_reproduce_command_reproduces(reports, tmp_path):
    root, folders = reports
    prov = Provenance.from_json(_provenance("tournament", folders["tournament"]))
    assert "--strategy-file careful.py" in prov.command
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        ok(*shlex.split(prov.command)[1:], "--out", tmp_path / "again")
    for name in ("summary.csv", "pairs.csv", "seats.csv"):
        pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "again" / name),
                                      pd.read_csv(folders["tournament"] / name))


# --- the parts, by hand -----------------------------------------------------------------------

def test_commands_are_relative_as_given(tmp_path):
    argv = [EXE, "tournament", "--strategy-file", "s/a.py", "--rules=r.toml", "--out", "x"]
    cmd = shlex.join(["/usr/bin/quacks", "tournament", "--strategy-file", str(tmp_path / "s/a.py"),
                      "--rules", str(tmp_path / "r.toml"), "--x", "/etc/other"])
    assert relative_command(cmd, argv, cwd=tmp_path) == (
        "quacks tournament --strategy-file s/a.py --rules r.toml --x /etc/other")
    assert typed_command([EXE, "tune", "a b"]) == "quacks tune 'a b'"
    assert typed_command(["/x/sim/cli/__main__.py", "report", "d"]) == "python -m sim.cli report d"
    assert typed_command([]) is None


def test_provenance_round_trip_and_both_formats():
    p = Provenance("quacks tournament --seed 3", "quacks tournament --out x", 3,
                   (("base", "ab" * 32),), (("quacks-sim", "1"), ("python", "3"), ("numpy", "2"),
                                            ("numba", "0.6")), "abc1234+changes")
    assert Provenance.from_json(json.loads(json.dumps(p.to_json()))) == p
    assert Provenance.from_json({"no": "command"}) is None
    md = p.markdown()
    assert md.startswith("## Reproduce\n\nReproduce with:\n\n    quacks tournament --seed 3\n")
    assert "Command as given:\n\n    quacks tournament --out x" in md
    assert "- git commit: abc1234+changes" in md and "- ruleset hash: base: " + "ab" * 32 in md
    assert "- versions: quacks-sim 1, python 3, numpy 2, numba 0.6" in md
    bare = Provenance("quacks x", seed=None, commit=None)
    assert [label for label, _ in bare.rows()] == ["versions"]  # no seed, no commit: no line


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_commit_short_hash_and_changes(tmp_path):
    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    assert git_commit(tmp_path) is None  # not a checkout
    git("init", "-q")
    git("config", "user.email", "t@example.com")
    git("config", "user.name", "t")
    (tmp_path / "a.txt").write_text("1")
    git("add", "a.txt")
    git("commit", "-q", "-m", "one")
    head = subprocess.run(["git", "-C", str(tmp_path), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()
    assert git_commit(tmp_path) == head
    (tmp_path / "new.txt").write_text("untracked")  # a file git does not track: still clean
    assert git_commit(tmp_path) == head
    (tmp_path / "a.txt").write_text("2")
    assert git_commit(tmp_path) == head + "+changes"
    sub = tmp_path / "sub"
    sub.mkdir()
    assert git_commit(sub) is None  # only the top of a checkout
