"""Figures of the experiment parts (matplotlib, no screen): every point with its 95% interval."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from sim.study.plots import _err, _figure, _palette, _save


def save_figure(fig: Figure, outdir: Path, name: str) -> str:
    """Write a figure as PNG into ``outdir`` (temporary name, then renamed); its file name."""
    outdir.mkdir(parents=True, exist_ok=True)
    return _save(fig, outdir, name)


def plot_lines(table: pd.DataFrame, x: str, y: str, by: str, xlabel: str, ylabel: str,
               lo: str = "ci_lo", hi: str = "ci_hi") -> Figure:
    """One line per value of ``by``: ``y`` against ``x`` with interval bars."""
    fig = _figure(7, 4)
    ax = fig.add_subplot()
    groups = list(dict.fromkeys(table[by]))
    for colour, g in zip(_palette(len(groups)), groups):
        sub = table[table[by] == g]
        ax.errorbar(sub[x], sub[y], yerr=_err(sub[y], sub[lo], sub[hi]), marker="o", capsize=3,
                    color=colour, label=f"{by} {g}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return fig


def plot_ingredient(table: pd.DataFrame) -> Figure:
    """Win share of each chip-favouring strategy against the price change of its chip."""
    fig = _figure(8, 4.5)
    ax = fig.add_subplot()
    chips = list(dict.fromkeys(table["chip"]))
    for colour, c in zip(_palette(len(chips)), chips):
        sub = table[table["chip"] == c].sort_values("delta")
        ax.errorbar(sub["delta"], sub["win_share"],
                    yerr=_err(sub["win_share"], sub["win_share_ci_lo"], sub["win_share_ci_hi"]),
                    marker="o", capsize=3, color=colour, label=c)
    ax.axvline(0, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("price change (coins)")
    ax.set_ylabel("win share of the strategy favouring the chip")
    ax.grid(alpha=0.3)
    fig.legend(fontsize=8, ncol=2, loc="outside right upper")
    return fig


def plot_catchup(table: pd.DataFrame) -> Figure:
    """Win share by score-gap bin, one panel per round, one line per variant."""
    rounds = list(dict.fromkeys(table["after_round"]))
    fig = _figure(4.2 * len(rounds), 4)
    axes = fig.subplots(1, len(rounds), sharey=True, squeeze=False)[0]
    variants = list(dict.fromkeys(table["variant"]))
    for ax, k in zip(axes, rounds):
        for colour, v in zip(_palette(len(variants)), variants):
            sub = table[(table["after_round"] == k) & (table["variant"] == v)]
            xs = np.arange(len(sub))
            ax.errorbar(xs, sub["win_share"], yerr=_err(sub["win_share"], sub["ci_lo"],
                                                        sub["ci_hi"]),
                        marker="o", capsize=3, color=colour, label=v)
            ax.set_xticks(xs, sub["gap"], rotation=45, fontsize=8)
        ax.set_title(f"after round {k}")
        ax.set_xlabel("score gap to the best other player (VP)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("win share")
    axes[-1].legend(fontsize=8)
    return fig
