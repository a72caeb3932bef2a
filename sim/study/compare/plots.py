"""The plots of a ``quacks compare`` report (headless matplotlib, PNG): every metric per ruleset,
the paired differences to the reference, and each strategy's win share by ruleset; every point
with its 95% interval."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from sim.study.common.plot_style import (
    BOTTOM_LEGEND,
    error_bars,
    new_figure,
    palette,
    save_png,
    seat_label,
)

PLOT_FILES = ("metrics.png", "differences.png", "win_share.png")
CAPTIONS = {
    "metrics.png": "Every metric per ruleset (95% CI, deals as the unit); the last panel is the "
                   "win share by seat, the dashed line the equal share 1/n.",
    "differences.png": "Paired differences to the reference ruleset (95% CI over deals); a filled "
                       "point's interval excludes 0.",
    "win_share.png": "Each strategy's win share under each ruleset (95% CI); dashed: 1/n.",
}


def _grid(panels: int) -> tuple[Figure, list]:
    cols = min(4, panels)
    rows = math.ceil(panels / cols)
    fig = new_figure(3.2 * cols + 0.5, 2.6 * rows + 0.8)
    axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False)).ravel()
    for ax in axes[panels:]:
        ax.set_visible(False)
    return fig, list(axes[:panels])


def _seat_panel(ax, seats: pd.DataFrame, labels: list[str], colours: list,
                players: int | None) -> None:
    """Seat win shares (``players`` given: the dashed line is 1/n) or their differences (dashed
    line 0; filled where the interval excludes 0), grouped by seat, one colour per ruleset."""
    width = 0.8 / max(1, len(labels))
    for j, lb in enumerate(labels):
        sub = seats[seats["ruleset"] == lb]
        seat = sub["metric"].str[5:].astype(int).to_numpy()
        m = sub["value"].to_numpy(float)
        x = seat + (j - (len(labels) - 1) / 2) * width
        err = error_bars(m, sub["ci_lo"], sub["ci_hi"])
        filled = (sub["significant"].to_numpy(bool) if "significant" in sub
                  else np.ones(len(m), bool))
        for k in range(len(m)):
            ax.errorbar(x[k], m[k], yerr=[[err[0][k]], [err[1][k]]], fmt="o", color=colours[j],
                        mfc=colours[j] if filled[k] else "white", capsize=3,
                        label=lb if k == 0 else None)
    ax.axhline(1 / players if players else 0, color="grey", ls="--", lw=1)
    n = int(seats["metric"].nunique())
    ax.set_xticks(range(n), [seat_label(k) for k in range(n)], fontsize=8)
    ax.set_title("win share by seat" if players else "win share by seat: difference", fontsize=9)
    ax.legend(fontsize=7, loc="best")
    ax.grid(axis="y", alpha=0.3)


def plot_metrics(res) -> Figure:
    """One panel per metric: each ruleset's value with its 95% interval (x: rulesets)."""
    t = res.tables["rulesets"]
    labels = res.labels
    scalar = [k for k in dict.fromkeys(t["metric"]) if not k.startswith("seat_")]
    fig, axes = _grid(len(scalar) + 1)
    col = palette(len(labels))
    for ax, key in zip(axes, scalar):
        sub = t[t["metric"] == key]
        for r in sub.to_dict(orient="records"):
            i = labels.index(r["ruleset"])
            ax.errorbar(i, r["value"], yerr=error_bars([r["value"]], [r["ci_lo"]], [r["ci_hi"]]),
                        fmt="o", color=col[i], capsize=4)
        if key == "first_seat_excess":
            ax.axhline(0, color="grey", ls="--", lw=1)
        ax.set_xticks(range(len(labels)), labels, fontsize=8, rotation=20 if len(labels) > 3 else 0)
        ax.set_title(str(sub["label"].iloc[0]), fontsize=9)
        ax.margins(x=0.3)
        ax.grid(axis="y", alpha=0.3)
    _seat_panel(axes[-1], t[t["metric"].str.startswith("seat_")], labels, col, res.players)
    fig.suptitle(f"rulesets compared: {res.games:,} games each ({res.deals:,} deals), "
                 f"{res.players} players (95% CI)")
    return fig


