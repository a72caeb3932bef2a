"""The ``potion`` command: ``register(app)`` adds it to a Typer app.

``quacks potion --bag B --stop RULE`` samples (or with ``--exact`` enumerates) how often a bag
explodes and where its potion ends; ``--draws`` plays forced draws, ``--regret`` compares stop
rules against the optimal stopper.
"""

import json
from typing import Annotated

import typer

from sim.cli.common import compile_notice, exit_on_interrupt, fail, work_progress
from sim.cli.options import (
    JsonOpt,
    RulesFileOpt,
    RulesOpt,
    SetOpt,
    StrategyFileOpt,
    ThreadsOpt,
)


def register(app: typer.Typer) -> None:
    """Add ``quacks potion`` to the app."""
    app.command()(potion)


def potion(
    bag: Annotated[str, typer.Option(
        help="Chips, comma-separated: <colour><value> or <colour><value>x<count>, e.g. w1x4,o1,r2; "
        "'start' is the starting bag. Colours w o g b r y p k.")] = "start",
    stop: Annotated[str, typer.Option(
        help="Stop policy: white:T (white total >= T), risk:P (next-draw explosion chance > P), "
        "never.")] = "white:6",
    flask: Annotated[int | None, typer.Option(
        help="Use the full flask on the first white of value >= V that does not explode.")] = None,
    start: Annotated[int, typer.Option(
        help="Space (droplet or rat) the first chip counts from.")] = 0,
    rules: RulesOpt = "base",
    rules_file: RulesFileOpt = None,
    set_: SetOpt = None,
    n: Annotated[int, typer.Option("--n", help="Potions to sample.")] = 1_000_000,
    seed: Annotated[int, typer.Option(help="Run seed: potion i uses stream (seed, i).")] = 1,
    exact: Annotated[bool, typer.Option(
        "--exact", help="Compute exactly by enumeration instead of sampling.")] = False,
    draws: Annotated[str | None, typer.Option(
        help="Forced draws, in order (blue looks follow the blue chip); brewing stops after the "
        "last.")] = None,
    regret: Annotated[bool, typer.Option(
        "--regret",
        help="Compare stop rules against the optimal stopper for this bag and start.")] = False,
    compare: Annotated[str | None, typer.Option(
        help="Stop rules for --regret, separated by ';' (default: "
        "white:5;white:6;white:7;risk:0.1;risk:0.2;risk:0.3;ev;optimal).")] = None,
    coin_value: Annotated[float, typer.Option(
        help="VP worth of a coin when valuing potions (--regret, ev, optimal).")] = 0.3,
    ruby_value: Annotated[float, typer.Option(
        help="VP worth of a ruby when valuing potions (--regret, ev, optimal).")] = 0.5,
    card: Annotated[str | None, typer.Option(
        help="A fortune-teller card whose rule acts while the potion is brewed, e.g. "
        "well-stirred (any other card is refused, naming the cards that do).")] = None,
    json_: JsonOpt = False,
    threads: ThreadsOpt = None,
    strategy_file: StrategyFileOpt = None,
) -> None:
    """How often does this bag explode, and where does the potion end?

    Fixed choices: a blue chip places the highest-value non-white chip it looks at (ties: the later
    colour in w,o,g,b,r,y,p,k), never a white; a yellow chip always returns the white chip before
    it.
    """
    # the simulation is imported when the command runs, so quacks --help starts at once
    from sim.cli.hooks import when_work_starts
    from sim.cli.printing import print_forced, print_potion, print_regret
    from sim.cli.user_input import USER_ERRORS
    from sim.questions.ask_potion import potion as ask_potion

    label = "stop rules" if regret else "exact enumeration" if exact else "potions"
    try:
        # Ctrl-C exits at once (nothing is kept on disk); the bar from the first potions
        with exit_on_interrupt(), when_work_starts(lambda: work_progress(label)) as bar:
            res = ask_potion(bag=bag, stop=stop, flask=flask, start=start, rules=rules,
                             set=set_, n=n, seed=seed, exact=exact, draws=draws, regret=regret,
                             compare=compare, coin_value=coin_value, ruby_value=ruby_value,
                             card=card, threads=threads, strategy_file=strategy_file,
                             progress=bar,
                             on_compile=lambda entry: compile_notice(entry, progress=not json_))
    except USER_ERRORS as e:
        fail(str(e))
    if json_:
        typer.echo(json.dumps(res.answer))
    elif res.mode == "regret":
        print_regret(res.answer)
    elif res.mode == "draws":
        print_forced(res.answer)
    else:
        print_potion(res.answer, res.ruleset)
