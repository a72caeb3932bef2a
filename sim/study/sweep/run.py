"""Parameter sweeps: one strategy at each value of one parameter (or each cell of a grid over
two) against a fixed field, every value on the same deals, compared pairwise with a baseline.

Each value is a vs-field tournament (``sim.study.tournament``) with duplicate rotations; the focus
strategy's per-deal totals are kept, so the difference between a value and the baseline is a
*paired* difference over the deals both played (mean over deals of the difference of the per-deal
averages, t interval over deals). The baseline is the strategy's own default for the swept
parameter(s) unless ``baseline`` names values; when it is not one of the swept values it is played
as one more run on the same deals.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.stats.clusters import paired_diff
from sim.stats.sequences import ALPHA
from sim.study.tournament.plan import (
    TournamentConfig,
    TournamentError,
    load_strategy_files,
    resolve_plan,
    rules_file_paths,
)
from sim.study.tournament.result import TournamentResult
from sim.study.tournament.run import check_two_deals, run_tournament
from sim.study.tournament.statistics import SHARE_UNIT

MAX_SWEEP_VALUES = 200
BASELINE_DIR = "baseline"


class SweepError(TournamentError):
    """A sweep specification that cannot run."""


@dataclass(frozen=True)
class SweepParam:
    """One swept parameter: its key, the values (numbers and their spec text) and its meaning."""

    key: str
    values: list[float]
    text: list[str]
    help: str


def _value_text(v: float, whole: bool) -> str:
    return str(int(v)) if whole else repr(v)


def number_param(name: str, key: str, verb: str, error: type[Exception]):
    """The number parameter ``key`` of the registered strategy ``name`` (its ``Param``), or
    ``error`` naming the parameters there are or why this one cannot be ``verb``."""
    from strategies.builtin import REGISTRY

    params = {p.name: p for p in REGISTRY[name].params}
    if key not in params:
        raise error(f"--param {key}: {name} has no such parameter; parameters: "
                    f"{', '.join(params) or 'none'}")
    p = params[key]
    if p.kind not in ("int", "float", "round"):
        raise error(f"--param {key}: a {p.kind} parameter cannot be {verb}; give a number "
                    "parameter")
    return p


def split_param(strategy: str, text: str, form: str, verb: str, error: type[Exception]):
    """``text`` as ``form`` (``KEY=LO:HI, e.g. ...``: the range's parts, and the line of a wrong
    one) for a number parameter of the strategy ``NAME[:fixed=...]``: its key, the range's parts
    and its ``Param`` (or ``error`` saying what is wrong; ``verb``: "swept", "tuned")."""
    name = strategy.strip().partition(":")[0]
    key, eq, rng = text.partition("=")
    key = key.strip()
    parts = rng.split(":")
    if not eq or not key or len(parts) != form.partition(",")[0].count(":") + 1:
        raise error(f"--param {text!r}: expected {form}")
    return key, parts, number_param(name.strip().lower(), key, verb, error)


def parse_param(strategy: str, param: str) -> SweepParam:
    """``KEY=START:STOP:STEP`` of the strategy ``NAME[:fixed=...]`` to its values.

    STOP is included when the steps land on it (within 1e-9 of a step). Values of an integer
    parameter must be whole numbers.
    """
    from strategies.builtin import parse_strategy

    parse_strategy(strategy.strip())  # unknown names and bad fixed parameters fail here, clearly
    key, parts, p = split_param(strategy, param, "KEY=START:STOP:STEP, e.g. t=4:9:1", "swept",
                                SweepError)
    fixed = strategy.strip().partition(":")[2]
    if any(item.partition("=")[0].strip() == key for item in fixed.split(",") if item.strip()):
        raise SweepError(f"--param {key}: {key} is also fixed in --strategy {strategy!r}")
    try:
        start, stop, step = (float(x) for x in parts)
    except ValueError:
        raise SweepError(f"--param {param!r}: START, STOP and STEP must be numbers") from None
    if (step == 0 or not all(math.isfinite(x) for x in (start, stop, step))
        or (stop - start) * step < 0):
        raise SweepError(f"--param {param!r}: STEP must be non-zero and lead from START to STOP")
    count = int(math.floor((stop - start) / step + 1e-9)) + 1
    if count > MAX_SWEEP_VALUES:
        raise SweepError(f"--param {param!r}: {count} values; at most {MAX_SWEEP_VALUES}")
    values = [float(f"{start + i * step:.12g}") for i in range(count)]
    whole = all(v == int(v) for v in values)
    if p.kind == "int" and not whole:
        raise SweepError(f"--param {key}: an integer parameter; START and STEP must be whole "
                         "numbers")
    return SweepParam(key, values, [_value_text(v, whole) for v in values], p.help)


def _spec(base: str, assign: Sequence[tuple[str, str]]) -> str:
    name, _, fixed = base.partition(":")
    items = [fixed.strip()] if fixed.strip() else []
    items += [f"{k}={t}" for k, t in assign]
    return f"{name.strip().lower()}:{','.join(items)}" if items else name.strip().lower()


def cell_dir(assign: Sequence[tuple[str, str]]) -> str:
    """Sub-directory of one sweep cell, e.g. ``t=6`` or ``t=6,p=0.25``."""
    return ",".join(f"{k}={t}" for k, t in assign)


@dataclass(frozen=True)
class SweepPlan:
    """The runs of a sweep: one per cell of the grid, plus the baseline if it is not a cell."""

    base: str
    params: list[SweepParam]
    cells: list[tuple[float, ...]]
    specs: list[str]
    dirs: list[str]
    baseline_spec: str
    baseline_index: int  # index into specs of the baseline run (len(cells) when extra)

    @property
    def keys(self) -> list[str]:
        return [p.key for p in self.params]

    @property
    def run_specs(self) -> list[str]:
        """Every run's focus spec: the cells, then the baseline if it is extra."""
        extra = [self.baseline_spec] if self.baseline_index == len(self.cells) else []
        return self.specs + extra

    @property
    def run_dirs(self) -> list[str]:
        extra = [BASELINE_DIR] if self.baseline_index == len(self.cells) else []
        return self.dirs + extra


