"""Report plots: headless matplotlib (``Figure`` objects, no pyplot state), PNG next to the tables.

``render(summary, DIR)`` draws every plot a summary supports; ``render_all(DIR)`` re-draws them
from a saved report's tables (``quacks plot DIR``). Every point carries its 95% interval (error
bars or a band). Plots that need rounds detail are skipped, with a note, when it is absent.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.colors import TwoSlopeNorm  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Patch, Rectangle  # noqa: E402

from sim.rules.chips import COLOUR_NAMES  # noqa: E402
from sim.study.common.plot_style import (  # noqa: E402
    BOTTOM_LEGEND,
    LINE_COLOURS,
    error_bars,
    new_figure,
    palette,
    save_png,
    seat_label,
)
from sim.study.reports.files import RUN_FILE  # noqa: E402
from sim.study.reports.load import load_summary  # noqa: E402
from sim.study.reports.markdown import head_to_head_counts  # noqa: E402
from sim.study.reports.schema import ReportError  # noqa: E402

CHIP_COLOURS = {"white": "#e8e8e8", "orange": "#f28e2b", "green": "#59a14f", "blue": "#4e79a7",
                "red": "#e15759", "yellow": "#edc948", "purple": "#b07aa1", "black": "#333333",
                "locoweed": "#9c755f"}
MAX_PAIRS_PLOTTED = 66  # every pair of 12 strategies
MAX_H2H_ANNOTATED = 12  # head-to-head cells carry their numbers up to 12 strategies


_LINESTYLES = ("-", "--", ":", "-.")
_HATCHES = ("", "//", "..", "xx")
_RIGHT_LEGEND = {"loc": "outside right upper", "fontsize": 8}


def _linestyle(i: int) -> str:
    return _LINESTYLES[(i // len(LINE_COLOURS)) % len(_LINESTYLES)]


def _hatch(i: int) -> str:
    return _HATCHES[(i // len(LINE_COLOURS)) % len(_HATCHES)]


def _label(name: str, games: int) -> str:
    return f"{name}\n(n={int(games):,})"


def plot_win_share(strategies: pd.DataFrame, players: int | None) -> Figure:
    """Win share and mean VP per strategy, with 95% intervals."""
    df = strategies.reset_index(drop=True)
    k = len(df)
    fig = new_figure(10, 1.8 + 0.55 * k)
    ax1, ax2 = fig.subplots(1, 2, sharey=True)
    y = np.arange(k)[::-1]
    col = palette(k)
    for ax, key, title, xlabel in (
            (ax1, "win_share", "win share, 95% CI", "win share (a shared win counts 1/k to each)"),
            (ax2, "mean_vp", "mean VP, 95% CI", "mean final score (VP)")):
        m = df[key].to_numpy(float)
        lo = df[key + "_ci_lo"].to_numpy(float)
        hi = df[key + "_ci_hi"].to_numpy(float)
        for i in range(k):
            ax.errorbar(m[i], y[i], xerr=error_bars([m[i]], [lo[i]], [hi[i]]), fmt="o",
                        color=col[i],
                        capsize=4)
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.grid(axis="x", alpha=0.3)
        ax.margins(y=0.5 / max(k, 1))
    if players:
        ax1.axvline(1 / players, color="grey", ls="--", lw=1, label=f"equal share 1/{players}")
        fig.legend(**BOTTOM_LEGEND)
    ax1.set_yticks(y, [_label(str(s), g) for s, g in zip(df["strategy"], df["games"])], fontsize=8)
    ax1.set_ylabel("strategy (games)")
    return fig


def plot_vp_distribution(vp_hist: pd.DataFrame, strategies: pd.DataFrame) -> Figure:
    """Distribution of final VP per strategy (share of games), mean and its 95% interval in the
    legend."""
    k = len(strategies)
    fig = new_figure(9, 5 + 0.2 * -(-k // 2))
    ax = fig.subplots()
    col = palette(k)
    for i, row in enumerate(strategies.to_dict(orient="records")):
        h = vp_hist[vp_hist["strategy"] == row["strategy"]]
        if not len(h):
            continue
        x = h["vp"].to_numpy()
        c = h["count"].to_numpy(float)
        full = np.zeros(x.max() - x.min() + 3)
        full[x - x.min() + 1] = c
        xs = np.arange(x.min() - 1, x.max() + 2)
        ax.step(xs, full / c.sum(), where="mid", color=col[i], ls=_linestyle(i),
                label=f"{row['strategy']}: mean {row['mean_vp']:.2f} "
                      f"[{row['mean_vp_ci_lo']:.2f}, {row['mean_vp_ci_hi']:.2f}], "
                      f"n={int(row['games']):,}")
    ax.set_xlabel("final score (VP)")
    ax.set_ylabel("share of games")
    ax.set_title("VP distribution (legend: mean VP [95% CI])")
    fig.legend(ncol=min(2, max(k, 1)), **BOTTOM_LEGEND)
    ax.grid(alpha=0.3)
    return fig


def plot_rounds(rounds: pd.DataFrame, names: list[str]) -> Figure:
    """Explosion rate and mean reward space by round, with 95% bands."""
    fig = new_figure(12, 4.5)
    axes = fig.subplots(1, 2)
    col = palette(len(names))
    for ax, metric, title, ylabel in (
            (axes[0], "exploded", "explosion rate by round", "explosions per potion (share)"),
            (axes[1], "reward_space", "mean reward space by round",
             "reward space (pot track index)")):
        sub = rounds[rounds["metric"] == metric]
        for i, name in enumerate(names):
            g = sub[sub["strategy"] == name].sort_values("round")
            if not len(g):
                continue
            ax.plot(g["round"], g["mean"], marker="o", ms=3, color=col[i], ls=_linestyle(i),
                    label=name if ax is axes[0] else None)
            ax.fill_between(g["round"], g["ci_lo"], g["ci_hi"], color=col[i], alpha=0.2)
        ax.set_xlabel("round")
        ax.set_ylabel(ylabel)
        ax.set_title(f"{title} (95% CI)")
        ax.grid(alpha=0.3)
    fig.legend(title="strategy", **_RIGHT_LEGEND)
    return fig


def plot_bag(rounds: pd.DataFrame, names: list[str]) -> Figure:
    """Average bag composition (chips by colour, after each round) per strategy."""
    k = len(names)
    cols = min(k, 2)
    nrows = -(-k // cols)
    fig = new_figure(6.5 * cols + 1.2, 3.6 * nrows + 0.4)
    axes = np.atleast_1d(fig.subplots(nrows, cols, squeeze=False)).ravel()
    handles = {}
    for ax, name in zip(axes, names):
        sub = rounds[rounds["strategy"] == name]
        bottom = None
        for colour in COLOUR_NAMES:
            g = sub[sub["metric"] == f"bag_{colour}"].sort_values("round")
            if not len(g) or g["mean"].max() == 0:
                continue
            x, m = g["round"].to_numpy(), g["mean"].to_numpy(float)
            base = np.zeros_like(m) if bottom is None else bottom
            handles[colour] = ax.fill_between(x, base, base + m, color=CHIP_COLOURS[colour],
                                              label=colour, edgecolor="#555555", lw=0.3)
            bottom = base + m
        ax.set_title(str(name), fontsize=9)
        ax.set_xlabel("round")
        ax.set_ylabel("chips in bag (mean)")
        ax.grid(alpha=0.3)
    for ax in axes[k:]:
        ax.set_visible(False)
    order = [c for c in COLOUR_NAMES if c in handles]
    fig.legend([handles[c] for c in order], order, title="chip colour", **_RIGHT_LEGEND)
    fig.suptitle("average bag composition after each round")
    return fig


def plot_seats(seats: pd.DataFrame) -> Figure:
    """Win share by seat: pooled over strategies and per strategy, with 95% intervals."""
    groups = [str(g) for g in seats["strategy"].cat.categories if (seats["strategy"] == g).any()]
    nseat = int(seats["seat"].max()) + 1
    fig = new_figure(min(13, max(7, 0.8 * nseat * max(1, len(groups)) + 2)), 4.5)
    ax = fig.subplots()
    width = 0.8 / max(1, len(groups))
    strategies = [g for g in groups if g != "all"]
    for j, g in enumerate(groups):
        sub = seats[seats["strategy"] == g].sort_values("seat")
        x = sub["seat"].to_numpy() + (j - (len(groups) - 1) / 2) * width
        m = sub["win_share"].to_numpy(float)
        err = error_bars(m, sub["win_share_ci_lo"], sub["win_share_ci_hi"])
        i = strategies.index(g) if g != "all" else -1
        ax.bar(x, m, width, yerr=err, capsize=3, alpha=0.85, edgecolor="white", lw=0.5,
               color="#9e9e9e" if i < 0 else palette(i + 1)[-1], hatch="" if i < 0 else _hatch(i),
               label="all strategies" if g == "all" else g)
    ax.axhline(1 / nseat, color="grey", ls="--", lw=1, label=f"fair share 1/{nseat}")
    ax.set_xticks(range(nseat), [seat_label(s) for s in range(nseat)])
    ax.set_xlabel("seat (seat 1 starts round 1)")
    ax.set_ylabel("win share")
    ax.set_title("win share by seat (95% CI)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return fig


def plot_bought(bought: pd.DataFrame, names: list[str]) -> Figure:
    """Mean chips bought per game by strategy and colour, with 95% intervals: one group of bars
    per strategy, each bar in its chip's colour (colours mean chips only in this plot)."""
    colours = [c for c in COLOUR_NAMES if bought[bought["colour"] == c]["mean"].max() > 0]
    fig = new_figure(min(13, max(7, 0.35 * len(colours) * max(1, len(names)) + 2.5)), 4.5)
    ax = fig.subplots()
    width = 0.8 / max(1, len(colours))
    for j, colour in enumerate(colours):
        sub = bought[bought["colour"] == colour].set_index("strategy").reindex(names)
        x = np.arange(len(names)) + (j - (len(colours) - 1) / 2) * width
        m = sub["mean"].to_numpy(float)
        err = error_bars(m, sub["ci_lo"], sub["ci_hi"])
        ax.bar(x, m, width, yerr=err, capsize=2, color=CHIP_COLOURS[colour], edgecolor="#333333",
               lw=0.5, ecolor="#333333", label=colour)
    ax.set_xticks(range(len(names)), names)
    ax.set_xlabel("strategy")
    ax.set_ylabel("chips bought per game (mean)")
    ax.set_title("chips bought by colour (95% CI)")
    ax.legend(title="chip colour", loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0,
              fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return fig


def plot_pairs(pairs: pd.DataFrame) -> Figure:
    """Paired per-deal differences A - B in win share and in VP (black, 95% CI), each beside the
    width the interval would have without pairing (grey)."""
    k = len(pairs)
    panels = [("win_share_diff", "win share", "win share difference A - B")]
    if "vp_diff" in pairs.columns:
        panels.append(("vp_diff", "VP", "VP difference A - B (VP)"))
    fig = new_figure(6 * len(panels) + 2, 1.8 + 0.5 * k)
    axes = np.atleast_1d(fig.subplots(1, len(panels), sharey=True, squeeze=False)).ravel()
    y = np.arange(k)[::-1]
    rows = pairs.to_dict(orient="records")
    for ax, (key, what, xlabel) in zip(axes, panels):
        m = pairs[key].to_numpy(float)
        for i, r in enumerate(rows):
            ax.plot([r[key + "_ci_unpaired_lo"], r[key + "_ci_unpaired_hi"]], [y[i] - 0.15] * 2,
                    color="#aaaaaa", lw=4, solid_capstyle="butt",
                    label="width if unpaired" if i == 0 and ax is axes[0] else None)
            ax.errorbar(m[i], y[i],
                        xerr=error_bars([m[i]], [r[key + "_ci_lo"]], [r[key + "_ci_hi"]]),
                        fmt="o", color="black", capsize=4,
                        label="paired per deal, 95% CI" if i == 0 and ax is axes[0] else None)
        ax.axvline(0, color="grey", ls="--", lw=1)
        ax.set_xlabel(xlabel)
        ax.set_title(f"{what}: A - B")
        ax.grid(axis="x", alpha=0.3)
        ax.margins(y=0.5 / max(k, 1))
    axes[0].set_yticks(y, [f"{a} - {b}" for a, b in zip(pairs["strategy_a"], pairs["strategy_b"])],
                       fontsize=8)
    axes[0].set_ylabel("pair (A - B)")
    fig.suptitle(f"paired differences over {int(pairs['deals'].iloc[0]):,} deals")
    fig.legend(ncol=2, **BOTTOM_LEGEND)
    return fig


def plot_head_to_head(h2h: pd.DataFrame, players: int | None) -> Figure:
    """Heat map of the head-to-head table: row A, column B, colour and label A's win share in the
    games where A and B sat at the same table, with its 95% interval; the diagonal is blank. The
    colour scale is centred on the equal share 1/players."""
    names = [str(x) for x in h2h["a"].cat.categories]
    k = len(names)
    pos = {n: i for i, n in enumerate(names)}
    Z = np.full((k, k), np.nan)
    lo, hi = Z.copy(), Z.copy()
    for r in h2h.to_dict(orient="records"):
        i, j = pos[str(r["a"])], pos[str(r["b"])]
        Z[i, j], lo[i, j], hi[i, j] = (r["win_share_a"], r["win_share_a_ci_lo"],
                                       r["win_share_a_ci_hi"])
    side = max(5.0, 1.15 * k + 2.5)
    fig = new_figure(side + 1.5, side)
    ax = fig.subplots()
    even = 1 / players if players else 0.5
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="white")
    im = ax.imshow(np.ma.masked_invalid(Z), cmap=cmap, norm=TwoSlopeNorm(even, 0.0, 1.0))
    for i in range(k):  # the diagonal: a strategy against itself, left blank (hatched)
        ax.add_patch(Rectangle((i - 0.5, i - 0.5), 1, 1, fill=False, hatch="//", ec="#bbbbbb",
                               lw=0))
    if k <= MAX_H2H_ANNOTATED:
        for i in range(k):
            for j in range(k):
                if np.isfinite(Z[i, j]):
                    ax.text(j, i, f"{Z[i, j]:.3f}\n[{lo[i, j]:.3f}, {hi[i, j]:.3f}]", ha="center",
                            va="center", fontsize=7 if k <= 6 else 5.5, color="black",
                            bbox={"boxstyle": "round,pad=0.1", "fc": "white", "alpha": 0.6,
                                  "lw": 0})
    ax.set_xticks(range(k), names, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(k), names, fontsize=8)
    ax.set_xlabel("B: the strategy A shares a table with")
    ax.set_ylabel("A: the strategy whose win share is shown")
    fig.colorbar(im, ax=ax, label=f"A's win share at tables with B (equal share 1/{players or 2})")
    fig.legend(handles=[Patch(fill=False, hatch="//", ec="#bbbbbb",
                              label="diagonal: a strategy and itself (blank)")], **BOTTOM_LEGEND)
    ax.set_title("head to head: A's win share in games with B [95% CI]\n"
                 f"{head_to_head_counts(h2h)}",
                 fontsize=10)
    return fig


