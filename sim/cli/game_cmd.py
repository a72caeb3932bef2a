"""The game commands ``play``, ``replay`` and ``round``: ``register(app)`` adds them to a Typer
app. ``play`` plays many games and prints each strategy's results, ``replay`` prints one game
event by event, ``round`` plays one scripted round from a file.
"""

import json
from typing import Annotated

import typer

from sim.cli import options as opt
from sim.cli.common import compile_notice, exit_on_interrupt, fail, work_progress
from sim.cli.printing import out


def register(app: typer.Typer) -> None:
    """Add ``quacks play``, ``replay`` and ``round`` to the app."""
    app.command()(play)
    app.command()(replay)
    app.command(name="round")(round_)


def play(
    strategies: Annotated[str | None, typer.Option(
        help="One strategy spec per seat (name or name:key=value,...), comma-separated. Default: "
        "the first --players of threshold,threshold:t=5,threshold:t=7,random.")] = None,
    players: opt.lineup_players_option() = None,
    games: Annotated[int, typer.Option(
        help="Games to play; game k seats the lineup rotated by k.")] = 10_000,
    seed: Annotated[int, typer.Option(help="Run seed.")] = 1,
    rules: opt.RulesOpt = "base",
    rules_file: opt.RulesFileOpt = None,
    set_: opt.SetOpt = None,
    json_: opt.JsonOpt = False,
    threads: opt.ThreadsOpt = None,
    strategy_file: opt.StrategyFileOpt = None,
) -> None:
    """Play many complete games and print each strategy's win share, VP and explosion rate."""
    # the simulation is imported when the command runs, so quacks --help starts at once
    from rich.table import Table

    from sim.cli.hooks import when_work_starts
    from sim.cli.printing import ci_text
    from sim.cli.user_input import USER_ERRORS
    from sim.questions.ask_play import play as play_games

    try:
        # from the first game: the bar, and Ctrl-C exits at once
        with when_work_starts(exit_on_interrupt,
                              lambda: work_progress("games", quiet=json_)) as bar:
            res = play_games(strategies=strategies, players=players, games=games, seed=seed,
                             rules=rules, set=set_, threads=threads, strategy_file=strategy_file,
                             progress=bar, on_compile=compile_notice)
    except USER_ERRORS as e:
        fail(str(e))
    if json_:
        typer.echo(json.dumps(res.to_json()))
        return
    out.print(res.header())
    df = res.strategies
    t = Table(show_header=True, header_style="bold")
    witches = "witches_called" in df.columns
    for col in ("#", "strategy", "games", "win share [95% CI]", "mean VP [95% CI]", "mean rank",
                "explosions/potion [95% CI]",
                *(["witches called/game [95% CI]"] if witches else [])):
        t.add_column(col, justify="left" if col == "strategy" else "right")
    for row in df.to_dict(orient="records"):
        t.add_row(str(row["seat_in_lineup"]), row["name"], f"{row['games']:,}",
                  f"{row['win_share']:.4f} {ci_text(row['win_share_ci'], 4)}",
                  f"{row['mean_vp']:.2f} {ci_text(row['mean_vp_ci'], 2)}",
                  f"{row['mean_rank']:.3f}",
                  f"{row['explosion_rate']:.4f} {ci_text(row['explosion_rate_ci'], 4)}",
                  *([f"{row['witches_called']:.2f} "
                     f"{ci_text(row['witches_called_ci'], 2)}"] if witches else []))
    out.print(t)


