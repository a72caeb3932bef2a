"""Checksums of complete games, one per ruleset configuration: proof that a restructuring changed
no game.

Usage:  python benchmarks/game_checksums.py [--games N] [--seed S] [--part games|potions]
                                           [--json FILE] [--check FILE]

Every configuration plays ``--games`` games (default 20,000) with a fixed lineup and the round
records on, and hashes every per-game and per-round field by its name (so a field that moves to
another offset keeps its checksum). ``--json FILE`` writes the checksums; ``--check FILE``
compares with a file written before and exits 1 on any difference. ``--part`` plays only the
games or only the potions (``--check`` then compares that part).

Configurations: base with and without the deck, every ingredient set (1-4 under base, 5-6 under
the Herb Witches), each published variant, and the Herb Witches with 5 players; and single
potions (``quacks potion``'s kernel) of a bag with every colour under each set, with the flask.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
LINEUP4 = ("expert", "balanced", "greedy", "random")
LINEUP5 = (*LINEUP4, "pumpkin")

CONFIGS: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("base", "base", (), LINEUP4),
    ("base-no-deck", "base", ("cards.deck=false",), LINEUP4),
    ("set1", "base", ("books.all=1",), LINEUP4),
    ("set2", "base", ("books.all=2",), LINEUP4),
    ("set3", "base", ("books.all=3",), LINEUP4),
    ("set4", "base", ("books.all=4",), LINEUP4),
    ("set5", "herb-witches", ("books.all=5",), LINEUP4),
    ("set6", "herb-witches", ("books.all=6",), LINEUP4),
    ("test-tube", "base", ('pot.side="test-tube"',), LINEUP4),
    ("synchronized", "base", ('game.info_model="synchronized"',), LINEUP4),
    ("sequential", "base", ('game.info_model="sequential"',), LINEUP4),
    ("teams", "base", ("game.teams=true",), LINEUP4),
    ("herb-witches-4", "herb-witches", (), LINEUP4),
    ("herb-witches-5", "herb-witches", (), LINEUP5),
)


POTIONS: tuple[tuple[str, str, tuple[str, ...], str], ...] = tuple(
    (f"potion-set{k}", "base" if k <= 4 else "herb-witches", (f"books.all={k}",), stop)
    for k in range(1, 7) for stop in ("white:6", "ev")
)
POTION_BAG = "start,o1,g1,b1,b2,r1,r2,y1,y2,p1,k1"


def named_columns(out: np.ndarray, rounds: np.ndarray) -> dict[str, np.ndarray]:
    """Every per-game and per-round field of a batch by its name."""
    from sim.api import game as game_api

    if hasattr(game_api, "result_fields"):
        game_fields, round_fields = game_api.result_fields(), game_api.round_fields()
    else:  # before the record declaration: the offsets of sim.kernel.records
        game_fields, round_fields = _fields_from_offsets("O_"), _fields_from_offsets("RD_")
    cols = {}
    for name, lo, width in game_fields:
        cols[f"game.{name}"] = out[..., lo:lo + width]
    for name, lo, width in round_fields:
        cols[f"round.{name}"] = rounds[..., lo:lo + width]
    return cols


def _fields_from_offsets(prefix: str) -> list[tuple[str, int, int]]:
    from sim.kernel import records

    offs = sorted((v, k[len(prefix):].lower()) for k, v in vars(records).items()
                  if k.startswith(prefix) and k != f"{prefix}WIDTH")
    width = getattr(records, f"{prefix}WIDTH")
    ends = [o for o, _ in offs[1:]] + [width]
    return [(name, lo, end - lo) for (lo, name), end in zip(offs, ends)]


def checksum(cols: dict[str, np.ndarray]) -> str:
    h = hashlib.sha256()
    for name in sorted(cols):
        h.update(name.encode())
        h.update(np.ascontiguousarray(cols[name], dtype=np.int64).tobytes())
    return h.hexdigest()[:16]


def game_sums(games: int, seed: int, say=print) -> dict[str, str]:
    """The checksum of every game configuration (:data:`CONFIGS`), ``games`` games each."""
    from sim.api.game import play_batch
    from sim.rules.ruleset import load_ruleset
    from strategies.builtin import parse_strategy

    out = {}
    for label, rules, sets, lineup in CONFIGS:
        rs = load_ruleset(rules, list(sets))
        n = len(lineup)
        idx = np.arange(games, dtype=np.int64)
        t = time.perf_counter()
        res = play_batch(rs, [parse_strategy(x) for x in lineup], games=idx // n,
                         rotations=idx % n, seed=seed, detail=True)
        out[label] = checksum(named_columns(res.out, res.rounds))
        say(f"{label:<16} {out[label]}  {time.perf_counter() - t:6.1f} s")
    return out


def potion_sums(games: int, seed: int, say=print) -> dict[str, str]:
    """The checksum of every potion configuration (:data:`POTIONS`), ``20 * games`` potions
    each."""
    from sim.api import potion as pot
    from sim.rules.ruleset import load_ruleset

    out = {}
    for label, rules, sets, stop in POTIONS:
        q = pot.make_query(POTION_BAG, stop, 1, 0, load_ruleset(rules, list(sets)))
        t = time.perf_counter()
        hist = pot.sample(q, 20 * games, seed, full=True)
        hist = hist[:54 + pot.BOWL_ROWS] if pot.has_bowl(q) else hist[:54]  # as stored
        key = f"{label}-{stop}"
        out[key] = checksum({"hist": hist})
        say(f"{key:<22} {out[key]}  {time.perf_counter() - t:6.1f} s")
    return out


PARTS = {"games": game_sums, "potions": potion_sums}


def run(games: int, seed: int, parts: tuple[str, ...] = tuple(PARTS),
        say=lambda line: print(line, flush=True)) -> dict[str, str]:
    """Every checksum of ``parts`` (default: the games, then the potions); ``say`` gets one line
    per configuration."""
    out = {}
    for part in parts:
        out.update(PARTS[part](games, seed, say))
    return out


def differences(want: dict[str, str], got: dict[str, str]) -> list[str]:
    """The configurations of ``want`` whose checksum ``got`` does not match."""
    return [k for k in want if want[k] != got.get(k)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--part", choices=sorted(PARTS), help="only the games or only the potions")
    ap.add_argument("--json", help="write the checksums to this file")
    ap.add_argument("--check", help="compare with the checksums in this file")
    a = ap.parse_args(argv)
    want = None
    if a.check:  # read before the run: a bad file is one line, not a traceback after it
        try:
            want = json.loads(Path(a.check).read_text())["checksums"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            ap.error(f"--check {a.check}: not a checksum file ({e})")
    sys.path.insert(0, str(ROOT))
    parts = (a.part,) if a.part else tuple(PARTS)
    sums = run(a.games, a.seed, parts)
    if a.json:
        Path(a.json).write_text(json.dumps({"games": a.games, "seed": a.seed, "checksums": sums},
                                           indent=1) + "\n")
    if want is not None:
        if a.part:  # only the configurations of the part played
            want = {k: v for k, v in want.items() if k in sums}
        bad = differences(want, sums)
        print("all checksums match" if not bad else f"DIFFERENT: {', '.join(bad)}")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
