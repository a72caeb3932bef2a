"""Every part of an experiment checked before any game is played.

:func:`check_experiment` lays out each part exactly as its runner will (the rulesets with every
override, the strategies, the seats for each player count, the tournament formats, the bags of
a thresholds part, the rounds a catch-up part asks about), without playing, and raises
:class:`~sim.study.experiments.file.ExperimentFileError` naming the file and the part at the
first problem, so a run never stops half-way on something the file already said.
"""

from __future__ import annotations

from sim.study.experiments.file import Experiment, ExperimentFileError
from sim.study.experiments.parts import Context


def check_experiment(exp: Experiment, games: int | None = None) -> None:
    """Raise ExperimentFileError at the first part that could not run as written (``games``:
    the ``--games`` override, as the run will use it)."""
    ctx = Context(exp.seed, exp.games, exp.rules, exp.overrides, exp.players, games)
    checks = {"thresholds": _thresholds, "sweep": _sweep, "tournament": _tournament,
              "compare": _compare, "ingredient": _ingredient, "catchup": _catchup,
              "seats": _seats, "balance": _balance, "design": _design}
    for part in exp.parts:
        where = f"{exp.path}: part '{part['name']}' ({part['kind']})"
        try:
            checks[part["kind"]](part, ctx, where)
        except ExperimentFileError:
            raise
        except (ValueError, OSError) as e:
            raise ExperimentFileError(f"{where}: {e}") from None


def _ruleset(ctx: Context, part: dict, extra=(), rules: str | None = None):
    from sim.rules.ruleset import load_ruleset

    rs = load_ruleset(rules or ctx.rules, list(ctx.overrides_for(part, tuple(extra))))
    rs.check_implemented()
    return rs


def _plan(ctx: Context, part: dict, strategies, *, fmt=None, extra=(), players=None,
          rules: str | None = None):
    from sim.study.tournament.plan import TournamentConfig, resolve_plan

    return resolve_plan(TournamentConfig(
        strategies=tuple(strategies), players=players or ctx.players_for(part), format=fmt,
        games=ctx.games_for(part), seed=ctx.seed, rules=rules or ctx.rules,
        overrides=ctx.overrides_for(part, tuple(extra))))


def _players_fit(rs, n: int, where: str, key: str, values) -> None:
    lo, hi = int(rs.game("min_players")), int(rs.game("max_players"))
    if rs.game("teams") and n != 4:
        raise ExperimentFileError(f"{where}: {key} = {values}: game.teams = true plays exactly "
                                  "4 players")
    if not lo <= n <= hi:
        raise ExperimentFileError(f"{where}: {key} = {values}: {n} players; this ruleset plays "
                                  f"{lo} to {hi}")


def _tournament(part: dict, ctx: Context, where: str) -> None:
    _players_fit(_ruleset(ctx, part), ctx.players_for(part), where, "players",
                 ctx.players_for(part))
    _plan(ctx, part, part["strategies"], fmt=part["format"])


def _seats(part: dict, ctx: Context, where: str) -> None:
    rs = _ruleset(ctx, part)
    counts = part["player_counts"]
    if not counts:
        raise ExperimentFileError(f"{where}: player_counts = []: give at least one player count")
    for n in counts:
        _players_fit(rs, int(n), where, "player_counts", counts)
    for n in counts:
        _plan(ctx, part, (part["strategy"],), players=int(n))


def _sweep(part: dict, ctx: Context, where: str) -> None:
    from sim.study.sweep.run import plan_sweep

    _players_fit(_ruleset(ctx, part), ctx.players_for(part), where, "players",
                 ctx.players_for(part))
    sp = plan_sweep(part["strategy"], part["param"])
    for spec in sp.run_specs:
        _plan(ctx, part, (spec, *part["vs"]), fmt="vs-field")


def _ingredient(part: dict, ctx: Context, where: str) -> None:
    from sim.rules import chips as C
    from sim.study.experiments.parts import price_key

    rs = _ruleset(ctx, part)
    _players_fit(rs, ctx.players_for(part), where, "players", ctx.players_for(part))
    deltas = part["price_deltas"]
    if any(abs(int(d)) > 100 for d in deltas):
        raise ExperimentFileError(f"{where}: price_deltas = {deltas}: expected changes from -100 "
                                  "to 100 coins")
    for chip in part["chips"]:
        if len(C.parse_chips(chip)) != 1:
            raise ExperimentFileError(f"{where}: chips: '{chip}' is not one chip (e.g. r1, b2)")
        key, price = price_key(rs, chip)
        spec = part["favour"].replace("{chip}", chip)
        for d in sorted({0, *(int(x) for x in deltas)}):
            if price + d >= 1:
                _plan(ctx, part, (spec, *part["vs"]), fmt="vs-field", extra=(f"{key}={price + d}",))


