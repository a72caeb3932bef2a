"""The plots of a balance report (headless matplotlib, PNG, the project's plot style): the game
(seats, catch-up, the lead kept to the end, explosions by round), skill, and the effects of the
cards, witches and books; every point with its 95% interval."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from sim.study.common.plot_style import (
    error_bars,
    line_style,
    new_figure,
    palette,
    save_png,
    seat_label,
)

CAPTIONS = {
    "game.png": "The game: win share by seat, the chance that the last (and the leading) player "
                "after round k wins, the round from which the winner leads for good, and "
                "explosions per potion by round (95% CI, deals as the unit; dashed: 1/n or the "
                "overall rate).",
    "skill.png": "Skill: the strongest preset's win share against the weakest sensible ones, "
                 "and the reverse (95% CI; dashed: 1/n).",
    "cards.png": "Each fortune-teller card's effects (95% CI, paired by deal) and its rank by "
                 "the standardised score with the rank's 95% interval (bootstrap over deals); "
                 "rank 1 at the top.",
    "witches.png": "Each herb witch: how often she is called, her worth to a seat (95% CI) and "
                   "her rank by win share with its 95% interval (bootstrap over deals).",
    "books.png": "Each ingredient colour forbidden to one seat (95% CI) and its rank by the win "
                 "share its loss costs, with the rank's 95% interval (bootstrap over deals).",
}
PLOT_FILES = tuple(CAPTIONS)
# part: (file, the column that names a row, the effect the rows are ranked by)
EFFECT_PLOTS = {"cards": ("cards.png", "name", "rank"),
                "witches": ("witches.png", "witch", "rank"),
                "books": ("books.png", "colour", "rank")}
RANK_AXIS = {"cards": "rank by score (1: moves the game most)",
             "witches": "rank by win share (1: most worth having)",
             "books": "rank by the win share its loss costs (1: most worth buying)"}
# part: (title: what each row's effects are, what one arm plays)
EFFECT_TITLES = {
    "cards": ("each card forced into one round, minus the same deals without it", "card"),
    "witches": ("a seat that may call the witch, minus the same seat never calling her", "witch"),
    "books": ("a seat forbidden to buy the colour, minus the same seat allowed", "colour"),
}
# part: {column: (axis label, what a sign means; None: not a difference, no zero line)}
EFFECT_AXES = {
    "cards": {"vp": ("change in mean final VP (every seat)", "> 0: the card adds VP"),
              "explosions": ("change in explosions per potion", "> 0: more explosions"),
              "trailing_win": ("change in the trailing player's win share",
                               "> 0: the card helps the player behind")},
    "witches": {"called": ("share of seat-games she is called in", None),
                "win_share": ("change in the seat's win share", "> 0: she is worth having"),
                "vp": ("change in the seat's final VP", "> 0: she is worth VP")},
    "books": {"win_share": ("change in the seat's win share",
                            "< 0: buying the colour is worth that much"),
              "vp": ("change in the seat's final VP", "< 0: buying the colour is worth that "
                                                       "much"),
              "winner_buy_share": ("share of the winners' bought chips of this colour", None)},
}


def _family(game: pd.DataFrame, prefix: str, suffix: str = "") -> pd.DataFrame:
    """The per-round rows of one metric family (``prefix{k}suffix``), by round."""
    m = game["metric"].astype(str)
    sub = game[m.str.startswith(prefix) & m.str.endswith(suffix) & game["round"].notna()]
    return sub.sort_values("round")


def _points(ax, x, sub: pd.DataFrame, style: dict, label: str | None = None) -> None:
    ax.errorbar(x, sub["value"].to_numpy(float), yerr=error_bars(sub["value"], sub["ci_lo"],
                                                                 sub["ci_hi"]),
                capsize=3, label=label, **style)


def plot_game(game: pd.DataFrame, players: int) -> Figure:
    """Four panels from the game table: seats, catch-up, lock round, explosions by round."""
    fig = new_figure(10, 7)
    (a, b), (c, d) = fig.subplots(2, 2)
    seats = game[game["seat"].notna()].sort_values("seat")
    x = seats["seat"].to_numpy(int)
    _points(a, x, seats, {"fmt": "o", "color": palette(1)[0]})
    a.axhline(1 / players, color="grey", ls="--", lw=1)
    a.set_xticks(x, [seat_label(k) for k in x])
    a.set_ylabel("win share")
    a.set_title("win share by seat (seat 1 starts round 1)")
    for i, (prefix, label) in enumerate((("last_after_round_", "last after round k"),
                                         ("leader_after_round_", "leader after round k"))):
        sub = _family(game, prefix, "_wins")
        _points(b, sub["round"].to_numpy(int), sub, line_style(i), label)
    b.axhline(1 / players, color="grey", ls="--", lw=1)
    b.set_xlabel("round k")
    b.set_ylabel("chance that player wins")
    b.set_title("catch-up")
    b.legend(fontsize=9, frameon=False)
    lock = _family(game, "lock_round_")
    _points(c, lock["round"].to_numpy(int), lock, {"fmt": "o", "color": palette(2)[1]})
    mean = game.set_index("metric")["value"]
    c.set_xlabel("round from which the winner leads for good")
    c.set_ylabel("share of games")
    c.set_title(f"lead kept to the end (mean round {mean.get('lock_round', np.nan):.2f}, "
                f"{mean.get('lead_changes', np.nan):.2f} lead changes a game)", fontsize=10)
    ex = _family(game, "explosion_rate_round_")
    _points(d, ex["round"].to_numpy(int), ex, line_style(2))
    d.axhline(mean.get("explosion_rate", np.nan), color="grey", ls="--", lw=1)
    d.set_xlabel("round")
    d.set_ylabel("explosions per potion")
    d.set_title("explosions by round")
    for ax in (b, c, d):
        ax.set_xticks(range(1, int(ex["round"].max() if len(ex) else 1) + 1))
    for ax in (a, b, c, d):
        ax.grid(alpha=0.3)
    return fig


def plot_skill(skill: pd.DataFrame, players: int) -> Figure:
    """The two lineups' focus win shares against 1/n, and their paired gap in the title."""
    fig = new_figure(9.5, 2.4)
    ax = fig.subplots()
    sub = skill[skill["metric"].isin(["skill_strong_win_share", "skill_weak_win_share"])]
    y = np.arange(len(sub))
    ax.errorbar(sub["value"].to_numpy(float), y,
                xerr=error_bars(sub["value"], sub["ci_lo"], sub["ci_hi"]), fmt="o", capsize=3,
                color=palette(1)[0])
    ax.axvline(1 / players, color="grey", ls="--", lw=1)
    ax.set_yticks(y, sub["label"].tolist())
    ax.set_ylim(-0.6, len(sub) - 0.4)
    ax.set_xlim(0, 1)
    ax.set_xlabel("win share")
    gap = skill[skill["metric"] == "skill_gap"]
    if len(gap):
        g = gap.iloc[0]
        ax.set_title(f"skill gap {g['value']:+.3f} [{g['ci_lo']:+.3f}, {g['ci_hi']:+.3f}], "
                     "paired by deal", fontsize=10, loc="right")
    ax.grid(alpha=0.3)
    return fig


