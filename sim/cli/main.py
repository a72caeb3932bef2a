"""The ``quacks`` command line: a thin Typer layer over the Python API.

Results go to stdout (a table, or JSON with ``--json``); errors are one line on stderr with exit
status 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Annotated

import numpy as np
import typer
from rich.console import Console
from rich.table import Table

from sim.api.exact import MAX_STATES, sub_bag_count
from sim.api.game import check_players, check_round_values
from sim.cli.common import (
    QuacksGroup,
    compile_notice,
    exit_on_interrupt,
    fail,
    set_threads,
    work_progress,
)
from sim.cli.printing import ci_text, print_forced, print_potion, print_regret
from sim.cli.user_input import USER_ERRORS, load_strategies
from sim.rules import chips
from sim.rules.ruleset import load_ruleset

app = typer.Typer(
    cls=QuacksGroup,
    add_completion=False,
    no_args_is_help=True,
    help="Quacks of Quedlinburg strategy simulator: potions, games, replays and scripted rounds.",
    pretty_exceptions_enable=False,
)
out = Console(highlight=False, width=None if sys.stdout.isatty() else 200)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            v = version("quacks-sim")
        except PackageNotFoundError:  # run from a source tree that is not installed
            from sim import __version__ as v
        typer.echo(f"quacks-sim {v}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_version,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Quacks of Quedlinburg strategy simulator: potions, games, replays and scripted rounds."""


# Command modules: each has ``register(app)``. A module not written yet in this checkout is
# skipped (only when that very module is missing, never on an error inside it).
COMMAND_MODULES = ("sim.cli.reports", "sim.cli.rules_cmd", "sim.cli.tune_cmd", "sim.cli.thresholds_cmd",
                   "sim.cli.compare_cmd", "sim.cli.experiment_cmd")


def _register_commands() -> None:
    import importlib

    for full in COMMAND_MODULES:
        try:
            module = importlib.import_module(full)
        except ModuleNotFoundError as e:
            if e.name == full:
                continue
            raise
        module.register(app)


_register_commands()



RulesOpt = Annotated[str, typer.Option("--rules", help="Built-in ruleset name or a TOML file.")]
SetOpt = Annotated[list[str] | None, typer.Option("--set", help="Override one ruleset value: section.key=value (repeatable).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")]
ThreadsOpt = Annotated[int | None, typer.Option("--threads", help="Numba threads (results never depend on it).")]
StrategyFileOpt = Annotated[list[str] | None, typer.Option(
    "--strategy-file", help="Load user strategies from a Python file (repeatable); see README.")]


