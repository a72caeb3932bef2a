"""``quacks train --value net``: self-play that keeps what wins (issue 48).

Every cycle plays, fits and tests:

1. **Play.** Cycle 0 plays the field (``expert`` in every seat); every later cycle seats
   ``master`` buying by the current model's value net (exploring with chance ``explore``) in
   every other seat and the field in the rest.
2. **Fit.** A candidate model: the per-round logistic of the VP gap (``--value gap``) and the
   value net (``sim.study.train.net``), fitted to the positions of every cycle so far.
3. **Test.** The candidate (``master:buy_by=net``) plays the current model head to head, the
   two alternating around the table; the candidate's seats' win share per deal is tested by a
   sequential probability ratio test (``sim.stats.sprt``: H0 an even share, H1 an edge of
   ``SPRT.delta``, error rates ``SPRT.alpha`` and ``SPRT.beta``, at most ``H2H_GAMES`` deals).
   The candidate is promoted only if the test accepts H1. Before any promotion the current model
   is today's ``master`` (its marginal buyer, ``buy_by=marginal``, with the candidate's own
   logistic), so a net is kept only if it beats that.

Each cycle's candidate is kept in the run folder (``iter-K.json``, with the test's outcome in its
``training``), one line per cycle goes to ``log.jsonl``, and ``ladder.png`` plots the ladder: each
candidate's head-to-head share with its 95% interval, promoted or not. The model written to
``--out`` is the last promoted one (or, with none promoted, the last candidate, whose file says
so: ``master:buy_by=marginal`` is then the stronger buyer).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

from sim.stats.sprt import Sprt
from sim.study.train.features import Positions
from sim.study.train.fit import fit_model
from sim.study.train.net import explained, fit_net
from strategies.value_model_file import ValueModel, load_model, write_atomic

SPRT = Sprt(delta=0.03, alpha=0.05, beta=0.10)
H2H_PIECE = 500  # head-to-head deals between two looks of the test
H2H_GAMES = 4_000  # at most this many head-to-head deals a cycle; undecided keeps H0
H2H_OFFSET = 5_000_000  # cycle i's head-to-head deal k is game i * GAME_STRIDE + H2H_OFFSET + k
LOG_FILE = "log.jsonl"
LADDER_FILE = "ladder.png"
FIELDS = ("x", "round", "margin", "win", "game", "togo", "gaps_after")


def _concat(parts: list[Positions]) -> Positions:
    return Positions(*(np.concatenate([getattr(p, f) for p in parts]) for f in FIELDS))


def _rows(data: Positions, keep: np.ndarray) -> Positions:
    return Positions(*(getattr(data, f)[keep] for f in FIELDS))


def seat_spec(settings, model: Path | None, buy_by: str, explore: float = 0.0) -> str:
    own = f"{settings.master}," if settings.master else ""
    ex = f",explore={explore:g}" if explore > 0 else ""
    return f"master:{own}model={model},buy_by={buy_by}{ex}"


def head_to_head(settings, cand: Path, best: Path | None, cycle: int, stride: int,
                 backend=None) -> dict:
    """The candidate against the current model (``best``; None: today's master with the
    candidate's logistic), alternating seats, deal by deal until the test decides (cycle i's
    deal k is game ``i * stride + H2H_OFFSET + k``)."""
    from sim.api.game import result_fields
    from sim.rules.ruleset import load_ruleset
    from sim.stats.clusters import share_interval
    from sim.study.tournament.local import LOCAL
    from strategies.builtin import parse_strategy

    n = settings.players
    a = seat_spec(settings, cand, "net")
    b = seat_spec(settings, best, "net") if best is not None else seat_spec(settings, cand,
                                                                             "marginal")
    specs = [a if s % 2 == 0 else b for s in range(n)]
    mine = np.array([s % 2 == 0 for s in range(n)])
    test = replace(SPRT, p0=float(mine.mean()))
    rs = load_ruleset(settings.rules, list(settings.overrides))
    for s in specs:
        parse_strategy(s)
    o = {name: lo for name, lo, _ in result_fields()}
    scores: list[np.ndarray] = []
    verdict = ""
    done = 0
    while not verdict and done < H2H_GAMES:
        idx = np.arange(done, done + H2H_PIECE, dtype=np.int64)
        piece = (cycle * stride + H2H_OFFSET + idx, idx % n)
        out = next(iter((backend or LOCAL).map_batches(rs, specs, settings.seed, [piece],
                                                       _batch_out, detail=False)))
        rot = idx % n
        seat_of = (np.arange(n)[None, :] + rot[:, None]) % n  # lineup index at each seat
        share = out[:, :, o["win"]] / np.maximum(out[:, :, o["nwin"]], 1)
        scores.append((share * mine[seat_of]).sum(axis=1))
        done += H2H_PIECE
        verdict = test.decide(np.concatenate(scores))
    x = np.concatenate(scores)
    m = float(x.mean())
    lo, hi = share_interval(m, x.var(ddof=1) / len(x), len(x))
    return {"deals": int(len(x)), "share": m, "lo": float(lo[0]), "hi": float(hi[0]),
            "p0": test.p0, "llr": test.llr(x), "verdict": verdict or "undecided",
            "promoted": verdict == "H1", "against": str(best) if best else "master:buy_by=marginal"}


def _batch_out(res):
    return res.out


def plot_ladder(rows: list[dict], path: Path) -> None:
    """Each cycle's head-to-head share minus its even share, with its 95% interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(6, 3.2))
    for r in rows:
        h = r["h2h"]
        c = "tab:green" if h["promoted"] else "tab:grey"
        ax.errorbar([r["cycle"]], [h["share"] - h["p0"]],
                    yerr=[[h["share"] - h["lo"]], [h["hi"] - h["share"]]], fmt="o", color=c)
    ax.axhline(0.0, color="black", lw=0.8)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("cycle (green: promoted)")
    ax.set_ylabel("candidate's share - even share")
    ax.set_title("quacks train --value net: each candidate against the current model",
                 fontsize=9)
    fig.tight_layout()
    tmp = path.with_name(f".{path.name}.tmp.png")
    fig.savefig(tmp, dpi=100, metadata={"Software": None})
    plt.close(fig)
    tmp.replace(path)


