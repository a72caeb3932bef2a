"""Nothing a user types ends in a traceback: every integer option of every command is held to
one rule (one line ``error: ...``, exit status 2), Ctrl-C is one line ``interrupted`` with exit
status 130 (also in the middle of a long potion run), ``--version``, ``quacks warmup``, and
sampled potions do not depend on how the work is split."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version

import numpy as np
import pytest
import typer
from cli_helpers import assert_user_error
from pty_helpers import ctrl_c_after_progress
from typer.testing import CliRunner

from sim.api import potion as pot
from sim.cli.main import app
from sim.rules.ruleset import load_ruleset

runner = CliRunner()
BASE = load_ruleset("base")


def _is_int(p) -> bool:
    desc = getattr(p, "type_descriptor", None)
    if desc is not None:
        return desc.annotation is int
    return getattr(getattr(p, "type", None), "name", "") == "integer"


def int_options() -> list[tuple[str, str]]:
    """(command, --option) for every integer option of every command of the app, as built now:
    an option added later is covered without touching this file."""
    group = typer.main.get_command(app)
    found = []
    for name, cmd in sorted(group.commands.items()):
        for p in cmd.params:
            if _is_int(p) and p.opts and p.opts[0].startswith("--"):
                found.append((name, max(p.opts, key=len)))
    return found


INT_OPTIONS = int_options()


def test_the_introspection_finds_the_integer_options():
    for known in [("potion", "--seed"), ("potion", "--n"), ("potion", "--start"),
                  ("play", "--games"), ("play", "--players"), ("replay", "--game"),
                  ("tournament", "--threads"), ("sweep", "--games")]:
        assert known in INT_OPTIONS
    assert len({c for c, _ in INT_OPTIONS}) >= 5


@pytest.mark.parametrize("value", [str(2**64), "-1"])
@pytest.mark.parametrize(("command", "option"), INT_OPTIONS)
def test_every_integer_option_out_of_range_is_one_line(command, option, value):
    r = runner.invoke(app, [command, option, value])
    line = assert_user_error(r)  # exit 2, one line 'error: ...' on stderr, no traceback
    if value != "-1":  # (a command may check -1 itself, after what it needs to know first)
        assert line.startswith(f"error: {option} {value}: expected "), line


@pytest.mark.parametrize("args", [
    ["play", "--seed", "99999999999999999999"],
    ["potion", "--seed", "18446744073709551616"],
    ["potion", "--n", "99999999999999999999"],
    ["replay", "--game", "99999999999999999999", "--seed", "1", "--strategies", "threshold,random"],
])
def test_the_reported_cases(args):
    assert_user_error(runner.invoke(app, args), f"{args[1]} {args[2]}: expected ")


def test_the_message_names_the_range():
    r = runner.invoke(app, ["potion", "--seed", "99999999999999999999"])
    assert r.stderr == "error: --seed 99999999999999999999: expected 0 to 9223372036854775807\n"


def test_more_potions_than_a_day_is_refused():
    line = assert_user_error(runner.invoke(app, ["potion", "--n", str(10**12 + 1)]), "--n")
    assert "day" in line


@pytest.mark.parametrize("args", [
    ["potion", "--seed", "abc"],
    ["potion", "--no-such-option"],
    ["play", "--games", "1.5"],
    ["tournament", "--format", "swiss"],
    ["no-such-command"],
    ["replay", "--seed"],
])
def test_other_usage_errors_are_one_line(args):
    assert_user_error(runner.invoke(app, args))


def test_the_console_entry_point_takes_the_same_path():
    r = subprocess.run([sys.executable, "-m", "sim.cli.main", "potion", "--seed", str(2**64)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 2
    assert r.stdout == ""
    assert r.stderr == f"error: --seed {2**64}: expected 0 to 9223372036854775807\n"


def test_version():
    r = runner.invoke(app, ["--version"])
    assert r.exit_code == 0
    assert r.stdout == f"quacks-sim {version('quacks-sim')}\n"


# ---------------------------------------------------------------------------------------------
# Ctrl-C


def test_keyboard_interrupt_in_a_command_is_one_line(monkeypatch):
    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(pot, "exact", interrupted)
    r = runner.invoke(app, ["potion", "--exact"])
    assert r.exit_code == 130
    assert r.stderr == "interrupted\n"
    assert r.stdout == ""
    assert "Traceback" not in r.output


def test_ctrl_c_during_start_up_is_one_line():
    code = ("import os, signal, sys, time\n"
            "sys.argv[0] = '/usr/bin/quacks'\n"
            "import sim\n"
            "os.kill(os.getpid(), signal.SIGINT)\n"
            "time.sleep(30)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert r.returncode == 130
    assert r.stderr == "interrupted\n"


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal and SIGINT")
def test_ctrl_c_stops_a_long_potion_run(tmp_path):
    """On a terminal the run shows a progress bar once it has taken 2 s; Ctrl-C then ends it at
    once (within the piece under way: no piece starts after it, counted, not timed) with one
    line, exit status 130, and the terminal's cursor back."""
    assert runner.invoke(app, ["potion", "--n", "1000"]).exit_code == 0  # kernel on disk
    r = ctrl_c_after_progress(["potion", "--n", "10000000000"], b"potions",
                              "sim.api.potion:potion_histograms", tmp_path / "pieces")
    assert r.returncode == 130, r.text
    assert 1 <= r.calls_before <= r.calls <= r.calls_before + 1, (r.calls_before, r.calls)
    assert "Traceback" not in r.text and r.last_line == "interrupted", r.text
    assert r.terminal.rfind(b"\x1b[?25h") > r.terminal.rfind(b"\x1b[?25l")  # the cursor is back
    assert r.stdout == b""


