"""``progress.png`` of ``quacks tune``: how the search went, and which parameter values it tried."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from sim.study.common.plot_style import LINE_COLOURS, MIN_TEXT_PT, integer_ticks

SEARCH_STATES = (("complete", "o", LINE_COLOURS[0]), ("pruned", "x", LINE_COLOURS[1]),
                 ("budget", "^", LINE_COLOURS[2]))  # a candidate's state: marker and colour


def search_figure(panels: int, height: float, per_panel: float) -> tuple[Figure, list]:
    """A search's progress figure (``quacks tune``'s and ``quacks design``'s): a tall top axis
    and ``panels`` axes below it, one per searched value, sharing the games axis."""
    fig = Figure(figsize=(7.5, height + per_panel * panels), layout="constrained")
    axes = fig.subplots(1 + panels, 1, sharex=True, squeeze=False,
                        gridspec_kw={"height_ratios": [2.2] + [1] * panels})[:, 0]
    return fig, axes


def scatter_states(ax, history, column: str, size: int, *, label: bool = False) -> None:
    """Every candidate of a search's ``history`` at (games played so far, ``column``), marked
    by its state (:data:`SEARCH_STATES`), labelled ``candidate: STATE`` with ``label``."""
    for state, marker, colour in SEARCH_STATES:
        part = history[history["state"] == state]
        if len(part):
            ax.scatter(part["games_so_far"], part[column], marker=marker, s=size, color=colour,
                       **({"label": f"candidate: {state}"} if label else {}))


def progress_figure(res) -> Figure:
    """Top panel: every candidate's win share against the games the search had played, the best
    full-length one so far as a line, and the re-tested winner with its 95% interval. Below it,
    one panel per tuned parameter: the value each candidate tried (same x axis, same markers),
    the winner's value as a line and the starting value as a dotted line, so the reader sees
    where the search looked and where it settled."""
    h = res.history
    keys = [k for k in res.best_values if k in h.columns]
    fig, axes = search_figure(len(keys), 3.6, 1.6)
    ax = axes[0]
    scatter_states(ax, h, "win_share", 20, label=True)
    full = h["deals"] == h["deals"].max()
    best = h["win_share"].where(full).cummax().ffill()
    ax.step(h["games_so_far"], best, where="post", color="black", lw=1,
            label="best full run so far")
    lo, hi = res.best_win_share_ci
    ax.errorbar([h["games_so_far"].max()], [res.best_win_share],
                yerr=[[res.best_win_share - lo], [hi - res.best_win_share]], fmt="s",
                color="#c0392b",
                capsize=3, label="winner, re-tested (95% CI)")
    ax.set_ylabel("win share")
    ax.set_title(f"quacks tune {res.start}")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=MIN_TEXT_PT, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
    start = h.iloc[0] if len(h) else None  # the starting spec is the first candidate
    for ax, key in zip(axes[1:], keys):
        scatter_states(ax, h, key, 16)
        ax.axhline(res.best_values[key], color="#c0392b", lw=1.2,
                   label=f"winner {res.best_values[key]:.4g}")
        if start is not None:
            ax.axhline(float(start[key]), color="grey", lw=1, ls=":",
                       label=f"start {float(start[key]):.4g}")
        ax.set_ylabel(key)
        if isinstance(res.best_values[key], (int, np.integer)):  # an integer parameter
            integer_ticks(ax.yaxis)
        ax.grid(alpha=0.3)
        ax.tick_params(labelsize=MIN_TEXT_PT)
        ax.legend(fontsize=MIN_TEXT_PT, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
    axes[-1].set_xlabel("games played by the search")
    return fig