@app.command()
def potion(
    bag: Annotated[str, typer.Option(help="Chips, comma-separated: <colour><value> or <colour><value>x<count>, e.g. w1x4,o1,r2; 'start' is the starting bag. Colours w o g b r y p k.")] = "start",
    stop: Annotated[str, typer.Option(help="Stop policy: white:T (white total >= T), risk:P (next-draw explosion chance > P), never.")] = "white:6",
    flask: Annotated[int | None, typer.Option(help="Use the full flask on the first white of value >= V that does not explode.")] = None,
    start: Annotated[int, typer.Option(help="Space (droplet or rat) the first chip counts from.")] = 0,
    rules: RulesOpt = "base",
    set_: SetOpt = None,
    n: Annotated[int, typer.Option("--n", help="Potions to sample.")] = 1_000_000,
    seed: Annotated[int, typer.Option(help="Run seed: potion i uses stream (seed, i).")] = 1,
    exact: Annotated[bool, typer.Option("--exact", help="Compute exactly by enumeration instead of sampling.")] = False,
    draws: Annotated[str | None, typer.Option(help="Forced draws, in order (blue looks follow the blue chip); brewing stops after the last.")] = None,
    regret: Annotated[bool, typer.Option("--regret", help="Compare stop rules against the optimal stopper for this bag and start.")] = False,
    compare: Annotated[str | None, typer.Option(help="Stop rules for --regret, separated by ';' (default: white:5;white:6;white:7;risk:0.1;risk:0.2;risk:0.3;ev;optimal).")] = None,
    coin_value: Annotated[float, typer.Option(help="VP worth of a coin when valuing potions (--regret, ev, optimal).")] = 0.3,
    ruby_value: Annotated[float, typer.Option(help="VP worth of a ruby when valuing potions (--regret, ev, optimal).")] = 0.5,
    card: Annotated[str | None, typer.Option(help="A fortune-teller card whose draw-time rule applies (pumpkin-patch-party, living-in-luxury, well-stirred, a-second-chance, ...; see quacks rules).")] = None,
    json_: JsonOpt = False,
    threads: ThreadsOpt = None,
    strategy_file: StrategyFileOpt = None,
) -> None:
    """How often does this bag explode, and where does the potion end?

    Fixed choices: a blue chip places the highest-value non-white chip it looks at (ties: the later
    colour in w,o,g,b,r,y,p,k), never a white; a yellow chip always returns the white chip before it.
    """
    from sim.api import potion as pot
    from sim.api import potion_draws as draws_api

    try:
        set_threads(threads)
        if n <= 0:
            fail(f"--n {n}: expected a positive number of potions")
        if seed < 0:
            fail(f"--seed {seed}: expected 0 or more")
        load_strategies(strategy_file)
        rs = load_ruleset(rules, set_ or [])
        rs.check_implemented()
        q = pot.make_query(bag, stop, flask, start, rs, card=card)
        if (exact or regret) and not pot.exact_supported(q):
            fail(f"{'--exact' if exact else '--regret'}: exact odds cover the Set 1 books without a "
                 f"card, and bags that cannot reach the overflow bowl; drop --card / the books.* "
                 f"overrides, or sample (leave out --exact)")
        if regret:
            if not (0 <= coin_value <= 10 and 0 <= ruby_value <= 10):
                fail("--coin-value and --ruby-value: expected numbers from 0 to 10")
            rules_ = [r.strip() for r in (compare or ";".join(pot.DEFAULT_COMPARE)).split(";") if r.strip()]
            for r in rules_:
                pot.make_query(bag, r, flask, start, rs)  # validates every rule
            with exit_on_interrupt():
                if sub_bag_count(chips.counts_of(q.bag)) > MAX_STATES:  # sampled: compile first
                    compile_notice("sim/kernel/potions.potion_histograms")
                    pot.sample(pot.make_query(bag, "optimal", flask, start, rs), 1, seed)
                with work_progress("stop rules") as bar:
                    t0 = time.perf_counter()
                    res = pot.regret(q, rules_, coin_value=coin_value, ruby_value=ruby_value, n=n,
                                     seed=seed, exact_if_possible=True, n_optimal=min(n, 100_000),
                                     progress=bar)
                    res["seconds"] = round(time.perf_counter() - t0, 3)
            if json_:
                typer.echo(json.dumps(res))
            else:
                print_regret(res)
            return
        if draws is not None:
            draws_api.check_draws(q, draws)  # a bad --draws is refused before the compile notice
            compile_notice("sim/kernel/potions.potion_forced")
            res = draws_api.forced(q, draws)
            if json_:
                typer.echo(json.dumps(res))
                return
            print_forced(res)
            return
        with exit_on_interrupt():
            if not exact:
                compile_notice("sim/kernel/potions.potion_histograms")
                pot.sample(q, 1, seed)  # compile (or load) the kernel outside the clock
            with work_progress("exact enumeration" if exact else "potions") as bar:
                t0 = time.perf_counter()
                if exact:
                    hist = pot.exact(q)
                elif pot.is_optimal(q):
                    hist = pot.sample_optimal(q, n, seed, progress=bar, with_bowl=pot.has_bowl(q))
                else:
                    hist = pot.sample(q, n, seed, progress=bar, with_bowl=pot.has_bowl(q))
                secs = time.perf_counter() - t0
        res = pot.summarize(hist, q, is_exact=exact, seed=None if exact else seed)
        res["seconds"] = round(secs, 3)
    except typer.Exit:
        raise
    except USER_ERRORS as e:
        fail(str(e))
    if json_:
        typer.echo(json.dumps(res))
        return
    print_potion(res, rs)


def _lineup(strategies: str | None, players: int | None):
    from sim.study.reports.replay import default_specs
    from strategies.builtin import parse_strategy, split_specs

    specs = split_specs(strategies) if strategies is not None else default_specs(players)
    if not specs:
        fail("--strategies: give at least one strategy, e.g. threshold,random")
    if players is None:
        players = len(specs)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        fail(f"--strategies: {len(specs)} strategies for {players} players; give one per seat, or one for all")
    return [parse_strategy(s) for s in specs], players


