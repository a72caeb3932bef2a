"""The report of a design run: the formatted rows the console and ``report.md`` share, the
markdown, and the report folder (``sim.study.design.folder``): ``history``, ``targets``,
``differences``, ``figures`` and ``pareto`` as parquet, ``progress.png`` and ``targets.png``,
``report.md``, ``run.json`` and ``report.html``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd

from sim.stats.clusters import METHOD_DIFF
from sim.study.balance.report import INTERVAL_METHODS as FIGURE_METHODS
from sim.study.balance.report import ci_cell, number
from sim.study.design.design import ARM_TEXT, RETEST_SEED_OFFSET, strategies_note
from sim.study.design.loss import LOSS_TEXT
from sim.study.design.measure import digits_of, field_text
from sim.study.design.text import md, p_text, strength_text

TABLES = ("targets", "differences", "pareto", "history", "figures")
PROGRESS_PNG, TARGETS_PNG = "progress.png", "targets.png"
INTERVAL_METHODS = {**FIGURE_METHODS,
                    "differences to the ruleset as given": METHOD_DIFF + " (the two arms' "
                    "residuals per deal, the same re-test deals)"}
TOP = 10  # candidates listed in report.md


def _digits(res, metric: str) -> int:
    return digits_of(metric, res.plan.players, res.plan.rounds)


def headline(res) -> str:
    """What was played, in one sentence."""
    from sim.api.events import plural

    p, s = res.plan, res.settings
    n = int((res.search.history["state"] != "repeat").sum())
    return (f"{plural(n, 'candidate')}, {res.games['search']:,} games in the search (of a "
            f"budget of {s.budget:,}; rungs of "
            f"{', '.join(f'{r:,}' for r in res.search.rungs)} deals x {p.players} seatings, the "
            f"same deals for every candidate), {p.players} players, rules {p.base.display}, "
            f"field {field_text(p.seated)}, seed {s.seed}; re-test on {p.retest_deals:,} fresh "
            f"deals x {p.players} seatings")


def best_line(res) -> str:
    """The best rules and where the search started."""
    b = res.best
    now = ", ".join(f"{k}={v}" for k, v in b["labels"].items())
    start = ", ".join(f"{k}={v}" for k, v in b["start"].items())
    return f"best: {now} (loss {b['loss']:.4g} on {b['deals']:,} deals; start: {start})"


def target_rows(res) -> tuple[list[str], list[list[str]]]:
    """Each target: its band, each re-tested arm's value [95% CI] and verdict, and each
    arm's paired difference to the start."""
    t, d = res.tables["targets"], res.tables["differences"]
    arms = list(dict.fromkeys(t["arm"]))
    header = ["metric", "band"]
    for a in arms:
        header += [f"{a} [95% CI]", f"{a}: verdict"]
    header += [f"{a} - start [95% CI]" for a in arms if a != "start"]
    rows = []
    for m in dict.fromkeys(t["metric"]):
        k = _digits(res, m)
        by = t[t["metric"] == m].set_index("arm")
        r0 = by.iloc[0]
        row = [m, f"[{number(r0['band_lo'], k)}, {number(r0['band_hi'], k)}]"]
        for a in arms:
            r = by.loc[a]
            row += [ci_cell(r["value"], r["ci_lo"], r["ci_hi"], k), str(r["verdict"])]
        for a in arms:
            if a == "start":
                continue
            g = d[(d["arm"] == a) & (d["metric"] == m)]
            row.append(ci_cell(g["diff"].iloc[0], g["ci_lo"].iloc[0], g["ci_hi"].iloc[0], k,
                               sign=True) if len(g) else "n/a")
        rows.append(row)
    return header, rows


def side_effect_rows(res, arm: str = "best",
                     most: int | None = None) -> tuple[list[str], list[list[str]]]:
    """The other figures the rule change moves (``side_effects``): figure, metric, paired
    difference to the start [95% CI], strength, the adjusted p-value; the strongest ``most``
    (None: all)."""
    from sim.study.design.retest import side_effects

    d = side_effects(res.tables["differences"], arm)
    rows = [[r["label"], r["metric"], ci_cell(r["diff"], r["ci_lo"], r["ci_hi"],
                                              _digits(res, r["metric"]), sign=True),
             strength_text(r["strength"]), p_text(r["p_adj"])]
            for r in d.head(most if most is not None else len(d)).to_dict(orient="records")]
    return ["figure", "metric", f"{arm} - start [95% CI]", "strength", "p_adj"], rows


def side_effect_text(res, arm: str) -> str:
    """How a side effect is decided, in one sentence (no trailing period)."""
    from sim.stats.multiplicity import ADJUST_TEXT

    d = res.tables["differences"]
    n = int(((d["arm"] == arm) & ~d["target"]).sum())
    how = ADJUST_TEXT[res.settings.adjust]
    return (f"a figure that is not a target is a side effect when the p-value of its paired "
            f"difference ({arm} - start, the re-test deals) is below 0.05 after adjustment over "
            f"the family of the arm's {n} figures that are not targets, by {how}")


