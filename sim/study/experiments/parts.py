"""The game-playing parts of an experiment: sweep, tournament, ingredient value and price
sensitivity, catch-up and seat advantage. Each runner takes the checked part (a dict, see
``sim.study.experiments.file``) and the run context, and returns a :class:`PartReport`: its tables
(pandas, with 95% intervals and the games behind every figure), its figures (PNG files in the
part's folder) and a markdown section.

Every part plays with the experiment's seed, so each game part plays the same deals whatever the
variant or price, and differences are paired by deal.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.stats.clusters import ratio_mean_var, share_interval
from sim.study.experiments.plots import (
    plot_catchup,
    plot_ingredient,
    plot_seat_advantage,
    save_figure,
)
from sim.study.reports.markdown import md_table
from sim.study.sweep.run import focus_deal_means, paired_diff_columns
from sim.study.tournament.plan import TournamentConfig, resolve_plan
from sim.study.tournament.run import run_tournament


@dataclass
class Context:
    """What every part of a run shares: the seed, the ruleset, the games and a progress hook."""

    seed: int
    games: int
    rules: str
    overrides: list[str]
    players: int
    games_override: int | None = None
    progress: Callable[[str], None] | None = None
    backend: object = None  # an entered sim.study.tournament.backend backend (None: this process)

    def games_for(self, part: dict) -> int:
        """Games of a part: --games if given, else the part's own, else the experiment's."""
        if self.games_override is not None:
            return self.games_override
        return int(part["games"] or self.games)

    def players_for(self, part: dict) -> int:
        return int(part["players"] or self.players)

    def overrides_for(self, part: dict, extra: list[str] | tuple[str, ...] = ()) -> tuple[str, ...]:
        return (*self.overrides, *[str(s) for s in part["set"]], *extra)

    def say(self, msg: str) -> None:
        if self.progress:
            self.progress(msg)


@dataclass
class PartReport:
    """A finished part: tables, figures (file, caption) and its markdown section."""

    name: str
    kind: str
    title: str
    tables: dict[str, pd.DataFrame]
    figures: list[tuple[str, str]] = field(default_factory=list)
    markdown: str = ""
    games: int = 0


def ci_text(m: float, lo: float, hi: float, digits: int = 3) -> str:
    """``m [lo, hi]`` for markdown."""
    if not np.isfinite(m):
        return "n/a"
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return f"{m:.{digits}f}"
    return f"{m:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _tournament(ctx: Context, part: dict, strategies, *, fmt: str | None = None,
                extra: tuple[str, ...] = (), players: int | None = None, detail: str = "games",
                out: Path | None = None, keep_focus: bool = False):
    cfg = TournamentConfig(strategies=tuple(strategies), players=players or ctx.players_for(part),
                           format=fmt, games=ctx.games_for(part), seed=ctx.seed, rules=ctx.rules,
                           overrides=ctx.overrides_for(part, extra), detail=detail)
    return run_tournament(resolve_plan(cfg), out=out, plots=False,
                          keep_deals=(0,) if keep_focus else (), backend=ctx.backend)


def run_tournament_part(part: dict, ctx: Context, outdir: Path) -> PartReport:
    """A field of strategies: the tables ``quacks tournament`` writes (``summary_tables``:
    summary, pairs, seats, bought, vp_hist, and with more strategies than seats head_to_head
    and nash), the strategy and paired-difference tables in markdown and the win-share
    figure."""
    from sim.study.reports.markdown import pair_rows
    from sim.study.reports.plots import plot_win_share
    from sim.study.reports.writer import summary_tables

    r = _tournament(ctx, part, part["strategies"], fmt=part["format"])
    table = r.summary.strategies
    fig = save_figure(plot_win_share(table, r.plan.players), outdir, "win_share.png")
    rows = [[str(x.strategy), ci_text(x.win_share, x.win_share_ci_lo, x.win_share_ci_hi),
             ci_text(x.mean_vp, x.mean_vp_ci_lo, x.mean_vp_ci_hi, 1), f"{int(x.games):,}"]
            for x in table.itertuples()]
    md = md_table(["strategy", "win share [95% CI]", "mean VP [95% CI]", "games"], rows)
    if r.summary.pairs is not None and len(r.summary.pairs):
        md += "\n\nPaired differences per deal:\n\n" + md_table(*pair_rows(r.summary.pairs))
    return PartReport(part["name"], "tournament", part["title"], summary_tables(r.summary),
                      [(fig, "Win share of each strategy (95% intervals).")], md,
                      int(r.games))


def run_sweep_part(part: dict, ctx: Context, outdir: Path) -> PartReport:
    """One strategy at each value of a parameter against a field (quacks sweep)."""
    from sim.study.sweep.plots import plot_sweep
    from sim.study.sweep.run import run_sweep

    res = run_sweep(part["strategy"], part["param"], part["vs"], players=ctx.players_for(part),
                    games=ctx.games_for(part), seed=ctx.seed, rules=ctx.rules,
                    overrides=ctx.overrides_for(part), backend=ctx.backend)
    table = res.table.copy()
    table["strategy"] = table["strategy"].astype(str)
    fig = save_figure(plot_sweep(res.table, res.settings), outdir, "sweep.png")
    rows = [[f"{x.value:g}", ci_text(x.win_share, x.win_share_ci_lo, x.win_share_ci_hi),
             ci_text(x.win_share_diff, x.win_share_diff_ci_lo, x.win_share_diff_ci_hi),
             ci_text(x.mean_vp, x.mean_vp_ci_lo, x.mean_vp_ci_hi, 1), f"{int(x.games):,}"]
            for x in table.itertuples()]
    md = md_table([res.key, "win share [95% CI]", "vs baseline (paired)", "mean VP", "games"],
                  rows)
    return PartReport(part["name"], "sweep", part["title"], {"sweep": table},
                      [(fig, f"Win share of {part['strategy']} by {res.key} against "
                             f"{', '.join(part['vs'])}.")], md,
                      sum(int(r.games) for r in res.results))


def price_key(rules, chip: str) -> tuple[str, int]:
    """The ruleset key of a chip's price under the book in play, and that price."""
    from sim.rules import chips as C

    t = C.parse_chips(chip)[0]
    colour = C.COLOUR_NAMES[C.TYPE_COLOUR[t]]
    book = int(rules.data["books"].get(colour, 1))
    return f"prices.set{book}.{C.chip_name(t)}", int(rules.price[t])


