"""How ``quacks potion`` and ``quacks round`` print their results: the potion table, forced
draws, the regret table and a scripted round (rich tables on the command line's console)."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table

PIPED_WIDTH = 200  # the width of tables written to a pipe or file when $COLUMNS is not set
COLUMN_EDGE = 3  # what a column adds to a rich table's width: its two padding spaces and a rule
# the words a header may wrap between: a bracketed group ("[95% CI]", "(if unpaired)") stays whole
_HEADER_WORD = re.compile(r"\[[^\]]*\]|\([^)]*\)|\S+")


def stdout_console() -> Console:
    """The console of a command's results on stdout: the terminal's width (or ``$COLUMNS`` when
    set, also through a pipe: ``COLUMNS=80 quacks tournament | less``), else
    :data:`PIPED_WIDTH` columns."""
    cols = os.environ.get("COLUMNS", "").strip()
    piped = PIPED_WIDTH if not (cols.isdigit() and int(cols) > 0) else int(cols)
    return Console(highlight=False, width=None if sys.stdout.isatty() else piped)


out = stdout_console()


def _wrap_header(text: str, width: int) -> str:
    """``text`` broken into lines of at most ``width`` between :data:`_HEADER_WORD` words."""
    lines: list[str] = []
    for word in _HEADER_WORD.findall(text):
        if lines and cell_len(lines[-1]) + 1 + cell_len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "\n".join(lines)


def table_parts(header: Sequence[str], rows: Sequence[Sequence[str]], width: int,
                keys: Sequence[int] = (0,), drop: Sequence[int] = ()
                ) -> list[tuple[list[int], dict[int, int] | None]]:
    """How a table of one-line cells is laid out at ``width`` columns: one ``(columns, None)``
    when it fits as it is, else one ``(columns, {column: width})`` per table the columns are
    split over (in order, each repeating the ``keys`` columns: names and counts; the ``drop``
    columns, a second name, left out), every cell on one line and a header wrapped only
    between words. When a part cannot fit so, the first key column (the names) is narrowed,
    its cells wrapped between words; when even that is not enough the part has ``None``: rich
    wraps it as best it can."""
    n = len(header)
    cells = [max([cell_len(r[i]) for r in rows] or [0]) for i in range(n)]
    full = [max(c, cell_len(h)) for c, h in zip(cells, header)]
    least = [max([c, *map(cell_len, _HEADER_WORD.findall(h))]) for c, h in zip(cells, header)]
    words = [max([cell_len(x) for r in rows for x in r[i].split()]
                 + [cell_len(x) for x in _HEADER_WORD.findall(header[i])] or [1])
             for i in range(n)]

    def span(cols, w) -> int:
        return sum(w[i] + COLUMN_EDGE for i in cols) + 1

    if span(range(n), full) <= width:
        return [(list(range(n)), None)]
    drop = {d % n for d in drop}
    keys = sorted(k % n for k in keys if k % n not in drop)
    groups: list[list[int]] = []
    for i in (i for i in range(n) if i not in keys and i not in drop):
        if groups and span(keys + groups[-1] + [i], least) <= width:
            groups[-1].append(i)
        else:
            groups.append([i])
    parts = []
    for g in groups or [[]]:
        cols = sorted(keys + g)
        room = width - span(cols, least)
        w = {i: least[i] for i in cols}
        if room < 0:  # narrow the names, wrapped between words
            w[keys[0]] += room
            room = 0
            if w[keys[0]] < words[keys[0]]:
                parts.append((cols, None))
                continue
        for i in cols:  # unwrap the headers the room allows, left to right
            grow = min(room, full[i] - least[i])
            w[i] += grow
            room -= grow
        parts.append((cols, w))
    return parts


def print_table(console: Console, title: str, header: Sequence[str],
                rows: Sequence[Sequence[str]], *, keys: Sequence[int] = (0,),
                drop: Sequence[int] = (), justify: Sequence[str] | None = None,
                split_header: Sequence[str] | None = None) -> None:
    """Print a table of one-line cells on ``console``: as one rich table when it fits the
    console's width, else split by columns into tables that do (:func:`table_parts`; the later
    ones titled "..., continued"), so no interval is wrapped and no name is cut. ``justify``:
    each column's "left" or "right" (default: the first left, the rest right);
    ``split_header``: the headers of a split table, for a header that leans on its neighbour;
    ``keys`` and ``drop``: see :func:`table_parts`."""
    justify = list(justify or ["left"] + ["right"] * (len(header) - 1))
    parts = table_parts(header, rows, console.width, keys, drop)
    if len(parts) > 1 and split_header is not None:
        header = split_header
    for k, (cols, widths) in enumerate(parts):
        t = Table(title=title if k == 0 else f"{title}, continued" if title else None,
                  show_header=True, header_style="bold", title_justify="left")
        for i in cols:
            if len(parts) == 1 and widths is None:  # as it is
                t.add_column(header[i], justify=justify[i])
            elif widths is None:  # rich's wrapping, folding a long word, never cutting it
                t.add_column(header[i], justify=justify[i], overflow="fold")
            else:  # only a narrowed name column wraps
                t.add_column(_wrap_header(header[i], widths[i]), justify=justify[i],
                             width=widths[i], overflow="fold")
        for r in rows:
            t.add_row(*(r[i] for i in cols))
        console.print(t)


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
              f"{res['flask'] if res['flask'] is not None else 'off'} | card "
              f"{res['card'] or 'none'} | value = VP + {v['coin']:g} "
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

    out.print(f"bag {res['bag']}, draws {res['draws']} | card {res['card'] or 'none'} | rules "
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
              f"flask {res['flask'] if res['flask'] is not None else 'off'} | card "
              f"{res['card'] or 'none'} | rules {rs.display}",
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
    if res.get("expected_brewing_vp_ci", [0, 0])[1] > 0:  # a book or card scoring as chips land
        t.add_row("mean VP while brewing", f"{res['expected_brewing_vp']:.3f}",
                  ci_text(res["expected_brewing_vp_ci"]))
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