@app.command()
def play(
    strategies: Annotated[str | None, typer.Option(help="One strategy spec per seat (name or name:key=value,...), comma-separated. Default: the first --players of threshold,threshold:t=5,threshold:t=7,random.")] = None,
    players: Annotated[int | None, typer.Option(help="Players (2-4; 2-5 with herb-witches); default: one per strategy.")] = None,
    games: Annotated[int, typer.Option(help="Games to play; game k seats the lineup rotated by k.")] = 10_000,
    seed: Annotated[int, typer.Option(help="Run seed.")] = 1,
    rules: RulesOpt = "base",
    set_: SetOpt = None,
    json_: JsonOpt = False,
    threads: ThreadsOpt = None,
    strategy_file: StrategyFileOpt = None,
) -> None:
    """Play many complete games and print each strategy's win share, VP and explosion rate."""
    from sim.api.game import play_batch, play_summary

    try:
        set_threads(threads)
        if games <= 0:
            fail(f"--games {games}: expected a positive number")
        if seed < 0:
            fail(f"--seed {seed}: expected 0 or more")
        load_strategies(strategy_file)
        rs = load_ruleset(rules, set_ or [])
        lineup, players = _lineup(strategies, players)
        check_players(rs, players)
        check_round_values(rs, lineup)
        one = np.zeros(1, dtype=np.int64)
        compile_notice("sim/kernel/game.play_games")
        play_batch(rs, lineup, games=one, rotations=one, seed=seed)  # compile outside the clock
        # games in short pieces summed as they finish: bounded memory, Ctrl-C seen at once
        with exit_on_interrupt(), work_progress("games", quiet=json_) as bar:
            t0 = time.perf_counter()
            stats = play_summary(rs, lineup, games=games, seed=seed, progress=bar)
            secs = time.perf_counter() - t0
        df = stats.frame()
    except typer.Exit:
        raise
    except USER_ERRORS as e:
        fail(str(e))
    if json_:
        typer.echo(json.dumps({
            "players": players, "games": games, "seed": seed, "rules": rs.name,
            "overrides": list(rs.overrides), "seconds": round(secs, 3),
            "strategies": [
                {k: (list(v) if isinstance(v, tuple) else v) for k, v in row.items()}
                for row in df.to_dict(orient="records")
            ],
        }))
        return
    out.print(f"{games:,} {'game' if games == 1 else 'games'}, {players} players, seed {seed}, rules {rs.display}; seats rotate every game; "
              f"{secs:.2f} s ({games / secs:,.0f} games/s)")
    t = Table(show_header=True, header_style="bold")
    witches = "witches_called" in df.columns
    for col in ("#", "strategy", "games", "win share [95% CI]", "mean VP [95% CI]", "mean rank",
                "explosions/potion [95% CI]", *(["witches called/game [95% CI]"] if witches else [])):
        t.add_column(col, justify="left" if col == "strategy" else "right")
    for row in df.to_dict(orient="records"):
        t.add_row(str(row["seat_in_lineup"]), row["name"], f"{row['games']:,}",
                  f"{row['win_share']:.4f} {ci_text(row['win_share_ci'], 4)}",
                  f"{row['mean_vp']:.2f} {ci_text(row['mean_vp_ci'], 2)}", f"{row['mean_rank']:.3f}",
                  f"{row['explosion_rate']:.4f} {ci_text(row['explosion_rate_ci'], 4)}",
                  *([f"{row['witches_called']:.2f} {ci_text(row['witches_called_ci'], 2)}"] if witches else []))
    out.print(t)


