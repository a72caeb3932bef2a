"""The figures of ``quacks thresholds`` (headless matplotlib): the stop curve of every kind of
threshold against the optimal stopper, and the optimal policy as a map. Each takes a
``compute.ThresholdsResult`` (not imported: compute imports this module)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from sim.study.common.plot_style import integer_ticks

DEFAULT_FORMAT = "png"  # a figure file without an extension


class FigureFormatError(ValueError):
    """A figure file whose extension names a format matplotlib cannot write here."""


def figure_format(option: str, path: str | Path) -> str:
    """The format a figure file is written in: the one its extension names (``DEFAULT_FORMAT``
    without one), checked by drawing a small figure with text in it (some formats need more
    than matplotlib, e.g. pgf needs LaTeX); FigureFormatError otherwise, naming the formats
    matplotlib knows."""
    import io

    from matplotlib.backend_bases import FigureCanvasBase
    from matplotlib.figure import Figure

    ext = Path(path).suffix.lower().lstrip(".") or DEFAULT_FORMAT
    known = FigureCanvasBase.get_supported_filetypes()
    if ext not in known:
        raise FigureFormatError(f"{option} {path}: matplotlib cannot write .{ext} files; give a "
                                f"name ending in one of .{', .'.join(sorted(known))}")
    probe = Figure(figsize=(1, 1))
    probe.text(0.5, 0.5, "x")
    try:
        probe.savefig(io.BytesIO(), format=ext)
    except Exception as e:  # a format whose writer needs a program or library not here
        raise FigureFormatError(f"{option} {path}: cannot write {ext} here "
                                f"({' '.join(str(e).split())[:120]}); give another extension, "
                                f"e.g. .{DEFAULT_FORMAT}") from None
    return ext


RULE_LETTER = {"white": "T", "risk": "P"}  # the stop rules' notation: white:T, risk:P


def _title(summary: dict) -> str:
    how = ("exact" if summary["exact"] else f"{summary['n']:,} potions a rule, seed "
           f"{summary['seed']}")
    v = summary["value"]
    return (f"bag {summary['bag']} | start {summary['start']} | flask {summary['flask'] or 'off'} "
            f"| round {summary['round']} | card {summary['card'] or 'none'}\nvalue = VP + "
            f"{v['coin']:g} x coins + {v['ruby']:g} x ruby | {how}")


def stop_curve_figure(res):
    """Value and explosion chance against each kind of threshold, the optimal stopper's as a
    horizontal line (its value the ceiling), 95% bands when sampled, the best threshold starred."""
    from matplotlib.figure import Figure

    t, opt = res.table, res.table.iloc[-1]
    kinds = [k for k in ("white", "risk") if (t["kind"] == k).any()]
    fig = Figure(figsize=(5.2 * max(len(kinds), 1), 6.4), layout="constrained")
    axes = fig.subplots(2, max(len(kinds), 1), squeeze=False, sharey="row")
    label = "optimal stopper" + ("" if opt["exact"] else f" (sampled, n={int(opt['n']):,})")
    for j, kind in enumerate(kinds):
        part = t[t["kind"] == kind]
        x = part["threshold"].to_numpy(float)
        for i, (m, colour) in enumerate((("expected_value", "#00897b"), ("p_explode", "#c51b8a"))):
            ax = axes[i, j]
            ax.plot(x, part[m], "o-", color=colour, ms=4, label=f"{kind}:{RULE_LETTER[kind]} rule")
            if not part["exact"].all():
                ax.fill_between(x, part[m + "_lo"], part[m + "_hi"], color=colour, alpha=0.25,
                                lw=0, label="95% interval")
            ax.axhline(opt[m], color="black", ls="--" if i == 0 else ":", lw=1,
                       label=label + (": the ceiling" if i == 0 else ""))
            if not opt["exact"]:
                ax.axhspan(opt[m + "_lo"], opt[m + "_hi"], color="grey", alpha=0.2, lw=0)
            if i == 0:
                b = part.loc[part["expected_value"].idxmax()]
                ax.plot([b["threshold"]], [b["expected_value"]], "*", color="C1", ms=13,
                        label=f"best {b['rule']}")
            ax.set_xlabel("white-total threshold T (draw while white < T)" if kind == "white"
                          else "risk threshold P (draw while next-draw explosion chance <= P)")
            if kind == "white":  # a white total is a whole number
                integer_ticks(ax.xaxis)
            ax.set_ylabel("expected value (VP)" if i == 0 else "P(explode)")
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
    fig.suptitle(_title(res.summary), fontsize=9)
    return fig


def policy_figure(res):
    """The optimal policy as a heat map: chips drawn across, white total up; each decision cell
    coloured by the share of the potions reaching it that draw (a colour-blind-safe sequential
    map, ``SEQUENTIAL_CMAP``), labelled with how often it is reached."""
    import matplotlib
    from matplotlib.figure import Figure

    from sim.study.common.plot_style import MIN_TEXT_PT, SEQUENTIAL_CMAP

    p = res.policy
    kmax, wmax = int(p["chips_drawn"].max()), int(p["white_total"].max())
    grid = np.full((wmax + 1, kmax), np.nan)
    for r in p.itertuples():
        grid[r.white_total, r.chips_drawn - 1] = r.share_draw
    fig = Figure(figsize=(1.4 + 0.62 * kmax, 1.8 + 0.46 * (wmax + 1)), layout="constrained")
    ax = fig.add_subplot()
    cmap = matplotlib.colormaps[SEQUENTIAL_CMAP]
    im = ax.imshow(grid, origin="lower", cmap=cmap, vmin=0, vmax=1, aspect="auto",
                   extent=(0.5, kmax + 0.5, -0.5, wmax + 0.5))
    for r in p.itertuples():
        red, green, blue, _ = cmap(float(r.share_draw))
        dark = 0.299 * red + 0.587 * green + 0.114 * blue < 0.5
        ax.text(r.chips_drawn, r.white_total,
                f"{r.p_reach:.2f}".lstrip("0") if r.p_reach < 1 else "1",
                ha="center", va="center", fontsize=MIN_TEXT_PT, color="white" if dark else "black")
    ax.set_xlabel("chips drawn")
    ax.set_ylabel("white total in the pot")
    ax.set_xticks(range(1, kmax + 1))
    ax.set_yticks(range(0, wmax + 1))
    ax.set_title("optimal stopper: share drawing (colour), chance the decision is reached (text)\n"
                 + _title(res.summary), fontsize=MIN_TEXT_PT)
    fig.colorbar(im, ax=ax, label="share of reaching potions that draw")
    return fig


STOP_CURVE_PNG = "stop_curve.png"
POLICY_PNG = "policy.png"


def figure_jobs(res) -> list[tuple[str, Callable[[], object]]]:
    """The figures of a thresholds report, as (PNG file name, function drawing the Figure): the
    stop curve, and the optimal policy's map when there is one (an exact optimal stopper)."""
    jobs = [(STOP_CURVE_PNG, lambda: stop_curve_figure(res))]
    if len(res.policy):
        jobs.append((POLICY_PNG, lambda: policy_figure(res)))
    return jobs
