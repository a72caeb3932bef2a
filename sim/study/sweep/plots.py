"""The sweep plot, ``sweep.png``: one parameter as lines with 95% bands and the paired difference
to the baseline below; two parameters as heat maps with the best cell marked."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from sim.study.common.plot_style import (
    MIN_TEXT_PT,
    SEQUENTIAL_CMAP,
    integer_ticks,
    save_png,
)


def _param_label(settings: dict, i: int) -> str:
    keys = settings.get("keys") or [settings["key"]]
    helps = settings.get("key_help") or [""] * len(keys)
    import textwrap

    text = f"{keys[i]}: {helps[i]}" if i < len(helps) and helps[i] else keys[i]
    return "\n".join(textwrap.wrap(text, 48))


def plot_sweep(table: pd.DataFrame, settings: dict) -> Figure:
    """One parameter: win share and mean VP of the focus strategy against the parameter (95%
    bands), and below them the paired difference to the baseline. Two parameters: heat maps of
    win share and of its paired difference to the baseline, the best cell marked."""
    if "value2" in table.columns and table["value2"].notna().any():
        return _plot_sweep_grid(table, settings)
    fig = Figure(figsize=(11, 8))
    axes = fig.subplots(2, 2, sharex=True)
    x = table["value"].to_numpy(float)
    base = (table["baseline"].to_numpy(bool) if "baseline" in table.columns
            else np.zeros(len(x), bool))
    vs = ",".join(settings["vs"])
    panels = (("win_share", "win share", "win share of the focus strategy"),
              ("mean_vp", "mean VP", "mean VP of the focus strategy"),
              ("win_share_diff", "win share - baseline", "paired difference in win share"),
              ("vp_diff", "VP - baseline", "paired difference in VP"))
    for ax, (key, ylabel, title) in zip(axes.ravel(), panels):
        if key not in table.columns:
            ax.set_visible(False)
            continue
        ax.plot(x, table[key], marker="o", color="#1f5f8b", label="estimate")
        ax.fill_between(x, table[key + "_ci_lo"], table[key + "_ci_hi"], color="#1f5f8b",
                        alpha=0.22, label="95% CI")
        if base.any():
            ax.plot(x[base], table[key].to_numpy(float)[base], marker="*", ms=14, ls="none",
                    color="#c0392b", label="baseline")
        if key.endswith("_diff"):
            ax.axhline(0, color="grey", lw=1)
        ax.set_ylabel(ylabel)
        ax.set_title(title, fontsize=10)
        ax.grid(alpha=0.3)
    axes[0, 0].axhline(1 / settings["players"], color="grey", ls="--", lw=1,
                       label=f"equal share 1/{settings['players']}")
    for ax in axes[1]:
        ax.set_xlabel(_param_label(settings, 0))
        if len(x) and np.all(x == np.round(x)):  # an integer parameter: ticks at its values
            integer_ticks(ax.xaxis)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8, frameon=False)
    games = int(table["games"].iloc[0]) if len(table) else 0
    fig.suptitle(f"{settings['strategy']} vs {vs}: sweep of {settings['key']}\n"
                 f"{games:,} games per value, {settings['players']} players; baseline "
                 f"{settings.get('baseline_spec', '')}", fontsize=10)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


def _cell_text(v: float, lo: float, hi: float, cell_w: float, cell_h: float) -> str | None:
    """A grid cell's label as it fits a cell of ``cell_w`` x ``cell_h`` inches at
    ``MIN_TEXT_PT``: the value with its interval, the value alone, or nothing."""
    if cell_w >= 1.15 and cell_h >= 0.42:
        return f"{v:.3f}\n[{lo:.3f}, {hi:.3f}]"
    if cell_w >= 0.45 and cell_h >= 0.2:
        return f"{v:.3f}"
    return None


def _plot_sweep_grid(table: pd.DataFrame, settings: dict) -> Figure:
    """Heat maps of win share and of its paired difference to the baseline over a grid of two
    parameters; every cell labelled (at least ``MIN_TEXT_PT``) with its value and interval while
    they fit, the value alone or nothing on a big grid (the figures are in ``sweep.csv``); the
    axes named by the parameters, their help texts below."""
    xs = np.unique(table["value"].to_numpy(float))
    ys = np.unique(table["value2"].to_numpy(float))
    width = min(22.0, max(12.0, 2 * (1.6 + 1.2 * len(xs))))
    height = min(14.0, max(5.2, 1.9 + 0.5 * len(ys)))
    fig = Figure(figsize=(width, height), layout="constrained")
    axes = fig.subplots(1, 2)
    best = int(np.nanargmax(table["win_share"].to_numpy(float)))
    keys = settings.get("keys") or [settings.get("key", "value"), "value2"]
    # cell size in inches: each panel gets about half the width less its colour bar and labels
    cell_w = (width / 2 - 1.7) / max(1, len(xs))
    cell_h = (height - 1.9) / max(1, len(ys))
    labelled = "all"
    for ax, key, title, cmap in ((axes[0], "win_share", "win share", SEQUENTIAL_CMAP),
                                 (axes[1], "win_share_diff", "win share - baseline (paired)",
                                  "RdBu")):
        Z = np.full((len(ys), len(xs)), np.nan)
        lo, hi = Z.copy(), Z.copy()
        for r in table.to_dict(orient="records"):
            i, j = np.searchsorted(ys, r["value2"]), np.searchsorted(xs, r["value"])
            Z[i, j], lo[i, j], hi[i, j] = r[key], r[key + "_ci_lo"], r[key + "_ci_hi"]
        kw = {}
        if cmap == "RdBu":
            lim = np.nanmax(np.abs(Z)) or 1.0
            kw = {"vmin": -lim, "vmax": lim}
        im = ax.imshow(Z, origin="lower", aspect="auto", cmap=cmap, **kw)
        for i in range(len(ys)):
            for j in range(len(xs)):
                text = _cell_text(Z[i, j], lo[i, j], hi[i, j], cell_w, cell_h)
                if text is None or not np.isfinite(Z[i, j]):
                    labelled = "none" if text is None else labelled
                    continue
                labelled = "values" if "\n" not in text else labelled
                ax.text(j, i, text, ha="center", va="center", fontsize=MIN_TEXT_PT,
                        color="black",
                        bbox={"boxstyle": "round,pad=0.1", "fc": "white", "alpha": 0.6, "lw": 0})
        b = table.iloc[best]
        bj, bi = np.searchsorted(xs, b["value"]), np.searchsorted(ys, b["value2"])
        for ec, lw in (("white", 4.5), ("black", 2.0)):  # seen on any cell colour
            ax.add_patch(Rectangle((bj - 0.5, bi - 0.5), 1, 1, fill=False, ec=ec, lw=lw))
        ax.set_xticks(range(len(xs)), [f"{v:g}" for v in xs], fontsize=MIN_TEXT_PT)
        ax.set_yticks(range(len(ys)), [f"{v:g}" for v in ys], fontsize=MIN_TEXT_PT)
        ax.set_xlabel(keys[0])
        ax.set_ylabel(keys[1])
        ax.set_title(title, fontsize=10)
        fig.colorbar(im, ax=ax, label=title)
    games = int(table["games"].iloc[0]) if len(table) else 0
    fig.suptitle(f"{settings['strategy']} vs {','.join(settings['vs'])}: {games:,} games per cell, "
                 f"{settings['players']} players; best cell (boxed): "
                 f"{b['value']:g}, {b['value2']:g}; baseline {settings.get('baseline_spec', '')}",
                 fontsize=10)
    helps = [h for h in (settings.get("key_help") or []) if h]
    notes = ([f"{k}: {h}" for k, h in zip(keys, settings.get("key_help") or []) if h] if helps
             else [])
    if labelled != "all":
        notes.append("cells labelled with " + ("the value only" if labelled == "values" else
                                               "nothing (too many)") + "; every cell's interval is "
                     "in sweep.csv")
    if notes:
        fig.supxlabel("; ".join(notes), fontsize=MIN_TEXT_PT)
    return fig


def plot_jobs(table: pd.DataFrame, settings: dict) -> list:
    """The sweep's plots as (file name, function drawing the Figure): ``sweep.png``."""
    return [("sweep.png", lambda: plot_sweep(table, settings))]


def render_sweep(table: pd.DataFrame, settings: dict, outdir: str | Path) -> list[str]:
    """Draw the sweep's plots into ``outdir``; return the file names."""
    return [save_png(draw(), Path(outdir), name) for name, draw in plot_jobs(table, settings)]
