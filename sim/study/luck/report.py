"""The report of a ``quacks luck`` run: the rows the console and ``report.md`` share, the
figure, and the report folder: ``summary``, ``shares``, ``matches`` (and ``differences`` with
two variants or more) as parquet and CSV, ``shares.png``, ``report.md``, ``run.json`` and
``report.html``, written whole or not at all."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from sim.study.luck.design import OUTCOME_TEXT, OUTCOMES, SEATING

TABLES = ("summary", "shares", "matches", "differences")
SHARES_PNG = "shares.png"
INTERVAL_METHODS = {
    "first-order and total indices": "Saltelli (2010) first-order and Jansen (1999) total "
    "estimators from one pick-freeze design; 95% intervals by the delta method over the rows "
    "of the design (each row: games A and B and A with one input from B), clipped to [0, 1]",
    "skill, luck and interactions": "the seating's first-order index, 1 minus it, and 1 minus "
    "the sum of the first-order indices (delta method over rows)",
    "differences between variants": "the same rows under both variants: paired influence "
    "values of the two total indices (delta method)",
    "best-of-N": "the stronger one's chance of finishing a game ahead of the weaker (a level "
    "finish counts half; games A and B of every row, normal interval); N is the smallest odd "
    "length it wins with 95% probability, its range from the chance's interval",
}


def pct(x: float) -> str:
    return "n/a" if x != x else f"{100 * x:.1f}"


def share_cell(v: float, lo: float, hi: float) -> str:
    """A share in percent with its interval: ``12.3 [10.1, 14.5]``."""
    return f"{pct(v)} [{pct(lo)}, {pct(hi)}]"


def games_text(n) -> str:
    return "more" if n is None or n != n else f"{int(n):,}"


def summary_rows(res) -> tuple[list[str], list[list[str]]]:
    """Each variant and outcome: skill, luck, interactions (percent, 95% CI), the largest luck
    source, the mean and the rows."""
    rows = []
    for r in res.tables["summary"].to_dict(orient="records"):
        rows.append([r["variant"], OUTCOME_TEXT[r["outcome"]],
                     share_cell(r["skill"], r["skill_lo"], r["skill_hi"]),
                     share_cell(r["luck"], r["luck_lo"], r["luck_hi"]),
                     share_cell(r["interactions"], r["interactions_lo"], r["interactions_hi"]),
                     r["top_source"], f"{r['mean']:.3f}", f"{r['rows']:,}"])
    return ["variant", "outcome", "skill % [95% CI]", "luck %", "interactions %",
            "largest luck source", "mean", "rows"], rows


def share_rows(res, outcome: str) -> tuple[list[str], list[list[str]]]:
    """Each input (rows) and variant (a first-order and a total column each) for one outcome."""
    sh = res.tables["shares"]
    sh = sh[sh["outcome"] == outcome]
    labels = list(dict.fromkeys(sh["variant"]))
    by = {(r["variant"], r["input"]): r for r in sh.to_dict(orient="records")}
    rows = []
    for src in res.plan.inputs:
        cells = [src.name]
        for lab in labels:
            r = by[(lab, src.name)]
            mark = "" if r["consistent"] else " !"
            cells += [share_cell(r["first"], r["first_lo"], r["first_hi"]) + mark,
                      share_cell(r["total"], r["total_lo"], r["total_hi"])]
        rows.append(cells)
    header = ["input"]
    for lab in labels:
        pre = f"{lab}: " if len(labels) > 1 else ""
        header += [f"{pre}first-order %", f"{pre}total %"]
    return header, rows


def match_rows(res) -> tuple[list[str], list[list[str]]]:
    """Each variant and pair: who is stronger, the chance per game, the best-of-N."""
    rows = []
    for r in res.tables["matches"].to_dict(orient="records"):
        rows.append([r["variant"], r["stronger"], r["weaker"],
                     f"{r['p']:.3f} [{r['p_lo']:.3f}, {r['p_hi']:.3f}]",
                     f"{games_text(r['best_of'])} [{games_text(r['best_of_lo'])}, "
                     f"{games_text(r['best_of_hi'])}]", f"{r['games']:,}"])
    return ["variant", "stronger", "weaker", "ahead in a game [95% CI]",
            "best-of-N for 95% [range]", "games"], rows


def difference_rows(res, outcome: str) -> tuple[list[str], list[list[str]]]:
    """Each variant after the first and input: the total index's change (points, 95% CI)."""
    df = res.tables["differences"]
    df = df[df["outcome"] == outcome]
    rows = [[r["variant"], r["input"],
             f"{100 * r['total_diff']:+.1f} [{100 * r['ci_lo']:+.1f}, {100 * r['ci_hi']:+.1f}]"]
            for r in df.to_dict(orient="records")]
    ref = res.variants[0].label
    return ["variant", "input", f"total index minus {ref}'s, points [95% CI]"], rows


