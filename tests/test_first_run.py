"""The first run after an install (issue 43): the compile notice names its steps with the declared
estimates and, while Numba compiles, says what it is doing; and the main job's tables fit 80
columns (split by columns, names and counts repeated, no interval wrapped, no name cut)."""

from __future__ import annotations

import io
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import invokers
from pty_helpers import strip_ansi
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table

from sim.cli import compiling
from sim.cli.main import app
from sim.cli.printing import PIPED_WIDTH, print_table, table_parts

ROOT = Path(__file__).resolve().parents[1]
ROUND_FILE = Path(__file__).parent / "rounds" / "r01-2p-round1-basics.toml"
invoke, ok = invokers(app)


# ---------------------------------------------------------------------------------------------
# The compile notice: the steps and their estimates


@pytest.fixture
def uncached(monkeypatch):
    """As on a machine whose Numba cache is empty: the compile notice is due (once). Nothing is
    compiled for real (the kernels load from the cache), so no progress follows the notice."""
    import sim.cli.common
    import sim.numba_cache

    monkeypatch.setattr(sim.numba_cache, "is_cached", lambda entry: False)
    monkeypatch.setattr(sim.cli.common, "_NOTICE_SHOWN", False)


def test_the_notice_names_the_step_and_its_declared_estimate(uncached):
    r = ok("round", ROUND_FILE)
    step = compiling.STEPS["sim/kernel/round.play_rounds"]
    (line,) = r.stderr.splitlines()
    assert line == compiling.notice_lines(["sim/kernel/round.play_rounds"])[0]
    assert line.startswith("compiling the simulation kernels once (cached after that): ")
    assert step.label in line and compiling.about(step.seconds) in line
    assert "several minutes" not in line
    assert "player 0" in r.stdout


def test_the_potion_notice_gives_the_potion_kernels_figure_not_several_minutes(uncached):
    r = ok("potion", "--n", 1000)
    (line,) = r.stderr.splitlines()
    step = compiling.STEPS["sim/kernel/potions.potion_histograms"]
    assert f"{step.label}, {compiling.about(step.seconds)} from an empty cache (" in line
    assert "minutes" not in line


def test_the_tournament_notice_and_json(uncached, tmp_path):
    r = ok("tournament", "--games", 20, "--out", tmp_path / "t", "--json", "--no-plots")
    (line,) = r.stderr.splitlines()  # the notice only: no progress under --json
    step = compiling.STEPS["sim/kernel/game.play_games"]
    assert line.startswith("compiling the simulation kernels once")
    assert step.label in line and compiling.about(step.seconds) in line
    assert r.stdout.lstrip().startswith("{")


def test_a_quiet_run_says_nothing(uncached, tmp_path):
    r = ok("tournament", "--games", 20, "--out", tmp_path / "t", "--quiet", "--no-plots")
    assert r.stderr == ""


def test_several_steps_are_numbered_with_the_sum_of_their_figures_as_a_bound():
    entries = ["sim/kernel/potions.potion_histograms", "sim/kernel/game.play_games",
               compiling.OPTIMAL_ENTRY]
    (line,) = compiling.notice_lines(entries)
    steps = [compiling.STEPS[e] for e in entries]
    total = compiling.about(sum(s.seconds for s in steps))
    assert line.startswith(f"compiling the simulation kernels once (cached after that), 3 steps, "
                           f"at most {total} in all from an empty cache (")
    assert line.endswith(", ".join(f"{k}/3 {s.label}" for k, s in enumerate(steps, 1)))


def test_warmup_announces_every_step_with_the_measured_figure_of_them_all(monkeypatch, capsys):
    """warmup compiles every entry: the notice gives the measured figure of all of them
    together (they share most functions), not the sum."""
    import sim.cli.common
    import sim.numba_cache
    from sim.cli.warmup import WARMUP_ENTRIES

    monkeypatch.setattr(sim.numba_cache, "is_cached", lambda entry: False)
    monkeypatch.setattr(sim.cli.common, "_NOTICE_SHOWN", False)
    sim.cli.common.compile_notice(*WARMUP_ENTRIES, progress=False)
    (line,) = capsys.readouterr().err.splitlines()
    n = len(compiling.STEPS)
    assert set(WARMUP_ENTRIES) == set(compiling.STEPS)
    assert line.startswith(f"compiling the simulation kernels once (cached after that), {n} steps, "
                           f"{compiling.about(compiling.EVERY_STEP.seconds)} in all from an "
                           "empty cache (")
    for k, e in enumerate(WARMUP_ENTRIES, 1):
        assert f"{k}/{n} {compiling.STEPS[e].label}" in line


def test_the_optimal_stopper_alone_has_its_own_line():
    (line,) = compiling.notice_lines([compiling.OPTIMAL_ENTRY])
    step = compiling.STEPS[compiling.OPTIMAL_ENTRY]
    assert line.startswith(f"compiling the optimal stopper once (cached after that), "
                           f"{compiling.about(step.seconds)} from an empty cache (")