def run_ingredient_part(part: dict, ctx: Context, outdir: Path) -> PartReport:
    """For each chip, a strategy that favours it (``favour`` with ``{chip}``) against the field,
    at the chip's price moved by each delta; paired differences to the unchanged price."""
    from sim.rules.ruleset import load_ruleset

    rules = load_ruleset(ctx.rules, ctx.overrides_for(part))
    deltas = sorted(set(int(d) for d in part["price_deltas"]) | {0})
    rows, games = [], 0
    for chip in part["chips"]:
        spec = part["favour"].replace("{chip}", chip)
        key, price = price_key(rules, chip)
        per = {}
        for d in deltas:
            if price + d < 1:
                continue
            ctx.say(f"{part['name']}: {chip} at {price + d} coins")
            r = _tournament(ctx, part, (spec, *part["vs"]), fmt="vs-field",
                            extra=(f"{key}={price + d}",), keep_focus=True)
            games += int(r.games)
            per[d] = (r, focus_deal_means(r))
        base = per[0][1]
        for d, (r, deals) in per.items():
            x = r.summary.strategies.iloc[0]
            diff = paired_diff_columns(deals, base)
            rows.append({"chip": chip, "delta": d, "price": price + d, "spec": spec,
                         "win_share": x.win_share, "win_share_ci_lo": x.win_share_ci_lo,
                         "win_share_ci_hi": x.win_share_ci_hi, "mean_vp": x.mean_vp,
                         "mean_vp_ci_lo": x.mean_vp_ci_lo, "mean_vp_ci_hi": x.mean_vp_ci_hi,
                         "diff_vs_base_price": diff["win_share_diff"],
                         "diff_ci_lo": diff["win_share_diff_ci_lo"],
                         "diff_ci_hi": diff["win_share_diff_ci_hi"],
                         "deals": diff["diff_deals"], "games": int(x.games)})
    table = pd.DataFrame(rows)
    fig = save_figure(plot_ingredient(table), outdir, "ingredient.png")
    base_rows = table[table["delta"] == 0]
    md = "Win share of the strategy that favours each chip, at the printed price:\n\n"
    md += md_table(["chip", "price", "win share [95% CI]", "mean VP", "games"],
                   [[x.chip, str(x.price), ci_text(x.win_share, x.win_share_ci_lo,
                                                   x.win_share_ci_hi),
                     ci_text(x.mean_vp, x.mean_vp_ci_lo, x.mean_vp_ci_hi, 1),
                     f"{x.games:,}"] for x in base_rows.itertuples()])
    if len(deltas) > 1:
        piv = table.pivot(index="chip", columns="delta", values="diff_vs_base_price")
        piv = piv.reindex(part["chips"])
        md += ("\n\nPrice sensitivity: change in that strategy's win share when the chip's price "
               "moves by each delta (paired by deal; intervals in `ingredient.parquet`):\n\n")
        md += md_table(["chip", *[f"{d:+d}" for d in piv.columns]],
                       [[c, *[("" if not np.isfinite(v) else f"{v:+.3f}") for v in piv.loc[c]]]
                        for c in piv.index])
    return PartReport(part["name"], "ingredient", part["title"], {"ingredient": table},
                      [(fig, "Win share of the chip-favouring strategy by price change "
                             "(95% intervals).")], md, games)


