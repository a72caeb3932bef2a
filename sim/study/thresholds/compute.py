"""The analyst's stop curve: for one bag, every white-total and risk threshold against the optimal
stopper (``quacks thresholds``).

Each stop rule's explosion chance, mean reward space, coins, VP and rubies (what ``quacks potion``
reports for it), its value (VP + coins x coin value + ruby x ruby value, an exploded pot taking
the better of VP and coins: what the optimal stopper maximises) and its regret against the
optimal stopper. Exact by enumeration when the bag allows (Set 1 books, no card, a small enough
bag), sampled otherwise with 95% intervals. The optimal stopper's policy is drawn as a map: for
each (chips drawn, white total) decision, how often it is reached and how often it draws.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd

from sim.api import potion as pot
from sim.api.exact import (
    MAX_STATES,
    ExactPotion,
    TooLargeError,
    draw_choices,
    minus,
    sub_bag_count,
)
from sim.rules import chips
from sim.rules.ruleset import Ruleset
from sim.rules.track import SPOON, TRACK_LEN
from sim.stats.intervals import mean_ci
from sim.study.common.out_probe import atomic_write
from sim.study.thresholds.figures import (  # noqa: F401
    figure_format,
    figure_jobs,
    policy_figure,
    stop_curve_figure,
)
from strategies.builtin import DEFAULT_COIN_VALUE

AUTO_EXACT_SUBBAGS = 2_000  # --exact/--sample not given: enumerate up to this many sub-bags
DEFAULT_RISK = tuple(round(0.05 * k, 2) for k in range(1, 11))
MEASURES = ("p_explode", "expected_reward_space", "expected_coins", "expected_vp",
            "expected_rubies", "expected_value", "regret")
POLICY_COLUMNS = ("chips_drawn", "white_total", "p_reach", "p_draw", "share_draw", "states",
                  "states_draw")
OPTIMAL_SAMPLED = ("sampled with the compiled optimal stopper (it solves the rest of the potion "
                   "exactly once the bag left has at most 5,000 sub-bags, by the one-step "
                   "expected value before)")


class ThresholdsError(ValueError):
    """Bad input to the thresholds study; the message says what would be right."""


# ---------------------------------------------------------------------------------------------
# inputs


def _grid(spec: str | None, default, option: str, parse: Callable[[str], list], lo: float,
          hi: float, usage: str) -> list:
    """A threshold list from ``spec`` (``None``: the default; ``none``: empty), every value in
    lo..hi, sorted without repeats; one ThresholdsError line otherwise."""
    if spec is None:
        return list(default)
    text = spec.strip().lower()
    if text == "none":
        return []
    try:
        vals = parse(text)
    except ValueError:
        vals = []
    if not vals or not all(lo <= v <= hi for v in vals):  # NaN fails too
        raise ThresholdsError(f"{option} {spec}: expected {usage}, or none")
    return sorted(set(vals))


def _parse_white(text: str) -> list[int]:
    if ":" not in text:
        return [int(x) for x in text.split(",") if x.strip()]
    a, b = (int(x) for x in text.split(":"))
    if not 0 <= b - a <= 100:
        raise ValueError(text)
    return list(range(a, b + 1))


def _parse_risk(text: str) -> list[float]:
    if ":" not in text:
        return [float(x) for x in text.split(",") if x.strip()]
    lo, hi, step = (float(x) for x in text.split(":"))
    if not (step > 0 and 0 <= (hi - lo) / step <= 1000):
        raise ValueError(text)
    return [round(lo + k * step, 10) for k in range(int(math.floor((hi - lo) / step + 1e-9)) + 1)]


def white_limit(ruleset: Ruleset, card: str | None = None) -> int:
    """The top of the default white-total thresholds: the explosion limit (raised by 2 under
    the living-in-luxury card)."""
    return int(ruleset.game("explosion_limit")) + (2 if card == "living-in-luxury" else 0)


def white_grid(spec: str | None, limit: int) -> list[int]:
    """White-total thresholds: ``None`` for 1..limit, ``A:B`` (inclusive), ``3,5,7`` or ``none``."""
    return _grid(spec, range(1, limit + 1), "--white", _parse_white, 1, 60,
                 "whole numbers from 1 to 60 as A:B or a comma list (e.g. 3:8 or 4,5,6)")


def risk_grid(spec: str | None) -> list[float]:
    """Risk thresholds: ``None`` for 0.05..0.5, ``0.1,0.2``, ``LO:HI:STEP`` or ``none``."""
    return _grid(spec, DEFAULT_RISK, "--risk", _parse_risk, 0, 1,
                 "chances from 0 to 1 as a comma list (e.g. 0.1,0.2,0.3) or LO:HI:STEP "
                 "(e.g. 0.05:0.5:0.05)")


def round_values(ruleset: Ruleset, round_: int, coin_value: float | None,
                 ruby_value: float | None) -> tuple[float, float]:
    """(coin value, ruby value) in VP for round ``round_`` (0: outside a game), unless given.

    Rounds before the last take the built-in strategies' coin value of that round
    (``DEFAULT_COIN_VALUE``); the last round takes the final conversion (1 / final_coins_per_vp,
    1 / final_rubies_per_vp); a ruby is worth 0.5 VP otherwise, as the built-ins take it.
    """
    rounds = int(ruleset.game("rounds"))
    if not 0 <= round_ <= rounds:
        raise ThresholdsError(f"--round {round_}: expected 0 (outside a game) to {rounds}")
    last = round_ == rounds
    cv = 1 / ruleset.game("final_coins_per_vp") if last else DEFAULT_COIN_VALUE[min(round_, 8)]
    rv = 1 / ruleset.game("final_rubies_per_vp") if last else 0.5
    cv = float(cv if coin_value is None else coin_value)
    rv = float(rv if ruby_value is None else ruby_value)
    if not (0 <= cv <= 10 and 0 <= rv <= 10):
        raise ThresholdsError("--coin-value and --ruby-value: expected numbers from 0 to 10")
    return cv, rv


# ---------------------------------------------------------------------------------------------
# the result


@dataclass
class ThresholdsResult:
    """``table``: one row per stop rule and the optimal stopper; ``policy``: the optimal
    stopper's decisions by (chips drawn, white total), empty when it was sampled; ``summary``:
    the inputs, the optimal value, the best thresholds and how each part was computed
    (``brewing_vp``: some potion's chips scored VP while brewing, counted in its VP and value,
    which the optimal stopper's own value leaves out)."""

    table: pd.DataFrame
    policy: pd.DataFrame
    summary: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        """Everything as one JSON-ready dict (NaN as null)."""
        return {**self.summary, "rows": _records(self.table), "policy": _records(self.policy)}

    def write_csv(self, path: str | Path) -> None:
        """The table as CSV, written to a temporary name and renamed."""
        atomic_write(Path(path), lambda t: self.table.to_csv(t, index=False))

    def write_png(self, path: str | Path) -> None:
        """The stop-curve plot in the format the file's extension names (``figure_format``: PNG
        without one), written to a temporary name and renamed."""
        fmt = figure_format("--png", path)
        fig = stop_curve_figure(self)
        atomic_write(Path(path), lambda t: fig.savefig(t, format=fmt, dpi=110))

    def write(self, out_dir: str | Path, argv: Sequence[str] | None = None) -> list[str]:
        """thresholds.csv/.parquet, policy.parquet, stop_curve.png, policy.png (when there is
        a policy), thresholds.json (with the command line ``argv``, default ``sys.argv``, the
        package versions, the date and the files) and report.html (all of it on one page) in
        ``out_dir``; each file atomically."""
        import sys

        from sim.study.reports.files import REPORT_HTML, now_iso, package_versions
        from sim.study.reports.html import write_html

        d = Path(out_dir)
        d.mkdir(parents=True, exist_ok=True)
        self.write_csv(d / "thresholds.csv")
        atomic_write(d / "thresholds.parquet", lambda t: self.table.to_parquet(t, index=False))
        atomic_write(d / "policy.parquet", lambda t: self.policy.to_parquet(t, index=False))
        files = ["thresholds.csv", "thresholds.parquet", "policy.parquet", "thresholds.json"]
        for name, draw in figure_jobs(self):  # the stop curve, the policy map when there is one
            fig = draw()
            atomic_write(d / name, lambda t, fig=fig: fig.savefig(t, format="png", dpi=110))
            files.append(name)
        files.append(REPORT_HTML)
        meta = {"argv": list(sys.argv if argv is None else argv), "versions": package_versions(),
                "created": now_iso(), "files": files}
        text = json.dumps({**self.to_json(), **meta}, indent=2) + "\n"
        atomic_write(d / "thresholds.json", lambda t: Path(t).write_text(text, encoding="utf-8"))
        write_html(d)
        return files


def _records(df: pd.DataFrame) -> list[dict]:
    """Rows as plain Python values, NaN and NA as None."""
    def plain(v):
        if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)):
            return None
        return v.item() if isinstance(v, np.generic) else v

    return [{k: plain(v) for k, v in rec.items()} for rec in df.to_dict(orient="records")]


