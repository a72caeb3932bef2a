"""``quacks styles``: how many ways to win?

For each variant, a MAP-Elites search with pyribs (``ribs.archives.GridArchive``, a
``ribs.emitters.GaussianEmitter`` whose first batch is the candidate's own values and steps
around them, ``ribs.schedulers.Scheduler``) over the candidate's parameters (each scaled to
[0, 1] over its searched range, ``sim.study.exploit.space``): every candidate plays the same
deals of the run seed against the field; its quality is its win share, its place on the map
two behaviour descriptors measured from what it did in those games
(``sim.study.styles.measures``). The archive keeps the best candidate of each cell. Every
elite is then re-tested on fresh deals (the stream of the run seed + ``RETEST_SEED_OFFSET``,
which the search never plays), all on the same deals, and its descriptors measured again: a
style is the cell its re-test puts it in (two elites in one cell are one style, the better on
the picking deals standing for it). The best style is picked on the first half of those
deals; every win share (with its 95% interval) and every paired difference to the best is
measured on the other half (``sim.study.styles.viability``: no winner's curse). A style is
viable when its re-tested win share is within ``margin`` of the best's; the count comes with
the counts of those surely and plausibly within it (the difference's 95% interval wholly
above, or reaching above, -margin).
"""

from __future__ import annotations

import shlex
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd

from sim.study.compare.config import RulesetSpec
from sim.study.exploit.defaults import (
    DEFAULT_PLAYERS,
    MAX_BATCH,
    MAX_BATCHES,
    MAX_CELLS,
    STYLE_BATCH,
    STYLE_BATCHES,
    STYLE_CELLS,
    STYLE_GAMES,
    STYLE_MARGIN,
    STYLE_RETEST_GAMES,
)
from sim.study.exploit.run import (
    FieldSearch,
    VariantsResult,
    seated_field,
)
from sim.study.exploit.space import start_value
from sim.study.styles.descriptors import BY_NAME, DEFAULT_DESCRIPTORS
from sim.study.styles.measures import MEASURES, game_measures
from sim.study.styles.viability import judge_styles, one_per_cell
from sim.study.tune.run import RETEST_SEED_OFFSET, TuneError, TuneParam, spec_with

# The Gaussian emitter's step, in units of each parameter's searched range. A child differs from
# its parent in every parameter at once, so the step is kept small: at 0.2 (a move of 0.6 of
# the cube's side over expert's nine parameters) the candidates of the default base run (seed
# 1) won 0.075 on average, against 0.136 for its first batch around expert's own values: the
# cells away from expert were filled by chance landings the search never improved. At 0.1 they
# won 0.113 to 0.137 (seeds 1-3; 0.071 to 0.082 at 0.2), and the elites' mean re-tested share
# rose from 0.107 to 0.118 (seed 1).
SIGMA = 0.1
PIECE_GAMES = 2_000  # games per compiled call (per task on Dask)
STYLE_COLUMNS = ("variant", "cell", "cell_x", "cell_y", "spec", "search_cell", "search_share",
                 "pick_share", "win_share", "win_lo", "win_hi", "diff", "diff_lo", "diff_hi",
                 "viable", "surely", "plausibly")
SUMMARY_COLUMNS = ("variant", "rules", "candidates", "elites", "cells_filled", "cells",
                   "best_spec", "best_share", "best_lo", "best_hi", "margin", "viable",
                   "viable_surely", "viable_plausibly", "search_games", "retest_games", "seed",
                   "retest_seed")


class StylesError(TuneError):
    """Settings that cannot run; the message is one line naming the option."""