def plot_jobs(summary) -> tuple[list, list[str]]:
    """The plots a summary supports, as (file name, function drawing the Figure), and notes on
    the plots it cannot draw."""
    s = summary
    names = [str(x) for x in s.strategies["strategy"]]
    players = s.info.get("players")
    jobs = [("win_share.png", lambda: plot_win_share(s.strategies, players))]
    if s.vp_hist is not None and len(s.vp_hist):
        jobs.append(("vp_distribution.png", lambda: plot_vp_distribution(s.vp_hist, s.strategies)))
    notes = []
    if s.rounds is not None and len(s.rounds):
        jobs.append(("rounds.png", lambda: plot_rounds(s.rounds, names)))
        jobs.append(("bag_by_round.png", lambda: plot_bag(s.rounds, names)))
    elif s.info.get("detail") == "rounds":  # asked for, but the report has no rounds table
        notes.append("rounds.png and bag_by_round.png skipped: the report has no rounds table")
    if s.seats is not None and len(s.seats):
        jobs.append(("seats.png", lambda: plot_seats(s.seats)))
    if s.bought is not None and len(s.bought):
        jobs.append(("chips_bought.png", lambda: plot_bought(s.bought, names)))
    if s.pairs is not None and len(s.pairs) and s.pairs["win_share_diff"].notna().any():
        if len(s.pairs) <= MAX_PAIRS_PLOTTED:
            jobs.append(("pairs.png", lambda: plot_pairs(s.pairs)))
        else:
            notes.append(f"pairs.png skipped: {len(s.pairs)} pairs (at most {MAX_PAIRS_PLOTTED}); "
                         "see pairs.csv")
    h2h = s.head_to_head
    if h2h is not None and len(h2h):
        jobs.append(("head_to_head.png", lambda: plot_head_to_head(h2h, players)))
    return jobs, notes