def test_every_entry_a_command_names_has_declared_figures():
    named = set()
    for path in (ROOT / "sim" / "cli").glob("*.py"):
        named |= set(re.findall(r"\"(sim/kernel/[\w/]+\.\w+)\"", path.read_text("utf-8")))
    assert named and named <= set(compiling.STEPS), named - set(compiling.STEPS)
    for step in (*compiling.STEPS.values(), compiling.EVERY_STEP):
        assert step.seconds > 0 and step.functions > 0


def test_about_rounds_to_a_figure_a_person_reads():
    assert compiling.about(11) == "about 10 s"
    assert compiling.about(53) == "about 50 s"
    assert compiling.about(70) == "about 70 s"
    assert compiling.about(88) == "about 1.5 min"
    assert compiling.about(130) == "about 2 min"
    assert compiling.about(200) == "about 3.5 min"


# ---------------------------------------------------------------------------------------------
# Progress from Numba's compile events


def _fresh_function():
    """A new compiled function (not cached), so calling it compiles two functions."""
    from numba import njit

    @njit(cache=False)
    def inner(x):
        return x + 1

    @njit(cache=False)
    def outer(x):
        return inner(x) * 2

    return outer, f"{outer.py_func.__module__.replace('.', '/')}.{outer.py_func.__qualname__}"


def test_progress_follows_the_compile_and_says_when_it_is_done():
    outer, entry = _fresh_function()
    said: list[str] = []
    progress = compiling.follow([entry], live=False, say=said.append)
    try:
        assert outer(1) == 4
        assert len(said) == 1, said
        assert re.fullmatch(r"compiling the simulation kernels: done, 2 functions in 0:0\d",
                            said[0])
        outer2, _ = _fresh_function()
        outer2(1)  # compiled after the entries: nothing more is said
        assert len(said) == 1, said
    finally:
        progress.close()


def test_the_live_line_names_the_function_and_counts_against_the_declared_figures():
    entry = "sim/kernel/game.play_games"
    step = compiling.STEPS[entry]
    p = compiling.CompileProgress([entry], live=False, say=lambda s: None)

    class Ev:
        def __init__(self, f):
            self.data = {"dispatcher": type("D", (), {"py_func": f})}

    def play_round():
        pass

    play_round.__module__ = "sim.kernel.round"
    p.on_start(Ev(play_round))
    text = p.status()
    assert text.startswith(f"compiling: 0 of ~{step.functions} functions, 0:00 of "
                           f"{compiling.about(step.seconds)}; now sim.kernel.round.")
    assert text.endswith("play_round")
    p.on_end(Ev(play_round))
    assert p.done == 1


def _run_on_a_terminal(args: list[str], env: dict, timeout: float) -> tuple[int, str, str]:
    """``python -m sim.cli.main ARGS`` with stderr on a pseudo-terminal: exit status, stdout,
    and what the terminal showed (escape sequences removed)."""
    import pty

    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "sim.cli.main", *args], env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if select.select([master], [], [], 0.5)[0]:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
            elif p.poll() is not None:
                break
        p.wait(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)
    return p.returncode, p.stdout.read().decode(), strip_ansi(seen)