def replay(
    report: Annotated[str | None, typer.Argument(
        help="A tournament report folder (or one value's folder of a sweep): replay its game --row "
        "N, or --game G [--seat S]; rules, strategies, seed and seating come from the "
        "report.")] = None,
    seed: Annotated[int | None, typer.Option(help="Without REPORT: the run seed.")] = None,
    game: Annotated[int | None, typer.Option(
        help="Without REPORT: the game index within the run (quacks play's game k). With REPORT: "
        "the game column of games.parquet.")] = None,
    seat: Annotated[int | None, typer.Option(
        help="With REPORT and --game: the seat whose row is asked for.")] = None,
    row: Annotated[int | None, typer.Option(
        help="With REPORT: the row of games.parquet (0-based).")] = None,
    strategies: Annotated[str | None, typer.Option(
        help="Without REPORT: one strategy spec per seat, as in the run (default: quacks play's "
        "default lineup).")] = None,
    players: opt.lineup_players_option("Without REPORT: players") = None,
    rotation: Annotated[int | None, typer.Option(
        help="Without REPORT: seat rotation of the game, 0 to players - 1 (quacks play uses game % "
        "players). Default 0.")] = None,
    rules: Annotated[str | None, typer.Option(
        "--rules",
        help="Without REPORT: built-in ruleset name or a TOML file (default base).")] = None,
    rules_file: opt.RulesFileOpt = None,
    set_: opt.SetOpt = None,
    json_: opt.JsonOpt = False,
    strategy_file: opt.StrategyFileOpt = None,
) -> None:
    """Print one game round by round: rats, every draw and placement, effects, die, buys, scores.

    Either a game of a run (--seed, --game, --strategies, --rotation, as quacks play plays them)
    or a game of a saved report (REPORT with --row, or --game and --seat).
    """
    if report is not None:  # the run's rules files, loaded before the kernel is imported
        from sim.study.reports.replay import ReplayError, preload_rules_files

        try:
            preload_rules_files(report)
        except ReplayError as e:
            fail(str(e))
    from sim.api.events import event_dict, event_seat_names, event_text
    from sim.api.game import check_players, check_round_values
    from sim.api.game import replay as replay_game
    from sim.cli.user_input import USER_ERRORS, load_strategies
    from sim.questions.ask_play import lineup as seat_lineup
    from sim.rules.ruleset import load_ruleset
    from sim.study.reports.replay import (
        ReplayError,
        check_rotation,
        load_report_game,
        replay_report_game,
        report_footer,
        report_header,
        ruby_costs,
    )

    if report is not None:
        given = [f for f, v in (("--seed", seed), ("--strategies", strategies),
                                ("--players", players), ("--rotation", rotation),
                                ("--rules", rules), ("--set", set_ or None),
                                ("--strategy-file", strategy_file or None)) if v is not None]
        if given:
            fail(f"{', '.join(given)}: a report replay takes the run's settings from {report}; "
                 "give only --row, or --game and --seat")
        try:
            rg = load_report_game(report, game=game, seat=seat, row=row)
            res = replay_report_game(rg)
        except typer.Exit:
            raise
        except (ReplayError, *USER_ERRORS) as e:
            fail(str(e))
        for n in res["notes"]:
            typer.echo(f"note: {n}", err=True)
        if not res["matches"]:
            typer.echo("warning: the replay differs from the report's rows "
                       "(see the check at the end)", err=True)
        if json_:
            typer.echo(json.dumps(res))
            return
        for line in report_header(res):
            out.print(line, markup=False)
        ev_names = event_seat_names(rg.ruleset, res["seats"])
        for d in res["events"]:
            if d["event"] != "draw":
                out.print(event_text(d, ev_names, ruby_costs(rg.ruleset)), markup=False)
        for line in report_footer(res):
            out.print(line, markup=False)
        return
    try:
        if seat is not None or row is not None:
            fail("--seat and --row go with a report folder: quacks replay REPORT --row N")
        if seed is None or game is None:
            fail("--seed and --game: required (or give a report folder: "
                 "quacks replay REPORT --row N)")
        if seed < 0 or game < 0:
            fail("--seed and --game must be 0 or more")
        load_strategies(strategy_file)
        rs = load_ruleset(rules or "base", set_ or [])
        lineup, players = seat_lineup(strategies, players, ruleset=rs)
        check_players(rs, players)
        check_round_values(rs, lineup)
        rotation = 0 if rotation is None else rotation
        check_rotation(rotation, players)
        compile_notice("sim/kernel/game.play_game")
        E, res = replay_game(rs, lineup, seed=seed, game=game, rotation=rotation)
    except typer.Exit:
        raise
    except (ReplayError, *USER_ERRORS) as e:
        fail(str(e))
    events = [event_dict(r) for r in E]
    names = [lineup[(s + rotation) % players].spec for s in range(players)]
    if json_:
        typer.echo(json.dumps({"seed": seed, "game": game, "rotation": rotation, "rules": rs.name,
                               "overrides": list(rs.overrides), "seats": names, "events": events}))
        return
    out.print(f"game {game} of seed {seed}, rotation {rotation}, rules {rs.display}", markup=False)
    for s, nm in enumerate(names):
        out.print(f"  seat {s}: {nm}", markup=False)
    costs = ruby_costs(rs)
    ev_names = event_seat_names(rs, names)
    for d in events:
        if d["event"] != "draw":  # the placement line says it
            out.print(event_text(d, ev_names, costs), markup=False)


def round_(
    file: Annotated[str, typer.Argument(
        help="Round file (TOML) with the state and every forced event.")],
    json_: opt.JsonOpt = False,
) -> None:
    """Play one scripted round from a file and print the state after it."""
    from sim.api.round_file import play_prepared, prepare_round_file
    from sim.cli.printing import print_round
    from sim.cli.user_input import USER_ERRORS

    try:
        prepared = prepare_round_file(file)  # a bad file is refused before any compile notice
        compile_notice("sim/kernel/round.play_rounds")
        res = play_prepared(prepared)
    except USER_ERRORS as e:
        fail(str(e))
    if json_:
        typer.echo(json.dumps({"players": res["players"], "supply": res["supply"],
                               "rules": res["rules"], "overrides": res["overrides"]}))
        return
    print_round(res)
