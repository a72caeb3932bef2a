"""The skill ladder of README: every preset against three ``expert``, and in a mirror of four.

    python benchmarks/skill_ladder.py [--games 8000] [--seed 101] [--rules base] [--players 4]
                                      [--only master,expert]

For each preset: its win share and mean VP in one seat against ``players - 1`` expert (game k
seats the lineup rotated by k, as ``quacks play`` does; every game is its own deal), and the
winner's mean VP when every seat plays it (the mirror: how many VP the preset's play reaches).
Rates and means come with their 95% intervals and the number of games behind them. Prints a
markdown table.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from sim.api.game import play_batch, result_fields
from sim.rules.ruleset import load_ruleset
from sim.stats.clusters import share_interval, t_interval
from strategies.builtin import parse_strategy
from strategies.registry import slot_table

LADDER = ("random", "cautious", "greedy", "balanced", "pumpkin", "blueyellow", "blackpurple",
          "greenruby", "expected-value", "optimal", "expert", "master")
_O = {name: lo for name, lo, _ in result_fields()}


def play(rs, specs: list[str], games: int, seed: int):
    """The batch of ``specs`` rotated by the game number (as quacks play)."""
    lineup = [parse_strategy(s) for s in specs]
    idx = np.arange(games, dtype=np.int64)
    return play_batch(rs, lineup, games=idx, rotations=idx % len(specs), seed=seed)


def mean_interval(x: np.ndarray) -> tuple[float, float, float]:
    m = float(x.mean())
    lo, hi = t_interval(m, x.var(ddof=1) / len(x), len(x))
    return m, float(lo), float(hi)


def share(x: np.ndarray) -> tuple[float, float, float]:
    m = float(x.mean())
    lo, hi = share_interval(m, x.var(ddof=1) / len(x), len(x))
    return m, float(lo[0]), float(hi[0])


def rung(rs, name: str, players: int, games: int, seed: int) -> dict:
    """One row of the ladder."""
    res = play(rs, [name] + ["expert"] * (players - 1), games, seed)
    out = res.out
    rows = np.arange(games)
    seat = np.argmax(res.seat_strategy() == 0, axis=1)  # where the preset sits in each game
    win = out[rows, seat, _O["win"]] / np.maximum(out[rows, seat, _O["nwin"]], 1)
    vp = out[rows, seat, _O["score"]].astype(np.float64)
    mirror = play(rs, [name] * players, games, seed + 1).out
    winner_vp = mirror[:, :, _O["score"]].max(axis=1).astype(np.float64)
    return {"name": name, "win": share(win), "vp": mean_interval(vp),
            "mirror": mean_interval(winner_vp), "games": games}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=8000)
    ap.add_argument("--seed", type=int, default=101)
    ap.add_argument("--rules", default="base")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--only", default="",
                    help="comma-separated presets: play only these rows (each row's games do "
                         "not depend on the others, so a row reproduces on its own)")
    a = ap.parse_args()
    names = [n for n in a.only.split(",") if n] or list(LADDER)
    unknown = [n for n in names if n not in LADDER]
    if unknown:
        ap.error(f"not on the ladder: {', '.join(unknown)} (the ladder: {', '.join(LADDER)})")
    rs = load_ruleset(a.rules)
    slot_table()
    print(f"{a.rules}, {a.players} players, seed {a.seed}, {a.games:,} games per row "
          f"(every game its own deal)\n")
    print("| preset | win share vs 3 expert [95% CI] | mean VP [95% CI] | "
          "mirror winner's VP [95% CI] |")
    print("|---|---:|---:|---:|")
    for name in names:
        t = time.perf_counter()
        r = rung(rs, name, a.players, a.games, a.seed)
        w, v, m = r["win"], r["vp"], r["mirror"]
        print(f"| {name} | {w[0]:.3f} [{w[1]:.3f}, {w[2]:.3f}] | {v[0]:.1f} [{v[1]:.1f}, "
              f"{v[2]:.1f}] | {m[0]:.1f} [{m[1]:.1f}, {m[2]:.1f}] |  <!-- "
              f"{time.perf_counter() - t:.0f} s -->", flush=True)


if __name__ == "__main__":
    main()
