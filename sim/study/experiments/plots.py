"""Figures of the experiment parts (matplotlib, no screen): every point with its 95% interval."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from sim.study.common.plot_style import (
    MIN_TEXT_PT,
    error_bars,
    line_style,
    new_figure,
    palette,
    save_png,
)
from sim.study.reports.plots import CHIP_COLOURS


def save_figure(fig: Figure, outdir: Path, name: str) -> str:
    """Write a figure as PNG into ``outdir`` (temporary name, then renamed); its file name."""
    outdir.mkdir(parents=True, exist_ok=True)
    return save_png(fig, outdir, name)


def png_figure(path: str | Path) -> Figure:
    """A figure showing a saved PNG as it is (a part's figure read back from its folder)."""
    import matplotlib.image as mpimg

    img = mpimg.imread(path)
    height, width = img.shape[:2]
    fig = Figure(figsize=(width / 100, height / 100), dpi=100)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.imshow(img)
    ax.set_axis_off()
    return fig


def plot_lines(table: pd.DataFrame, x: str, y: str, by: str, xlabel: str, ylabel: str,
               lo: str = "ci_lo", hi: str = "ci_hi") -> Figure:
    """One line per value of ``by``: ``y`` against ``x`` with interval bars (every line its
    own colour and line style)."""
    fig = new_figure(7, 4)
    ax = fig.add_subplot()
    groups = list(dict.fromkeys(table[by]))
    for i, g in enumerate(groups):
        sub = table[table[by] == g]
        ax.errorbar(sub[x], sub[y], yerr=error_bars(sub[y], sub[lo], sub[hi]), capsize=3,
                    label=f"{by} {g}", **line_style(i))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=MIN_TEXT_PT)
    return fig


def plot_seat_advantage(table: pd.DataFrame) -> Figure:
    """Win share by seat (1 = the start player of round 1) with 95% intervals: one panel per
    player count (each with its own scale, so a small seat advantage shows), integer seat ticks
    and the fair share 1/n as a labelled dashed line."""
    counts = sorted(int(n) for n in dict.fromkeys(table["players"]))
    fig = new_figure(3.3 * max(1, len(counts)) + 0.3, 3.9)
    axes = fig.subplots(1, max(1, len(counts)), squeeze=False)[0]
    for i, (ax, n) in enumerate(zip(axes, counts)):
        sub = table[table["players"] == n].sort_values("seat")
        style = line_style(i)
        ax.errorbar(sub["seat"], sub["win_share"],
                    yerr=error_bars(sub["win_share"], sub["ci_lo"], sub["ci_hi"]), capsize=3,
                    label="win share (95% CI)", **style)
        ax.axhline(1 / n, color="black", ls="--", lw=1, label="fair share 1/n")
        ax.annotate(f"fair share 1/{n}", (1.0, 1 / n), xycoords=("axes fraction", "data"),
                    xytext=(-3, 3), textcoords="offset points", ha="right", va="bottom",
                    fontsize=MIN_TEXT_PT)
        ax.set_xticks(range(1, n + 1), [str(k) for k in range(1, n + 1)])
        ax.set_xlim(0.5, n + 0.5)
        ax.set_title(f"{n} players", fontsize=10)
        ax.set_xlabel("seat (1 = start player in round 1)", fontsize=MIN_TEXT_PT)
        ax.tick_params(labelsize=MIN_TEXT_PT)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("win share")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=MIN_TEXT_PT, loc="outside lower center", ncol=2,
               frameon=False)
    fig.suptitle("win share by seat in mirror games")
    return fig


_VALUE_STYLES = {1: ("-", "o"), 2: ("--", "s"), 4: (":", "^"), 6: ("-.", "D")}


def _chip_line_colour(colour: str) -> str:
    """A chip colour that reads as a line on white (white and yellow chips are too pale)."""
    return {"white": "#757575", "yellow": "#b8860b"}.get(colour,
                                                         CHIP_COLOURS.get(colour, "#333333"))


def plot_ingredient(table: pd.DataFrame) -> Figure:
    """Win share of each chip-favouring strategy against the price change of its chip: one
    panel per chip colour (small multiples, shared axes), one line per chip in it, told apart by
    line style and marker (1-chip solid, 2-chip dashed, 4-chip dotted), each with its legend."""
    from sim.rules import chips as C

    chips = list(dict.fromkeys(table["chip"]))
    by_colour: dict[str, list[tuple[str, int]]] = {}
    for c in chips:
        try:
            t = C.parse_chips(c)[0]
            colour, value = C.COLOUR_NAMES[C.TYPE_COLOUR[t]], int(C.TYPE_VALUE[t])
        except Exception:  # noqa: BLE001 - a chip the rules do not know: a panel of its own
            colour, value = c, 0
        by_colour.setdefault(colour, []).append((c, value))
    panels = list(by_colour.items())
    ncol = min(4, len(panels)) or 1
    nrow = -(-len(panels) // ncol)
    fig = new_figure(3.1 * ncol + 0.4, 2.7 * nrow + 0.8)
    axes = np.atleast_1d(fig.subplots(nrow, ncol, sharex=True, sharey=True, squeeze=False)).ravel()
    for k, (ax, (colour, members)) in enumerate(zip(axes, panels)):
        for j, (c, value) in enumerate(members):
            sub = table[table["chip"] == c].sort_values("delta")
            ls, marker = _VALUE_STYLES.get(value,
                                           (line_style(j)["linestyle"], line_style(j)["marker"]))
            ax.errorbar(sub["delta"], sub["win_share"],
                        yerr=error_bars(sub["win_share"], sub["win_share_ci_lo"],
                                        sub["win_share_ci_hi"]),
                        capsize=2, color=_chip_line_colour(colour), linestyle=ls, marker=marker,
                        ms=4, label=c)
        ax.axvline(0, color="grey", lw=0.8, ls=":")
        ax.set_title(colour, fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=MIN_TEXT_PT, loc="best")
        ax.tick_params(labelsize=MIN_TEXT_PT)
        if k % ncol == 0:
            ax.set_ylabel("win share")
    for k, ax in enumerate(axes):
        if k >= len(panels):
            ax.set_visible(False)
            if k - ncol >= 0:  # the panel above shows the price ticks instead
                axes[k - ncol].xaxis.set_tick_params(labelbottom=True)
    fig.supxlabel("price change of the favoured chip (coins)")
    fig.suptitle("win share of the strategy that buys the chip first, by price change (95% CI)")
    return fig


def plot_catchup(table: pd.DataFrame) -> Figure:
    """Win share by score-gap bin, one panel per round, one line per variant."""
    rounds = list(dict.fromkeys(table["after_round"]))
    fig = new_figure(4.2 * len(rounds), 4)
    axes = fig.subplots(1, len(rounds), sharey=True, squeeze=False)[0]
    variants = list(dict.fromkeys(table["variant"]))
    for ax, k in zip(axes, rounds):
        for colour, v in zip(palette(len(variants)), variants):
            sub = table[(table["after_round"] == k) & (table["variant"] == v)]
            xs = np.arange(len(sub))
            ax.errorbar(xs, sub["win_share"], yerr=error_bars(sub["win_share"], sub["ci_lo"],
                                                        sub["ci_hi"]),
                        marker="o", capsize=3, color=colour, label=v)
            ax.set_xticks(xs, sub["gap"], rotation=45, fontsize=8)
        ax.set_title(f"after round {k}")
        ax.set_xlabel("score gap to the best other player (VP)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("win share")
    axes[-1].legend(fontsize=8)
    return fig
