"""``quacks styles``: how many ways to win?

For each variant, a MAP-Elites search with pyribs (``ribs.archives.GridArchive``, a
``ribs.emitters.GaussianEmitter`` whose first batch is the candidate's own values and steps
around them, ``ribs.schedulers.Scheduler``) over the candidate's parameters (each scaled to
[0, 1] over its searched range, ``sim.study.exploit.space``): every candidate plays the same
deals of the run seed against the field; its quality is its win share, its place on the map
two behaviour descriptors measured from what it did in those games
(``sim.study.styles.measures``). The archive keeps the best candidate of each cell. Every
elite is then re-tested on fresh deals (the stream of the run seed + ``RETEST_SEED_OFFSET``,
which the search never plays), all on the same deals: its win share with its 95% interval,
its descriptors measured again, and its paired difference to the best re-tested elite. A
style (a cell) is viable when its re-tested win share is within ``margin`` of the best's; the
count comes with the counts of those surely and plausibly within it (the difference's 95%
interval wholly above, or reaching above, -margin).
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

from sim.stats.clusters import paired_diff
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
from sim.study.tune.run import RETEST_SEED_OFFSET, TuneError, TuneParam, share_with_ci, spec_with

SIGMA = 0.2  # the Gaussian emitter's step, in units of each parameter's searched range
PIECE_GAMES = 2_000  # games per compiled call (per task on Dask)
STYLE_COLUMNS = ("variant", "cell", "cell_x", "cell_y", "spec", "search_share", "win_share",
                 "win_lo", "win_hi", "diff", "diff_lo", "diff_hi", "viable", "surely",
                 "plausibly")
SUMMARY_COLUMNS = ("variant", "rules", "candidates", "cells_filled", "cells", "best_spec",
                   "best_share", "best_lo", "best_hi", "margin", "viable", "viable_surely",
                   "viable_plausibly", "search_games", "retest_games", "seed", "retest_seed")


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
    if s.retest_games < 2 * n:
        raise StylesError(f"--retest-games {s.retest_games}: give at least {2 * n} (two deals)")
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


def map_variant(plan: StylesPlan, variant: RulesetSpec, rs, *, backend=None,
                progress: Callable[[int], None] | None = None
                ) -> tuple[dict, pd.DataFrame, pd.DataFrame]:
    """One variant: the MAP-Elites search, then every elite re-tested on fresh deals. Returns
    the summary row, the elites' rows and the search's history."""
    from ribs.archives import GridArchive
    from ribs.emitters import GaussianEmitter
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
    # the first batch: the candidate's own values, and the rest of the batch around them
    rng = np.random.default_rng(s.seed)
    first = np.clip(x0 + rng.normal(0, SIGMA, (s.batch, len(params))), 0, 1)
    first[0] = x0
    emitter = GaussianEmitter(archive, sigma=SIGMA, initial_solutions=first,
                              bounds=[(0.0, 1.0)] * len(params), batch_size=s.batch, seed=s.seed)
    scheduler = Scheduler(archive, [emitter])
    specs_of = {}

    def spec_of(x: np.ndarray) -> str:
        values = dict(zip((p.key for p in params), lo + np.clip(x, 0, 1) * span))
        return spec_with(s.searched, values, params)

    deals = np.arange(s.deals(s.games), dtype=np.int64)
    rows, played = [], 0
    for b in range(s.batches):
        xs = scheduler.ask()
        objective, measures = [], []
        for x in xs:
            spec = spec_of(x)
            m = np.nanmean(deal_measures(rs, [spec, *plan.field], s.seed, deals, backend), axis=0)
            played += len(deals) * s.players
            place = [float(np.clip(np.nan_to_num(m[c], nan=d.lo), d.lo, d.hi))
                     for c, d in zip(cols, descs)]
            objective.append(float(m[0]))
            measures.append(place)
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
        cx, cy = archive.int_to_grid_index([elites["index"][k]])[0]
        erows.append({"variant": variant.label, "cell": int(elites["index"][k]),
                      "cell_x": int(cx), "cell_y": int(cy), "spec": spec,
                      "search_share": float(elites["objective"][k])})
    best = int(np.argmax([x.mean() for x in shares]))
    out = []
    for r, sh, m in zip(erows, shares, measured):
        w, (wlo, whi) = share_with_ci(sh, len(fresh) * s.players)  # a game per seating
        if sh is shares[best]:
            d, dlo, dhi = 0.0, 0.0, 0.0
        else:
            d, dlo, dhi, _ = paired_diff(sh, shares[best])
        out.append({**r, "win_share": w, "win_lo": wlo, "win_hi": whi, "diff": d, "diff_lo": dlo,
                    "diff_hi": dhi, "viable": bool(d >= -s.margin),
                    "surely": bool(dlo >= -s.margin), "plausibly": bool(dhi >= -s.margin),
                    **{f"search_{name}": float(h) for name, h in
                       zip(s.descriptors, elites["measures"][order[len(out)]])},
                    **{f"retest_{name}": float(m[MEASURES.index(name)])
                       for name in s.descriptors}})
    table = pd.DataFrame(out)
    table = table[[*STYLE_COLUMNS, *[c for c in table.columns if c not in STYLE_COLUMNS]]]
    b = table.iloc[best]
    row = {"variant": variant.label, "rules": rs.display, "candidates": len(history),
           "cells_filled": len(table), "cells": s.cells ** 2, "best_spec": b["spec"],
           "best_share": b["win_share"], "best_lo": b["win_lo"], "best_hi": b["win_hi"],
           "margin": s.margin, "viable": int(table["viable"].sum()),
           "viable_surely": int(table["surely"].sum()),
           "viable_plausibly": int(table["plausibly"].sum()), "search_games": played,
           "retest_games": len(table) * len(fresh) * s.players, "seed": s.seed,
           "retest_seed": fresh_seed}
    return row, table, history