# ---------------------------------------------------------------------------------------------
# sampling in pieces


@pytest.mark.parametrize("stop", ["white:6", "risk:0.2"])
def test_potion_counts_do_not_depend_on_the_pieces(monkeypatch, stop):
    from sim.kernel.potions import potion_histograms
    from strategies.registry import slot_table

    q = pot.make_query("start,r1,b1,y1", stop, 2, 1, BASE)
    n, seed = 30_000, 11
    R, SK, SP = q.arrays()
    args = (np.array(q.bag, dtype=np.int64), q.start, int(BASE.game("explosion_limit")), 1, R, SK,
            SP)
    one_call = potion_histograms(np.uint64(seed), 0, n, *args, 64, *slot_table(SK))
    assert one_call[:54].sum() == n  # each potion once by its space, once by its VP, once by
    assert one_call[pot.VP_AT:pot.BREW_AT].sum() == n  # its chips' VP while brewing
    assert one_call[pot.BREW_AT:pot.BREW_SUM_AT].sum() == n
    bounds = [0, 1, 7, 4096, 11_111, 29_999, 30_000]
    pieces = sum(potion_histograms(np.uint64(seed), a, b - a, *args, max(1, min(64, b - a)),
                                   *slot_table(SK))
                 for a, b in zip(bounds, bounds[1:]))
    assert np.array_equal(pieces, one_call)
    seen = []
    monkeypatch.setattr(pot, "FIRST_PIECE", 4_999)
    split = pot.sample(q, n, seed, piece_seconds=0.05, progress=lambda d, t: seen.append((d, t)))
    assert len(seen) >= 2 and seen[0] == (4_999, n) and seen[-1] == (n, n)
    assert np.array_equal(split, one_call[:54])  # (the rows after the spaces: sample(full=True))


def test_potion_cli_matches_one_kernel_call():
    from sim.kernel.potions import potion_histograms
    from strategies.registry import slot_table

    r = runner.invoke(app, ["potion", "--n", "50000", "--seed", "5", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    q = pot.make_query("start", "white:6", None, 0, BASE)
    R, SK, SP = q.arrays()
    h = potion_histograms(np.uint64(5), 0, 50_000, np.array(q.bag, dtype=np.int64), 0,
                          int(BASE.game("explosion_limit")), 0, R, SK, SP, 64, *slot_table(SK))
    assert d["distribution"]["intact"] == {str(s): int(h[s, 0]) for s in range(54) if h[s, 0]}
    assert d["distribution"]["exploded"] == {str(s): int(h[s, 1]) for s in range(54) if h[s, 1]}


# ---------------------------------------------------------------------------------------------
# warmup


def test_warmup_compiles_the_kernels_and_says_how_long():
    r = runner.invoke(app, ["warmup"])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("warmup: ")
    for step in ("potion kernel", "forced draws", "exact enumeration", "game kernel", "replay",
                 "scripted round"):
        assert step in r.stdout
    assert "optimal stopper" in r.stdout  # cached like the rest now


@pytest.mark.slow
def test_warmup_with_the_optimal_stopper():
    r = runner.invoke(app, ["warmup", "--optimal"])
    assert r.exit_code == 0, r.output
    assert "optimal stopper" in r.stdout and "optimal stopper in a game" in r.stdout
