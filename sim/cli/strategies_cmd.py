"""The ``strategies`` and ``warmup`` commands: ``register(app)`` adds them to a Typer app.
``strategies`` lists (or explains) the registered strategies, ``warmup`` compiles every kernel.
"""

import json
from typing import Annotated

import typer

from sim.cli.common import JsonOpt, StrategyFileOpt, ThreadsOpt, fail, set_threads
from sim.cli.printing import out


def register(app: typer.Typer) -> None:
    """Add ``quacks strategies`` and ``warmup`` to the app."""
    app.command()(strategies)
    app.command()(warmup)


def strategies(
    name: Annotated[str | None, typer.Argument(help="Explain one strategy.")] = None,
    json_: JsonOpt = False,
    strategy_file: StrategyFileOpt = None,
    slots: Annotated[bool, typer.Option(
        "--slots", help="Print what a strategy file may define instead: the slot-function "
        "signature, every slot (what a and b are, what the result means) and the helpers a slot "
        "function may call.")] = False,
) -> None:
    """List every registered strategy with its parameters, or explain one."""
    # the registry is imported when the command runs, so quacks --help starts at once
    from rich.table import Table

    from sim.cli.user_input import USER_ERRORS, load_strategies
    from strategies.builtin import PRESETS, REGISTRY

    if slots:
        from sim.cli.slots_cmd import slots_json, slots_text

        if name is not None:
            fail("--slots describes the slots every strategy file may define; give no strategy "
                 "name")
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


def warmup(
    optimal: Annotated[bool, typer.Option(
        "--optimal", help="Also time one game with the optimal stopper (the stopper itself is "
        "always compiled and cached).")] = False,
    threads: ThreadsOpt = None,
) -> None:
    """Compile every kernel now (potion, forced draws, the game kernel with every built-in
    strategy, replay, scripted rounds, the optimal stopper) and say how long it took; they are
    cached on disk after that, so later commands start at once."""
    from sim import NUMBA_CACHE_DIR
    from sim.cli.warmup import warm_all

    set_threads(threads)

    def as_it_goes(label: str, seconds: float) -> None:  # a line per kernel on stderr, as it goes
        typer.echo(f"  {label:<40} {seconds:7.1f} s", err=True)

    steps, cached = warm_all(optimal, on_step=as_it_goes)
    total = sum(t for _, t in steps)
    out.print(f"warmup: {total:.1f} s in all ({'loaded from' if cached else 'compiled into'} "
              f"{NUMBA_CACHE_DIR})", markup=False)
    for label, t in steps:
        out.print(f"  {label:<40} {t:7.1f} s", markup=False)
