"""The search of ``quacks design``: Optuna over the knobs, every candidate on the same deals,
games spent by successive halving as ``quacks tune`` spends them.

The sampler is Optuna's TPE (seeded, 8 random start-up candidates), minimising the objective of
``sim.study.design.loss``. Every candidate plays deals ``0 .. rung`` of the seed (the same deals
for every candidate, so they are compared on the same luck): a first rung, and only the better
part of the candidates so far (Optuna's ``SuccessiveHalvingPruner``) the next rungs, each three
times longer (``sim.study.tune.run.rungs``: the longest rung stays within a quarter of the
budget). The ruleset as given (its knobs' values, clipped into the ranges) is the first
candidate. A candidate the sampler proposes again is not played again: it gets the result it
had (state ``repeat``); the search ends when the budget cannot pay for another first rung, when
every point of a finite space has been played, or after ``MAX_REPEATS`` repeats in a row
(``SearchOutcome.stopped`` says which, ``stop_text`` with the games used). The
best candidate is the lowest objective among those that played the most deals (a short run's
estimate is too noisy to beat a long run's).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from sim.study.design.knobs import CHOICE, Knob
from sim.study.design.loss import score
from sim.study.design.measure import Measured
from sim.study.tune.run import FIRST_RUNG_SHARE, RUNG_GROWTH, rungs

MAX_REPEATS = 25  # proposals in a row of candidates already played before the search stops
MIN_FIRST_RUNG = 2  # deals (intervals need two)
STARTUP_TRIALS = 8


class SearchError(ValueError):
    """A search that cannot run as asked; the message is one line naming the option."""


def first_rung(budget_deals: int, given: int | None = None) -> int:
    """The deals of the first rung: ``given``, or the budget's deals / ``FIRST_RUNG_SHARE``
    (at least ``MIN_FIRST_RUNG``)."""
    return int(given) if given else max(MIN_FIRST_RUNG, budget_deals // FIRST_RUNG_SHARE)


def plan_rungs(budget: int, players: int, given: int | None = None) -> list[int]:
    """The cumulative deals of every rung for a budget of games; SearchError when the budget
    cannot pay for two first rungs."""
    budget_deals = budget // players
    first = first_rung(budget_deals, given)
    if budget_deals < 2 * first:
        raise SearchError(f"--budget {budget}: too small; give at least {2 * first * players} "
                          "games (two first rungs)")
    return rungs(first, budget_deals)


def suggest(trial, knob: Knob):
    """The trial's value of a knob (a choice is suggested by its label)."""
    if knob.kind == CHOICE:
        label = trial.suggest_categorical(knob.key, knob.labels)
        return knob.values[knob.labels.index(label)]
    if knob.whole:
        return trial.suggest_int(knob.key, int(knob.lo), int(knob.hi), step=int(knob.step or 1))
    return trial.suggest_float(knob.key, knob.lo, knob.hi, step=knob.step)


def optuna_value(knob: Knob, v):
    """A value as the sampler names it (a choice's label)."""
    return knob.label(v) if knob.kind == CHOICE else knob.cast(v)


# why the search ended (``SearchOutcome.stopped``), in words that go on with the games used
STOPPED = {
    "budget": "the budget could not pay for another first rung",
    "space": "every candidate the knobs allow was measured",
    "repeats": "{repeats} proposals in a row were already measured",  # MAX_REPEATS
}


@dataclass
class SearchOutcome:
    """The search's history (one row per candidate), its rungs, the games it played and why it
    stopped (a key of ``STOPPED``)."""

    history: pd.DataFrame
    rungs: list[int]
    games: int
    stopped: str = "budget"

    def stop_text(self, budget: int) -> str:
        """Why the search stopped and how much of the budget it used, in one sentence."""
        why = STOPPED[self.stopped].format(repeats=MAX_REPEATS)
        return f"the search stopped because {why}: {self.games:,} of {budget:,} games used"

    def best(self) -> pd.Series:
        """The lowest objective among the candidates that played the most deals."""
        h = self.history[self.history["state"].isin(("complete", "pruned", "budget"))]
        if not len(h):
            raise SearchError("no candidate could be played (every one was an invalid ruleset)")
        top = h[h["deals"] == h["deals"].max()]
        return top.loc[top["objective"].idxmin()]