def headline(res) -> str:
    """What was played, in one sentence."""
    p, s = res.plan, res.settings
    labels = ", ".join(v.label for v in s.variants)
    return (f"{p.games:,} games ({len(p.rulesets)} variant{'s' if len(p.rulesets) > 1 else ''}"
            f": {labels}; {p.rows:,} rows x {len(p.inputs) + 2} games), {p.players} players, "
            f"lineup {','.join(p.seated)}, seed {s.seed}")


def answer_lines(res) -> list[str]:
    """The answer at a glance: per variant, the share of seat 0's win that is luck and its
    largest source; with two variants or more, how many points of luck each adds and from
    where."""
    summ = res.tables["summary"]
    win = summ[summ["outcome"] == "win"].to_dict(orient="records")
    out = [f"{r['variant']}: {pct(r['luck'])}% of the variance of {OUTCOME_TEXT['win']} is luck "
           f"[{pct(r['luck_lo'])}, {pct(r['luck_hi'])}], {pct(r['skill'])}% the seating; "
           f"largest luck source: {r['top_source']}" for r in win]
    if "differences" in res.tables:
        d = res.tables["differences"]
        d = d[(d["outcome"] == "win")]
        ref = win[0]
        for r in win[1:]:
            dv = d[(d["variant"] == r["variant"]) & (d["input"] != SEATING)]
            top = dv.loc[dv["total_diff"].abs().idxmax()]
            out.append(f"{r['variant']} adds {100 * (r['luck'] - ref['luck']):+.1f} points of "
                       f"luck to {ref['variant']}, mostly from {top['input']} (its total index "
                       f"{100 * top['total_diff']:+.1f} points [{100 * top['ci_lo']:+.1f}, "
                       f"{100 * top['ci_hi']:+.1f}])")
    return out


def shares_figure(res):
    """Bars of every input's first-order and total index (with 95% intervals) for each outcome,
    one panel per outcome, the variants side by side."""
    import numpy as np
    from matplotlib.figure import Figure

    from sim.study.common.plot_style import LINE_COLOURS

    sh = res.tables["shares"]
    labels = list(dict.fromkeys(sh["variant"]))
    names = [s.name for s in res.plan.inputs]
    fig = Figure(figsize=(11, 3.2 * len(OUTCOMES)))
    axes = fig.subplots(len(OUTCOMES), 1, squeeze=False)[:, 0]
    y = np.arange(len(names))
    h = 0.8 / (2 * len(labels))
    for ax, outcome in zip(axes, OUTCOMES):
        for i, lab in enumerate(labels):
            d = sh[(sh["outcome"] == outcome) & (sh["variant"] == lab)].set_index("input")
            d = d.loc[names]
            c = LINE_COLOURS[i % len(LINE_COLOURS)]
            for k, (col, alpha) in enumerate((("first", 1.0), ("total", 0.45))):
                off = (2 * i + k) * h - 0.4 + h / 2
                err = np.vstack([d[col] - d[f"{col}_lo"], d[f"{col}_hi"] - d[col]]).clip(0)
                ax.barh(y + off, 100 * d[col], height=h, color=c, alpha=alpha, xerr=100 * err,
                        label=f"{lab}: {col}" if len(labels) > 1 else col)
        ax.set_yticks(y, names)
        ax.invert_yaxis()
        ax.set_xlim(0, 100)
        ax.set_xlabel(f"share of the variance of {OUTCOME_TEXT[outcome]}, % (95% CI)")
        ax.legend(loc="lower right", fontsize=9)
    fig.suptitle(f"Where the outcome's variance comes from ({res.plan.games:,} games)")
    fig.tight_layout()
    return fig


