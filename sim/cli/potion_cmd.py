"""The ``potion`` command: ``register(app)`` adds it to a Typer app.

``quacks potion --bag B --stop RULE`` samples (or with ``--exact`` enumerates) how often a bag
explodes and where its potion ends; ``--draws`` plays forced draws, ``--regret`` compares stop
rules against the optimal stopper.
"""

import json
import time
from typing import Annotated

import typer

from sim.cli.common import (
    JsonOpt,
    RulesOpt,
    SetOpt,
    StrategyFileOpt,
    ThreadsOpt,
    compile_notice,
    exit_on_interrupt,
    fail,
    set_threads,
    work_progress,
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
    from sim.api import potion as pot
    from sim.api import potion_draws as draws_api
    from sim.api.exact import MAX_STATES, sub_bag_count
    from sim.cli.printing import print_forced, print_potion, print_regret
    from sim.cli.user_input import USER_ERRORS, load_strategies
    from sim.rules import chips
    from sim.rules.ruleset import load_ruleset

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
            fail(f"{'--exact' if exact else '--regret'}: exact odds cover the Set 1 books without "
                 f"a card, and bags that cannot reach the overflow bowl; drop --card / the books.* "
                 f"overrides, or sample (leave out --exact)")
        if regret:
            if not (0 <= coin_value <= 10 and 0 <= ruby_value <= 10):
                fail("--coin-value and --ruby-value: expected numbers from 0 to 10")
            rules_ = [r.strip() for r in (compare or ";".join(pot.DEFAULT_COMPARE)).split(";")
                      if r.strip()]
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
                compile_notice("sim/kernel/potions.potion_histograms", progress=not json_)
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