def effect_columns(df: pd.DataFrame) -> list[str]:
    """The columns of an effects table that have a 95% interval (``X``, ``X_lo``, ``X_hi``)."""
    return [c for c in df.columns if f"{c}_lo" in df.columns and f"{c}_hi" in df.columns]


def _counts(df: pd.DataFrame, unit: str) -> str:
    """``n = G games (D deals) per <unit>`` (a range when the rows differ)."""
    def text(col: str) -> str:
        lo, hi = int(df[col].min()), int(df[col].max())
        return f"{lo:,}" if lo == hi else f"{lo:,}-{hi:,}"

    if not {"games", "deals"} <= set(df.columns) or not len(df):
        return ""
    return f"n = {text('games')} games ({text('deals')} deals, paired) per {unit}"


def effects_title(part: str, df: pd.DataFrame, rank_by: str | None) -> str:
    """The title of an effects plot: what is plotted (a paired effect with its 95% interval),
    how the rows are ranked and the games behind each row."""
    from sim.study.balance.settings import TITLES

    what, unit = EFFECT_TITLES.get(part, ("each row's effect", "row"))
    ranked = (RANK_AXIS.get(part, "rank").removeprefix("rank by ") if rank_by == "rank" else
              EFFECT_AXES.get(part, {}).get(rank_by, (str(rank_by).replace("_", " "),))[0])
    head = f"{TITLES.get(part, part)}: {what}"
    return "\n".join(x for x in (head, f"each point: the paired effect with its 95% interval; "
                                        f"ranked by {ranked}, with the rank's 95% interval",
                                  _counts(df, unit)) if x)


