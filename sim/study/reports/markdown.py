"""Markdown and text tables of a report: ``summary.md`` of a tournament, ``sweep.md`` of a
sweep, and the row formatters the command line prints with."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from sim.rules.ruleset import rules_label
from sim.study.common.plot_style import seat_label
from sim.study.tournament.cycles import ALPHA, CYCLE_STATS, METHOD_CYCLES, POPULATION


def _fmt(x, digits: int) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "n/a"
    return f"{x:.{digits}f}"


def _ci(lo, hi, digits: int) -> str:
    return f"[{_fmt(lo, digits)}, {_fmt(hi, digits)}]"


def md_table(header: Sequence[str], rows: Sequence[Sequence[str]],
             right: Sequence[bool] | None = None) -> str:
    """A GitHub-flavoured markdown table."""
    right = right or [i > 0 for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---:" if r else ":---" for r in right) + "|"]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in rows]
    return "\n".join(lines)


def strategy_rows(df: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Header and formatted rows of the per-strategy table (shared by markdown and console)."""
    header = ["strategy", "games", "win share [95% CI]", "mean VP [95% CI]", "mean rank [95% CI]",
              "explosions/potion [95% CI]", "rating [95% CI]"]
    rows = []
    for r in df.to_dict(orient="records"):
        rows.append([
            str(r["strategy"]), f"{int(r['games']):,}",
            f"{_fmt(r['win_share'], 4)} {_ci(r['win_share_ci_lo'], r['win_share_ci_hi'], 4)}",
            f"{_fmt(r['mean_vp'], 2)} {_ci(r['mean_vp_ci_lo'], r['mean_vp_ci_hi'], 2)}",
            f"{_fmt(r['mean_rank'], 3)} {_ci(r['mean_rank_ci_lo'], r['mean_rank_ci_hi'], 3)}",
            f"{_fmt(r['explosion_rate'], 4)} "
            f"{_ci(r['explosion_rate_ci_lo'], r['explosion_rate_ci_hi'], 4)}",
            f"{_fmt(r['rating'], 0)} {_ci(r['rating_ci_lo'], r['rating_ci_hi'], 0)}",
        ])
    return header, rows


