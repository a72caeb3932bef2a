"""Issue 22's closing property: for every integer option of every command (sub-commands too) and
every chip-list option, a random huge, negative or malformed value is one line ``error: ...`` on
stderr, exit status 2, nothing on stdout, and nothing left on disk. The other options are small
and valid, and a bad value is refused while the options are read, so no real work starts."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import pytest
import typer
from cli_helpers import assert_user_error, read_only_folder
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sim.cli.common import int_range
from sim.cli.main import app

ROUND_FILE = Path(__file__).parent / "rounds" / "r01-2p-round1-basics.toml"
# small, valid settings for the arguments and options a command cannot go without
REQUIRED = {
    ("tune",): ["threshold", "--param", "t=4:8", "--vs", "threshold"],
    ("experiment", "run"): ["seat-advantage"],
    ("round",): [str(ROUND_FILE)],
    ("plot",): ["no-such-report"],
    ("rules", "show"): ["base"],
}


def _commands(group, prefix=()):
    for name, cmd in sorted(group.commands.items()):
        if hasattr(cmd, "commands"):
            yield from _commands(cmd, (*prefix, name))
        else:
            yield (*prefix, name), cmd


def _int_options() -> list[tuple[tuple[str, ...], str, int, int]]:
    """(command path, --option, lowest, highest) for every integer option, as the app is built
    now (the ranges as the option guard applies them)."""
    found = []
    for path, cmd in _commands(typer.main.get_command(app)):
        for p in cmd.params:
            desc = getattr(p, "type_descriptor", None)
            if desc is None or desc.annotation is not int or not p.opts:
                continue
            lo, hi, _ = int_range((p.name or "").rstrip("_"))
            lo = p.min if getattr(p, "min", None) is not None else lo
            hi = p.max if getattr(p, "max", None) is not None else hi
            found.append((path, max(p.opts, key=len), lo, hi))
    return found


INT_OPTIONS = _int_options()

# (command with small valid options, the option taking chips); the value goes last
CHIP_OPTIONS = [
    (["potion", "--n", "10", "--bag"], "bag"),
    (["potion", "--n", "10", "--draws"], "draws"),
    (["thresholds", "--n", "10", "--bag"], "bag"),
    (["play", "--games", "2", "--strategies"], "buy"),
    (["tournament", "--games", "4", "--strategies"], "buy"),
    (["sweep", "--games", "4", "--param", "t=4:5:1", "--vs", "balanced", "--strategy"], "buy"),
    (["tune", "--param", "t=4:8", "--vs", "balanced", "--budget", "400"], "buy-spec"),
    (["compare", "--games", "4", "--variant", "x=game.rats_from_round=21", "--strategies"], "buy"),
    (["balance", "--games", "8", "--parts", "game", "--field"], "buy"),
]


def test_every_command_with_integer_options_is_covered():
    commands = {c for c, *_ in INT_OPTIONS}
    assert {("experiment", "run"), ("tune",), ("potion",), ("play",), ("compare",)} <= commands
    assert len(INT_OPTIONS) >= 40


def _out_of_range(lo: int, hi: int):
    huge = st.integers(min_value=hi + 1, max_value=hi + 10**30)
    below = st.integers(max_value=lo - 1, min_value=lo - 10**30) if lo > -2**63 else st.nothing()
    return st.one_of(huge, below).map(str)


MALFORMED = st.sampled_from(["1.5", "abc", "1e3", "", " ", "0x10", "--", "½", "9" * 5000,
                             "-" + "9" * 30, "+-1", "1 2"])


@st.composite
def bad_integer(draw):
    path, opt, lo, hi = draw(st.sampled_from(INT_OPTIONS))
    value = draw(st.one_of(_out_of_range(lo, hi), MALFORMED))
    return [*path, *REQUIRED.get(path, []), opt, value]


def _bad_chips():
    count = st.integers(min_value=65, max_value=10**40).map(lambda n: f"w1x{n}")
    broken = st.sampled_from(["w1x", "q1", "w1x0", "w1,,o1", "r" + "9" * 50, "x5", "w1x-3",
                              "w1xx2", "w" + "9" * 5000, "start,k1x999999999999999"])
    return st.one_of(count, broken)


@st.composite
def bad_chip_list(draw):
    args, what = draw(st.sampled_from(CHIP_OPTIONS))
    chips = draw(_bad_chips())
    if what.startswith("buy"):  # a comma would start another spec: keep one item
        chips = "q1" if "," in chips else chips
        return [*args, f"balanced:buy={chips.replace('w', 'r')}"]
    if what == "buy-spec":
        return ["tune", f"threshold:buy={chips.replace('w', 'r')}", *args[1:]]
    return [*args, chips]


def _check(args: list[str]) -> None:
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as where:
        os.chdir(where)
        try:
            r = CliRunner().invoke(app, args)
        finally:
            os.chdir(here)
        assert_user_error(r)
        left = os.listdir(where)
        assert left == [], (args, left)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bad_integer())
def test_a_bad_integer_is_one_line_and_leaves_nothing(args):
    _check(args)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bad_chip_list())
def test_a_bad_chip_list_is_one_line_and_leaves_nothing(args):
    _check(args)


# --- Issue 43's closing property: every path option, five bad paths ---------------------------
#
# The path parameters are found in the app as it is built now, not listed here: every option or
# argument typed Path, or a text one whose help names a file or folder (but not a spec that only
# mentions one, like master:model=FILE). It is an output when it is --out or its help starts
# "Write"; a folder when the first such word of its help is folder, directory or DIR.

PATH_WORDS = re.compile(r"\b(file|folder|directory|dir)\b", re.IGNORECASE)
NOT_A_PATH = re.compile(r"\bk=v\b|key=value|instead of a file")  # a spec, or a stand-in


def _kind(p) -> str | None:
    """in-file, in-dir, out-file or out-dir for a path parameter, else None."""
    ann = getattr(getattr(p, "type_descriptor", None), "annotation", None)
    text = p.help or ""
    named = PATH_WORDS.search(text)
    if ann is not Path and not (ann in (str, list[str]) and named and not NOT_A_PATH.search(text)):
        return None
    out = "--out" in p.opts or text.startswith("Write")
    folder = named is not None and named.group(1).lower() != "file"
    return f"{'out' if out else 'in'}-{'dir' if folder else 'file'}"


PATH_PARAMS = [(path, p, _kind(p)) for path, cmd in _commands(typer.main.get_command(app))
               for p in cmd.params if _kind(p)]
CASES = {"in-file": ("empty", "folder", "under-file", "read-only"),
         "in-dir": ("empty", "folder", "under-file", "read-only"),
         "out-file": ("empty", "folder", "under-file", "read-only", "existing"),
         "out-dir": ("empty", "folder", "under-file", "read-only", "existing")}
# small, valid settings that let each command reach its work (the path is the only fault)
VALID = {
    ("balance",): ["--games", "8", "--parts", "game"],
    ("compare",): ["--games", "8", "--variant", "x=game.rats_from_round=21"],
    ("design",): ["--knob", "game.rats_from_round=1:3", "--target", "seat0_win_share=0.2:0.3",
                  "--budget", "400"],
    ("experiment", "run"): ["seat-advantage", "--games", "8"],
    ("play",): ["--games", "2"],
    ("potion",): ["--n", "10"],
    ("replay",): ["--seed", "1", "--game", "0"],
    ("report",): ["no-such-report"],
    ("sensitivity",): ["--knob", "game.rats_from_round=1:3", "--games", "8"],
    ("sweep",): ["--strategy", "threshold", "--param", "t=4:5:1", "--vs", "balanced",
                 "--games", "8"],
    ("thresholds",): ["--n", "10"],
    ("tournament",): ["--games", "8", "--strategies", "threshold,random"],
    ("train",): ["--games", "10", "--iterations", "1", "--out", "model.json"],
}


def test_every_path_parameter_is_found():
    named = {(" ".join(c), max(p.opts, key=len), k) for c, p, k in PATH_PARAMS}
    assert {("tournament", "--out", "out-dir"), ("thresholds", "--csv", "out-file"),
            ("train", "--out", "out-file"), ("tune", "--out", "out-dir"),
            ("play", "--rules", "in-file"), ("balance", "--targets", "in-file"),
            ("report", "directory", "in-dir"), ("round", "file", "in-file"),
            ("sweep", "--strategy-file", "in-file")} <= named
    assert not {n for _, n, _ in named} & {"--strategies", "--master", "--set", "--target"}
    assert len(PATH_PARAMS) >= 40


def _bad_path(case: str, kind: str, where: Path) -> str:
    """The bad value of ``case`` for a parameter of ``kind``, made under ``where`` (not the
    current folder, which stays empty: an empty path must not write there)."""
    where.mkdir()
    (where / "a-file.txt").write_text("x\n")
    if case == "empty":
        return ""
    if case == "under-file":
        return str(where / "a-file.txt" / "x")
    if case == "read-only":
        return str(read_only_folder(where) / "x")
    if case == "existing":  # an output file there already, or a file where a folder would go
        return str(where / "a-file.txt")
    d = where / "a-folder"
    d.mkdir()
    if kind == "out-dir":  # an empty folder is a fine --out; one holding a file is not
        (d / "notes.txt").write_text("mine\n")
    return str(d)


def _args(command: tuple[str, ...], p, value: str) -> list[str]:
    """The command line: the valid settings, with ``value`` for the parameter ``p``."""
    valid = list(VALID.get(command, REQUIRED.get(command, [])))
    if "--targets" in p.opts and "--target" in valid:  # one or the other
        at = valid.index("--target")
        del valid[at:at + 2]
    if p.param_type_name == "argument":  # the argument is the first word that is no option
        at = next(i for i, a in enumerate(valid) if not a.startswith("--"))
        return [*command, *valid[:at], value, *valid[at + 1:]]
    return [*command, *valid, max(p.opts, key=len), value]


class WorkStarted(AssertionError):
    """A game, a sampled potion, an enumeration or a Numba compile (or cache load) started
    before the path was checked."""


def _no_work(monkeypatch) -> None:
    from numba.core.dispatcher import Dispatcher

    import sim.api.game as game
    import sim.api.potion as potion

    def refuse(*args, **kwargs):
        raise WorkStarted("work started before the path was checked")

    monkeypatch.setattr(game, "play_games", refuse)
    monkeypatch.setattr(potion, "potion_histograms", refuse)
    monkeypatch.setattr(potion, "exact_distribution", refuse)
    # a kernel compiled or loaded from the cache for a bad path: what the old "< 30 s" caught
    monkeypatch.setattr(Dispatcher, "compile", refuse)


def _tree(where: Path) -> set[str]:
    return {str(q.relative_to(where)) for q in where.rglob("*")}


@pytest.mark.parametrize("command, p, kind, case", [
    pytest.param(c, p, k, case, id=f"{' '.join(c)} {max(p.opts, key=len)} {case}")
    for c, p, k in PATH_PARAMS for case in CASES[k]])
def test_a_bad_path_is_one_line_leaves_nothing_and_plays_nothing(command, p, kind, case,
                                                               tmp_path, monkeypatch):
    where = tmp_path / "things"
    value = _bad_path(case, kind, where)
    (tmp_path / "cwd").mkdir()
    before = _tree(tmp_path)
    _no_work(monkeypatch)
    monkeypatch.chdir(tmp_path / "cwd")
    try:
        r = CliRunner().invoke(app, _args(command, p, value))
    finally:
        if (where / "read-only").exists():
            (where / "read-only").chmod(0o755)
    assert not isinstance(r.exception, WorkStarted), r.exception
    line = assert_user_error(r)
    assert _tree(tmp_path) == before, (line, _tree(tmp_path) - before)
    if p.param_type_name == "option":  # the line names the option, or the path it was given
        assert max(p.opts, key=len) in line or (value and value in line), line
    if kind == "in-file" and case == "folder":
        assert "folder" in line, line