def plan_sweep(strategy: str, params: str | Sequence[str],
               baseline: str | None = None) -> SweepPlan:
    """Resolve the strategy, one or two ``KEY=START:STOP:STEP`` parameters and the baseline
    (``V`` for one parameter, ``V1,V2`` for two, in ``params`` order; default: the strategy's
    own default) into the runs of a sweep; raise SweepError (or a spec error) with one line."""
    from strategies.builtin import parse_strategy

    plist = [params] if isinstance(params, str) else list(params)
    if not 1 <= len(plist) <= 2:
        raise SweepError(f"--param: give one or two parameters, not {len(plist)}")
    ps = [parse_param(strategy, p) for p in plist]
    if len(ps) == 2 and ps[0].key == ps[1].key:
        raise SweepError(f"--param {ps[0].key}: the same parameter twice; give two different ones")
    cells_n = math.prod(len(p.values) for p in ps)
    if cells_n > MAX_SWEEP_VALUES:
        raise SweepError(f"--param: a grid of {cells_n} cells; at most {MAX_SWEEP_VALUES}")
    base = strategy.strip()
    cells, specs, dirs = [], [], []
    for combo in itertools.product(*[range(len(p.values)) for p in ps]):
        assign = [(p.key, p.text[i]) for p, i in zip(ps, combo)]
        cells.append(tuple(p.values[i] for p, i in zip(ps, combo)))
        specs.append(_spec(base, assign))
        dirs.append(cell_dir(assign))
    for s in specs:
        parse_strategy(s)  # out-of-range values fail here, naming the range
    if baseline is None or not str(baseline).strip():
        bspec = _spec(base, [])
    else:
        parts = [x.strip() for x in str(baseline).split(",")]
        if len(parts) != len(ps):
            raise SweepError(f"--baseline {baseline}: give {len(ps)} value(s), one per --param, "
                             f"e.g. --baseline {','.join(p.text[0] for p in ps)}")
        bspec = _spec(base, [(p.key, t) for p, t in zip(ps, parts)])
    bvalues = parse_strategy(bspec).values
    same = [i for i, s in enumerate(specs) if parse_strategy(s).values == bvalues]
    return SweepPlan(base, ps, cells, specs, dirs, bspec, same[0] if same else len(cells))


@dataclass
class SweepResult:
    """One tournament per cell (and the baseline), and the table across cells."""

    strategy: str
    key: str
    values: list[float]
    results: list[TournamentResult]
    table: pd.DataFrame
    settings: dict
    out: Path | None = None
    seconds: float = 0.0
    files: list[str] = field(default_factory=list)
    baseline: dict = field(default_factory=dict)
    dirs: list[str] = field(default_factory=list)
    sequential_alpha: float | None = None  # --sequential: the level of each question

    def to_json(self) -> dict:
        """One JSON-ready object: settings, the baseline, and one entry per cell (the focus
        strategy's row with its paired difference to the baseline)."""
        from sim.study.tournament.summary import frame_records

        pairs = ("win_share_ci", "mean_vp_ci", "mean_rank_ci", "explosion_rate_ci", "rating_ci",
                 "win_share_diff_ci", "vp_diff_ci")
        rows = [{"name": r.pop("strategy"), **r} for r in frame_records(self.table, pairs)]
        out = {"kind": "sweep", **self.settings, "values": self.values,
               "games_total": sum(r.games for r in self.results),
               "seconds": round(self.seconds, 3), "out": str(self.out) if self.out else None,
               "baseline": self.baseline, "strategies": rows}
        if self.sequential_alpha is not None:
            from sim.study.sweep.sequential import SEQUENTIAL_METHOD

            out["sequential_stop"] = {
                "games_saved": int(self.table["games_saved"].sum()),
                "budget_games": int(self.settings["games"]),
                "alpha_per_question": self.sequential_alpha, "method": SEQUENTIAL_METHOD,
                "decided": bool(self.table["decided"].dropna().astype(bool).all())}
        return out


