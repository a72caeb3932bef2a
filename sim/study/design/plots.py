"""The plots of ``quacks sensitivity`` and ``quacks design`` (headless matplotlib, PNG, the
project's plot style): a knob's response curves with 95% bands, the two-knob heat maps, and
the design search's progress."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from sim.study.common.plot_style import (
    LINE_COLOURS,
    MIN_TEXT_PT,
    SEQUENTIAL_CMAP,
    error_bars,
    new_figure,
)
from sim.study.tune.plots import SEARCH_STATES, scatter_states, search_figure

BAND = {"color": LINE_COLOURS[3], "alpha": 0.22}
LINE = {"color": LINE_COLOURS[3], "marker": "o"}
PANEL_COLUMNS = 3


def short(label: str, most: int = 22) -> str:
    """A tick label cut to ``most`` characters (a long list of alternatives)."""
    label = str(label)
    return label if len(label) <= most else label[:most - 3] + "..."


def response_name(key: str) -> str:
    """The file of a knob's response curves."""
    return f"response_{re.sub(r'[^A-Za-z0-9._-]', '_', key)}.png"


def _fair(ax, metric: str, players: int) -> None:
    if re.fullmatch(r"seat\d+_win_share", metric):
        ax.axhline(1 / players, color="grey", ls="--", lw=1)


def response_figure(levels: pd.DataFrame, knob: dict, metrics: list[str], players: int,
                    games: int) -> Figure:
    """One panel per figure: its value at each of the knob's values with the 95% interval (a
    band for a range, bars for alternatives); dashed: the fair share 1/n of a seat's win."""
    rows = math.ceil(len(metrics) / PANEL_COLUMNS)
    cols = min(PANEL_COLUMNS, len(metrics))
    fig = new_figure(3.6 * cols + 0.4, 2.7 * rows + 0.8)
    axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False)).ravel()
    sub = levels[levels["knob"] == knob["key"]]
    for ax, metric in zip(axes, metrics):
        g = sub[sub["metric"] == metric].sort_values("x")
        x = g["x"].to_numpy(float)
        y, lo, hi = (g[c].to_numpy(float) for c in ("value", "ci_lo", "ci_hi"))
        if knob["kind"] == "range":
            ax.plot(x, y, **LINE)
            ax.fill_between(x, lo, hi, **BAND)
        else:
            ax.errorbar(x, y, yerr=error_bars(y, lo, hi), fmt="o", capsize=4,
                        color=LINE["color"])
            ax.set_xticks(x, [short(t) for t in g["setting"]],
                          rotation=20 if len(x) > 3 else 0, fontsize=MIN_TEXT_PT)
            ax.set_xlim(x.min() - 0.5, x.max() + 0.5)
        _fair(ax, metric, players)
        label = g["label"].iloc[0] if len(g) else metric
        ax.set_title(label, fontsize=10)
        ax.set_xlabel(knob["key"], fontsize=MIN_TEXT_PT)
        ax.tick_params(labelsize=MIN_TEXT_PT)
        ax.grid(alpha=0.3)
    for ax in axes[len(metrics):]:
        ax.set_visible(False)
    fig.suptitle(f"{knob['key']}: every value on the same deals ({games:,} games each); "
                 "95% CI, deals as the unit", fontsize=10)
    return fig


def _cell_label(v: float, lo: float, hi: float, digits: int, cells: int) -> str:
    if not np.isfinite(v):
        return ""
    if cells <= 36:
        return f"{v:.{digits}f}\n[{lo:.{digits}f}, {hi:.{digits}f}]"
    return f"{v:.{digits}f}"


def pair_figure(pair: pd.DataFrame, metrics: list[str], digits: dict[str, int],
                games: int) -> Figure:
    """One heat map per figure over the grid of the two knobs' values, every cell labelled
    with its value and 95% interval (the value alone on a big grid)."""
    a, b = str(pair["a"].iloc[0]), str(pair["b"].iloc[0])
    xa = pair.drop_duplicates("a_setting").sort_values("a_x")["a_setting"].tolist()
    xb = pair.drop_duplicates("b_setting").sort_values("b_x")["b_setting"].tolist()
    cols = min(2, len(metrics))
    rows = math.ceil(len(metrics) / cols)
    w = max(5.0, 1.25 * len(xa) + 2.2)
    h = max(3.6, 0.62 * len(xb) + 1.6)
    fig = new_figure(w * cols, h * rows + 0.5)
    axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False)).ravel()
    for ax, metric in zip(axes, metrics):
        g = pair[pair["metric"] == metric]
        Z = np.full((len(xb), len(xa)), np.nan)
        lo, hi = Z.copy(), Z.copy()
        for r in g.to_dict(orient="records"):
            i, j = xb.index(r["b_setting"]), xa.index(r["a_setting"])
            Z[i, j], lo[i, j], hi[i, j] = r["value"], r["ci_lo"], r["ci_hi"]
        im = ax.imshow(Z, origin="lower", aspect="auto", cmap=SEQUENTIAL_CMAP)
        d = digits.get(metric, 4)
        for i in range(len(xb)):
            for j in range(len(xa)):
                text = _cell_label(Z[i, j], lo[i, j], hi[i, j], d, Z.size)
                if text:
                    ax.text(j, i, text, ha="center", va="center", fontsize=MIN_TEXT_PT,
                            bbox={"boxstyle": "round,pad=0.1", "fc": "white", "alpha": 0.6,
                                  "lw": 0})
        ax.set_xticks(range(len(xa)), [short(t) for t in xa], fontsize=MIN_TEXT_PT)
        ax.set_yticks(range(len(xb)), [short(t) for t in xb], fontsize=MIN_TEXT_PT)
        ax.set_xlabel(a)
        ax.set_ylabel(b)
        label = g["label"].iloc[0] if len(g) else metric
        ax.set_title(label, fontsize=10)
        fig.colorbar(im, ax=ax, label=metric)
    for ax in axes[len(metrics):]:
        ax.set_visible(False)
    fig.suptitle(f"{a} x {b}: every cell on the same deals ({games:,} games each); 95% CI",
                 fontsize=10)
    return fig