def train_net(settings, out: Path, family: str, folder: Path, run: dict,
              progress: Callable[[int, int, int], None] | None = None,
              say: Callable[[str], None] | None = None, backend=None) -> ValueModel:
    """Run (or resume) the cycles of a ``--value net`` run; writes ``out``. ``run`` hands over
    ``sim.study.train.run``'s ``lineup_specs``, ``play_positions`` and ``GAME_STRIDE`` (that
    module calls this one)."""
    lineup_specs, play_positions = run["lineup_specs"], run["play_positions"]

    log = folder / LOG_FILE
    rows = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    parts: list[Positions] = []
    best: Path | None = None
    model: ValueModel | None = None
    last = None
    for it in range(settings.iterations):
        path = folder / f"iter-{it}.json"
        if it == 0:
            specs = lineup_specs(settings, 0, None)
        else:
            policy = best if best is not None else last
            specs = [seat_spec(settings, policy, "net", settings.explore) if s % 2 == 0
                     else settings.field for s in range(settings.players)]
        t0 = time.perf_counter()
        # a resumed run plays its kept cycles' games again for their positions (the same games)
        data = play_positions(settings, specs, it, progress, backend)
        parts.append(data)
        if path.exists() and it < len(rows):
            model = load_model(path)
            last = path
            if rows[it]["h2h"]["promoted"]:
                best = path
            if say:
                say(f"cycle {it}: done before ({path})")
            continue
        alldata = _concat(parts)
        rounds = int(alldata.round.max())
        held = alldata.game % 10 == 9  # one game in ten is held out of the net's fit (its R^2)
        model = fit_model(alldata, family, settings.players, {}, kind="gap")
        net = fit_net(_rows(alldata, ~held), rounds, settings.seed + it)
        shown = [x.replace(str(policy), policy.name) if it and policy else x for x in specs]
        r2 = explained(net, _rows(alldata, held), rounds)
        model = replace(model, net=net, settings=settings.master,
                        training={**settings.as_json(), "iteration": it, "lineup": shown,
                                  "positions": int(len(alldata.round)), "value": "net"})
        model.save(path)
        h = head_to_head(settings, path, best, it, run["GAME_STRIDE"], backend)
        row = {"cycle": it, "games": settings.games, "positions": int(len(alldata.round)),
               "r2": round(r2, 4), "h2h": h, "seconds": round(time.perf_counter() - t0, 1)}
        model.training["head_to_head"] = h
        model.save(path)
        rows = rows[:it] + [row]
        write_atomic(log, "".join(json.dumps(r) + "\n" for r in rows))
        plot_ladder(rows, folder / LADDER_FILE)
        last = path
        if h["promoted"]:
            best = path
        if say:
            say(f"cycle {it}: {settings.games:,} games, {len(alldata.round):,} positions, "
                f"R^2 {r2:.3f}; head to head against {Path(h['against']).name}: "
                f"{h['share']:.3f} [{h['lo']:.3f}, {h['hi']:.3f}] of {h['p0']:.2f} in "
                f"{h['deals']:,} deals: {'promoted' if h['promoted'] else 'not promoted'} "
                f"({h['verdict']}); {row['seconds']:.0f} s")
    final = load_model(best if best is not None else last)
    final = replace(final, training={**final.training, "promoted": best is not None})
    final.save(out)
    return final
