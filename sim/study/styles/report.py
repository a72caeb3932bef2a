"""The report of ``quacks styles``: the rows the console and ``report.md`` share, the map
(``map.png``: one heat map per variant, each cell's re-tested win share, the viable cells
marked) and the report folder (``sim.study.design.folder``): ``summary``, ``styles`` and
``history`` as parquet and CSV, ``map.png``, ``report.md``, ``run.json`` and ``report.html``."""

from __future__ import annotations

from collections.abc import Sequence

from sim.stats.clusters import METHOD_DIFF, METHOD_SHARE
from sim.study.balance.report import ci_cell
from sim.study.common.variants_report import VariantsReport
from sim.study.design.text import md
from sim.study.styles.descriptors import BY_NAME
from sim.study.styles.viability import pick_deals

TABLES = ("summary", "styles", "history")
MAP_PNG = "map.png"
INTERVAL_METHODS = {
    "win share of a style (re-tested)": METHOD_SHARE + "; every seating of a deal; on the "
    "half of the re-test's deals that did not pick the best",
    "difference to the best style": METHOD_DIFF + " on the fresh deals of the re-test that "
    "did not pick the best",
}


def headline(res) -> str:
    """What was played, in one sentence."""
    from sim.api.events import plural

    s, p = res.settings, res.plan
    pick = pick_deals(s.deals(s.retest_games))
    return (f"{plural(len(p.rulesets), 'variant')}, {s.players} players, field "
            f"{','.join(p.field)}, candidate {s.searched} over "
            f"{', '.join(q.key for q in p.params)}; map {s.cells} x {s.cells} of "
            f"{' x '.join(s.descriptors)}; {s.batches} x {s.batch} candidates of "
            f"{s.deals(s.games) * s.players:,} games each (seed {s.seed}), every elite re-tested "
            f"on {s.deals(s.retest_games) * s.players:,} fresh games (seed {s.seed} + offset): "
            f"the best picked on the first {pick * s.players:,}, every share measured on the "
            f"other {(s.deals(s.retest_games) - pick) * s.players:,}")


def count_text(r: dict) -> str:
    """``n [surely, plausibly]`` viable styles."""
    return f"{r['viable']} [{r['viable_surely']}, {r['viable_plausibly']}]"


def summary_rows(res) -> tuple[list[str], list[list[str]]]:
    """Each variant: the viable styles [surely, plausibly], the cells filled, the best style's
    win share [95% CI], and the games."""
    rows = []
    for r in res.tables["summary"].to_dict(orient="records"):
        rows.append([r["variant"], count_text(r), f"{r['cells_filled']}/{r['cells']}",
                     ci_cell(r["best_share"], r["best_lo"], r["best_hi"], 4),
                     f"{r['search_games']:,} + {r['retest_games']:,}"])
    margin = res.settings.margin
    return ["variant", f"styles within {margin:g} of the best [surely, plausibly]",
            "cells filled", "best win share [95% CI]", "games (search + re-test)"], rows


def style_rows(res, variant: str) -> tuple[list[str], list[list[str]]]:
    """A variant's styles, best first: the descriptors (re-tested), the win share [95% CI], the
    difference to the best [95% CI], viable, and the spec."""
    s = res.settings
    t = res.tables["styles"]
    t = t[t["variant"] == variant].sort_values("win_share", ascending=False, kind="stable")
    rows = []
    for r in t.to_dict(orient="records"):
        rows.append([*[f"{r[f'retest_{d}']:.3g}" for d in s.descriptors],
                     ci_cell(r["win_share"], r["win_lo"], r["win_hi"], 4),
                     ci_cell(r["diff"], r["diff_lo"], r["diff_hi"], 4, sign=True),
                     "yes" if r["viable"] else "no", r["spec"]])
    return [*s.descriptors, "win share [95% CI]", "vs best [95% CI]", "viable", "spec"], rows