@app.command()
def replay(
    report: Annotated[str | None, typer.Argument(help="A tournament report folder (or one value's folder of a sweep): replay its game --row N, or --game G [--seat S]; rules, strategies, seed and seating come from the report.")] = None,
    seed: Annotated[int | None, typer.Option(help="Without REPORT: the run seed.")] = None,
    game: Annotated[int | None, typer.Option(help="Without REPORT: the game index within the run (quacks play's game k). With REPORT: the game column of games.parquet.")] = None,
    seat: Annotated[int | None, typer.Option(help="With REPORT and --game: the seat whose row is asked for.")] = None,
    row: Annotated[int | None, typer.Option(help="With REPORT: the row of games.parquet (0-based).")] = None,
    strategies: Annotated[str | None, typer.Option(help="Without REPORT: one strategy spec per seat, as in the run (default: quacks play's default lineup).")] = None,
    players: Annotated[int | None, typer.Option(help="Without REPORT: players (2-4; 2-5 with herb-witches); default: one per strategy.")] = None,
    rotation: Annotated[int | None, typer.Option(help="Without REPORT: seat rotation of the game, 0 to players - 1 (quacks play uses game % players). Default 0.")] = None,
    rules: Annotated[str | None, typer.Option("--rules", help="Without REPORT: built-in ruleset name or a TOML file (default base).")] = None,
    set_: SetOpt = None,
    json_: JsonOpt = False,
    strategy_file: StrategyFileOpt = None,
) -> None:
    """Print one game round by round: rats, every draw and placement, effects, die, buys, scores.

    Either a game of a run (--seed, --game, --strategies, --rotation, as quacks play plays them)
    or a game of a saved report (REPORT with --row, or --game and --seat).
    """
    from sim.api.events import event_dict, event_seat_names, event_text
    from sim.api.game import replay as replay_game
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
        given = [f for f, v in (("--seed", seed), ("--strategies", strategies), ("--players", players),
                                ("--rotation", rotation), ("--rules", rules), ("--set", set_ or None),
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
            typer.echo("warning: the replay differs from the report's rows (see the check at the end)",
                       err=True)
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
            fail("--seed and --game: required (or give a report folder: quacks replay REPORT --row N)")
        if seed < 0 or game < 0:
            fail("--seed and --game must be 0 or more")
        load_strategies(strategy_file)
        rs = load_ruleset(rules or "base", set_ or [])
        lineup, players = _lineup(strategies, players)
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


@app.command(name="round")
def round_(
    file: Annotated[str, typer.Argument(help="Round file (TOML) with the state and every forced event.")],
    json_: JsonOpt = False,
) -> None:
    """Play one scripted round from a file and print the state after it."""
    from sim.api.round_file import play_prepared, prepare_round_file
    from sim.cli.printing import print_round

    try:
        prepared = prepare_round_file(file)  # a bad file is refused before any compile notice
        compile_notice("sim/kernel/round.play_round")
        res = play_prepared(prepared)
    except USER_ERRORS as e:
        fail(str(e))
    if json_:
        typer.echo(json.dumps({"players": res["players"], "supply": res["supply"],
                               "rules": res["rules"], "overrides": res["overrides"]}))
        return
    print_round(res)


@app.command()
def strategies(
    name: Annotated[str | None, typer.Argument(help="Explain one strategy.")] = None,
    json_: JsonOpt = False,
    strategy_file: StrategyFileOpt = None,
    slots: Annotated[bool, typer.Option("--slots", help="Print what a strategy file may define instead: the slot-function signature, every slot (what a and b are, what the result means) and the helpers a slot function may call.")] = False,
) -> None:
    """List every registered strategy with its parameters, or explain one."""
    from strategies.builtin import PRESETS, REGISTRY

    if slots:
        from sim.cli.slots_cmd import slots_json, slots_text

        if name is not None:
            fail("--slots describes the slots every strategy file may define; give no strategy name")
        typer.echo(slots_json() if json_ else "\n".join(slots_text()))
        return
    try:
        load_strategies(strategy_file)
    except USER_ERRORS as e:
        fail(str(e))
    if name is not None and name.lower() not in REGISTRY:
        fail(f"unknown strategy '{name}'; known: {', '.join(sorted(REGISTRY))}")
    chosen = [REGISTRY[name.lower()]] if name else list(REGISTRY.values())
    if json_:
        typer.echo(json.dumps({"strategies": [
            {"name": d.name, "description": d.description, "idea": d.idea, "source": d.source,
             "preset": d.name in PRESETS, "parameters": [p.as_json() for p in d.params]}
            for d in chosen]}))
        return
    if name is None:
        t = Table(show_header=True, header_style="bold")
        for col in ("name", "kind", "description", "parameters"):
            t.add_column(col)
        for d in chosen:
            kind = "user" if d.source != "built-in" else ("preset" if d.name in PRESETS else "rule")
            t.add_row(d.name, kind, d.description, ", ".join(p.name for p in d.params))
        out.print(t)
        out.print("Spec: name or name:key=value,key=value (e.g. risk:p=0.25,buy=red>blue>orange). "
                  "`quacks strategies NAME` explains one.")
        return
    d = chosen[0]
    out.print(f"[bold]{d.name}[/bold] ({d.source}): {d.description}")
    if d.idea:
        out.print(f"Idea: {d.idea}")
    out.print("Parameters:")
    for p in d.params:
        out.print(f"  {p.describe()}")


@app.command()
def warmup(
    optimal: Annotated[bool, typer.Option("--optimal", help="Also time one game with the optimal stopper (the stopper itself is always compiled and cached).")] = False,
    threads: ThreadsOpt = None,
) -> None:
    """Compile every kernel now (potion, forced draws, the game kernel with every built-in
    strategy, replay, scripted rounds, the optimal stopper) and say how long it took; they are
    cached on disk after that, so later commands start at once."""
    from sim import NUMBA_CACHE_DIR
    from sim.cli.warmup import warm_all

    set_threads(threads)
    steps, cached = warm_all(optimal)
    total = sum(t for _, t in steps)
    out.print(f"warmup: {total:.1f} s in all ({'loaded from' if cached else 'compiled into'} "
              f"{NUMBA_CACHE_DIR})", markup=False)
    for label, t in steps:
        out.print(f"  {label:<40} {t:7.1f} s", markup=False)


def main() -> None:
    """Console entry point: usage errors are one line with exit status 2, Ctrl-C one line with
    130 (see ``QuacksGroup``)."""
    import signal

    # Ctrl-C raises KeyboardInterrupt again from here on (during start-up, sim/__init__.py
    # exits at once with one line instead of a traceback from the middle of an import)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