# ---------------------------------------------------------------------------------------------
# the computation


def compute_thresholds(bag: str = "start", *, ruleset: Ruleset, start: int = 0,
                       flask: int | None = None, card: str | None = None, round_: int = 0,
                       coin_value: float | None = None, ruby_value: float | None = None,
                       white: list[int] | None = None, risk: list[float] | None = None,
                       n: int = 1_000_000, seed: int = 1, exact: str = "auto",
                       n_optimal: int | None = None,
                       progress: Callable[[int, int], None] | None = None) -> ThresholdsResult:
    """Every white-total and risk threshold of a bag against the optimal stopper.

    ``exact``: ``"auto"`` enumerates when the bag allows (Set 1 books, no card, at most
    ``AUTO_EXACT_SUBBAGS`` sub-bags) and samples otherwise; ``"exact"`` always enumerates (up
    to ``MAX_STATES`` sub-bags; ThresholdsError / TooLargeError when it cannot); ``"sample"``
    samples every rule (``n`` potions each, potion i on stream (seed, i)) while the optimal
    value stays exact when the bag allows. A sampled optimal stopper brews ``n_optimal``
    potions (default: ``n``, at most 20,000). ``progress(done, total)`` is called after every
    rule.
    """
    if n < 1 or seed < 0:
        raise ThresholdsError("--n must be positive and --seed 0 or more")
    white = white_grid(None, white_limit(ruleset, card)) if white is None else list(white)
    risk = list(DEFAULT_RISK) if risk is None else list(risk)
    cv, rv = round_values(ruleset, round_, coin_value, ruby_value)
    q = pot.make_query(bag, "never", flask, start, ruleset, card=card)
    counts = chips.counts_of(q.bag)
    rules_exact, optimal_exact, subs, cap = modes(q, exact)
    n_optimal = min(n, 20_000) if n_optimal is None else n_optimal
    values = pot.outcome_values(q, cv, rv)
    specs = [("white", t, f"white:{t}") for t in white] + [("risk", p, f"risk:{p:g}") for p in risk]
    queries = [replace(q, stop=rule) for _, _, rule in specs]
    qo = replace(q, stop=f"optimal:coin={cv!r},ruby={rv!r}")
    total = len(specs) + 1
    # exact: one forward pass for every enumerated rule, the optimal stopper last
    enumerated = (queries if rules_exact else []) + ([qo] if optimal_exact else [])
    policy = pd.DataFrame(columns=POLICY_COLUMNS)
    if enumerated:
        setups = [pot.exact_setup(x, coin_value=cv, ruby_value=rv) for x in enumerated]
        hists, policy = forward(counts, setups)
        if not optimal_exact:
            policy = pd.DataFrame(columns=POLICY_COLUMNS)
        if progress is not None:
            progress(len(enumerated), total)
    rows, brewing = [], False
    for i, ((kind, threshold, rule), qq) in enumerate(zip(specs, queries)):
        hist = hists[i] if rules_exact else pot.sample(qq, n, seed, full=True)
        rows.append(_row(kind, threshold, rule, hist, qq, values, rules_exact, seed))
        brewing = brewing or pot.scores_while_brewing(hist)
        if progress is not None and not rules_exact:
            progress(len(rows), total)
    hist = hists[-1] if optimal_exact else pot.sample_optimal(qo, n_optimal, seed, full=True)
    rows.append(_row("optimal", None, "optimal", hist, qo, values, optimal_exact, seed))
    brewing = brewing or pot.scores_while_brewing(hist)
    if progress is not None:
        progress(total, total)
    table = _finish_table(rows)
    summary = _summary(q, table, cv=cv, rv=rv, round_=round_, card=card, n=n, seed=seed,
                       rules_exact=rules_exact, optimal_exact=optimal_exact, subs=subs)
    summary["brewing_vp"] = brewing
    summary["policy_note"] = ("" if optimal_exact else
                              "no policy map: it needs the exact optimal stopper (Set 1 books, no "
                              f"card, at most {cap:,} sub-bags; this bag has {subs:,})")
    return ThresholdsResult(table=table, policy=policy, summary=summary)


