"""Paired comparison of two ``master`` specs in one seat against ``expert`` (issue 48).

    python benchmarks/paired_master.py --a master --b master:buy_by=net [--games 4000]
        [--seed 4801] [--rules base] [--players 4] [--field expert]

Game k seats the lineup ``[spec, field, field, ...]`` rotated by k, with the same deal (seed,
game number, rotation) for A and B, so the difference of the win shares is taken deal by deal:
each side's win share with its 95% interval, the paired difference B - A with its interval,
and the games/s of each batch.
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

_O = {name: lo for name, lo, _ in result_fields()}


def seat_win(rs, spec: str, field: str, players: int, games: int, seed: int
             ) -> tuple[np.ndarray, np.ndarray, float]:
    """Per game: the spec's win share and VP, and the batch's games/s."""
    lineup = [parse_strategy(spec)] + [parse_strategy(field)] * (players - 1)
    idx = np.arange(games, dtype=np.int64)
    t = time.perf_counter()
    res = play_batch(rs, lineup, games=idx, rotations=idx % players, seed=seed)
    dt = time.perf_counter() - t
    rows = np.arange(games)
    seat = np.argmax(res.seat_strategy() == 0, axis=1)
    win = res.out[rows, seat, _O["win"]] / np.maximum(res.out[rows, seat, _O["nwin"]], 1)
    return win.astype(np.float64), res.out[rows, seat, _O["score"]].astype(np.float64), games / dt


def show(label: str, x: np.ndarray) -> str:
    m = float(x.mean())
    lo, hi = share_interval(m, x.var(ddof=1) / len(x), len(x))
    return f"{label} {m:.4f} [{float(lo[0]):.4f}, {float(hi[0]):.4f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="master")
    ap.add_argument("--b", default="master:buy_by=net")
    ap.add_argument("--field", default="expert")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=4801)
    ap.add_argument("--rules", default="base")
    ap.add_argument("--players", type=int, default=4)
    a = ap.parse_args()
    rs = load_ruleset(a.rules)
    slot_table()
    wa, va, ra = seat_win(rs, a.a, a.field, a.players, a.games, a.seed)
    wb, vb, rb = seat_win(rs, a.b, a.field, a.players, a.games, a.seed)
    d = wb - wa
    lo, hi = t_interval(d.mean(), d.var(ddof=1) / len(d), len(d))
    dv = vb - va
    vlo, vhi = t_interval(dv.mean(), dv.var(ddof=1) / len(dv), len(dv))
    print(f"{a.rules}, {a.players} players vs {a.field}, seed {a.seed}, {a.games:,} deals")
    print(f"A {a.a}: {show('win', wa)}, VP {va.mean():.2f}, {ra:,.0f} games/s")
    print(f"B {a.b}: {show('win', wb)}, VP {vb.mean():.2f}, {rb:,.0f} games/s")
    print(f"B - A: win {d.mean():+.4f} [{float(lo):+.4f}, {float(hi):+.4f}], "
          f"VP {dv.mean():+.2f} [{float(vlo):+.2f}, {float(vhi):+.2f}] ({a.games:,} paired deals)")


if __name__ == "__main__":
    main()