DEFAULT_GAP_BINS = [-30, -15, -8, -3, 0, 3, 8, 15, 30]


def gap_table(games: pd.DataFrame, rounds: pd.DataFrame, k: int, bins: list[int]) -> pd.DataFrame:
    """Win share by score gap after round ``k`` (own VP minus the best other player's), per gap
    bin, with a 95% interval clustered by deal. ``games``: game, deal, seat, win_share;
    ``rounds``: game, round, seat, score."""
    r = rounds[rounds["round"] == k][["game", "seat", "score"]]
    r = r.assign(gap=r["score"].to_numpy() - best_other(r["game"].to_numpy(),
                                                       r["score"].to_numpy()))
    m = r.merge(games[["game", "seat", "deal", "win_share"]], on=["game", "seat"])
    edges = [-np.inf, *bins, np.inf]
    labels = [_bin_label(edges[i], edges[i + 1]) for i in range(len(edges) - 1)]
    m["bin"] = pd.cut(m["gap"], edges, labels=labels, right=False)
    rows = []
    for lab in labels:
        sub = m[m["bin"] == lab]
        if sub.empty:
            rows.append({"after_round": k, "gap": lab, "rows": 0, "deals": 0,
                         "win_share": np.nan, "ci_lo": np.nan, "ci_hi": np.nan})
            continue
        per = sub.groupby("deal")["win_share"].agg(["sum", "count"])
        x, n = per["sum"].to_numpy(float), per["count"].to_numpy(float)
        mean, var = ratio_mean_var(x.sum(), n.sum(), (x * x).sum(), (x * n).sum(), (n * n).sum(),
                                   len(per))
        lo, hi = share_interval(mean, var, len(per))
        rows.append({"after_round": k, "gap": lab, "rows": len(sub), "deals": len(per),
                     "win_share": float(mean), "ci_lo": float(lo[0]), "ci_hi": float(hi[0])})
    return pd.DataFrame(rows)


def best_other(game: np.ndarray, score: np.ndarray) -> np.ndarray:
    """For each row, the highest score among the other rows of the same game."""
    order = np.lexsort((-score, game))
    g, sc = game[order], score[order]
    first = np.r_[True, g[1:] != g[:-1]]
    start = np.maximum.accumulate(np.where(first, np.arange(len(g)), 0))
    top = sc[start]
    nxt = np.where(start + 1 < len(g), sc[np.minimum(start + 1, len(g) - 1)], top)
    same = (start + 1 < len(g)) & (g[np.minimum(start + 1, len(g) - 1)] == g)
    second = np.where(same, nxt, top)
    pos = np.arange(len(g))
    out_sorted = np.where(pos == start, second, top)
    out = np.empty_like(out_sorted)
    out[order] = out_sorted
    return out