def modes(q: pot.PotionQuery, exact: str = "auto") -> tuple[bool, bool, int, int]:
    """(rules exact?, optimal exact?, sub-bags, sub-bag cap) for a query and an ``exact`` mode
    (see :func:`compute_thresholds`); ThresholdsError / TooLargeError when ``"exact"`` cannot be."""
    if exact not in ("auto", "exact", "sample"):
        raise ThresholdsError(f"exact={exact!r}: expected auto, exact or sample")
    subs = sub_bag_count(chips.counts_of(q.bag))
    supported = pot.exact_supported(q)
    if exact == "exact" and not supported:
        raise ThresholdsError("--exact: exact odds cover the Set 1 books without a card; drop "
                              "--card / the books.* overrides, or leave out --exact to sample")
    if exact == "exact" and subs > MAX_STATES:
        raise TooLargeError(f"--exact: bag too large to enumerate ({subs:,} sub-bags, limit "
                            f"{MAX_STATES:,}); leave out --exact to sample")
    cap = MAX_STATES if exact == "exact" else AUTO_EXACT_SUBBAGS
    rules_exact = exact == "exact" or (exact == "auto" and supported and subs <= cap)
    return rules_exact, supported and subs <= cap, subs, cap


def _row(kind: str, threshold, rule: str, hist: np.ndarray, q: pot.PotionQuery, values: np.ndarray,
         is_exact: bool, seed: int) -> dict:
    """One table row: ``quacks potion``'s figures for the rule, its rubies and its value. A
    sampled ``hist`` has every row (``pot.sample(full=True)``): its VP and value count what the
    chips scored while brewing (``expected_brewing_vp``), as ``quacks potion``'s VP does; an
    enumerated one needs none (Set 1 books and no card: no chip scores while brewing)."""
    s = pot.summarize(hist, q, is_exact=is_exact, seed=None if is_exact else seed)
    weights = hist[:TRACK_LEN].sum(axis=1)
    ruby = q.ruleset.ruby
    if is_exact:
        s["expected_rubies"] = float((weights * ruby).sum() / weights.sum())
    else:
        s["expected_rubies"], s["expected_rubies_ci"] = mean_ci(ruby, weights)
    s["expected_value"], s["expected_value_ci"] = pot.hist_value(hist, values, is_exact=is_exact)
    row = {"rule": rule, "kind": kind,
           "threshold": np.nan if threshold is None else float(threshold)}
    for m in MEASURES[:-1]:
        lo, hi = s.get(m + "_ci") or (np.nan, np.nan)
        row.update({m: s[m], m + "_lo": float(lo), m + "_hi": float(hi)})
    row["n"] = None if is_exact else int(weights.sum())
    row["exact"] = bool(is_exact)
    return row


