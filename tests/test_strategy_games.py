"""Every registered strategy plays complete games (2, 3 and 4 players) with no illegal decision and
sane results; strategy parameters are data (tuned copies share one game and never recompile).

Contract (the strategy-layer issue): "Parameters are data passed to the kernel: changing a
value, or four differently tuned copies of one strategy in one game, must not trigger a
recompilation." Built-in strategies must never make an illegal decision (``O_ERR``).

Rules used for sharp checks (base ruleset): the pot explodes when the white total exceeds 7, and
the biggest white chip is a 3, so a player who stops once the white total is >= 5 can never
explode (it draws only while the total is <= 4), and one who waits for >= 9 stops only by
exploding, an empty bag or the end of the track.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.api import potion as pot
from sim.api.game import play_batch, summarize
from sim.kernel.game import play_games
from sim.kernel.potions import potion_histograms
from sim.kernel.records import (
    O_ERR,
    O_EXPLOSIONS,
    O_NWIN,
    O_RANK,
    O_SCORE,
    O_WIN,
    RD_EXPLODED,
    RD_WHITE,
)
from sim.rules.ruleset import load_ruleset
from strategies.builtin import REGISTRY, parse_strategy

# base mechanics: a card can break a bound (test_deck)
BASE = load_ruleset("base", ["cards.deck=false"])
ROUNDS = int(BASE.game("rounds"))
BUILTIN = sorted(n for n, d in REGISTRY.items() if d.source == "built-in")
PARTNERS = ["balanced", "random", "threshold:t=7", "greedy"]
GAMES = 200  # per player count and strategy (optimal: OPTIMAL_GAMES)
OPTIMAL_GAMES = 6


def run(specs, games, seed=1, detail=False, rotate=True):
    lineup = [parse_strategy(s) for s in specs]
    n = len(lineup)
    idx = np.arange(games, dtype=np.int64)
    rot = idx % n if rotate else np.zeros(games, dtype=np.int64)
    return play_batch(BASE, lineup, games=idx, rotations=rot, seed=seed, detail=detail)


def check_sane(res, n):
    out = res.out
    assert out.shape[1] == n
    assert np.all(out[..., O_ERR] == 0), (
        f"illegal decisions: {np.argwhere(out[..., O_ERR] != 0)[:5]}")
    assert np.all(out[..., O_SCORE] >= 0)
    wins = out[..., O_WIN]
    assert np.all((wins == 0) | (wins == 1))
    nwin = wins.sum(axis=1)
    assert np.all(nwin >= 1), "a game without a winner"
    assert np.all(out[..., O_NWIN] == nwin[:, None])
    ranks = out[..., O_RANK]
    assert np.all((ranks >= 1) & (ranks <= n))
    best = out[..., O_SCORE].max(axis=1)
    # winners have the top score; rank 1 exactly for the winners
    assert np.all(out[..., O_SCORE][wins == 1] == np.repeat(best, nwin))
    assert np.all((ranks == 1) == (wins == 1))
    assert np.all(out[..., O_EXPLOSIONS] >= 0) and np.all(out[..., O_EXPLOSIONS] <= ROUNDS)


def lineup_for(name, n):
    return [name] + PARTNERS[: n - 1]


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("name", [b for b in BUILTIN if b != "optimal"])
def test_every_strategy_plays_complete_games(name, n):
    res = run(lineup_for(name, n), GAMES, seed=100 + n)
    check_sane(res, n)
    df = summarize(res, ROUNDS)
    assert int(df["illegal_decisions"].sum()) == 0
    assert list(df["games"]) == [GAMES] * n  # rotation seats every strategy in every seat


@pytest.mark.parametrize("name", [b for b in BUILTIN if b != "optimal"])
def test_every_strategy_in_a_mirror_match(name):
    res = run([name] * 4, GAMES, seed=7)
    check_sane(res, 4)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_optimal_plays_complete_games(optimal_kernel, n):
    res = run(lineup_for("optimal", n), OPTIMAL_GAMES * n, seed=200 + n)
    check_sane(res, n)


def test_optimal_does_not_recompile_the_game_kernel(optimal_kernel):
    run(["threshold", "balanced"], 2)
    before = _compile_counts(play_games)
    check_sane(run(["optimal:coin=0.4", "threshold:t=5"], 2, seed=8), 2)
    check_sane(run(["optimal", "optimal:ruby=1,flask=3", "balanced"], 3, seed=8), 3)
    assert _compile_counts(play_games) == before


def test_optimal_is_not_a_no_op_in_games(optimal_kernel):
    """The optimal stopper really draws on: its potions are longer than 'stop after one chip'
    (a no-op stopper at UF[0] would stop after every first chip and never explode)."""
    res = run(["optimal", "optimal:coin=0.2"], 4, seed=9, detail=True)
    check_sane(res, 2)
    from sim.kernel.records import RD_NPOT

    assert res.rounds[..., RD_NPOT].mean() > 3


def test_four_tuned_thresholds_in_one_game():
    specs = ["threshold:t=4", "threshold:t=5", "threshold:t=9", "threshold:t=7,flask=0"]
    res = run(specs, 240, seed=3, detail=True)
    check_sane(res, 4)
    who = res.seat_strategy()
    expl = {j: res.out[..., O_EXPLOSIONS][who == j] for j in range(4)}
    # t=4, t=5: can never explode; t=9: nearly always; t=7 in between
    assert expl[0].sum() == 0 and expl[1].sum() == 0
    assert expl[2].mean() > 0.5 * ROUNDS
    assert 0 < expl[3].mean() < expl[2].mean()
    # the final white totals follow each seat's own threshold
    white = res.rounds[..., RD_WHITE]  # games x rounds x seats
    exploded = res.rounds[..., RD_EXPLODED]
    seat_of = np.broadcast_to(who[:, None, :], white.shape)
    for j, t in ((0, 4), (1, 5)):
        w = white[seat_of == j]
        assert w.max() <= t - 1 + 3 and (exploded[seat_of == j] == 0).all()
    df = summarize(res, ROUNDS)
    assert df["mean_vp"].nunique() == 4  # four different players


def test_per_round_threshold_in_a_game():
    """t=5 for rounds 1-4 then 9: no explosion before round 5, many after."""
    specs = ["threshold:t=5/5/5/5/9/9/9/9/9", "balanced"]
    res = run(specs, 120, seed=4, detail=True)
    check_sane(res, 2)
    who = res.seat_strategy()
    ex = res.rounds[..., RD_EXPLODED]  # games x rounds x seats
    mine = np.stack([ex[k, :, who[k] == 0][0] for k in range(ex.shape[0])])  # games x rounds
    assert mine[:, :4].sum() == 0
    assert mine[:, 4:].mean() > 0.5


def test_same_seed_same_games_and_parameters_matter():
    a = run(["threshold:t=6", "balanced", "random"], 60, seed=12)
    b = run(["threshold:t=6", "balanced", "random"], 60, seed=12)
    assert np.array_equal(a.out, b.out)
    c = run(["threshold:t=8", "balanced", "random"], 60, seed=12)
    assert not np.array_equal(a.out, c.out)


def _compile_counts(d):
    return (len(d.signatures), len(d.overloads), sum(d.stats.cache_misses.values()))


def test_no_recompilation_for_parameters_or_strategies():
    # warm up both kernels (loads them from the on-disk cache or compiles them once)
    run(["threshold", "balanced"], 4)
    q = pot.make_query("start,r1,b1", "white:6", None, 0, BASE)
    pot.sample(q, 100, seed=1)
    before_games = _compile_counts(play_games)
    before_potions = _compile_counts(potion_histograms)
    assert before_games[0] >= 1 and before_potions[0] >= 1

    # different parameter values, tuned copies in one game, other strategies, other player counts
    for specs in (["threshold:t=5", "threshold:t=6/7/8/8/8/8/8/8/8", "threshold:t=9,flask=0",
                   "threshold:t=4"],
                  ["risk:p=0.05", "risk:p=0.4,buy=red>blue>orange"],
                  ["ev:coin=0.1", "expected-value", "random:p=0.5"],
                  ["cautious", "greedy", "pumpkin", "blueyellow"],
                  ["blackpurple", "greenruby", "reckless"],
                  ["balanced:buyer=value", "balanced:buyer=percoin", "balanced:buyer=expensive",
                   "balanced:buyer=none"]):
        check_sane(run(specs, 8, seed=5), len(specs))
    for stop, flask, start in (("white:5", None, 0), ("risk:0.3", 2, 4),
                               ("ev:coin=0.4,ruby=1", 1, 2),
                               ("never", 3, 10), ("balanced", None, 0), ("threshold:t=3/4", 2, 1)):
        pot.sample(pot.make_query("start,r1,b1,y1", stop, flask, start, BASE), 200, seed=2)

    assert _compile_counts(play_games) == before_games
    assert _compile_counts(potion_histograms) == before_potions
