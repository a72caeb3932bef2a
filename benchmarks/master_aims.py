"""Issue 48's aims for ``master``, measured: the skill ladder's ``master`` and ``expert`` rows
(``benchmarks/skill_ladder.py``) in each game the aims name, and a ``master`` seat's speed.

    python benchmarks/master_aims.py [--games 10000] [--seed 101]
                                     [--out docs/examples/master-aims.txt]

Each game (base 4 players, herb-witches 4 players, base 2 players) plays ``master`` in one seat
against ``expert`` in the others, then ``expert`` there (the parity row, on the same deals), as
the ladder does; the mirror column is every seat playing the preset. The speed is games of one
``master`` seat and the rest ``expert`` per CPU second (user time of every thread, so a shared
machine's load does not enter it). Writes Markdown to ``--out`` (or prints it).
"""

from __future__ import annotations

import argparse
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.skill_ladder import play, rung  # noqa: E402
from sim.rules.ruleset import load_ruleset  # noqa: E402
from strategies.registry import slot_table  # noqa: E402

GAMES = (("base", 4, 0.33), ("herb-witches", 4, 0.30), ("base", 2, 0.60))


def cpu() -> float:
    """User CPU seconds of this process so far (every thread)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_utime


def row(r: dict) -> str:
    """A ladder row as skill_ladder prints it."""
    w, v, m = r["win"], r["vp"], r["mirror"]
    return (f"| {r['name']} | {w[0]:.3f} [{w[1]:.3f}, {w[2]:.3f}] | {v[0]:.1f} [{v[1]:.1f}, "
            f"{v[2]:.1f}] | {m[0]:.1f} [{m[1]:.1f}, {m[2]:.1f}] |")


def speed(games: int, seed: int) -> float:
    """Games per CPU second of one master seat against three expert (base; compiled first)."""
    rs = load_ruleset("base")
    specs = ["master", "expert", "expert", "expert"]
    play(rs, specs, 20, seed)
    t = cpu()
    play(rs, specs, games, seed)
    return games / (cpu() - t)


def main() -> int:
    """Measure and write the aims' table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=101)
    ap.add_argument("--out", type=Path)
    a = ap.parse_args()
    if a.out is not None and not a.out.parent.is_dir():
        print(f"master_aims: --out {a.out}: no such folder", file=sys.stderr)
        return 2
    slot_table()
    lines = ["# master against expert: issue 48's aims", "",
             f"`python benchmarks/master_aims.py --games {a.games} --seed {a.seed}`: "
             f"{a.games:,} games per row, every game its own deal, seed {a.seed}; the parity "
             "row is expert in the preset's seat on the same deals.", ""]
    for rules, players, aim in GAMES:
        rs = load_ruleset(rules)
        lines += [f"## {rules}, {players} players (aim: master's win share at least {aim:.2f})",
                  "", "| preset | win share vs expert [95% CI] | mean VP [95% CI] | "
                  "mirror winner's VP [95% CI] |", "|---|---:|---:|---:|"]
        for name in ("master", "expert"):
            lines.append(row(rung(rs, name, players, a.games, a.seed)))
            print(lines[-1], file=sys.stderr, flush=True)
        lines.append("")
    rate = speed(max(a.games // 2, 100), a.seed)
    lines += ["## Speed", "", f"One master seat and three expert, base: {rate:,.0f} games per CPU "
              f"second ({max(a.games // 2, 100):,} games; aim: 2,000 games/s on 2 cores)", ""]
    text = "\n".join(lines)
    if a.out is None:
        print(text, end="")
    else:
        tmp = a.out.with_name(a.out.name + ".tmp")
        tmp.write_text(text)
        tmp.replace(a.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