def candidate_rows(res, df: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Candidates (history rows): their knob values, each target's estimate, the loss and the
    deals they played."""
    keys = [k.key for k in res.plan.knobs]
    header = [*keys, *[f"{m}" for m in res.plan.bands], "loss", "deals", "state"]
    rows = []
    for r in df.to_dict(orient="records"):
        rows.append([*[str(r[k]) if not isinstance(r[k], float) else f"{r[k]:g}" for k in keys],
                     *[number(r.get(f"m:{m}"), _digits(res, m)) for m in res.plan.bands],
                     number(r["loss"], 3), f"{int(r['deals']):,}", str(r["state"])])
    return header, rows


def top_candidates(res) -> pd.DataFrame:
    """The best ``TOP`` candidates of the longest rung, by objective."""
    h = res.search.history
    h = h[h["state"].isin(("complete", "budget", "pruned"))]
    return h[h["deals"] == h["deals"].max()].sort_values("objective", kind="stable").head(TOP)


def verdict_line(res) -> str:
    """Whether the best rules meet every band on the re-test."""
    v = res.verdicts("best")
    fails = [m for m, x in v.items() if x == "fail"]
    open_ = [m for m, x in v.items() if x == "undecided"]
    if not fails and not open_:
        return "every target passes on the re-test"
    parts = []
    if fails:
        parts.append(f"fails: {', '.join(fails)}")
    if open_:
        parts.append(f"undecided (more re-test games may decide): {', '.join(open_)}")
    return "; ".join(parts)


def report_markdown(res, pngs: Sequence[str], prov) -> str:
    """``report.md``: what was played, the best rules, the re-test's targets table, the
    strategies, the Pareto front, the best candidates, the methods and the command."""
    from sim.study.reports.markdown import interval_methods_md

    p, s = res.plan, res.settings
    out = [f"# Design: {p.base.display}, {p.players} players", "", f"{headline(res)}.", "",
           f"{res.stop_text()[:1].upper()}{res.stop_text()[1:]}.", "",
           f"Search: Optuna TPE (seeded) with successive halving; {LOSS_TEXT}.", "",
           f"**{best_line(res)}**", "", "## Re-test on fresh deals", "",
           f"Seed stream {s.seed + RETEST_SEED_OFFSET}, {p.retest_deals:,} deals, the same for "
           "every arm (" + "; ".join(f"{a}: {ARM_TEXT[a]}"
                                     for a in dict.fromkeys(res.tables["targets"]["arm"]))
           + "). pass: the 95% interval inside the band; fail: wholly outside; undecided: it "
           "straddles an edge.", "", md(*target_rows(res)), "", f"Verdict: {verdict_line(res)}.",
           ""]
    if TARGETS_PNG in pngs:
        out += [f"![the targets on the re-test]({TARGETS_PNG})", ""]
    side = side_effect_rows(res, final_arm(res))
    out += ["## Side effects", "", f"{side_effect_text(res, final_arm(res)).capitalize()}; "
            "strongest first:", "",
            md(*side) if side[1] else "none.", "", "## Strategies", "",
            strategies_note(res) + ".", ""]
    pareto = res.tables["pareto"]
    if len(p.bands) > 1 and len(pareto):
        out += ["## Pareto front", "", "The candidates no other beats on every band (from every "
                "candidate's estimates at the deals it played):", "",
                md(*candidate_rows(res, pareto)), ""]
    out += ["## Best candidates of the longest rung", "", md(*candidate_rows(res,
                                                                              top_candidates(res))),
            ""]
    if PROGRESS_PNG in pngs:
        out += [f"![the search]({PROGRESS_PNG})", ""]
    out += [interval_methods_md(INTERVAL_METHODS), prov.markdown()]
    return "\n".join(out)


def final_arm(res) -> str:
    """The arm the design ends with: the re-tuned one when there is one, else the best."""
    return "retuned" if res.retune is not None else "best"


def plot_jobs(res) -> list[tuple[str, Callable[[], object]]]:
    """(PNG file name, function drawing the figure): the search's progress and the re-test's
    targets."""
    from sim.study.design.plots import progress_figure, targets_figure

    best = {k.key: k.x(k.values[k.labels.index(res.best["labels"][k.key])])
            if k.kind == "choice" else float(res.best["values"][k.key]) for k in res.plan.knobs}
    title = f"quacks design: {', '.join(res.plan.bands)}"
    return [(PROGRESS_PNG, lambda: progress_figure(res.search.history,
                                                   [k.to_json() for k in res.plan.knobs], best,
                                                   title)),
            (TARGETS_PNG, lambda: targets_figure(res.tables["targets"], ARM_TEXT))]


def figures(res) -> list[tuple[str, object]]:
    """(file name, figure) of every plot (:func:`plot_jobs`, drawn)."""
    from sim.study.design.folder import drawn

    return drawn(plot_jobs(res))


def write_report(res, out: str | Path, *, force: bool = False,
                 argv: Sequence[str] | None = None) -> list[str]:
    """Write the report folder (see the module); returns its file names."""
    from sim.study.design.folder import write_drawn_report

    return write_drawn_report(res, out, kind="design", jobs=plot_jobs(res), table_names=TABLES,
                              report_markdown=report_markdown, force=force, argv=argv,
                              interval_methods=INTERVAL_METHODS)