@dataclass(frozen=True)
class StylesSettings(FieldSearch):
    """What one run plays: a :class:`~sim.study.exploit.run.FieldSearch` (variants, field,
    candidate, params), the two ``descriptors``, the seats, the games per candidate, ``batch``
    candidates per step for ``batches`` steps, the re-test's games per elite, the viability
    ``margin``, the map's ``cells`` per descriptor, the seed and where the games run."""

    TUPLES: ClassVar[tuple[str, ...]] = ("variants", "strategies", "params", "descriptors")
    descriptors: tuple[str, ...] = DEFAULT_DESCRIPTORS
    players: int = DEFAULT_PLAYERS
    games: int = STYLE_GAMES
    batch: int = STYLE_BATCH
    batches: int = STYLE_BATCHES
    retest_games: int = STYLE_RETEST_GAMES
    margin: float = STYLE_MARGIN
    cells: int = STYLE_CELLS
    seed: int = 1
    backend: str = "local"

    def deals(self, games: int) -> int:
        """``games`` rounded up to whole deals of ``players`` seatings."""
        return -(-int(games) // self.players)

    def command(self) -> str:
        """The ``quacks styles`` command line that reproduces the run."""
        parts = self.search_args("styles")
        parts += ["--descriptors", ",".join(self.descriptors), "--players", str(self.players),
                  "--games", str(self.games), "--batch", str(self.batch), "--batches",
                  str(self.batches), "--retest-games", str(self.retest_games), "--margin",
                  f"{self.margin:g}", "--cells", str(self.cells), "--seed", str(self.seed)]
        return shlex.join(parts)


@dataclass
class StylesPlan:
    """A checked run: the settings, each variant's ruleset, the field one spec a seat and the
    parameters searched."""

    settings: StylesSettings
    rulesets: list
    field: list[str]
    params: list[TuneParam]

    @property
    def games(self) -> int:
        """Games the searches play (the re-tests come on top)."""
        s = self.settings
        return len(self.rulesets) * s.batches * s.batch * s.deals(s.games) * s.players


def plan_styles(settings: StylesSettings) -> StylesPlan:
    """Check the settings before any game; StylesError (or the ruleset's, the strategy's
    error) with one line otherwise."""
    s = settings
    if not s.variants:
        raise StylesError("--rules: give at least one ruleset")
    if not s.strategies:
        raise StylesError("--strategies: give the field, e.g. --strategies expert")
    bad = [d for d in s.descriptors if d not in BY_NAME]
    if bad or len(s.descriptors) != 2 or len(set(s.descriptors)) != 2:
        raise StylesError(f"--descriptors {','.join(s.descriptors)}: give two of "
                          f"{', '.join(BY_NAME)}")
    if not (0 < s.margin < 1):
        raise StylesError(f"--margin {s.margin:g}: expected a win share between 0 and 1")
    if not 2 <= s.cells <= MAX_CELLS:
        raise StylesError(f"--cells {s.cells}: expected 2 to {MAX_CELLS}")
    for name, v, most in (("--batch", s.batch, MAX_BATCH), ("--batches", s.batches,
                                                               MAX_BATCHES)):
        if not 1 <= v <= most:
            raise StylesError(f"{name} {v}: expected 1 to {most}")
    n = s.players
    field_specs = seated_field(s.strategies, s.searched, n, StylesError)
    if s.retest_games < 4 * n:
        raise StylesError(f"--retest-games {s.retest_games}: give at least {4 * n} (four deals: "
                          "two pick the best style, two measure)")
    return StylesPlan(s, *s.planned(field_specs, StylesError))


def deal_measures(ruleset, specs: list[str], seed: int, deals: np.ndarray, backend=None
                  ) -> np.ndarray:
    """The first spec's measures (``MEASURES``) per deal, every seating of each deal played
    with the other specs in the other seats: a (deals, len(MEASURES)) array."""
    from sim.study.tournament.local import LOCAL

    n = len(specs)
    games = np.repeat(np.asarray(deals, dtype=np.int64), n)
    rot = np.tile(np.arange(n, dtype=np.int64), len(deals))
    per = max(n, PIECE_GAMES // n * n)
    pieces = [(games[a:a + per], rot[a:a + per]) for a in range(0, len(games), per)]
    be = backend or LOCAL
    m = np.concatenate(list(be.map_batches(ruleset, specs, seed, pieces, game_measures,
                                           detail=True)))
    with warnings.catch_warnings():  # a deal where it never stopped (or bought) has no value
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(m.reshape(len(deals), n, len(MEASURES)), axis=1)


@dataclass
class StylesResult(VariantsResult):
    """The answer (``plan`` a StylesPlan): ``tables['summary']`` a row per variant (the count
    of viable styles), ``tables['styles']`` every re-tested elite, ``tables['history']`` every
    candidate."""

    ROWS: ClassVar[str] = "summary"


def run_styles(plan: StylesPlan, *, backend=None,
               progress: Callable[[int, int], None] | None = None) -> StylesResult:
    """Map the styles of every variant (see the module)."""
    t0 = time.perf_counter()
    per_variant = plan.games // max(1, len(plan.rulesets))
    summary, styles, hists = [], [], []
    for i, (v, rs) in enumerate(zip(plan.settings.variants, plan.rulesets)):
        done = i * per_variant

        def step(g: int, done=done) -> None:
            if progress is not None:
                progress(done + g, plan.games)

        row, elites, hist = map_variant(plan, v, rs, backend=backend, progress=step)
        summary.append(row)
        styles.append(elites)
        hists.append(hist)
    tables = {"summary": pd.DataFrame(summary, columns=list(SUMMARY_COLUMNS)),
              "styles": pd.concat(styles, ignore_index=True),
              "history": pd.concat(hists, ignore_index=True)}
    return StylesResult(plan, tables, time.perf_counter() - t0)


def make_emitters(archive, x0: np.ndarray, s: StylesSettings) -> list:
    """The search's emitters over the unit cube of the parameters: the first batch is the
    candidate's own values ``x0`` and the rest of the batch around them."""
    from ribs.emitters import GaussianEmitter

    rng = np.random.default_rng(s.seed)
    first = np.clip(x0 + rng.normal(0, SIGMA, (s.batch, len(x0))), 0, 1)
    first[0] = x0
    return [GaussianEmitter(archive, sigma=SIGMA, initial_solutions=first,
                            bounds=[(0.0, 1.0)] * len(x0), batch_size=s.batch, seed=s.seed)]


def map_variant(plan: StylesPlan, variant: RulesetSpec, rs, *, backend=None,
                progress: Callable[[int], None] | None = None
                ) -> tuple[dict, pd.DataFrame, pd.DataFrame]:
    """One variant: the MAP-Elites search, then every elite re-tested on fresh deals. Returns
    the summary row, the elites' rows and the search's history."""
    from ribs.archives import GridArchive
    from ribs.schedulers import Scheduler

    s, params = plan.settings, plan.params
    descs = [BY_NAME[d] for d in s.descriptors]
    cols = [MEASURES.index(d) for d in s.descriptors]
    lo = np.array([p.lo for p in params])
    span = np.array([p.hi - p.lo for p in params])
    start = np.array([start_value(s.searched, p.key) for p in params])
    x0 = np.clip((start - lo) / span, 0, 1)
    archive = GridArchive(solution_dim=len(params), dims=[s.cells] * 2,
                          ranges=[(d.lo, d.hi) for d in descs], seed=s.seed)
    scheduler = Scheduler(archive, make_emitters(archive, x0, s))
    specs_of = {}

    def spec_of(x: np.ndarray) -> str:
        values = dict(zip((p.key for p in params), lo + np.clip(x, 0, 1) * span))
        return spec_with(s.searched, values, params)

    def place(m: np.ndarray) -> list[float]:  # measures -> the map's descriptors, in range
        return [float(np.clip(np.nan_to_num(m[c], nan=d.lo), d.lo, d.hi))
                for c, d in zip(cols, descs)]

    deals = np.arange(s.deals(s.games), dtype=np.int64)
    rows, played = [], 0
    for b in range(s.batches):
        xs = scheduler.ask()
        objective, measures = [], []
        for x in xs:
            spec = spec_of(x)
            m = np.nanmean(deal_measures(rs, [spec, *plan.field], s.seed, deals, backend), axis=0)
            played += len(deals) * s.players
            objective.append(float(m[0]))
            measures.append(place(m))
            specs_of[spec] = x
            rows.append({"variant": variant.label, "batch": b, "spec": spec,
                         **{p.key: float(v) for p, v in zip(params, lo + x * span)},
                         **dict(zip(MEASURES, map(float, m))), "games_so_far": played})
            if progress is not None:
                progress(played)
        scheduler.tell(np.array(objective), np.array(measures))
    history = pd.DataFrame(rows)
    elites = archive.data()
    order = np.argsort(elites["index"])
    fresh_seed = s.seed + RETEST_SEED_OFFSET
    fresh = np.arange(s.deals(s.retest_games), dtype=np.int64)
    shares, measured, erows = [], [], []
    for k in order:
        spec = spec_of(elites["solution"][k])
        m = deal_measures(rs, [spec, *plan.field], fresh_seed, fresh, backend)
        shares.append(m[:, 0])
        measured.append(np.nanmean(m, axis=0))
        erows.append({"variant": variant.label, "spec": spec,
                      "search_cell": int(elites["index"][k]),
                      "search_share": float(elites["objective"][k])})
    # a style sits where its re-test puts it: one per cell, the best on the picking deals
    cells = archive.index_of(np.array([place(m) for m in measured]))
    keep = one_per_cell(cells, np.array(shares))
    best, judged = judge_styles(np.array(shares)[keep], s.players, s.margin)
    out = []
    for i, j in zip(keep, judged):
        cx, cy = archive.int_to_grid_index([cells[i]])[0]
        out.append({**erows[i], "cell": int(cells[i]), "cell_x": int(cx), "cell_y": int(cy), **j,
                    **{f"search_{name}": float(h)
                       for name, h in zip(s.descriptors, elites["measures"][order[i]])},
                    **{f"retest_{name}": float(measured[i][MEASURES.index(name)])
                       for name in s.descriptors}})
    table = pd.DataFrame(out)
    table = table[[*STYLE_COLUMNS, *[c for c in table.columns if c not in STYLE_COLUMNS]]]
    b = table.iloc[best]
    row = {"variant": variant.label, "rules": rs.display, "candidates": len(history),
           "elites": len(erows), "cells_filled": len(table), "cells": s.cells ** 2,
           "best_spec": b["spec"],
           "best_share": b["win_share"], "best_lo": b["win_lo"], "best_hi": b["win_hi"],
           "margin": s.margin, "viable": int(table["viable"].sum()),
           "viable_surely": int(table["surely"].sum()),
           "viable_plausibly": int(table["plausibly"].sum()), "search_games": played,
           "retest_games": len(erows) * len(fresh) * s.players, "seed": s.seed,
           "retest_seed": fresh_seed}
    return row, table, history