def _finish_table(rows: list[dict]) -> pd.DataFrame:
    """Regret (with a conservative interval when sampled: the two half-widths combined as if
    independent; the rules share random streams, which only narrows the true one) and the best
    rule's mark."""
    df = pd.DataFrame(rows)
    opt = df.iloc[-1]
    df["regret"] = opt["expected_value"] - df["expected_value"]
    exact_both = df["exact"] & bool(opt["exact"])
    df.loc[exact_both & (df["regret"].abs() < 1e-9), "regret"] = 0.0  # rounding of equal policies
    half_o = (opt["expected_value_hi"] - opt["expected_value_lo"]) / 2
    half = (df["expected_value_hi"] - df["expected_value_lo"]) / 2
    comb = np.sqrt(np.nan_to_num(half_o) ** 2 + np.nan_to_num(half) ** 2)
    sampled = ~exact_both
    df["regret_lo"] = np.where(sampled, df["regret"] - comb, np.nan)
    df["regret_hi"] = np.where(sampled, df["regret"] + comb, np.nan)
    df.loc[df.index[-1], ["regret", "regret_lo", "regret_hi"]] = [0.0, np.nan, np.nan]
    df["best"] = False
    rules = df.index[:-1]
    if len(rules):
        df.loc[df.loc[rules, "expected_value"].idxmax(), "best"] = True
    df["n"] = df["n"].astype("Int64")
    return df


