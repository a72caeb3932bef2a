"""``quacks play`` in pieces (issue 22): any allowed ``--games`` in bounded memory, the same
table to the last digit however the games are split, and Ctrl-C seen between pieces."""

from __future__ import annotations

import re
import sys
import tracemalloc

import numpy as np
import pandas as pd
import pytest
from cli_helpers import invokers
from pty_helpers import ctrl_c_after_progress

from sim.api import game as G
from sim.cli import compiling
from sim.cli.main import app
from sim.kernel.records import O_NWIN, O_RANK, O_SCORE, O_WIDTH, O_WIN
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy

invoke, ok = invokers(app)


@pytest.mark.parametrize("rules, specs", [
    ("base", ["threshold", "threshold:t=5", "random"]),
    ("herb-witches", ["expert", "greedy"]),  # and the witches-called column
])
def test_pieces_give_the_one_batch_table_to_the_last_digit(rules, specs):
    rs = load_ruleset(rules, [])
    lineup = [parse_strategy(s) for s in specs]
    n, games = len(lineup), 3_000
    idx = np.arange(games, dtype=np.int64)
    whole = G.summarize(G.play_batch(rs, lineup, games=idx, rotations=idx % n, seed=11), 9)
    sizes = []
    pieces = G.Pieces(first=97, seconds=None)  # small pieces (the last one short), never resized
    stats = G.play_summary(rs, lineup, games=games, seed=11, pieces=pieces,
                           progress=lambda done, total: sizes.append(done))
    assert sizes[:3] == [97, 194, 291] and sizes[-1] == games and len(sizes) == -(-games // 97)
    pd.testing.assert_frame_equal(stats.frame(), whole, check_exact=True)
    assert ("witches_called" in whole.columns) == (rules == "herb-witches")
    # and the table is right: the plain per-game figures of the one batch
    res = G.play_batch(rs, lineup, games=idx, rotations=idx % n, seed=11)
    who = res.seat_strategy()
    for j in range(n):
        o = res.out[who == j]
        assert (whole["win_share"][j]
                == pytest.approx((o[:, O_WIN] / o[:, O_NWIN]).mean(), abs=1e-12))
        assert whole["mean_vp"][j] == pytest.approx(o[:, O_SCORE].mean(), abs=1e-12)
        lo, hi = whole["mean_vp_ci"][j]
        half = 1.959963984540054 * o[:, O_SCORE].std(ddof=1) / np.sqrt(games)
        assert (lo, hi) == pytest.approx((o[:, O_SCORE].mean() - half, o[:, O_SCORE].mean() + half))


def test_pieces_grow_to_the_cap_and_shrink_when_slow():
    now = [0.0]
    p = G.Pieces(first=16, seconds=0.25, clock=lambda: now[0])
    ranges = []
    for i, j in p.ranges(10**9):  # the largest --games: only the ranges asked for exist
        ranges.append((i, j))
        now[0] += 0.01  # fast pieces: each doubles the next, up to the cap
        if len(ranges) == 30:
            break
    sizes = [j - i for i, j in ranges]
    assert sizes[:4] == [16, 32, 64, 128] and max(sizes) == G.MAX_PIECE_GAMES == sizes[-1]
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:])) and ranges[0][0] == 0
    slow = []
    for i, j in p.ranges(10**9, start=ranges[-1][1]):
        slow.append(j - i)
        now[0] += 1.0  # over twice the target: halves
        if len(slow) == 3:
            break
    assert slow == [G.MAX_PIECE_GAMES, G.MAX_PIECE_GAMES // 2, G.MAX_PIECE_GAMES // 4]


def test_a_billion_games_start_in_bounded_memory_and_ctrl_c_stops_them(monkeypatch):
    """--games 10^9 is allowed: no array of that many games is made (the one-shot run made a
    game index of 8 GB, then results of 640 GB); each compiled call holds at most
    MAX_PIECE_GAMES games, and Ctrl-C between calls is one line and exit status 130."""
    calls = []

    def fake_play_batch(ruleset, lineup, *, games, rotations, seed, **kw):
        calls.append((int(games[0]), len(games)))
        if len(calls) > 20:
            raise KeyboardInterrupt  # Ctrl-C while the 20th piece plays
        n = len(lineup)
        out = np.zeros((len(games), n, O_WIDTH), dtype=np.int64)
        out[:, :, O_RANK] = np.arange(1, n + 1)
        out[:, 0, O_WIN] = 1
        out[:, :, O_NWIN] = 1
        return G.BatchResult(np.asarray(games), np.asarray(rotations), out, None, lineup)

    monkeypatch.setattr(G, "play_batch", fake_play_batch)
    tracemalloc.start()
    try:
        r = invoke("play", "--games", 10**9, "--players", 2)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert r.exit_code == 130, r.output
    # from an empty Numba cache the compile notice comes first (the kernel is not cached, though
    # the fake plays nothing); nothing else may be said
    *before, last = r.stderr.splitlines()
    assert last == "interrupted" and r.stdout == "" and r.stderr.endswith("\n")
    assert all(line.startswith(compiling.PREFIX) for line in before), before
    played = calls[1:]  # calls[0]: the one game that loads the kernel outside the clock
    sizes = [m for _, m in played]
    assert max(sizes) == G.MAX_PIECE_GAMES and len(played) == 20
    assert [g for g, _ in played] == list(np.cumsum([0, *sizes[:-1]]))  # game after game
    assert peak < 200 * 2**20, peak  # a few pieces' arrays, not 10^9 games' worth


def test_play_prints_the_same_table_in_pieces(monkeypatch):
    """The command's output does not depend on the piece size."""
    args = ("play", "--strategies", "threshold,greedy", "--games", 600, "--json")
    a = ok(*args)
    whole = G.play_summary
    sizes = []
    monkeypatch.setattr(G, "play_summary", lambda *a, **k: whole(
        *a, **k, pieces=G.Pieces(first=47, seconds=None, clock=lambda: sizes.append(1) or 0.0)))
    b = ok(*args)
    assert len(sizes) == 2 * -(-600 // 47)  # it did play in pieces of 47 (two clock reads each)
    strip = re.compile(r'"seconds": [0-9.e+-]+')
    assert strip.sub("", a.stdout) == strip.sub("", b.stdout)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal and SIGINT")
def test_ctrl_c_stops_a_billion_game_play_at_once(tmp_path):
    """On a terminal a long run shows a progress bar after 2 s; Ctrl-C then ends it within the
    piece under way (no piece starts after it: counted, not timed) with one line and exit
    status 130."""
    ok("play", "--games", 10)  # kernel on disk
    r = ctrl_c_after_progress(["play", "--games", "1000000000"], b"games",
                              "sim.api.game:play_batch", tmp_path / "pieces")
    assert r.returncode == 130, r.text
    # the piece playing when the signal came (or one that began just before it) ends the run
    assert 1 <= r.calls_before <= r.calls <= r.calls_before + 1, (r.calls_before, r.calls)
    assert "Traceback" not in r.text and r.last_line == "interrupted", r.text
    assert r.stdout == b""