def halving_search(knobs: Sequence[Knob], start: Mapping[str, object],
                   bands: Mapping[str, tuple[float, float]],
                   evaluate: Callable[[list[str], int, int, Measured | None], Measured], *,
                   players: int, budget: int, seed: int, rung_deals: Sequence[int],
                   invalid: tuple[type[Exception], ...] = (ValueError,),
                   progress: Callable[[int, int], None] | None = None) -> SearchOutcome:
    """Search the knobs (see the module). ``evaluate(overrides, d0, d1, so_far)`` plays deals
    d0..d1-1 of the candidate with these knob overrides and returns them joined to ``so_far``
    (raising one of ``invalid`` for a ruleset that cannot be played); ``start`` holds the
    knobs' starting values."""
    import optuna

    plan = list(rung_deals)
    first = plan[0]
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=seed % 2**32, n_startup_trials=STARTUP_TRIALS)
    pruner = optuna.pruners.SuccessiveHalvingPruner(min_resource=first,
                                                    reduction_factor=RUNG_GROWTH)
    study = optuna.create_study(direction="minimize", sampler=sampler, pruner=pruner)
    study.enqueue_trial({k.key: optuna_value(k, start[k.key]) for k in knobs})
    sizes = [k.points() for k in knobs]
    space = math.prod(sizes) if all(s is not None for s in sizes) else None
    seen: dict[tuple, dict] = {}
    rows: list[dict] = []
    played, repeats, stopped = 0, 0, "budget"
    while played + first * players <= budget:
        trial = study.ask()
        values = {k.key: suggest(trial, k) for k in knobs}
        point = tuple(knobs[i].label(values[k.key]) for i, k in enumerate(knobs))
        base = {"trial": trial.number, **{k.key: optuna_value(k, values[k.key]) for k in knobs},
                **{f"x:{k.key}": k.x(values[k.key]) for k in knobs},
                "overrides": "; ".join(k.override(values[k.key]) for k in knobs)}
        if point in seen:
            old = seen[point]
            for step, obj in old["reports"]:
                trial.report(obj, step)
            _tell(study, trial, old["state"], old["objective"])
            rows.append({**old["row"], **base, "state": "repeat", "games": 0,
                         "games_so_far": played})
            repeats += 1
            if repeats >= MAX_REPEATS:
                stopped = "repeats"
                break
            continue
        repeats = 0
        overrides = [k.override(values[k.key]) for k in knobs]
        so_far, reports, state, fig = None, [], "complete", {}
        try:
            for r, upto in enumerate(plan):
                have = so_far.deals if so_far is not None else 0
                if r > 0 and played + (upto - have) * players > budget:
                    state = "budget"
                    break
                so_far = evaluate(overrides, have, upto, so_far)
                played += (upto - have) * players
                est = so_far.estimates()
                fig = {m: (est[m].value if m in est else math.nan) for m in bands}
                s = score(fig, bands)
                trial.report(s["objective"], upto)
                reports.append((upto, s["objective"]))
                if r + 1 < len(plan) and trial.should_prune():
                    state = "pruned"
                    break
        except invalid as e:
            study.tell(trial, state=optuna.trial.TrialState.FAIL)
            row = {**base, "state": "invalid", "deals": 0, "games": 0, "loss": math.nan,
                   "centre": math.nan, "objective": math.nan, "games_so_far": played,
                   "note": " ".join(str(e).split())}
            rows.append(row)
            seen[point] = {"row": row, "reports": [], "state": "invalid",
                           "objective": math.nan}
            continue
        _tell(study, trial, state, s["objective"])
        row = {**base, "state": state, "deals": so_far.deals, "games": so_far.deals * players,
               "loss": s["loss"], "centre": s["centre"], "objective": s["objective"],
               **{f"d:{m}": v for m, v in s["distances"].items()},
               **{f"m:{m}": v for m, v in fig.items()}, "games_so_far": played, "note": ""}
        rows.append(row)
        seen[point] = {"row": row, "reports": reports, "state": state,
                       "objective": s["objective"]}
        if progress is not None:
            progress(min(played, budget), budget)
        if space is not None and len(seen) >= space:
            stopped = "space"
            break
    return SearchOutcome(pd.DataFrame(rows), plan, played, stopped)


def _tell(study, trial, state: str, objective: float) -> None:
    import optuna

    if state == "pruned":
        study.tell(trial, state=optuna.trial.TrialState.PRUNED)
    elif state == "invalid":
        study.tell(trial, state=optuna.trial.TrialState.FAIL)
    else:
        study.tell(trial, objective)
