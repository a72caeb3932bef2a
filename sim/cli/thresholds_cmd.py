"""The ``thresholds`` command: ``register(app)`` adds it to a Typer app.

``quacks thresholds --bag B`` prints every white-total and risk threshold of the bag against the
optimal stopper (``sim.thresholds``, :mod:`sim.questions.ask_thresholds`): explosion chance,
mean reward space, coins, VP, rubies, value and regret, then the optimal stopper's policy as a
map. ``--json`` prints one object, ``--csv FILE`` / ``--png FILE`` write the table / the stop
curve, ``--out DIR`` all of it.
"""

import json
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from sim.cli.common import compile_notice, exit_on_interrupt, fail, work_progress
from sim.cli.hooks import when_work_starts
from sim.cli.options import JsonOpt, RulesFileOpt, RulesOpt, ThreadsOpt

out = Console(highlight=False, width=None if sys.stdout.isatty() else 200)


def register(app: typer.Typer) -> None:
    """Add ``quacks thresholds`` to the app."""

    @app.command()
    def thresholds(
        bag: Annotated[str, typer.Option(
            help="Chips, comma-separated: <colour><value> or <colour><value>x<count>, e.g. "
            "start,r2,b1x2 ('start' is the starting bag).")] = "start",
        start: Annotated[int, typer.Option(
            help="Space (droplet or rat) the first chip counts from.")] = 0,
        flask: Annotated[int | None, typer.Option(
            help="Use the full flask on the first white of value >= V that does not "
            "explode.")] = None,
        round_: Annotated[int, typer.Option(
            "--round", help="Game round (0: outside a game): picks the value of a coin (and of a "
            "ruby in the last round) unless --coin-value / --ruby-value are given.")] = 0,
        rules: RulesOpt = "base",
        rules_file: RulesFileOpt = None,
        set_: Annotated[list[str] | None, typer.Option(
            "--set", help="Override one ruleset value: section.key=value (repeatable), e.g. "
            "books.blue=2.")] = None,
        card: Annotated[str | None, typer.Option(
            help="A fortune-teller card whose rule acts while the potion is brewed, e.g. "
            "well-stirred (any other card is refused, naming the cards that do); "
            "sampled.")] = None,
        coin_value: Annotated[float | None, typer.Option(
            help="VP worth of a coin (default: the round's, 0.3 outside a game).")] = None,
        ruby_value: Annotated[float | None, typer.Option(
            help="VP worth of a ruby (default 0.5).")] = None,
        white: Annotated[str | None, typer.Option(
            help="White-total thresholds: A:B, a comma list, or none (default 1 to the explosion "
            "limit).")] = None,
        risk: Annotated[str | None, typer.Option(
            help="Risk thresholds: a comma list, LO:HI:STEP, or none (default "
            "0.05:0.5:0.05).")] = None,
        n: Annotated[int, typer.Option("--n",
                                       help="Potions sampled per rule when sampling.")] = 1_000_000,
        n_optimal: Annotated[int | None, typer.Option(
            "--n-optimal",
            help="Potions for a sampled optimal stopper (default: --n, at most 20,000).")] = None,
        seed: Annotated[int, typer.Option(
            help="Run seed: potion i of every rule uses stream (seed, i).")] = 1,
        exact: Annotated[bool | None, typer.Option(
            "--exact/--sample", help="Enumerate exactly, or sample every rule (default: exact when "
            "the bag allows).")] = None,
        json_: JsonOpt = False,
        csv: Annotated[str | None, typer.Option(
            "--csv", help="Write the table as CSV to FILE.")] = None,
        png: Annotated[str | None, typer.Option(
            "--png", help="Write the stop curve to FILE, in the format its extension names "
            "(.png, .svg, .pdf, .jpg, ...; PNG without one).")] = None,
        out_dir: Annotated[str | None, typer.Option(
            "--out", help="Write everything to DIR: table CSV and parquet, policy parquet, JSON, "
            "stop curve and policy PNGs.")] = None,
        force: Annotated[bool, typer.Option(
            "--force", help="Replace an existing --csv or --png file, or the files of a "
            "non-empty --out folder.")] = False,
        threads: ThreadsOpt = None,
    ) -> None:
        """At which white total (or explosion risk) should this bag stop? Every threshold's
        explosion chance, reward space, coins, VP, rubies and value, against the optimal stopper
        (the ceiling) with each rule's regret, and the optimal policy as a map.

        Exact where the bag allows (Set 1 books, no card, a small bag), sampled otherwise.
        """
        from sim.cli.user_input import USER_ERRORS
        from sim.questions.ask_thresholds import thresholds as ask_thresholds
        from sim.rules.ruleset import rules_label

        try:
            with exit_on_interrupt(), when_work_starts(
                    lambda: work_progress("stop rules", quiet=json_)) as bar:
                report = ask_thresholds(
                    bag=bag, start=start, flask=flask, round=round_, rules=rules, set=set_,
                    card=card, coin_value=coin_value, ruby_value=ruby_value, white=white,
                    risk=risk, n=n, n_optimal=n_optimal, seed=seed, exact=exact, csv=csv,
                    png=png, out=out_dir, force=force, threads=threads, progress=bar,
                    on_compile=lambda entry: compile_notice(entry, quiet=json_))
        except typer.Exit:
            raise
        except USER_ERRORS as e:
            fail(str(e))
        except OSError as e:
            fail(f"cannot write {e.filename or 'the output'}: {e.strerror or e}")
        res = report.result
        if json_:
            typer.echo(json.dumps(res.to_json()))
            return
        print_thresholds(res, rules_label(res.summary["rules"], res.summary["overrides"]))
        for f in report.written:
            out.print(f"wrote {f}", markup=False)