def focus_deal_means(result: TournamentResult) -> pd.DataFrame:
    """Per deal, the focus strategy's (id 0) average VP and win share: from the run's kept
    totals, or from its ``games.parquet`` when the run was already complete on disk."""
    dt = result.deal_totals.get(0) if result.deal_totals else None
    if dt is None:
        if result.out is None:
            raise SweepError("a sweep run kept no per-deal totals")
        games = pd.read_parquet(Path(result.out) / "games.parquet",
                                columns=["deal", "strategy", "vp", "win_share"])
        focus = result.plan.names[0]
        g = games[games["strategy"] == focus].groupby("deal")
        out = pd.DataFrame({"vp": g["vp"].mean(), "win_share": g["win_share"].mean()})
        return out
    d = dt.set_index("deal")
    return pd.DataFrame({"vp": d["vp"] / d["games"],
                         "win_share": d["share_units"] / SHARE_UNIT / d["games"]})


def paired_diff_columns(run: pd.DataFrame, base: pd.DataFrame) -> dict:
    """Paired differences run - base over their common deals (per-deal means from
    :func:`focus_deal_means`): ``win_share_diff``, ``vp_diff``, their ``_ci_lo``/``_ci_hi`` and
    ``diff_deals``."""
    common = run.index.intersection(base.index)
    a, b = run.loc[common], base.loc[common]
    out = {}
    for col, key in (("win_share", "win_share_diff"), ("vp", "vp_diff")):
        m, lo, hi, D = paired_diff(a[col].to_numpy(), b[col].to_numpy())
        out.update({key: m, f"{key}_ci_lo": lo, f"{key}_ci_hi": hi})
    out["diff_deals"] = len(common)
    return out


