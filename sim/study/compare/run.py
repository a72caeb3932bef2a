"""Rulesets side by side (``quacks compare``): the same field of strategies, the same deals, two or
more rulesets or ``--set`` variants, and the paired differences to the first (the reference).

Each ruleset plays the tournament ``resolve_plan`` lays out for the field (every deal in every
seat rotation) with the same seed, so deal ``d`` starts from the same random streams under every
ruleset: rulesets are paired by deal. Games run in blocks of whole deals that are reduced at once
to per-deal totals (``sim.study.compare.stats``), so memory stays small; the tables depend only on
the settings, never on threads or blocks.

Metrics per ruleset (each with its 95% interval, deals as the unit, and the observations behind
it): mean VP (score level) and its standard deviation over player-games (spread); the winner's
VP and winning margin; explosions per potion; the reward space a potion reaches and the **game
length**, defined as the total of the reward spaces of a player's potions over the game (how many
spaces of the pot track a player brews in a game; it is ``rounds`` times the reward space per
potion, so it also moves when a variant changes the number of rounds); the win share of every
seat and the first seat's excess over 1/n (seat advantage); how often the leader after round
``leader_round`` (default 6) wins (tied leaders: the average of their win shares, i.e. a leader
picked at random; a shared win counts 1/k); and every strategy's win share and mean VP.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd

from sim.rules.ruleset import RulesetError
from sim.study.common.out_probe import OutDirError, probe_writable
from sim.study.compare.config import CompareConfig, CompareError
from sim.study.compare.report import command_line, provenance, report_markdown
from sim.study.compare.stats import (
    INTERVAL_METHODS,
    DealTotals,
    Estimate,
    deal_totals,
    estimates,
    metric_label,
    strategy_key,
)
from sim.study.design.effects import paired, single_quantile
from sim.study.reports.files import REPORT_HTML, dumps, now_iso, package_versions
from sim.study.reports.provenance import PROVENANCE_KEY
from sim.study.tournament.plan import (
    Plan,
    TournamentConfig,
    resolve_plan,
)
from sim.study.tournament.run import TWO_DEALS, check_two_deals

BLOCK_GAMES = 4_000  # games played and reduced at a time (their round records: ~3 MB)
TABLES = ("rulesets", "strategies", "differences", "deals")
STAGING = ".staging"


def plan_compare(config: CompareConfig) -> list[Plan]:
    """Validate the config and lay out one tournament per ruleset (same field, seed and deals);
    raise CompareError (or the ruleset's, strategy parser's or game layer's own ValueError)."""
    c = config
    if len(c.rulesets) < 2:
        raise CompareError(f"{len(c.rulesets)} {'ruleset' if len(c.rulesets) == 1 else 'rulesets'} "
                           "given; compare needs at least two: --rules NAME twice, or --variant "
                           "LABEL=section.key=value")
    labels = [r.label for r in c.rulesets]
    if len(set(labels)) < len(labels):
        raise CompareError(f"ruleset labels {', '.join(labels)}: each must be different")
    if c.games is None or c.games < 2:
        raise CompareError(f"--games {c.games}: expected at least 2 ({TWO_DEALS})")
    if c.width is not None and not c.sequential:
        raise CompareError(f"--width {c.width:g}: only with --sequential")
    if c.width is not None and not 0 < c.width:
        raise CompareError(f"--width {c.width:g}: expected a half-width above 0, e.g. 0.01")
    if c.leader_round < 1:
        raise CompareError(f"--leader-round {c.leader_round}: expected a round number from 1")

    if c.threads is not None:
        import numba

        if not 1 <= c.threads <= numba.config.NUMBA_NUM_THREADS:
            raise CompareError(f"--threads {c.threads}: expected 1 to "
                               f"{numba.config.NUMBA_NUM_THREADS}")
    plans = []
    for r in c.rulesets:
        try:
            plans.append(resolve_plan(TournamentConfig(
                strategies=c.strategies, players=c.players, games=c.games, seed=c.seed,
                rules=r.rules,
                overrides=r.overrides, detail="rounds", strategy_files=c.strategy_files)))
        except RulesetError as e:
            raise RulesetError(f"ruleset {r.label}: {e}") from None
    longest = max(p.rounds for p in plans)  # (a shorter ruleset leaves the leader metric out)
    if c.leader_round >= longest:  # the last round's leader is the winner by definition
        raise CompareError(f"--leader-round {c.leader_round}: no ruleset here plays a round "
                           f"after it (the leader after the last round is the winner by "
                           f"definition); expected 1 to {longest - 1}")
    first = plans[0]
    for r, p in zip(c.rulesets[1:], plans[1:]):
        if (p.players, p.names, p.games_per_deal, p.deals) != \
                (first.players, first.names, first.games_per_deal, first.deals):
            raise CompareError(f"ruleset {r.label}: seats the field differently from "
                               f"{c.rulesets[0].label}; give --players")
    check_two_deals(first, CompareError)
    return plans


def play_ruleset(plan: Plan, leader_round: int,
                 progress: Callable[[int], None] | None = None, start: int = 0,
                 stop: int | None = None) -> DealTotals:
    """Play deals ``start`` to ``stop`` (default: every deal) of one ruleset's plan in blocks
    and reduce them to per-deal totals; ``progress(games)`` after each block."""
    from sim.study.tournament.chunks import play_chunk

    step = max(1, BLOCK_GAMES // plan.games_per_deal)
    end = plan.deals if stop is None else stop
    parts = []
    for d0 in range(start, end, step):
        d1 = min(end, d0 + step)
        rows = play_chunk(plan, d0, d1)
        parts.append(deal_totals(rows.games, rows.rounds, players=plan.players,
                                 rounds_per_game=plan.rounds, strategies=len(plan.names),
                                 leader_round=leader_round))
        if progress:
            progress((d1 - d0) * plan.games_per_deal)
    return DealTotals.concat(parts)


def run_compare(config: CompareConfig,
                progress: Callable[[int, int], None] | None = None) -> CompareResult:
    """Play the field under every ruleset on the same deals and compare them.

    ``progress(games_done, games_total)`` is called at the start and after every block of
    games (over all rulesets). Ctrl-C raises KeyboardInterrupt; nothing is written (see
    :meth:`CompareResult.write`).
    """
    from sim.stats.clusters import warm

    plans = plan_compare(config)
    if config.threads is not None:
        import numba

        numba.set_num_threads(config.threads)
    warm()
    total = sum(p.max_games for p in plans)
    done = [0]

    def step(games: int) -> None:
        done[0] += games
        if progress:
            progress(done[0], total)

    step(0)
    t0 = time.perf_counter()
    if not config.sequential:
        totals = [play_ruleset(p, config.leader_round, step) for p in plans]
        return CompareResult(config, plans, totals, time.perf_counter() - t0)
    from sim.study.compare.sequential import play_sequential

    parts, stop = play_sequential(
        list(zip([r.label for r in config.rulesets], plans)),
        lambda p, d0, d1: play_ruleset(p, config.leader_round, step, d0, d1),
        [same_game(p, plans[0]) for p in plans], len(plans[0].names), config.width)
    played = [replace(p, deals=stop.run.deals) for p in plans]
    return CompareResult(config, played, [DealTotals.concat(x) for x in parts],
                         time.perf_counter() - t0, sequential=stop)


# --- the result ----------------------------------------------------------------------------------

def _row(e: Estimate) -> dict:
    lo, hi = e.interval()
    return {"value": e.value, "ci_lo": lo, "ci_hi": hi, "n": e.n, "deals": e.deals}


def same_game(a: Plan, b: Plan) -> bool:
    """True when two plans play the same games by construction: the same resolved ruleset
    (its hash) and the same seated field (strategies and tables)."""
    return (a.ruleset.hash == b.ruleset.hash and list(a.names) == list(b.names)
            and list(a.tables) == list(b.tables))


def difference_row(ref: Estimate, e: Estimate, same: bool) -> dict:
    """The paired difference e - ref with its own 95% interval (``sim.study.design.effects``:
    a difference 0 on every deal is [0, 0] only for the same game (``same``), else +-3/n times
    the figure's largest change on one deal, noted "identical on all n deals")."""
    d = paired(ref, e, same)
    lo, hi = d.interval(single_quantile(d.deals))
    return {"value": d.value, "ci_lo": lo, "ci_hi": hi, "deals": d.deals, "note": d.note()}


@dataclass
class CompareResult:
    """A finished comparison: config, the plans, per-deal totals and the tables (``tables``:
    ``rulesets``, ``strategies``, ``differences``, ``deals``; ``summary``; ``to_json()``;
    ``write(DIR)``)."""

    config: CompareConfig
    plans: list[Plan]
    totals: list[DealTotals]
    seconds: float
    notes: list[str] = field(default_factory=list)
    sequential: object = None  # sim.study.compare.sequential.SequentialStop (--sequential)
    tables: dict[str, pd.DataFrame] = field(init=False)

    def __post_init__(self):
        self.estimates = [estimates(t, self.players) for t in self.totals]
        self._fixed: dict[tuple[str, str], tuple[float, float]] = {}
        self.tables = self._tables()
        if self.sequential is not None:
            from sim.study.compare.sequential import stop_table

            self.tables["sequential"] = stop_table(self)
            st = self.sequential
            self.notes.append(
                f"--sequential: {st.games:,} of {st.budget_games:,} games per ruleset played "
                f"({'every question decided' if st.run.decided else 'the budget spent'}); "
                f"{st.games_saved:,} games saved. The questions' intervals are anytime-valid "
                "confidence sequences; the other intervals are fixed-size ones at the deals "
                "played")
        short = [lb for lb, e in zip(self.labels, self.estimates) if "leader_wins" not in e]
        if short:
            self.notes.append(f"leader_wins left out for {', '.join(short)}: "
                              f"{self.config.leader_round} rounds or fewer (after the last "
                              "round the leader is the winner by definition)")

    @property
    def labels(self) -> list[str]:
        return [r.label for r in self.config.rulesets]

    @property
    def players(self) -> int:
        return self.plans[0].players

    @property
    def games(self) -> int:
        """Games per ruleset."""
        return self.plans[0].max_games

    @property
    def deals(self) -> int:
        return self.plans[0].deals

    def _name(self, key: str) -> tuple[str, str]:
        sk = strategy_key(key)
        return (sk[0], self.plans[0].names[sk[1]]) if sk else (key, "all")

    def _tables(self) -> dict[str, pd.DataFrame]:
        rs_rows, st_rows, diff_rows = [], [], []
        ref_label, ref = self.labels[0], self.estimates[0]
        for label, plan, est in zip(self.labels, self.plans, self.estimates):
            per_strategy: dict[str, dict] = {}
            same = same_game(plan, self.plans[0])
            for key, e in est.items():
                metric, strategy = self._name(key)
                if strategy == "all":
                    rs_rows.append({"ruleset": label, "rules": plan.ruleset.display, "metric": key,
                                    "label": metric_label(key, self.config.leader_round),
                                    **_row(e), "games": plan.max_games})
                else:
                    r = _row(e)
                    d = per_strategy.setdefault(strategy, {"ruleset": label, "strategy": strategy,
                                                           "games": r["n"], "deals": r["deals"]})
                    d.update({metric: r["value"], f"{metric}_ci_lo": r["ci_lo"],
                              f"{metric}_ci_hi": r["ci_hi"]})
                if label != ref_label and key in ref:
                    r = difference_row(ref[key], e, same)
                    self._fixed[(label, key)] = (r["ci_lo"], r["ci_hi"])
                    r = self._sequence_row(label, key, r)
                    diff_rows.append({"ruleset": label, "reference": ref_label, "metric": metric,
                                      "strategy": strategy,
                                      "label": metric_label(key, self.config.leader_round)
                                      if strategy == "all"
                                      else f"{strategy}: {_STRATEGY_METRICS[metric]}",
                                      "diff": r["value"], "ci_lo": r["ci_lo"], "ci_hi": r["ci_hi"],
                                      "deals": r["deals"],
                                      "significant": bool(r["ci_lo"] > 0 or r["ci_hi"] < 0),
                                      "note": r["note"]})
            st_rows += per_strategy.values()
        cat = pd.CategoricalDtype(self.labels, ordered=True)
        out = {"rulesets": pd.DataFrame(rs_rows), "strategies": pd.DataFrame(st_rows),
               "differences": pd.DataFrame(diff_rows)}
        out["deals"] = pd.concat([t.frame().assign(ruleset=lb)
                                  for lb, t in zip(self.labels, self.totals)],
                                 ignore_index=True)
        for df in out.values():
            df["ruleset"] = df["ruleset"].astype(cat)
        return out

    def fixed_interval(self, label: str, key: str) -> tuple[float, float]:
        """The fixed-size 95% interval of a paired difference (as without --sequential)."""
        return self._fixed[(label, key)]

    def _sequence_row(self, label: str, key: str, r: dict) -> dict:
        """A difference row with a sequential question's confidence sequence in place of the
        fixed-size interval (one with no variation keeps the fixed one and its note)."""
        from sim.stats.sequences import NO_VARIATION

        s = self.sequential.sequence(label, key) if self.sequential is not None else None
        if s is None or s.why == NO_VARIATION:
            return r
        return {**r, "ci_lo": s.lo, "ci_hi": s.hi,
                "note": f"confidence sequence, {s.why if s.decided else 'undecided'}"}

    @property
    def summary(self) -> dict:
        """The run in a few numbers, and every difference whose interval excludes 0."""
        d = self.tables["differences"]
        sig = d[d["significant"]]
        return {"reference": self.labels[0], "rulesets": self.labels, "players": self.players,
                "games": self.games, "deals": self.deals, "seed": self.config.seed,
                "significant": [{"ruleset": r["ruleset"], "metric": r["metric"],
                                 "strategy": r["strategy"],
                                 "diff": r["diff"], "ci": [r["ci_lo"], r["ci_hi"]]}
                                for r in sig.to_dict(orient="records")]}

    def to_json(self) -> dict:
        """One JSON-ready object. Keys: ``kind`` ("compare"), ``reference`` (label),
        ``players``, ``games`` and ``deals`` (per ruleset), ``games_per_deal``, ``seed``,
        ``strategies`` (the field's names), ``leader_round``, ``rulesets`` (per ruleset:
        ``label``, ``rules`` (with overrides), ``overrides``, ``rules_hash``, ``metrics``
        {metric: {value, ci: [lo, hi], n, deals}}, ``strategies`` {name: {win_share,
        win_share_ci, mean_vp, mean_vp_ci, games, deals}}), ``differences`` (per ruleset after
        the first: ``label``, ``reference``, ``metrics`` {metric: {diff, ci, deals,
        significant}}, ``strategies`` {name: {win_share: {...}, mean_vp: {...}}}),
        ``metric_labels``, ``interval_methods``, ``summary``, ``seconds``, ``notes``; with
        --sequential, ``sequential`` (the stop: ``decided``, ``deals``, ``budget_deals``,
        ``games`` and ``budget_games`` per ruleset, ``games_saved`` over all, ``batches``,
        ``alpha_per_question``, ``width``, ``method``, and ``questions``: per question
        ``ruleset``, ``metric``, ``strategy``, ``diff``, ``ci``, ``decided``, ``why``,
        ``decided_at_deals``); ``games`` and ``deals`` are then those played."""
        T = self.tables
        rulesets, diffs = [], []
        for label, spec, plan in zip(self.labels, self.config.rulesets, self.plans):
            m = T["rulesets"][T["rulesets"]["ruleset"] == label]
            s = T["strategies"][T["strategies"]["ruleset"] == label]
            rulesets.append({
                "label": label, "rules": plan.ruleset.display, "overrides": list(spec.overrides),
                "rules_hash": plan.ruleset.hash,
                "metrics": {r["metric"]: {"value": r["value"], "ci": [r["ci_lo"], r["ci_hi"]],
                                          "n": r["n"], "deals": r["deals"]}
                            for r in m.to_dict(orient="records")},
                "strategies": {r["strategy"]: {k: ([r[f"{k}_lo"], r[f"{k}_hi"]] if k.endswith("_ci")
                                                   else r[k]) for k in _STRATEGY_KEYS}
                               for r in s.to_dict(orient="records")}})
            if label == self.labels[0]:
                continue
            d = T["differences"][T["differences"]["ruleset"] == label]
            entry = {"label": label, "reference": self.labels[0], "metrics": {}, "strategies": {}}
            for r in d.to_dict(orient="records"):
                v = {"diff": r["diff"], "ci": [r["ci_lo"], r["ci_hi"]], "deals": r["deals"],
                     "significant": r["significant"], "note": r["note"]}
                if r["strategy"] == "all":
                    entry["metrics"][r["metric"]] = v
                else:
                    entry["strategies"].setdefault(r["strategy"], {})[r["metric"]] = v
            diffs.append(entry)
        out = {"kind": "compare", "reference": self.labels[0], "players": self.players,
                "games": self.games, "deals": self.deals,
                "games_per_deal": self.plans[0].games_per_deal, "seed": self.config.seed,
                "strategies": list(self.plans[0].names), "leader_round": self.config.leader_round,
                "rulesets": rulesets, "differences": diffs,
                "metric_labels": dict(zip(T["rulesets"]["metric"], T["rulesets"]["label"])),
                "interval_methods": INTERVAL_METHODS, "summary": self.summary,
                "seconds": round(self.seconds, 3), "notes": list(self.notes)}
        if self.sequential is not None:
            out["interval_methods"] = {**INTERVAL_METHODS, "sequential questions":
                                       _sequential_method()}
            q = T["sequential"]
            out["sequential"] = {**self.sequential.facts(), "questions": [
                {"ruleset": r["ruleset"], "metric": r["metric"], "strategy": r["strategy"],
                 "diff": r["diff"], "ci": [r["ci_lo"], r["ci_hi"]], "decided": r["decided"],
                 "why": r["why"], "decided_at_deals": (None if pd.isna(r["decided_at_deals"])
                                                       else int(r["decided_at_deals"]))}
                for r in q.to_dict(orient="records")]}
        return out

    def write(self, out: str | Path, *, force: bool = False,
              argv: Sequence[str] | None = None) -> list[str]:
        """Write the report folder: the tables as parquet, the PNG plots, ``report.md``,
        ``run.json`` (settings, command, versions, the date, the JSON result) and
        ``report.html`` (all of it on one page). Everything is written into
        ``OUT/.staging`` and moved into place at the end (``run.json`` last), so an interrupted
        write leaves no half-written visible file. Returns the file names."""
        p = Path(out)
        check_out(p, force)
        stage = p / STAGING
        created = not p.exists()
        shutil.rmtree(stage, ignore_errors=True)
        stage.mkdir(parents=True)
        try:
            return self._write(p, stage, argv)
        except BaseException:  # an error or Ctrl-C: no staging files (or new empty folder) left
            shutil.rmtree(stage, ignore_errors=True)
            if created:
                with contextlib.suppress(OSError):
                    p.rmdir()
            raise

    def _write(self, p: Path, stage: Path, argv: Sequence[str] | None) -> list[str]:
        from sim.study.compare.plots import render
        from sim.study.reports.html import write_html

        files = []
        for name in self.tables:
            self.tables[name].to_parquet(stage / f"{name}.parquet", index=False)
            files.append(f"{name}.parquet")
        pngs, notes = render(self, stage)
        self.notes += notes
        prov = provenance(self, argv)
        files += pngs
        (stage / "report.md").write_text(report_markdown(self, pngs, prov), encoding="utf-8")
        files.append("report.md")
        manifest = {**self.to_json(), "settings": self.config.settings(), "argv": list(argv or []),
                    "command": command_line(self.config), PROVENANCE_KEY: prov.to_json(),
                    "versions": package_versions(),
                    "created": now_iso(), "files": sorted(files + ["run.json", REPORT_HTML])}
        (stage / "run.json").write_text(dumps(manifest), encoding="utf-8")
        for name in [*files, "run.json"]:
            os.replace(stage / name, p / name)
        stage.rmdir()
        _clear(p, keep=manifest["files"])
        write_html(p)  # the page of the report, from its files
        return manifest["files"]


def _sequential_method() -> str:
    from sim.study.compare.sequential import SEQUENTIAL_METHOD

    return SEQUENTIAL_METHOD


_STRATEGY_METRICS = {"win_share": "win share", "mean_vp": "mean VP"}
_STRATEGY_KEYS = ("win_share", "win_share_ci", "mean_vp", "mean_vp_ci", "games", "deals")


def check_out(path: str | Path, force: bool = False) -> None:
    """Raise CompareError unless ``path`` can take a report: a new or empty directory, or (with
    ``force``) one holding anything. Changes nothing on disk."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise CompareError(f"--out {path}: a file, not a directory")
    if path.is_dir() and any(e != STAGING for e in os.listdir(path)) and not force:
        raise CompareError(f"--out {path}: the directory is not empty; use --force to overwrite "
                           "the report there")
    try:  # by writing, not os.access: root passes every access check, not every write
        probe_writable(path)
    except OutDirError as e:
        raise CompareError(str(e)) from None


def _clear(path: Path, keep: Sequence[str]) -> None:
    """Remove the files of a previous compare report in ``path`` that this one did not write
    (known names only)."""
    from sim.study.compare.plots import PLOT_FILES

    tables = (*TABLES, "sequential")
    for name in [*(f"{t}.parquet" for t in tables), *PLOT_FILES, "report.md", "run.json"]:
        if name not in keep:
            (path / name).unlink(missing_ok=True)