def _pm(row, m: str, fmt: str) -> str:
    """A figure, with its 95% interval as ± half-width when sampled."""
    v = format(row[m], fmt)
    lo, hi = row.get(m + "_lo"), row.get(m + "_hi")
    if lo is None or hi is None or lo != lo or hi != hi:  # NaN: exact
        return v
    return f"{v} ±{format((hi - lo) / 2, fmt)}"


def print_thresholds(res, rules_display: str) -> None:
    """The lines ``quacks thresholds`` prints: a header, the table, the best thresholds and the
    optimal policy map."""
    s = res.summary
    v, opt = s["value"], s["optimal"]
    how = ("exact enumeration" if s["exact"] else f"{s['n']:,} sampled potions a rule (seed "
           f"{s['seed']}, ± is the 95% interval)")
    ohow = "exact" if opt["exact"] else f"sampled, {opt['n']:,} potions"
    out.print(f"bag {s['bag']} | start {s['start']} | flask {s['flask'] or 'off'} | round "
              f"{s['round']} | card {s['card'] or 'none'} | rules {rules_display}",
              markup=False)
    out.print(f"value = VP + {v['coin']:g} x coins + {v['ruby']:g} x ruby (an exploded pot takes "
              "the better of VP and coins)", markup=False)
    if s.get("brewing_vp"):
        out.print("VP and value count what the chips score while brewing; the optimal stopper "
                  "decides by the reward space's value alone, so a rule may beat it", markup=False)
    out.print(f"{how}; optimal stopper {ohow}; {s.get('seconds', 0)} s", markup=False)
    t = Table(show_header=True, header_style="bold")
    for col in ("stop rule", "P(explode)", "reward space", "coins", "VP", "rubies", "value",
                "regret", ""):
        t.add_column(col, justify="left" if col in ("stop rule", "") else "right")
    for row in res.to_json()["rows"]:
        mark = "ceiling" if row["kind"] == "optimal" else ("best rule" if row["best"] else "")
        t.add_row(row["rule"], _pm(row, "p_explode", ".4f"),
                  _pm(row, "expected_reward_space", ".3f"),
                  _pm(row, "expected_coins", ".3f"), _pm(row, "expected_vp", ".3f"),
                  _pm(row, "expected_rubies", ".3f"), _pm(row, "expected_value", ".4f"),
                  _pm(row, "regret", ".4f") if row["kind"] != "optimal" else "",
                  mark, style="bold" if mark else None)
    out.print(t)
    parts = [f"best {k}: {b['rule']} (regret {b['regret']:.4f})"
             for k, b in (("white total", s["best_white"]), ("risk", s["best_risk"])) if b]
    out.print("; ".join(parts), markup=False)
    if not len(res.policy):
        out.print(s["policy_note"], markup=False)
        return
    print_policy(res.policy)


def print_policy(policy) -> None:
    """The optimal policy as a grid: white total down, chips drawn across; each cell the share
    of the potions reaching it that draw (D all, . none, else a percentage), blank if never."""
    kmax, wmax = int(policy["chips_drawn"].max()), int(policy["white_total"].max())
    cells = {(r.chips_drawn, r.white_total): r.share_draw for r in policy.itertuples()}
    out.print("optimal stopper's policy: white total (rows) by chips drawn (columns); D draws "
              "again, . stops, n% draws in n% of the potions deciding there, blank never reached",
              markup=False)
    t = Table(show_header=True, header_style="bold")
    t.add_column("white")
    for k in range(1, kmax + 1):
        t.add_column(str(k), justify="center")
    for w in range(wmax, -1, -1):
        row = []
        for k in range(1, kmax + 1):
            x = cells.get((k, w))
            row.append("" if x is None or x != x else "D" if x >= 1 - 1e-12 else
                       "." if x <= 1e-12 else f"{100 * x:.0f}%")
        t.add_row(str(w), *row)
    out.print(t)