# a plot that fails with one of these was given tables it cannot draw (bad input); any other
# exception is a failure of the drawing itself
DATA_ERRORS = (KeyError, ValueError, TypeError, IndexError, AttributeError)


@dataclass
class Drawn:
    """What a re-draw did: the files drawn, the notes (plots skipped on purpose) and the plots
    that failed, each as (file name, exception)."""

    files: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    failed: list[tuple[str, Exception]] = field(default_factory=list)

    def failure_lines(self) -> list[str]:
        """One line per plot that failed."""
        return [f"{name} not drawn: {type(e).__name__}: {' '.join(str(e).split())[:160]}"
                for name, e in self.failed]

    @property
    def bad_input(self) -> bool:
        """Every failure came from the tables (exit 2, not 1)."""
        return all(isinstance(e, DATA_ERRORS) for _, e in self.failed)


def draw_all(jobs, outdir: str | Path, drawn: Drawn | None = None) -> Drawn:
    """Draw each (file name, function returning the Figure) into ``outdir``; a plot that fails
    is recorded in ``failed`` and never stops the others."""
    d = drawn if drawn is not None else Drawn()
    for name, draw in jobs:
        try:
            d.files.append(save_png(draw(), Path(outdir), name))
        except Exception as e:  # noqa: BLE001 - a plot must never cost the report
            d.failed.append((name, e))
    return d