def progress_figure(history: pd.DataFrame, knobs: list[dict], best: dict, title: str) -> Figure:
    """Top: every candidate's loss against the games the search had played (the best
    full-length one so far as a line). Below it one panel per knob: the value each candidate
    tried, the best candidate's as a line."""
    h = history[history["state"].isin([s for s, _, _ in SEARCH_STATES])]
    fig, axes = search_figure(len(knobs), 3.4, 1.5)
    ax = axes[0]
    scatter_states(ax, h, "loss", 20, label=True)
    if len(h):
        full = h["deals"] == h["deals"].max()
        run = h["loss"].where(full).cummin().ffill()
        ax.step(h["games_so_far"], run, where="post", color="black", lw=1,
                label="best full run so far")
    ax.set_ylabel("loss (band widths outside)")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=MIN_TEXT_PT, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
    for ax, k in zip(axes[1:], knobs):
        col = f"x:{k['key']}"
        scatter_states(ax, h, col, 16)
        if k["key"] in best:
            ax.axhline(best[k["key"]], color="#c0392b", lw=1.2, label="best")
        if k["kind"] == "choice":
            ax.set_yticks(range(len(k["labels"])), [short(t) for t in k["labels"]],
                          fontsize=MIN_TEXT_PT)
        ax.set_ylabel(k["key"], fontsize=MIN_TEXT_PT)
        ax.grid(alpha=0.3)
        ax.tick_params(labelsize=MIN_TEXT_PT)
    axes[-1].set_xlabel("games played by the search")
    return fig


def targets_figure(targets: pd.DataFrame, arm_text: dict[str, str]) -> Figure:
    """One panel per target: each re-tested arm's estimate with its 95% interval, the band
    shaded."""
    metrics = list(dict.fromkeys(targets["metric"]))
    arms = list(dict.fromkeys(targets["arm"]))
    cols = min(3, len(metrics))
    rows = math.ceil(len(metrics) / cols)
    fig = new_figure(max(7.0, 4.6 * cols + 2.0), 0.45 * len(arms) * rows + 1.6 * rows + 0.4)
    axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False)).ravel()
    y = np.arange(len(arms))
    for ax, metric in zip(axes, metrics):
        g = targets[targets["metric"] == metric].set_index("arm").reindex(arms)
        lo, hi = float(g["band_lo"].iloc[0]), float(g["band_hi"].iloc[0])
        ax.axvspan(lo, hi, color=LINE_COLOURS[0], alpha=0.18, lw=0, label="target band")
        v = g["value"].to_numpy(float)
        ax.errorbar(v, y, xerr=error_bars(v, g["ci_lo"], g["ci_hi"]), fmt="o", capsize=3,
                    color=LINE_COLOURS[3])
        for yi, verdict in zip(y, g["verdict"]):
            ax.annotate(str(verdict), (1.0, yi), xycoords=("axes fraction", "data"),
                        xytext=(4, 0), textcoords="offset points", va="center",
                        fontsize=MIN_TEXT_PT)
        ax.set_yticks(y, [arm_text.get(a, a) for a in arms], fontsize=MIN_TEXT_PT)
        ax.set_ylim(-0.6, len(arms) - 0.4)
        ax.invert_yaxis()
        ax.set_title(str(g["label"].iloc[0] or metric), fontsize=10)
        ax.tick_params(labelsize=MIN_TEXT_PT)
        ax.grid(alpha=0.3, axis="x")
    for ax in axes[len(metrics):]:
        ax.set_visible(False)
    fig.suptitle("re-test on fresh deals (95% CI; shaded: the target band)", fontsize=10)
    return fig