def plot_jobs(res) -> list[tuple[str, Callable[[], object]]]:
    """(PNG file name, drawing function) of every figure."""
    return [(SHARES_PNG, lambda: shares_figure(res))]


def report_markdown(res, pngs: Sequence[str], prov) -> str:
    """``report.md``: the answer, the summary, every outcome's shares, the matches, the
    differences, how the intervals were made and the command."""
    from sim.study.design.text import md
    from sim.study.reports.markdown import interval_methods_md

    out = [f"# Luck: {', '.join(v.label for v in res.settings.variants)}", "",
           f"{headline(res)}.", "", *[f"- {line}" for line in answer_lines(res)], "",
           "Each input's **first-order** index is the share of the outcome's variance it "
           "explains alone; its **total** index adds every interaction it takes part in. The "
           "seating (which strategy sits where; seat 0 starts round 1) is the skill side. "
           "A first-order share marked ! is above its total one beyond noise.", "",
           "## Summary", "", md(*summary_rows(res)), ""]
    if SHARES_PNG in pngs:
        out += [f"![shares]({SHARES_PNG})", ""]
    for o in OUTCOMES:
        out += [f"## {OUTCOME_TEXT[o]}", "", md(*share_rows(res, o)), ""]
    out += ["## Best-of-N", "", md(*match_rows(res)), ""]
    if "differences" in res.tables:
        for o in OUTCOMES:
            out += [f"## Differences: {OUTCOME_TEXT[o]}", "", md(*difference_rows(res, o)), ""]
    out += [interval_methods_md(INTERVAL_METHODS), prov.markdown()]
    return "\n".join(out)


def write_report(res, out: str | Path, *, force: bool = False,
                 argv: Sequence[str] | None = None) -> list[str]:
    """Write the report folder (see the module); returns its file names."""
    from sim.study.common.plot_style import save_png
    from sim.study.design.folder import check_out
    from sim.study.reports.files import (
        REPORT_HTML,
        REPORT_MD,
        RUN_FILE,
        dumps,
        now_iso,
        package_versions,
        staging_folder,
    )
    from sim.study.reports.html import write_html
    from sim.study.reports.provenance import PROVENANCE_KEY, make_provenance

    p = Path(out)
    check_out(p, force)
    prov = make_provenance(res.settings.command(), argv=argv, seed=res.settings.seed,
                           rules=[(rs.display, rs.hash) for rs in res.plan.rulesets])
    figs = [(name, draw()) for name, draw in plot_jobs(res)]
    with staging_folder(p) as stage:
        files = []
        for name in TABLES:
            df = res.tables.get(name)
            if df is not None and len(df):
                df.to_parquet(stage / f"{name}.parquet", index=False)
                df.to_csv(stage / f"{name}.csv", index=False)
                files += [f"{name}.parquet", f"{name}.csv"]
        for name, fig in figs:
            files.append(save_png(fig, stage, name))
        (stage / REPORT_MD).write_text(report_markdown(res, [n for n, _ in figs], prov),
                                       encoding="utf-8")
        files.append(REPORT_MD)
        manifest = {**res.to_json(), "argv": list(argv or []),
                    "command": res.settings.command(), PROVENANCE_KEY: prov.to_json(),
                    "interval_methods": INTERVAL_METHODS, "kind": "luck",
                    "versions": package_versions(), "created": now_iso(),
                    "files": sorted([*files, RUN_FILE, REPORT_HTML])}
        (stage / RUN_FILE).write_text(dumps(manifest), encoding="utf-8")
        for name in [*files, RUN_FILE]:
            os.replace(stage / name, p / name)
        stage.rmdir()
    write_html(p)
    return manifest["files"]