@pytest.mark.slow
def test_a_cold_compile_shows_its_progress_on_a_terminal(tmp_path):
    """The one real compile from an empty cache (the potion kernel, about a minute of CPU): the
    notice, the live line naming the function being compiled and counting against the declared
    figure, and the line when it is done, whose function count is the declared one."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), COLUMNS="120")
    code, out, term = _run_on_a_terminal(["potion", "--n", "1000"], env, timeout=900)
    assert code == 0, term
    step = compiling.STEPS["sim/kernel/potions.potion_histograms"]
    lines = [ln.strip() for ln in re.split(r"[\r\n]+", term) if ln.strip()]
    assert lines[0] == compiling.notice_lines(["sim/kernel/potions.potion_histograms"])[0]
    assert re.search(rf"compiling: \d+ of ~{step.functions} functions, \d:\d\d of "
                     rf"{compiling.about(step.seconds)}; now sim\.kernel\.", term), term
    done = [ln for ln in lines if ln.startswith("compiling the simulation kernels: done, ")]
    assert len(done) == 1, lines
    n = int(re.search(r"done, (\d+) functions", done[0]).group(1))
    assert abs(n - step.functions) <= step.functions // 5, (n, step.functions)
    assert "P(explode)" in out


# ---------------------------------------------------------------------------------------------
# Tables at 80 columns


def _render(width: int, *args, **kw) -> str:
    buf = io.StringIO()
    print_table(Console(file=buf, width=width, highlight=False), *args, **kw)
    return buf.getvalue()


def _assert_fits(text: str, width: int = 80) -> None:
    for line in text.splitlines():
        assert cell_len(line) <= width, line
        assert line.count("[") == line.count("]"), f"an interval split across lines: {line}"


HEADER = ["strategy", "games", "win share [95% CI]", "mean VP [95% CI]", "mean rank [95% CI]",
          "explosions/potion [95% CI]", "rating [95% CI]"]
ROWS = [["expected-value", "40,000", "0.0802 [0.0776, 0.0828]", "46.39 [46.28, 46.51]",
         "3.130 [3.120, 3.139]", "0.0229 [0.0224, 0.0234]", "-103 [-105, -101]"],
        ["balanced", "40,000", "0.3674 [0.3628, 0.3720]", "52.79 [52.66, 52.91]",
         "2.121 [2.111, 2.131]", "0.1972 [0.1960, 0.1985]", "65 [63, 66]"]]


def test_a_wide_console_prints_the_table_as_before():
    """At the width README is rendered at, nothing changes."""
    t = Table(title="strategies (95% CI)", show_header=True, header_style="bold",
              title_justify="left")
    for i, h in enumerate(HEADER):
        t.add_column(h, justify="left" if i == 0 else "right")
    for r in ROWS:
        t.add_row(*r)
    buf = io.StringIO()
    Console(file=buf, width=PIPED_WIDTH, highlight=False).print(t)
    assert _render(PIPED_WIDTH, "strategies (95% CI)", HEADER, ROWS, keys=(0, 1)) == buf.getvalue()


def test_a_narrow_table_is_split_with_the_names_and_counts_in_every_part():
    parts = table_parts(HEADER, ROWS, 80, keys=(0, 1))
    assert len(parts) > 1
    seen = set()
    for cols, widths in parts:
        assert cols[:2] == [0, 1] and widths is not None
        assert sum(w + 3 for w in widths.values()) + 1 <= 80
        seen.update(cols)
    assert seen == set(range(len(HEADER)))
    text = _render(80, "strategies (95% CI)", HEADER, ROWS, keys=(0, 1))
    _assert_fits(text)
    assert text.count("expected-value") == len(parts) and text.count("40,000") == 2 * len(parts)
    assert "strategies (95% CI), continued" in text
    for r in ROWS:
        for cell in r[2:]:
            assert cell in text


def test_a_name_too_long_for_the_screen_wraps_between_words_and_is_never_cut():
    header = ["metric", "base", "n"]
    rows = [["game length (reward spaces per player) over the whole game", "208.2 [202.7, 213.7]",
             "800"]]
    text = _render(60, "t", header, rows)
    _assert_fits(text, 60)
    words = " ".join(re.findall(r"[\w()]+", text))
    assert "…" not in text
    for w in rows[0][0].split():
        assert w in words
    assert rows[0][1] in text


def test_a_dropped_second_name_is_left_out_only_when_narrow():
    header = ["card", "name", "vp [95% CI]", "explosions [95% CI]", "games", "deals"]
    rows = [["you-only-get-to-choose-one", "You Only Get to Choose One", "-1.77 [-3.50, -0.05]",
             "0.0356 [0.0127, 0.0584]", "50", "50"]]
    wide = _render(200, "cards", header, rows, keys=(0, 1, 4, 5), drop=(0,))
    assert "you-only-get-to-choose-one" in wide
    narrow = _render(80, "cards", header, rows, keys=(0, 1, 4, 5), drop=(0,))
    _assert_fits(narrow)
    assert "you-only-get-to-choose" not in narrow and "You Only Get to Choose One" in narrow


def _quacks(*args: str, columns: int = 80, cwd: Path) -> str:
    """The command's stdout with ``$COLUMNS`` at ``columns``, run in ``cwd`` in this process
    (Typer's CliRunner): a command makes its console when it prints
    (``sim.cli.printing.stdout_console``), so it reads ``$COLUMNS`` then, in a process of its
    own or not (a process of its own costs ~4 CPU s of start-up and kernel loading)."""
    from typer.testing import CliRunner

    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(cwd)
        r = CliRunner().invoke(app, list(args), env={"COLUMNS": str(columns)})
    assert r.exit_code == 0, (r.output, r.exception)
    return r.stdout


def test_the_tournament_fits_80_columns(tmp_path):
    out = _quacks("tournament", "--games", "40", "--out", "t", "--quiet", "--no-plots",
                  cwd=tmp_path)
    _assert_fits(out)
    assert "continued" in out
    for name in ("cautious", "balanced", "greedy", "expected-value"):
        assert re.search(rf"│ {name} +│", out), name
    before = _quacks("tournament", "--games", "40", "--out", "t2", "--quiet", "--no-plots",
                     columns=PIPED_WIDTH, cwd=tmp_path)
    assert "continued" not in before and max(map(cell_len, before.splitlines())) > 80


def test_sweep_compare_and_balance_fit_80_columns(tmp_path):
    sweep = _quacks("sweep", "--strategy", "threshold", "--param", "t=5:6:1", "--vs", "balanced",
                    "--games", "40", "--out", "s", "--quiet", "--no-plots", cwd=tmp_path)
    compare = _quacks("compare", "--variant", "limit8=game.explosion_limit=8", "--games", "40",
                      "--quiet", cwd=tmp_path)
    balance = _quacks("balance", "--games", "40", "--quiet", cwd=tmp_path)
    for text in (sweep, compare, balance):
        _assert_fits(text)
    assert "threshold:t=5" in sweep and "limit8 - base" in compare
    assert "Rats Are Your Friends" in balance