def pair_rows(df: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Header and formatted rows of the paired-difference table."""
    header = ["A", "B", "deals", "VP A-B [95% CI]", "(if unpaired)", "win share A-B [95% CI]",
              "(if unpaired)"]
    rows = [[str(r["strategy_a"]), str(r["strategy_b"]), f"{int(r['deals']):,}",
             f"{_fmt(r['vp_diff'], 2)} {_ci(r['vp_diff_ci_lo'], r['vp_diff_ci_hi'], 2)}",
             _ci(r["vp_diff_ci_unpaired_lo"], r["vp_diff_ci_unpaired_hi"], 2),
             f"{_fmt(r['win_share_diff'], 4)} "
             f"{_ci(r['win_share_diff_ci_lo'], r['win_share_diff_ci_hi'], 4)}",
             _ci(r["win_share_diff_ci_unpaired_lo"], r["win_share_diff_ci_unpaired_hi"], 4)]
            for r in df.to_dict(orient="records")]
    return header, rows


def seat_rows(df: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the seat table (pooled over strategies); seats numbered from 1 (the
    start player of round 1), as in every table and plot a person reads."""
    header = ["seat", "games", "win share [95% CI]", "mean VP [95% CI]"]
    sub = df[df["strategy"] == "all"]
    rows = [[str(int(r["seat"]) + 1), f"{int(r['games']):,}",
             f"{_fmt(r['win_share'], 4)} {_ci(r['win_share_ci_lo'], r['win_share_ci_hi'], 4)}",
             f"{_fmt(r['mean_vp'], 2)} {_ci(r['mean_vp_ci_lo'], r['mean_vp_ci_hi'], 2)}"]
            for r in sub.to_dict(orient="records")]
    return header, rows


def head_to_head_rows(df: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the head-to-head matrix: row A, column B, cell A's win share [95% CI]
    in the games where A and B sat at the same table (the diagonal is "-")."""
    names = [str(x) for x in df["a"].cat.categories]
    cells = {(str(r["a"]), str(r["b"])):
             f"{_fmt(r['win_share_a'], 3)} {_ci(r['win_share_a_ci_lo'], r['win_share_a_ci_hi'], 3)}"
             for r in df.to_dict(orient="records")}
    rows = [[a, *[("-" if a == b else cells.get((a, b), "")) for b in names]] for a in names]
    return ["A \\ B", *names], rows


def cycle_rows(df: pd.DataFrame, strategies: pd.DataFrame | None = None
               ) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the cycle table (one column per statistic of ``CYCLE_STATS`` with its
    95% interval), with the Plackett-Luce rating of ``strategies`` beside it when given."""
    header = ["strategy", *[f"{label} [95% CI]" for _, label in CYCLE_STATS]]
    pl = {}
    if strategies is not None:
        header.append("Plackett-Luce rating")
        pl = {str(r["strategy"]): _fmt(r["rating"], 0) for r in strategies.to_dict("records")}
    rows = []
    for r in df.to_dict(orient="records"):
        cells = [f"{_fmt(r[k], 4)} {_ci(r[k + '_ci_lo'], r[k + '_ci_hi'], 4)}"
                 for k, _ in CYCLE_STATS]
        rows.append([str(r["strategy"]), *cells, *([pl.get(str(r["strategy"]), "")] if pl else [])])
    return header, rows


def head_to_head_counts(df: pd.DataFrame) -> str:
    """How many games and deals each head-to-head cell rests on (one figure when all are equal)."""
    def span(col: str) -> str:
        lo, hi = int(df[col].min()), int(df[col].max())
        return f"{lo:,}" if lo == hi else f"{lo:,}-{hi:,}"

    return f"{span('games')} games, {span('deals')} deals per pair"


def interval_methods_md(methods: dict) -> str:
    """A markdown list of which interval each statistic uses."""
    if not methods:
        return ""
    lines = ["Interval methods:", ""] + [f"- {k}: {v}" for k, v in methods.items()]
    return "\n".join(lines) + "\n"


def summary_markdown(result) -> str:
    """``summary.md``: the run in one paragraph, then every table."""
    s = result.summary
    st = result.plan.settings()
    out = [f"# Tournament: {result.games:,} games ({result.deals:,} deals), "
           f"{st['players']} players",
           "",
           f"Format `{st['format']}`"
           f"{' (duplicate: every deal in every seat rotation)' if st['duplicate'] else ''}, "
           f"seed {st['seed']}, rules `{result.plan.ruleset.display}` "
           f"(hash `{st['rules_hash'][:12]}`), "
           f"stopped: {result.stopped}"
           + (f" (until-ci {st['until_ci']}, widest win-share half-width "
              f"{result.max_halfwidth:.4f})"
              if st["until_ci"] is not None else "") + ".",
           "",
           "Every interval is 95% and treats the **deal** (one game seed, whose random streams "
           "every rotation and table of the deal share) as the independent unit, never the game. "
           "Win share (a k-way shared win counts 1/k) and explosions per potion: Wilson intervals "
           "at the cluster effective sample size, with the t quantile over deals (they stay inside "
           "[0, 1]). Mean VP and mean rank: cluster-robust t intervals over deals. Rating: "
           "Plackett-Luce maximum likelihood on the finishing orders (Elo scale, centred on 0; "
           "ties split), with a cluster-robust sandwich covariance over deals.",
           "", interval_methods_md(s.info.get("interval_methods", {})),
           "", "## Strategies", ""]
    h, rows = strategy_rows(s.strategies)
    out += [md_table(h, rows, [False] + [True] * (len(h) - 1)), ""]
    note = s.info.get("rating_note")
    if note:
        out += [f"Rating note: {note}.", ""]
    if len(s.pairs):
        out += ["## Paired differences (per deal)", "",
                "Mean over deals of the difference of the two strategies' per-deal averages (VP "
                "and win share), with a t-interval over deals: this is the interval for the "
                "difference. The *(if unpaired)* columns are not an interval for this run's "
                "difference: they show, for comparison, how wide it would be if the two "
                "strategies' means (each clustered over deals) had been measured on independent "
                "deals, i.e. what pairing buys. Pairing removes the luck of the deal, which "
                "narrows the VP difference; a win-share difference between two strategies at the "
                "same table also carries their head-to-head (when one wins the other does not), "
                "which pairing rightly counts, so it can come out wider than the unpaired figure.",
                ""]
        h, rows = pair_rows(s.pairs)
        out += [md_table(h, rows, [False, False, True, True, True, True, True]), ""]
    h2h = s.head_to_head
    if h2h is not None and len(h2h):
        out += ["## Head to head", "",
                "Row A, column B: A's win share in the games where A and B sat at the same table "
                f"[95% CI] ({head_to_head_counts(h2h)}; every cell in head_to_head.csv). Same "
                "interval as the strategies' win share: a ratio over deals, Wilson at the cluster "
                "effective sample size. At two-player tables a cell is the head-to-head result and "
                "A-B plus B-A is 1; at larger tables it also counts the other players, and the "
                f"equal share is 1/{st['players']}.", ""]
        h, rows = head_to_head_rows(h2h)
        out += [md_table(h, rows, [False] + [True] * (len(h) - 1)), ""]
    nash = s.nash
    if nash is not None and len(nash):
        out += ["## Ratings that see cycles: Nash averaging and AlphaRank", "",
                "The head-to-head matrix as a game: A[i, j] = (win share of i vs j - win share of "
                "j vs i) / 2. *Nash weight*: the strategy's weight in the maximum-entropy Nash "
                "equilibrium of that symmetric zero-sum game; *Nash rating*: its payoff against "
                "the equilibrium mixture (0 for the strategies in it, below 0 for the rest: how "
                "much it loses to the mixture, in win share; at two-player tables its win share "
                "against the mixture minus 1/2). *AlphaRank mass*: the stationary distribution of "
                f"single-population AlphaRank (alpha {ALPHA:g}, population {POPULATION}). Where "
                "the matrix is transitive these agree with the Plackett-Luce order and put the "
                "weight on the best strategy; with a cycle (A beats B beats C beats A) they spread "
                "it over the cycle, where Plackett-Luce ranks by the average, and copies of a "
                "strategy in the pool change the average but not the Nash ratings. Intervals: "
                f"{METHOD_CYCLES} "
                "(every column in nash.csv).", ""]
        h, rows = cycle_rows(nash, s.strategies)
        out += [md_table(h, rows, [False] + [True] * (len(h) - 1)), ""]
    out += ["## Seats", "", "Win share by seat, pooled over strategies (the seat advantage the "
            "rotation balances out).", ""]
    h, rows = seat_rows(s.seats)
    out += [md_table(h, rows), ""]
    per = s.seats[s.seats["strategy"] != "all"]
    if len(per):
        seats = sorted(int(x) for x in per["seat"].unique())
        rows = _by_strategy(per, "seat", seats, "win_share", 3)
        out += ["Win share by strategy and seat [95% CI]:", "",
                md_table(["strategy", *[seat_label(x) for x in seats]], rows), ""]
    b = s.bought
    if len(b):
        colours = [c for c in b["colour"].cat.categories
                   if b.loc[b["colour"] == c, "mean"].max() > 0]
        rows = _by_strategy(b, "colour", colours, "mean", 2, count="games")
        out += ["## Chips bought per game (mean [95% CI])", "",
                md_table(["strategy", "games", *colours], rows), ""]
    if s.rounds is not None:
        r = s.rounds
        out += ["## By round (mean [95% CI]; every metric in rounds_summary.csv)", ""]
        for metric, title, digits in (("exploded", "Explosion rate", 3),
                                      ("reward_space", "Reward space", 2)):
            sub = r[r["metric"] == metric]
            rounds = sorted(int(x) for x in sub["round"].unique())
            rows = _by_strategy(sub, "round", rounds, "mean", digits, count="n")
            out += [f"{title} by round:", "",
                    md_table(["strategy", "games", *[f"round {int(k)}" for k in rounds]], rows), ""]
    if result.notes:
        out += ["## Notes", "", *[f"- {n}" for n in result.notes], ""]
    return "\n".join(out)


def _by_strategy(df, key: str, keys: list, value: str, digits: int, count: str | None = None):
    """A table's rows, one per strategy of ``df``: its name, its games (the column ``count``,
    when given), and its ``value`` with the 95% interval (columns ``<value>_ci_lo/hi``, or
    ``ci_lo/hi`` for ``mean``) at each of ``keys`` of the column ``key`` (blank where none)."""
    lo, hi = ("ci_lo", "ci_hi") if value == "mean" else (f"{value}_ci_lo", f"{value}_ci_hi")
    rows = []
    for name, g in df.groupby("strategy", observed=True):
        cells = {r[key]: f"{_fmt(r[value], digits)} {_ci(r[lo], r[hi], digits)}"
                 for r in g.to_dict(orient="records")}
        rows.append([str(name), *([f"{int(g[count].iloc[0]):,}"] if count else []),
                     *[cells.get(k, "") for k in keys]])
    return rows


# --- reading a report back --------------------------------------------------------------------


def sweep_markdown(res) -> str:
    """``sweep.md``: the focus strategy at each value (or grid cell), with its paired difference
    to the baseline."""
    st = res.settings
    keys = st.get("keys") or [st["key"]]
    grid = len(keys) > 1
    header = [*keys, "games", "win share [95% CI]", "mean VP [95% CI]", "mean rank [95% CI]",
              "explosions/potion [95% CI]", "win share - baseline [95% CI]",
              "VP - baseline [95% CI]"]
    rows = []
    for r in res.table.to_dict(orient="records"):
        vals = [f"{r['value']:g}"] + ([f"{r['value2']:g}"] if grid else [])
        if r.get("baseline"):
            vals[-1] += " (baseline)"
        rows.append([*vals, f"{int(r['games']):,}",
                     f"{_fmt(r['win_share'], 4)} "
                     f"{_ci(r['win_share_ci_lo'], r['win_share_ci_hi'], 4)}",
                     f"{_fmt(r['mean_vp'], 2)} {_ci(r['mean_vp_ci_lo'], r['mean_vp_ci_hi'], 2)}",
                     f"{_fmt(r['mean_rank'], 3)} "
                     f"{_ci(r['mean_rank_ci_lo'], r['mean_rank_ci_hi'], 3)}",
                     f"{_fmt(r['explosion_rate'], 4)} "
                     f"{_ci(r['explosion_rate_ci_lo'], r['explosion_rate_ci_hi'], 4)}",
                     f"{_fmt(r['win_share_diff'], 4)} "
                     f"{_ci(r['win_share_diff_ci_lo'], r['win_share_diff_ci_hi'], 4)}",
                     f"{_fmt(r['vp_diff'], 2)} {_ci(r['vp_diff_ci_lo'], r['vp_diff_ci_hi'], 2)}"])
    b = res.baseline
    where = ("one of the values above" if b.get("in_grid") else
             f"played on the same deals in `{b.get('dir')}/`: win share "
             f"{_fmt(b.get('win_share'), 4)} {_ci(*b.get('win_share_ci', [float('nan')] * 2), 4)}, "
             f"mean VP {_fmt(b.get('mean_vp'), 2)} "
             f"{_ci(*b.get('mean_vp_ci', [float('nan')] * 2), 2)}")
    what = " x ".join(f"`{k}`" for k in keys)
    return "\n".join([
        f"# Sweep of {what} for `{st['strategy']}` against `{','.join(st['vs'])}`", "",
        f"{st['players']} players, {st['games']:,} games per value (each deal in every seat "
        f"rotation; the same deals for every value), seed {st['seed']}, rules "
        f"`{rules_label(st['rules'], st.get('overrides') or [])}`.", "",
        f"Baseline: `{b.get('spec', '')}`, {where}. The differences are paired: the mean over the "
        "deals both runs played of the difference of the focus strategy's per-deal averages, with "
        "a t interval over deals. Every other interval treats the deal as the independent unit "
        "(win share and explosions: Wilson at the cluster effective sample size; means: "
        "cluster-robust t). All intervals 95%.", "",
        md_table(header, rows), "",
        f"Each value's full report is in its own directory ({res.dirs[0] if res.dirs else ''}, "
        "...).", ""])
