"""``quacks tune``: the parameter values of a strategy that win most against a field.

A derivative-free search with Optuna (its TPE sampler, seeded) over the ranges given with
``--param KEY=LO:HI``. Every candidate plays the same deals (deal d is game d of the run seed,
played in every rotation of the seats), so candidates are compared on paired luck; games are
spent by successive halving (Optuna's pruner): every candidate plays a first rung of deals, and
only those in the better part of the field so far play the next, three times longer, rung.
The winner is re-tested against the starting spec on fresh deals (a second seed stream), which
gives its win share and the paired improvement with 95% intervals (deals as the unit).
Same seed, same result: the sampler, the pruner and every game are seeded.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sim.api.game import (  # FIRST_PIECE, PIECE_SECONDS: tune's pieces are quacks play's
    FIRST_PIECE,  # noqa: F401
    PIECE_SECONDS,  # noqa: F401
    Pieces,
    check_players,
    check_round_values,
)
from sim.rules.ruleset import Ruleset
from sim.stats.clusters import paired_diff, share_interval
from sim.study.sweep.run import split_param
from sim.study.tournament.local import LOCAL, LocalBackend
from strategies.builtin import StrategySpecError, parse_strategy


class TuneError(ValueError):
    """A tuning request that cannot run; the message says what would be right."""


@dataclass(frozen=True)
class TuneParam:
    """One tuned parameter: key, range and whether it takes whole numbers."""

    key: str
    lo: float
    hi: float
    whole: bool


def parse_tune_param(strategy: str, text: str) -> TuneParam:
    """``KEY=LO:HI`` for a number parameter of the strategy ``NAME[:fixed=...]``."""
    key, parts, p = split_param(strategy, text, "KEY=LO:HI, e.g. p=0.1:0.4", "tuned", TuneError)
    try:
        lo, hi = float(parts[0]), float(parts[1])
    except ValueError:
        raise TuneError(f"--param {text!r}: LO and HI must be numbers") from None
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise TuneError(f"--param {text!r}: expected LO < HI")
    if not (p.lo <= lo and hi <= p.hi):
        raise TuneError(f"--param {text!r}: {key} takes {p.lo:g} to {p.hi:g}")
    whole = p.kind == "int"
    if whole and (lo != int(lo) or hi != int(hi)):
        raise TuneError(f"--param {key}: an integer parameter; LO and HI must be whole numbers")
    return TuneParam(key, lo, hi, whole)


def spec_with(strategy: str, values: dict[str, float], params: Sequence[TuneParam]) -> str:
    """The spec ``NAME:fixed...,key=value`` for these values (whole numbers for int keys); a
    tuned key given in the starting spec is replaced."""
    from strategies.builtin import split_params

    name, _, fixed = strategy.strip().partition(":")
    tuned = {p.key for p in params}
    items = [i for i in split_params(fixed) if i.partition("=")[0].strip() not in tuned]
    for p in params:
        v = values[p.key]
        items.append(f"{p.key}={int(round(v)) if p.whole else float(f'{v:.4g}')}")
    return f"{name.strip().lower()}:{','.join(items)}"


@dataclass
class Evaluator:
    """Plays a spec against the field on deals and keeps its win share per deal (on the
    ``backend``'s workers when one is given; the shares are the same).

    Played here, the deals go in pieces of about ``PIECE_SECONDS`` each (one compiled call
    each: the interpreter sees Ctrl-C between them); a deal's share does not depend on the
    piece it is played in."""

    ruleset: Ruleset
    field: list[str]
    players: int
    seed: int
    chunks: int = 64
    games_played: int = 0
    backend: object = None
    pieces: Pieces = field(default_factory=Pieces)

    def deal_shares(self, spec: str, deals: np.ndarray) -> np.ndarray:
        """The spec's mean win share in each deal (every rotation of the seats)."""
        be = self.backend or LOCAL
        specs = [spec, *self.field]
        if not isinstance(be, LocalBackend):
            share = be.deal_shares(self.ruleset, specs, self.seed, deals, self.chunks)
        else:
            pieces = [be.deal_shares(self.ruleset, specs, self.seed, deals[a:b], self.chunks)
                      for a, b in self.pieces.ranges(len(deals))]
            share = np.concatenate(pieces) if pieces else np.zeros(0)
        self.games_played += len(deals) * self.players
        return share


def share_with_ci(per_deal: np.ndarray, games: int | None = None
                  ) -> tuple[float, tuple[float, float]]:
    """Mean win share over deals and its 95% interval (``sim.stats.intervals.rate_interval``:
    deals as units, never narrower than the exact interval on the count of ``games`` the
    share is over when given; a share the same on every deal from the count of deals; inside
    [0, 1])."""
    d = len(per_deal)
    m = float(per_deal.mean())
    v = float(per_deal.var(ddof=1)) / d if d > 1 else float("nan")
    lo, hi = share_interval(m, v, d, games)
    return m, (float(lo[0]), float(hi[0]))


@dataclass
class TuneResult:
    """The outcome of a tuning run: the best spec, its re-test and the search history."""

    start: str
    best: str
    best_values: dict
    best_win_share: float
    best_win_share_ci: tuple[float, float]
    start_win_share: float
    start_win_share_ci: tuple[float, float]
    improvement: float
    improvement_ci: tuple[float, float]
    evaluations: int
    games: int
    retest_deals: int
    history: pd.DataFrame = field(repr=False)
    players: int = 0  # seats per game (not in as_json: quacks tune --json has no such key)

    def as_json(self) -> dict:
        """The JSON keys of ``quacks tune --json``."""
        return {
            "start": self.start, "best": self.best, "best_values": self.best_values,
            "best_win_share": self.best_win_share,
            "best_win_share_ci": list(self.best_win_share_ci),
            "start_win_share": self.start_win_share,
            "start_win_share_ci": list(self.start_win_share_ci),
            "improvement": self.improvement, "improvement_ci": list(self.improvement_ci),
            "evaluations": self.evaluations, "games": self.games, "retest_deals": self.retest_deals,
        }


RUNG_GROWTH = 3  # each successive-halving rung plays three times the deals of the one before
FIRST_RUNG_SHARE = 200  # the first rung plays the budget's deals / this (about 60 candidates)
RETEST_SEED_OFFSET = 1_000_003  # the re-test's fresh deals: the stream of the run seed + this


def rungs(first: int, budget_deals: int) -> list[int]:
    """Cumulative deals of each rung: first, 3 x first, 9 x first ... while one candidate's
    full run stays within a quarter of the search budget."""
    out = [first]
    while out[-1] * RUNG_GROWTH <= budget_deals // 4:
        out.append(out[-1] * RUNG_GROWTH)
    return out


def tune(strategy: str, params: Sequence[TuneParam], field: Sequence[str], ruleset: Ruleset, *,
         players: int, budget: int, seed: int, first_rung: int | None = None,
         retest_deals: int | None = None, chunks: int = 64,
         progress: Callable[[int, int], None] | None = None, backend=None) -> TuneResult:
    """Search the parameter ranges for the values that win most against the field.

    ``budget`` is the number of games the search may play (the re-test comes on top: as many
    games as a full rung, for each of the two specs). Raises TuneError on bad input.
    ``backend`` (entered; default local, see ``sim.study.tournament.backend``) plays the games;
    the result is the same whatever it is.
    """
    import optuna

    if players < 2:
        raise TuneError(f"--players {players}: a game needs at least 2 players")
    try:
        parse_strategy(strategy)
        field_specs = [s.strip() for s in field if s.strip()]
        for s in field_specs:
            parse_strategy(s)
    except StrategySpecError as e:
        raise TuneError(str(e)) from None
    if not field_specs:
        raise TuneError("--vs: give the field, e.g. --vs balanced,greedy,ev")
    if len(field_specs) == 1:
        field_specs = field_specs * (players - 1)
    if len(field_specs) != players - 1:
        raise TuneError(f"--vs: {len(field_specs)} strategies for {players - 1} other seats; give "
                        f"one (it fills every seat) or exactly {players - 1}")
    check_players(ruleset, players)
    check_round_values(ruleset, [parse_strategy(s) for s in (strategy, *field_specs)])
    budget_deals = budget // players
    first = first_rung or max(20, budget_deals // FIRST_RUNG_SHARE)
    plan = rungs(first, budget_deals)
    if budget_deals < 2 * first:
        raise TuneError(f"--budget {budget}: too small; give at least {2 * first * players} games")
    ev = Evaluator(ruleset, field_specs, players, seed, chunks, backend=backend)

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=seed % 2**32, n_startup_trials=8)
    # rung r is reported at step plan[r] = first x 3^r deals: the pruner's own rungs
    pruner = optuna.pruners.SuccessiveHalvingPruner(min_resource=first,
                                                    reduction_factor=RUNG_GROWTH)
    study = optuna.create_study(direction="maximize", sampler=sampler, pruner=pruner)
    study.enqueue_trial(_start_values(strategy, params))  # the starting point is a candidate too
    rows = []
    while ev.games_played + first * players <= budget:
        trial = study.ask()
        values = {p.key: (trial.suggest_int(p.key, int(p.lo), int(p.hi)) if p.whole
                          else trial.suggest_float(p.key, p.lo, p.hi)) for p in params}
        spec = spec_with(strategy, values, params)
        shares = np.zeros(0)
        state = "complete"
        for k, upto in enumerate(plan):
            if k > 0 and ev.games_played + (upto - len(shares)) * players > budget:
                state = "budget"
                break
            more = np.arange(len(shares), upto, dtype=np.int64)
            shares = np.concatenate([shares, ev.deal_shares(spec, more)])
            trial.report(float(shares.mean()), upto)
            if k + 1 < len(plan) and trial.should_prune():
                state = "pruned"
                break
        value = float(shares.mean())
        if state == "pruned":
            study.tell(trial, state=optuna.trial.TrialState.PRUNED)
        else:
            study.tell(trial, value)
        rows.append({"trial": trial.number, "spec": spec, **values, "deals": len(shares),
                     "games": len(shares) * players, "win_share": value, "state": state,
                     "games_so_far": ev.games_played})
        if progress is not None:
            progress(min(ev.games_played, budget), budget)
    history = pd.DataFrame(rows)
    best_row = _best(history)
    best_spec = best_row["spec"]
    best_values = {p.key: int(best_row[p.key]) if p.whole else float(best_row[p.key])
                   for p in params}
    # re-test on fresh deals (another seed stream): the winner and the start, paired by deal
    n_re = retest_deals or plan[-1]
    fresh = Evaluator(ruleset, field_specs, players, seed + RETEST_SEED_OFFSET, chunks,
                      backend=backend)
    fresh_deals = np.arange(n_re, dtype=np.int64)
    best_shares = fresh.deal_shares(best_spec, fresh_deals)
    start_shares = fresh.deal_shares(strategy.strip(), fresh_deals)
    bw, bci = share_with_ci(best_shares, n_re * players)  # a game per rotation of each deal
    sw, sci = share_with_ci(start_shares, n_re * players)
    imp, lo, hi, _ = paired_diff(best_shares, start_shares)
    return TuneResult(start=strategy.strip(), best=best_spec, best_values=best_values,
                      best_win_share=bw, best_win_share_ci=bci, start_win_share=sw,
                      start_win_share_ci=sci, improvement=imp, improvement_ci=(lo, hi),
                      evaluations=len(history), games=ev.games_played + fresh.games_played,
                      retest_deals=n_re, history=history, players=players)


def _start_values(strategy: str, params: Sequence[TuneParam]) -> dict:
    """The starting spec's values of the tuned keys (clipped into their ranges)."""
    st = parse_strategy(strategy)
    out = {}
    for p in params:
        v = st.values[p.key]
        v = v[0] if isinstance(v, list) else v
        out[p.key] = min(max(float(v), p.lo), p.hi)
        if p.whole:
            out[p.key] = int(round(out[p.key]))
    return out


def _best(history: pd.DataFrame) -> pd.Series:
    """The candidate with the highest win share among those that played the most deals (a
    short run's share is too noisy to beat a long run's)."""
    most = history["deals"].max()
    top = history[history["deals"] == most]
    return top.loc[top["win_share"].idxmax()]