def _best(table: pd.DataFrame, kind: str) -> dict | None:
    part = table[table["kind"] == kind]
    if not len(part):
        return None
    r = part.loc[part["expected_value"].idxmax()]
    th = int(r["threshold"]) if kind == "white" else float(r["threshold"])
    return {"rule": r["rule"], "threshold": th, "expected_value": float(r["expected_value"]),
            "regret": float(r["regret"]), "p_explode": float(r["p_explode"])}


def _summary(q: pot.PotionQuery, table: pd.DataFrame, *, cv: float, rv: float, round_: int,
             card: str | None, n: int, seed: int, rules_exact: bool, optimal_exact: bool,
             subs: int) -> dict:
    opt = table.iloc[-1]
    rs = q.ruleset
    return {
        "bag": chips.format_counts(chips.counts_of(q.bag)), "start": q.start, "flask": q.flask,
        "round": round_, "card": card, "rules": rs.name, "overrides": list(rs.overrides),
        "explosion_limit": int(rs.game("explosion_limit")),
        "value": {"vp": 1.0, "coin": cv, "ruby": rv},
        "sub_bags": subs, "exact": rules_exact, "n": None if rules_exact else n,
        "seed": None if rules_exact and optimal_exact else seed,
        "optimal": {
            "expected_value": float(opt["expected_value"]),
            "expected_value_ci": None if optimal_exact else [float(opt["expected_value_lo"]),
                                                             float(opt["expected_value_hi"])],
            "p_explode": float(opt["p_explode"]), "exact": optimal_exact,
            "n": None if optimal_exact else int(opt["n"]),
            "method": "exact dynamic programme" if optimal_exact else OPTIMAL_SAMPLED,
        },
        "best_white": _best(table, "white"), "best_risk": _best(table, "risk"),
        "best_rule": (table.loc[table["best"], "rule"].iloc[0] if table["best"].any() else None),
    }