def report_markdown(res, pngs: Sequence[str], prov) -> str:
    """``report.md``: what was played, the counts, the map, each variant's styles, the
    methods and the command."""
    from sim.study.reports.markdown import interval_methods_md

    s = res.settings
    descs = [BY_NAME[d] for d in s.descriptors]
    out = [f"# Styles: the ways {s.searched} can win against {','.join(res.plan.field)}", "",
           f"{headline(res)}. Descriptors: "
           + "; ".join(f"{d.name}, {d.label} ({d.lo:g} to {d.hi:g})" for d in descs)
           + f". A style is a cell of the map, where its re-tested descriptors place it (two "
           f"elites re-tested into one cell are one style); it is viable when its re-tested win "
           f"share is "
           f"within {s.margin:g} of the best style's (surely: the 95% interval of the paired "
           f"difference lies above -{s.margin:g}; plausibly: it reaches above it).", "",
           md(*summary_rows(res)), ""]
    if MAP_PNG in pngs:
        out += [f"![the map of styles]({MAP_PNG})", ""]
    for v in res.tables["summary"]["variant"]:
        out += [f"## {v}", "", md(*style_rows(res, v)), ""]
    out += [interval_methods_md(INTERVAL_METHODS), prov.markdown()]
    return "\n".join(out)


def map_figure(res):
    """One heat map per variant: each filled cell's re-tested win share (the colour and the
    number), viable cells outlined, on the grid of the two descriptors."""
    import numpy as np
    from matplotlib.patches import Rectangle

    from sim.study.common.plot_style import MIN_TEXT_PT, new_figure

    s = res.settings
    descs = [BY_NAME[d] for d in s.descriptors]
    variants = list(res.tables["summary"]["variant"])
    t = res.tables["styles"]
    fig = new_figure(4.2 * len(variants) + 1.0, 4.2)
    axes = np.atleast_1d(fig.subplots(1, len(variants), squeeze=False)[0])
    vmax = float(t["win_share"].max()) if len(t) else 1.0
    im = None
    for ax, v in zip(axes, variants):
        part = t[t["variant"] == v]
        grid = np.full((s.cells, s.cells), np.nan)
        for r in part.to_dict(orient="records"):
            grid[r["cell_y"], r["cell_x"]] = r["win_share"]
        ext = [descs[0].lo, descs[0].hi, descs[1].lo, descs[1].hi]
        im = ax.imshow(grid, origin="lower", extent=ext, aspect="auto", cmap="viridis",
                       vmin=0, vmax=vmax)
        wx = (descs[0].hi - descs[0].lo) / s.cells
        wy = (descs[1].hi - descs[1].lo) / s.cells
        for r in part.to_dict(orient="records"):
            x, y = descs[0].lo + r["cell_x"] * wx, descs[1].lo + r["cell_y"] * wy
            ax.text(x + wx / 2, y + wy / 2, f"{r['win_share']:.2f}", ha="center", va="center",
                    fontsize=MIN_TEXT_PT, color="white" if r["win_share"] < vmax / 2 else "black")
            if r["viable"]:
                ax.add_patch(Rectangle((x, y), wx, wy, fill=False, ec="#c0392b", lw=2))
        ax.set_xlabel(descs[0].label, fontsize=MIN_TEXT_PT)
        ax.set_ylabel(descs[1].label, fontsize=MIN_TEXT_PT)
        row = res.tables["summary"]
        r = row[row["variant"] == v].iloc[0].to_dict()
        ax.set_title(f"{v}: {count_text(r)} viable (outlined)", fontsize=MIN_TEXT_PT + 1)
        ax.tick_params(labelsize=MIN_TEXT_PT)
    if im is not None:
        fig.colorbar(im, ax=list(axes), label="win share, re-tested")
    return fig


REPORT = VariantsReport("styles", TABLES, INTERVAL_METHODS, report_markdown,
                        ((MAP_PNG, map_figure),))
plot_jobs = REPORT.plot_jobs
write_report = REPORT.write_report