def run_sweep(strategy: str, param: str | Sequence[str], field_specs: Sequence[str], *,
              players: int | None = None, games: int | None = None, seed: int = 1,
              rules: str = "base", overrides: Sequence[str] = (), until_ci: float | None = None,
              detail: str = "games", strategy_files: Sequence[str] = (),
              baseline: str | None = None,
              out: str | Path | None = None, resume: bool = False, force: bool = False,
              progress: Callable[[int, int], None] | None = None, plots: bool = True,
              argv: Sequence[str] | None = None,
              note: Callable[[str], None] | None = None, backend=None,
              sequential: bool = False, width: float | None = None) -> SweepResult:
    """Play ``strategy`` at each value of ``param`` (one ``KEY=START:STOP:STEP``, or a list of
    two for a grid) against ``field_specs`` (vs-field format, duplicate rotations, the same deals
    for every value) and tabulate the focus strategy with its paired difference to the baseline.

    With ``out``, each value's full report goes to ``out/<KEY>=<value>/`` (a grid cell to
    ``out/<KEY1>=<v1>,<KEY2>=<v2>/``, an extra baseline run to ``out/baseline/``) and the sweep's
    ``sweep.csv``, ``sweep.md``, ``sweep.png`` and ``run.json`` to ``out``. ``backend``
    (entered; default local, see ``sim.study.tournament.backend``) plays the games of every value.
    With ``sequential`` the baseline plays ``games`` and every other value stops once its
    differences to it are decided (``sim.study.sweep.sequential``; ``width`` decides one within
    +-width too).
    """
    from sim.study.sweep.report import SweepWriter
    from strategies.builtin import REGISTRY

    load_strategy_files(tuple(strategy_files))
    sp = plan_sweep(strategy, param, baseline)
    if sequential and until_ci is not None:
        raise SweepError("--sequential: a value stops when its differences to the baseline are "
                         "decided; give --width W instead of --until-ci")
    if width is not None and not sequential:
        raise SweepError(f"--width {width:g}: only with --sequential")
    if width is not None and not width > 0:
        raise SweepError(f"--width {width:g}: expected a half-width above 0, e.g. 0.01")
    fld = [s.strip() for s in field_specs if s.strip()]
    if not fld:
        raise SweepError("--vs: give the field, e.g. --vs threshold or --vs threshold,random")
    plans = [resolve_plan(TournamentConfig(strategies=(s, *fld), players=players, format="vs-field",
                                           games=games, seed=seed, rules=rules,
                                           overrides=tuple(overrides), until_ci=until_ci,
                                           detail=detail, strategy_files=tuple(strategy_files)))
             for s in sp.run_specs]
    p0 = plans[0]
    check_two_deals(p0, SweepError)  # every value plays the same deals
    plist = [param] if isinstance(param, str) else list(param)
    name = sp.base.partition(":")[0].strip().lower()
    helps = {p.name: p.help for p in REGISTRY[name].params}
    settings = {"strategy": sp.base, "param": plist[0], "params": plist, "key": sp.keys[0],
                "keys": sp.keys, "key_help": [helps.get(k, "") for k in sp.keys],
                "baseline": baseline, "baseline_spec": sp.baseline_spec,
                "vs": fld, "players": p0.players,
                "games": p0.config.games, "seed": seed, "rules": p0.ruleset.name,
                "overrides": list(overrides), "rules_hash": p0.ruleset.hash, "until_ci": until_ci,
                "detail": detail, "strategy_files": list(strategy_files), "specs": sp.specs}
    if rules_file_paths():  # the user's rules files loaded (absent otherwise, as before)
        settings["rules_files"] = rules_file_paths()
    if sequential:  # (absent otherwise: sweeps saved before --sequential resume as before)
        settings.update({"sequential": True, "width": width})
    t0 = time.perf_counter()
    sweeper = None
    if out is not None:
        sweeper = SweepWriter(Path(out), settings, sp.run_dirs, resume=resume, force=force,
                                      argv=argv)
    total = sum(p.max_games for p in plans)
    done: dict[int, TournamentResult] = {}
    stops: dict = {}
    alpha = ALPHA / max(2 * (len(plans) - 1), 1) if sequential else None
    order = sorted(range(len(plans)), key=lambda i: i != sp.baseline_index) if sequential \
        else range(len(plans))
    offset = 0
    base_deals = None
    for i in order:
        def prog(d, _mx, _o=offset):
            if progress:
                progress(_o + d, total)

        plan, sub = plans[i], (sweeper.path / sp.run_dirs[i] if sweeper else None)
        stop_when = None
        if sequential and i != sp.baseline_index:
            from sim.study.sweep.sequential import ValueStop

            stops[i] = ValueStop(base_deals, alpha=alpha, width=width, t_opt=p0.deals / 4)
            stop_when = stops[i].stop
        done[i] = run_tournament(plan, out=sub, resume=resume and sub is not None, force=force,
                                 progress=prog, plots=False, argv=argv, note=note,
                                 keep_deals=(0,), backend=backend, stop_when=stop_when)
        if i == sp.baseline_index:
            base_deals = focus_deal_means(done[i])
        offset += plan.max_games
    results = [done[i] for i in range(len(plans))]
    base_res = results[sp.baseline_index]
    rows = []
    for i, (cell, s, r) in enumerate(zip(sp.cells, sp.specs, results)):
        row = r.summary.strategies.iloc[0].to_dict()
        row.update({"value": cell[0], "strategy": s})
        if len(cell) > 1:
            row["value2"] = cell[1]
        row.update(paired_diff_columns(focus_deal_means(r), base_deals))
        if sequential:
            from sim.study.sweep.sequential import sequential_columns

            row.update(sequential_columns(stops.get(i), focus_deal_means(r), r.deals, p0.deals,
                                          p0.games_per_deal))
        row["baseline"] = i == sp.baseline_index
        rows.append(row)
    table = pd.DataFrame(rows)
    first = ["value", "value2"] if len(sp.params) > 1 else ["value"]
    table = table[[*first, *[c for c in table.columns if c not in first]]]
    table["strategy"] = table["strategy"].astype(pd.CategoricalDtype(sp.specs, ordered=True))
    brow = base_res.summary.strategies.iloc[0]
    base_info = {"spec": sp.baseline_spec, "in_grid": sp.baseline_index < len(sp.cells),
                 "dir": sp.run_dirs[sp.baseline_index], "games": int(brow["games"]),
                 "win_share": float(brow["win_share"]),
                 "win_share_ci": [float(brow["win_share_ci_lo"]), float(brow["win_share_ci_hi"])],
                 "mean_vp": float(brow["mean_vp"]),
                 "mean_vp_ci": [float(brow["mean_vp_ci_lo"]), float(brow["mean_vp_ci_hi"])]}
    res = SweepResult(sp.base, sp.keys[0], [c[0] for c in sp.cells], results, table, settings,
                      Path(out) if out else None, time.perf_counter() - t0, baseline=base_info,
                      dirs=sp.run_dirs, sequential_alpha=alpha)
    if sweeper is not None:
        res.files = sweeper.finish(res, plots=plots)
    return res


def best_cell(table: pd.DataFrame) -> int:
    """Row index of the cell with the highest win share (ties: the first)."""
    return int(np.nanargmax(table["win_share"].to_numpy(float)))