def _bin_label(lo: float, hi: float) -> str:
    if not np.isfinite(lo):
        return f"< {int(hi)}"
    if not np.isfinite(hi):
        return f">= {int(lo)}"
    return f"{int(lo)}..{int(hi) - 1}" if hi - lo > 1 else f"{int(lo)}"


def run_catchup_part(part: dict, ctx: Context, outdir: Path) -> PartReport:
    """Win share by score gap after each listed round, under each variant (e.g. rats on/off)."""
    variants = part["variants"] or [{"label": "base", "set": [], "rules": None}]
    bins = [int(b) for b in (part["gap_bins"] or DEFAULT_GAP_BINS)]
    tables, games = [], 0
    for v in variants:
        ctx.say(f"{part['name']}: {v['label']}")
        with tempfile.TemporaryDirectory(prefix=".catchup-", dir=outdir) as tmp:
            r = _tournament(ctx, part, part["strategies"], extra=tuple(v["set"]),
                            detail="rounds", out=Path(tmp) / "run")
            games += int(r.games)
            g = pd.read_parquet(Path(tmp) / "run" / "games.parquet",
                                columns=["game", "deal", "seat", "win_share"])
            rd = pd.read_parquet(Path(tmp) / "run" / "rounds.parquet",
                                 columns=["game", "round", "seat", "score"])
        for k in part["after_rounds"]:
            t = gap_table(g, rd, int(k), bins)
            t.insert(0, "variant", v["label"])
            tables.append(t)
    table = pd.concat(tables, ignore_index=True)
    fig = save_figure(plot_catchup(table), outdir, "catchup.png")
    md = ("Win share by score gap (own VP minus the best other player's) after round k; 95% "
          "intervals clustered by deal:\n\n")
    md += md_table(["variant", "after round", "gap", "win share [95% CI]", "seat-games"],
                   [[x.variant, str(x.after_round), x.gap, ci_text(x.win_share, x.ci_lo, x.ci_hi),
                     f"{x.rows:,}"] for x in table.itertuples() if x.rows > 0])
    return PartReport(part["name"], "catchup", part["title"], {"catchup": table},
                      [(fig, "Win share by score gap after round k.")], md, games)


def run_seats_part(part: dict, ctx: Context, outdir: Path) -> PartReport:
    """A mirror game of one strategy at each player count: win share by seat (seat 1 starts)."""
    rows, games = [], 0
    for n in part["player_counts"]:
        ctx.say(f"{part['name']}: {n} players")
        r = _tournament(ctx, part, (part["strategy"],), players=int(n))
        games += int(r.games)
        s = r.summary.seats
        s = s[s["strategy"] == "all"]
        for x in s.itertuples():
            rows.append({"players": int(n), "seat": int(x.seat) + 1, "win_share": x.win_share,
                         "ci_lo": x.win_share_ci_lo, "ci_hi": x.win_share_ci_hi,
                         "fair_share": 1.0 / n, "excess": x.win_share - 1.0 / n,
                         "mean_vp": x.mean_vp, "games": int(x.games)})
    table = pd.DataFrame(rows)
    fig = save_figure(plot_seat_advantage(table), outdir, "seats.png")
    md = md_table(["players", "seat", "win share [95% CI]", "fair share", "mean VP", "games"],
                  [[str(x.players), str(x.seat), ci_text(x.win_share, x.ci_lo, x.ci_hi),
                    f"{x.fair_share:.3f}", f"{x.mean_vp:.1f}", f"{x.games:,}"]
                   for x in table.itertuples()])
    return PartReport(part["name"], "seats", part["title"], {"seats": table},
                      [(fig, f"Win share by seat in {part['strategy']} mirror games.")], md, games)