def plot_effects(df: pd.DataFrame, part: str) -> Figure:
    """The effects table of ``part`` (cards, witches, books; ``EFFECT_PLOTS``): one panel per
    effect with an interval, each axis saying what is measured and what its sign means, a row
    per entry, ranked by the part's ranking effect."""
    _, label, rank_by = EFFECT_PLOTS[part]
    axes_text = EFFECT_AXES.get(part, {})
    cols = effect_columns(df)
    key = rank_by if rank_by in cols else (cols[0] if cols else None)
    # the top of the plot holds the largest value, or rank 1
    order = (df.sort_values(key, ascending=key != "rank", kind="stable") if key else df)
    names = order[label].astype(str).tolist() if label in order else [str(i) for i in order.index]
    fig = new_figure(3.6 * max(1, len(cols)) + 1.5, 0.28 * len(order) + 2.2)
    axes = np.atleast_1d(fig.subplots(1, max(1, len(cols)), sharey=True))
    y = np.arange(len(order))
    for ax, c, colour in zip(axes, cols, palette(len(cols))):
        ax.errorbar(order[c].to_numpy(float), y,
                    xerr=error_bars(order[c], order[f"{c}_lo"], order[f"{c}_hi"]), fmt="o",
                    capsize=2, color=colour)
        name, sign = ((RANK_AXIS.get(part, "rank") + "\n95% interval: bootstrap over deals",
                       None) if c == "rank" else
                      axes_text.get(c, (c.replace("_", " "), "> 0: more")))
        if sign is not None:  # a difference: 0 is no effect
            ax.axvline(0, color="grey", lw=0.8)
        if c == "rank":  # rank 1 on the left, whole ranks only
            ax.set_xlim(0.5, max(float(order["rank_hi"].max()), 1.0) + 0.5)
            ax.xaxis.get_major_locator().set_params(integer=True)
        ax.set_xlabel(name + (f"\n{sign}" if sign else ""), fontsize=9)
        ax.grid(alpha=0.3)
    axes[0].set_yticks(y, names, fontsize=9)
    axes[0].set_ylabel(EFFECT_TITLES.get(part, ("", label))[1])
    fig.suptitle(effects_title(part, df, key), fontsize=10)
    return fig


def plot_jobs(tables: dict[str, pd.DataFrame | None],
              players: int) -> list[tuple[str, Callable[[], Figure]]]:
    """The plots the tables allow, as (PNG file name, function drawing the Figure)."""
    jobs = []
    if tables.get("game") is not None:
        jobs.append(("game.png", lambda: plot_game(tables["game"], players)))
    if tables.get("skill") is not None:
        jobs.append(("skill.png", lambda: plot_skill(tables["skill"], players)))
    for part, (name, _, _) in EFFECT_PLOTS.items():
        df = tables.get(part)
        if df is not None and len(df) and effect_columns(df):
            jobs.append((name, lambda df=df, part=part: plot_effects(df, part)))
    return jobs


def render(tables: dict[str, pd.DataFrame | None], players: int, outdir: Path) -> list[str]:
    """Draw every plot the tables allow into ``outdir``; return the file names."""
    return [save_png(draw(), outdir, name) for name, draw in plot_jobs(tables, players)]