def forward(counts, setups: list) -> tuple[np.ndarray, pd.DataFrame]:
    """Outcome probabilities [rule, reward space, outcome] of several stop rules at once, and the
    last rule's policy map (meant for the optimal stopper).

    One forward pass over the potion, a layer per chip drawn, through the exact reference
    (``sim.api.exact.ExactPotion``: its chip placement and flask, and each rule's own
    draw-or-stop choice), carrying every rule's chance of each state side by side; the
    ``setups`` differ only in their stop rule. Each layer's states and transitions are listed
    once in Python; the chances of all rules move along them as arrays (``np.add.at`` adds in
    the order the transitions were met, so every sum is that of a state-by-state pass). The map
    has a row per (chips drawn, white total) decision after a chip, counting only potions still
    going (not exploded, bag not empty, track not full): ``p_reach`` the chance a potion decides
    there, ``p_draw`` the chance it decides there and draws, ``share_draw`` their ratio,
    ``states`` / ``states_draw`` the distinct states (bag left, position, ...) behind the cell
    and those in which it draws.
    """
    counts = tuple(int(c) for c in counts)
    if sub_bag_count(counts) > MAX_STATES:
        raise TooLargeError(f"bag too large to enumerate ({sub_bag_count(counts):,} sub-bags, "
                            f"limit {MAX_STATES:,})")
    exs = [ExactPotion(st) for st in setups]
    ex, s0 = exs[0], setups[0]
    width = pot.N_OUTCOMES
    hist = np.zeros((TRACK_LEN * width, len(setups)))  # (reward space, outcome) flattened, rule
    cells: dict[tuple[int, int], list] = {}
    frontier = [(counts, 0, s0.start, 0, s0.flask_min > 0, None, None)]
    chance = np.ones((1, len(setups)))  # [frontier state, rule]
    if sum(counts) == 0:
        hist[min(s0.start + 1, SPOON) * width] = 1.0
        frontier = []
    k = 0
    while frontier:
        k += 1
        index: dict = {}  # the next layer's states, in the order first met
        src, dst, w_to = [], [], []  # transitions to a state of the next layer
        e_src, e_bin, w_end = [], [], []  # transitions that end the potion
        for i, (bag, white, anchor, norange, flask, last, prev) in enumerate(frontier):
            for t, p in ex.draws(bag):
                for w, end, st in ex.place(minus(bag, t), t, white, anchor, norange, flask, last,
                                           prev):
                    c = float(p * w)
                    if end is not None:
                        e_src.append(i)
                        e_bin.append(end[0] * width + end[1])
                        w_end.append(c)
                        continue
                    st, finished = ex.settle(st)
                    if finished:
                        e_src.append(i)
                        e_bin.append(ex.reward(st[5]) * width)
                        w_end.append(c)
                    else:
                        src.append(i)
                        dst.append(index.setdefault(st, len(index)))
                        w_to.append(c)
        if e_src:
            np.add.at(hist, np.array(e_bin), chance[e_src] * np.array(w_end)[:, None])
        states = list(index)
        if not states:
            break
        q = np.zeros((len(states), len(setups)))
        np.add.at(q, np.array(dst), chance[src] * np.array(w_to)[:, None])
        draws = draw_choices(exs, states)
        rewards = np.array([ex.reward(st[5]) * width for st in states])
        np.add.at(hist, rewards, np.where(draws, 0.0, q))
        _policy_cells(cells, k, states, q[:, -1].tolist(), draws[:, -1].tolist())
        going = (q * draws).any(axis=1)
        frontier = [st for st, g in zip(states, going) if g]
        chance = np.where(draws, q, 0.0)[going]
    policy = pd.DataFrame([(k, w, a, b, b / a if a > 0 else np.nan, m, d)
                           for (k, w), (a, b, m, d) in sorted(cells.items())],
                          columns=POLICY_COLUMNS)
    return hist.T.reshape(len(setups), TRACK_LEN, width), policy


def _policy_cells(cells: dict, k: int, states: list, chance: list, draws: list) -> None:
    """Add one layer's decisions to the policy map's cells (chips drawn, white total) ->
    [reach, draw, states, states drawing], state by state."""
    for st, q, d in zip(states, chance, draws):
        if q > 0:
            cell = cells.setdefault((k, st[1]), [0.0, 0.0, 0, 0])
            cell[0] += q
            cell[2] += 1
            cell[1] += q if d else 0.0
            cell[3] += int(d)
