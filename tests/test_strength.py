"""Playing strength: sensible strategies beat the floor by a wide margin.

Win share: a shared win counts 1 / (number of winners). Intervals are 95% Wilson intervals
(``sim.stats.intervals.wilson``) over the stated number of 2-player games; the seats alternate
(game k seats the lineup rotated by k), so both strategies play both seats equally often. Seeds are
fixed, so the outcome is deterministic; the margins are wide enough that any seed would do.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.api.game import play_batch
from sim.kernel.records import O_ERR, O_NWIN, O_WIN
from sim.rules.ruleset import load_ruleset
from sim.stats.intervals import wilson
from strategies.builtin import PRESETS, parse_strategy

BASE = load_ruleset("base")
N_GAMES = 4000  # 2-player games per match-up


def win_share(specs: list[str], games: int, seed: int) -> tuple[float, tuple[float, float]]:
    """Win share of specs[0] (shared wins split) and its 95% Wilson interval."""
    lineup = [parse_strategy(s) for s in specs]
    idx = np.arange(games, dtype=np.int64)
    res = play_batch(BASE, lineup, games=idx, rotations=idx % len(specs), seed=seed)
    assert np.all(res.out[..., O_ERR] == 0)
    who = res.seat_strategy()
    share = res.out[..., O_WIN] / res.out[..., O_NWIN]
    assert np.allclose(share.sum(axis=1), 1.0)  # every game hands out exactly one win
    wins = float(share[who == 0].sum())
    return wins / games, wilson(wins, games)


def test_balanced_crushes_random():
    share, (lo, hi) = win_share(["balanced", "random"], N_GAMES, seed=2024)
    assert lo > 0.9, f"balanced vs random over {N_GAMES} games: {share:.4f} [{lo:.4f}, {hi:.4f}]"


def test_ev_beats_reckless():
    share, (lo, hi) = win_share(["ev", "reckless"], N_GAMES, seed=2025)
    assert lo > 0.5, f"ev vs reckless over {N_GAMES} games: {share:.4f} [{lo:.4f}, {hi:.4f}]"


@pytest.mark.parametrize("preset", [p for p in PRESETS if p not in ("random", "optimal")])
def test_presets_beat_random(preset):
    games = 1000
    share, (lo, hi) = win_share([preset, "random"], games, seed=7)
    assert lo > 0.8, f"{preset} vs random over {games} games: {share:.4f} [{lo:.4f}, {hi:.4f}]"


def test_mirror_match_is_even():
    """A strategy against itself: the win share is 1/2 within its interval (seats rotate)."""
    share, (lo, hi) = win_share(["balanced", "balanced"], N_GAMES, seed=11)
    assert lo < 0.5 < hi, (share, lo, hi)


def test_balanced_beats_three_randoms():
    games = 2000
    share, (lo, hi) = win_share(["balanced", "random", "random", "random"], games, seed=5)
    assert lo > 0.9, f"balanced vs 3 x random over {games} games: {share:.4f} [{lo:.4f}, {hi:.4f}]"


def _deal_shares(specs: list[str], deals: int, seed: int) -> np.ndarray:
    """specs[0]'s mean win share per deal (every deal in every rotation of the seats)."""
    n = len(specs)
    lineup = [parse_strategy(s) for s in specs]
    games = np.repeat(np.arange(deals, dtype=np.int64), n)
    rot = np.tile(np.arange(n, dtype=np.int64), deals)
    res = play_batch(BASE, lineup, games=games, rotations=rot, seed=seed)
    share = (res.out[..., O_WIN] / res.out[..., O_NWIN])[res.seat_strategy() == 0]
    return share.reshape(deals, n).mean(axis=1)


@pytest.mark.parametrize("opponent", ["greedy", "ev", "balanced"])
def test_expert_beats_the_best_presets_on_paired_deals(opponent):
    """On the same deals, expert in a seat among three copies of the opponent wins more than
    the opponent itself in that seat (a mirror table): the paired difference's 95% interval
    lies above zero."""
    from sim.stats.clusters import paired_diff

    a = _deal_shares(["expert", opponent, opponent, opponent], 1500, seed=31)
    b = _deal_shares([opponent] * 4, 1500, seed=31)
    m, lo, hi, d = paired_diff(a, b)
    assert d == 1500 and lo > 0.03, f"expert - {opponent}: {m:+.4f} [{lo:+.4f}, {hi:+.4f}]"