def _catchup(part: dict, ctx: Context, where: str) -> None:
    variants = part["variants"] or [{"label": "base", "set": [], "rules": None}]
    _labels_unique(variants, where)
    rounds = part["after_rounds"]
    if not rounds:
        raise ExperimentFileError(f"{where}: after_rounds = []: give at least one round")
    for v in variants:
        rs = _ruleset(ctx, part, v["set"], v["rules"])
        _players_fit(rs, ctx.players_for(part), where, "players", ctx.players_for(part))
        last = int(rs.game("rounds"))
        bad = [k for k in rounds if not 1 <= int(k) <= last]
        if bad:
            raise ExperimentFileError(f"{where}: after_rounds = {rounds}: round {bad[0]} is not "
                                      f"a round of the game; expected 1 to {last}")
        _plan(ctx, part, part["strategies"], extra=v["set"], rules=v["rules"])
    bins = part["gap_bins"]
    if bins is not None and (not bins or not all(isinstance(b, int) and not isinstance(b, bool)
                                                  for b in bins) or sorted(set(bins)) != bins):
        raise ExperimentFileError(f"{where}: gap_bins = {bins}: expected whole numbers in "
                                  "increasing order, e.g. [-15, -5, 0, 5, 15]")


def _labels_unique(variants: list[dict], where: str) -> None:
    labels = [v["label"] for v in variants]
    dup = [x for i, x in enumerate(labels) if x in labels[:i]]
    if dup:
        raise ExperimentFileError(f"{where}: variants: the label '{dup[0]}' is used twice; give "
                                  "each variant its own label")


def _compare(part: dict, ctx: Context, where: str) -> None:
    from sim.study.compare.config import CompareConfig, RulesetSpec
    from sim.study.compare.run import plan_compare

    _labels_unique(part["variants"], where)
    common = ctx.overrides_for(part)
    specs = [RulesetSpec(v["label"], v["rules"] or ctx.rules, (*common, *v["set"]))
             for v in part["variants"]]
    for s in specs:
        rs = _ruleset(ctx, part, (), s.rules)
        _players_fit(rs, ctx.players_for(part), where, "players", ctx.players_for(part))
    plan_compare(CompareConfig(rulesets=tuple(specs), strategies=tuple(part["strategies"]),
                               players=ctx.players_for(part), games=ctx.games_for(part),
                               seed=ctx.seed))


def _thresholds(part: dict, ctx: Context, where: str) -> None:
    from sim.api import potion as pot
    from sim.study.thresholds.compute import risk_grid, round_values, white_grid

    rs = _ruleset(ctx, part)
    white_grid(part["white"] or None, int(rs.game("explosion_limit")))
    risk_grid(part["risk"] or None)
    labels = [b["label"] for b in part["bags"]]
    for b in part["bags"]:
        if labels.count(b["label"]) > 1:
            raise ExperimentFileError(f"{where}: bags: the label '{b['label']}' is used twice "
                                      "(it names the bag's folder)")
        try:
            round_values(rs, b["round"], part["coin_value"], part["ruby_value"])
            pot.make_query(b["bag"], "never", b["flask"], b["start"], rs, card=b["card"])
        except ValueError as e:
            raise ExperimentFileError(f"{where}: bag '{b['label']}': {e}") from None


def _balance(part: dict, ctx: Context, where: str) -> None:
    from sim.study.experiments.balance_part import check_balance_part

    _players_fit(_ruleset(ctx, part), ctx.players_for(part), where, "players",
                 ctx.players_for(part))
    check_balance_part(part, ctx)


def _design(part: dict, ctx: Context, where: str) -> None:
    from sim.study.design.experiment_part import check_design_part

    _players_fit(_ruleset(ctx, part), ctx.players_for(part), where, "players",
                 ctx.players_for(part))
    check_design_part(part, ctx)