def plot_differences(res) -> Figure:
    """One panel per metric: each ruleset's paired difference to the reference (95% CI over
    deals), filled where the interval excludes 0."""
    d = res.tables["differences"]
    d = d[d["strategy"] == "all"]
    others = res.labels[1:]
    scalar = [k for k in dict.fromkeys(d["metric"]) if not k.startswith("seat_")]
    fig, axes = _grid(len(scalar) + 1)
    col = palette(len(res.labels))[1:]
    for ax, key in zip(axes, scalar):
        sub = d[d["metric"] == key]
        for r in sub.to_dict(orient="records"):
            i = others.index(r["ruleset"])
            ax.errorbar(i, r["diff"], yerr=error_bars([r["diff"]], [r["ci_lo"]], [r["ci_hi"]]),
                        fmt="o",
                        color=col[i], mfc=col[i] if r["significant"] else "white", capsize=4)
        ax.axhline(0, color="grey", ls="--", lw=1)
        ax.set_xticks(range(len(others)), others, fontsize=8, rotation=20 if len(others) > 3 else 0)
        ax.set_title(str(sub["label"].iloc[0]), fontsize=9)
        ax.margins(x=0.5)
        ax.grid(axis="y", alpha=0.3)
    seats = d[d["metric"].str.startswith("seat_")]
    _seat_panel(axes[-1], seats.rename(columns={"diff": "value"}), others, col, None)
    fig.suptitle(f"paired differences to {res.labels[0]} over {res.deals:,} deals (95% CI)")
    return fig


def plot_win_share(res) -> Figure:
    """Each strategy's win share under each ruleset (95% CI)."""
    s = res.tables["strategies"]
    names, labels = list(res.plans[0].names), res.labels
    fig = new_figure(9, 1.8 + 0.45 * len(names) * max(1, len(labels) / 2))
    ax = fig.subplots()
    col = palette(len(labels))
    step = 0.8 / max(1, len(labels))
    y0 = np.arange(len(names))[::-1]
    for j, lb in enumerate(labels):
        sub = s[s["ruleset"] == lb].set_index("strategy").loc[names]
        m = sub["win_share"].to_numpy(float)
        ax.errorbar(m, y0 - (j - (len(labels) - 1) / 2) * step,
                    xerr=error_bars(m, sub["win_share_ci_lo"], sub["win_share_ci_hi"]), fmt="o",
                    color=col[j], capsize=3, label=lb)
    ax.axvline(1 / res.players, color="grey", ls="--", lw=1, label=f"equal share 1/{res.players}")
    ax.set_yticks(y0, names, fontsize=8)
    ax.set_xlabel("win share (a shared win counts 1/k to each)")
    ax.set_title(f"win share by strategy and ruleset (95% CI; {int(s['games'].iloc[0]):,} "
                 "seat-games each)")
    ax.grid(axis="x", alpha=0.3)
    fig.legend(ncol=min(4, len(labels) + 1), **BOTTOM_LEGEND)
    return fig


def plot_jobs(res) -> list[tuple[str, Callable[[], Figure]]]:
    """The plots of a compare report, as (PNG file name, function drawing the Figure)."""
    draws = (plot_metrics, plot_differences, plot_win_share)
    return [(name, lambda draw=draw: draw(res)) for name, draw in zip(PLOT_FILES, draws)]


def render(res, outdir: str | Path) -> tuple[list[str], list[str]]:
    """Draw every plot into ``outdir``; return (file names, notes). A plot that fails to draw is
    a note, never a lost report."""
    files, notes = [], []
    for name, draw in plot_jobs(res):
        try:
            files.append(save_png(draw(), Path(outdir), name))
        except Exception as e:  # noqa: BLE001 - a plot must never cost the report
            notes.append(f"{name} not drawn: {type(e).__name__}: {e}")
    return files, notes