def render(summary, outdir: str | Path) -> tuple[list[str], list[str]]:
    """Draw every plot the summary supports into ``outdir``; return (file names, notes).

    A plot that fails to draw is reported in the notes; it never loses the report.
    """
    jobs, notes = plot_jobs(summary)
    d = draw_all(jobs, outdir, Drawn(notes=notes))
    return d.files, d.notes + d.failure_lines()


def render_all(path: str | Path) -> Drawn:
    """Re-draw every plot of a saved report (tournament or sweep) from its tables; ReportError
    when the folder holds no such report."""
    p = Path(path)
    if not p.is_dir():
        raise ReportError(f"{p}: no such report directory")
    run = {}
    if (p / RUN_FILE).is_file():
        try:
            run = json.loads((p / RUN_FILE).read_text())
        except ValueError:
            raise ReportError(f"{p / RUN_FILE}: not valid JSON") from None
    if run.get("kind") == "sweep" or (p / "sweep.csv").is_file():
        if not (p / "sweep.csv").is_file() or "settings" not in run:
            raise ReportError(f"{p}: an incomplete sweep report (no sweep.csv or run.json)")
        table = pd.read_csv(p / "sweep.csv")
        from sim.study.sweep.plots import plot_jobs as sweep_jobs

        return draw_all(sweep_jobs(table, run["settings"]), p)
    summary = load_summary(p)
    if summary.info.get("players") is None and summary.seats is not None:
        summary.info["players"] = int(summary.seats["seat"].max()) + 1
    jobs, notes = plot_jobs(summary)
    return draw_all(jobs, p, Drawn(notes=notes))
