"""How ``quacks potion`` and ``quacks round`` print their results: the potion table, forced
draws, the regret table and a scripted round (rich tables on the command line's console)."""

from __future__ import annotations

import sys

from rich.console import Console
from rich.table import Table

out = Console(highlight=False, width=None if sys.stdout.isatty() else 200)


def ci_text(lo_hi, digits: int | None = None) -> str:
    """``[lo, hi]``: four significant digits, or ``digits`` decimals (columns that line up)."""
    if digits is not None:
        return f"[{lo_hi[0]:.{digits}f}, {lo_hi[1]:.{digits}f}]"
    return f"[{lo_hi[0]:.4g}, {lo_hi[1]:.4g}]"


def print_regret(res: dict) -> None:
    # the rules are imported here, not at module level, so quacks --help starts at once
    from sim.rules.ruleset import rules_label

    v = res["value"]
    how = "exact enumeration" if res["exact"] else "sampled (95% intervals)"
    out.print(f"bag {res['bag']} | start {res['start']} | flask "
              f"{res['flask'] if res['flask'] is not None else 'off'} | value = VP + {v['coin']:g} "
              f"x coins + {v['ruby']:g} x ruby (an exploded pot takes the better of VP and coins) "
              f"| {how}, {res['seconds']} s | rules "
              f"{rules_label(res['ruleset'], res['overrides'])}", markup=False)
    t = Table(show_header=True, header_style="bold")
    for col in ("stop rule", "expected value", "regret vs optimal", "P(explode)",
                "mean reward space", "n"):
        t.add_column(col, justify="left" if col == "stop rule" else "right")
    for r in sorted(res["rules"], key=lambda r: r["regret"]):
        val = (f"{r['expected_value']:.4f}" + (
            "" if r["exact"] else f" {ci_text(r['expected_value_ci'])}"))
        t.add_row(r["rule"], val, f"{r['regret']:.4f}", f"{r['p_explode']:.4f}",
                  f"{r['expected_reward_space']:.3f}", "exact" if r["exact"] else f"{r['n']:,}")
    out.print(t)


def print_forced(res: dict) -> None:
    from sim.api.events import plural
    from sim.rules.ruleset import rules_label

    out.print(f"bag {res['bag']}, draws {res['draws']} | rules "
              f"{rules_label(res['rules'], res['overrides'])}",
              markup=False)
    for e in res["events"]:
        out.print(f"  {e}")
    state = "EXPLODED" if res["exploded"] else "intact"
    out.print(f"{state}; white total {res['white_total']}; reward space {res['reward_space']}: "
              f"{plural(res['coins'], 'coin')}, {res['vp']} VP{', ruby' if res['ruby'] else ''}")
    if res["draws_unused"]:
        k = res["draws_unused"]
        out.print(f"({plural(k, 'listed draw')} {'was' if k == 1 else 'were'} not used: brewing "
                  "had ended)")


def print_potion(res: dict, rs) -> None:
    how = ("exact enumeration" if res["exact"] else f"{res['n']:,} sampled potions (seed "
           f"{res['seed']})")
    out.print(f"bag {res['bag']} | stop {res['stop']} | start {res['start']} | "
              f"flask {res['flask'] if res['flask'] is not None else 'off'} | rules {rs.display}",
              markup=False)
    out.print(f"{how}, {res['seconds']} s")
    t = Table(show_header=True, header_style="bold")
    t.add_column("measure")
    t.add_column("value", justify="right")
    t.add_column("95% interval", justify="right")
    ex = res["exact"]
    t.add_row("P(explode)", f"{res['p_explode']:.4f}",
              "exact" if ex else ci_text(res["p_explode_ci"]))
    if "p_protected" in res:
        t.add_row("P(explode, protected)", f"{res['p_protected']:.4f}",
                  "exact" if ex else ci_text(res["p_protected_ci"]))
    for key, label in (("expected_reward_space", "mean reward space"),
                       ("expected_coins", "mean coins"),
                       ("expected_vp", "mean VP")):
        t.add_row(label, f"{res[key]:.3f}", "exact" if ex else ci_text(res[key + "_ci"]))
    if "p_bowl" in res:  # the overflow bowl (Herb Witches): its VP are in the mean VP above
        t.add_row("P(chips in the bowl)", f"{res['p_bowl']:.4f}", ci_text(res["p_bowl_ci"]))
        t.add_row("mean bowl VP", f"{res['expected_bowl_vp']:.3f}",
                  ci_text(res["expected_bowl_vp_ci"]))
    out.print(t)
    d = Table(title="reward spaces", show_header=True, header_style="bold")
    dist = res["distribution"]
    parts = [k for k in ("intact", "exploded", "protected") if k in dist]
    for col in ("space", "coins", "VP", "ruby", *(f"P({k})" for k in parts)):
        d.add_column(col, justify="right")
    total = sum(sum(dist[k].values()) for k in parts)
    spaces = sorted({int(k) for part in dist.values() for k in part})
    for s in spaces:
        ps = [f"{dist[k].get(str(s), 0) / total:.4f}" for k in parts]
        d.add_row(str(s), str(rs.coins[s]), str(rs.vp[s]), "R" if rs.ruby[s] else "", *ps)
    out.print(d)


def print_round(res: dict) -> None:
    """``quacks round``'s text output: the round's events (draws left out) and the table of
    every seat after it."""
    from sim.api.events import event_text
    from sim.rules.ruleset import rules_label

    n = len(res["players"])
    names = [f"player {s}" for s in range(n)]
    if res["rules_given"]:
        out.print(f"rules {rules_label(res['rules'], res['overrides'])}", markup=False)
    for d in res["events"]:
        if d["event"] != "draw":
            out.print(event_text(d, names, res["ruby_costs"]), markup=False)
    t = Table(show_header=True, header_style="bold")
    tube = "glass" in res["players"][0]  # the test-tube side of the pot
    for col in ("seat", "rat", "reward", "exploded", "die", "VP+", "coins", "bought", "rubies",
                "droplet",
                *(("glass",) if tube else ()), "flask", "score", "bag"):
        t.add_column(col)
    for s, p in enumerate(res["players"]):
        t.add_row(str(s), str(p["rat"]), str(p["reward_space"]), "yes" if p["exploded"] else "",
                  ",".join(p["die"]), str(p["vp_gained"]), str(p["coins"]), ",".join(p["bought"]),
                  str(p["rubies"]), str(p["droplet"]), *((str(p["glass"]),) if tube else ()),
                  "full" if p["flask"] else "empty", str(p["score"]), p["bag"])
    out.print(t)
