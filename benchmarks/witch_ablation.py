"""Where a Herb Witches game's extra time goes, by ablation: the same lineup timed (CPU time of
one thread) under rulesets that add the expansion's parts one at a time, and with each witch
fixed in play while the three threshold seats call her or never do.

    python benchmarks/witch_ablation.py [--games 20000] [--rounds 5] [--no-witches] [--cards]

The steps (``STEPS``): the reference (base, Set 1, no deck); the deck dealt with every card
left out (what the deck's machinery costs: the same games as the reference); the deck on; the
Herb Witches ruleset with the witches and the deck off (the overflow bowl, the orange 6 book,
the added chips), then with the deck; the witches dealt with no seat calling one, the random
seat kept from calling too (what the witches' machinery costs: the deal, the hook dispatch,
each witch's quick tests and offers); no threshold seat calling one (what asking costs: each
witch in play working out her offer and the strategy's answer, the witch-hat cards in the deck;
the random seat still calls at random, and what its calls do counts here); every witch called.
Each is timed ``--rounds`` times in turn (A B C ... A B C ...) and the median microseconds per
game is shown with its min-max, beside the chips placed per potion and the potions per game
(``counts``), so what the rules add to a game (more chips, longer potions) is told apart from
what the code adds. Then, per witch (``--no-witches`` leaves it out): the witch fixed in her
group (the other groups dealt), her cost = microseconds per game with the threshold seats
calling her minus with them never calling her (``witch_off``). ``--cards`` adds each card's
cost in a base game: every card left out but that one, forced into one round of every game,
with the chips it adds to the pots and its cost per chip added (``print_cards``).

A measurement, not a test: the figures are only as steady as the machine is quiet.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import time

import numba
import numpy as np
from lineups import LINEUPS  # the lineups bench_games.py times

from sim.api.game import play_batch
from sim.kernel.decisions.slots import SLOT_WITCH, WITCH_NEVER
from sim.kernel.records import RD_NPOT
from sim.rules.card_numbers import CARD_SOURCES
from sim.rules.cards import CARDS, in_deck
from sim.rules.ruleset import load_ruleset
from sim.rules.witches import WITCHES
from strategies.builtin import parse_strategy

# every card left out: the deck is dealt and its hook points are asked each round, no card acts
# (the same games as without the deck: its draws have a stream of their own)
NO_CARDS = f"cards.exclude={json.dumps([src.decl.id for src in CARD_SOURCES])}"

# (label, ruleset, --set overrides, a parameter every threshold seat gets)
STEPS = (
    ("base, no deck (the reference)", "base", ["cards.deck=false"], ""),
    ("base, the deck on, every card left out", "base", [NO_CARDS], ""),
    ("base, the deck on", "base", [], ""),
    ("Herb Witches, witches off, no deck", "herb-witches",
     ["witches.enabled=false", "cards.deck=false"], ""),
    ("Herb Witches, witches off", "herb-witches", ["witches.enabled=false"], ""),
    ("Herb Witches, witches dealt, no seat calls (random too)", "herb-witches", [],
     "witches=never!"),
    ("Herb Witches, witches dealt, threshold seats never call", "herb-witches", [],
     "witches=never"),
    ("Herb Witches (the benchmark's)", "herb-witches", [], ""),
)


def lineup(param: str) -> list:
    """The benchmark lineup, each threshold seat given ``param`` (``key=value``) if any; a
    ``!`` at its end also keeps the random seat from calling a witch (its witch slot
    ``never``: what the witches' machinery costs when no seat ever calls one)."""
    seats = [parse_strategy(f"{s}{',' if ':' in s else ':'}{param.rstrip('!')}"
                            if param and s.startswith("threshold") else s) for s in LINEUPS[4]]
    return [never_witches(s) if param.endswith("!") else s for s in seats]


def per_chip(diff: list[float], more: float) -> str:
    """Microseconds per chip added: the median cost ``diff`` over the chips ``more`` it adds to
    a game, blank when it adds none to speak of."""
    return f"{statistics.median(diff) / more:6.3f}" if more > 0.5 else "     -"


def never_witches(seat):
    """The same strategy with its witch slot ``never`` (it keeps every penny)."""
    kinds = seat.kinds.copy()
    kinds[SLOT_WITCH] = WITCH_NEVER
    return dataclasses.replace(seat, kinds=kinds)


def cpu_us(rs, seats, games: int, seed: int) -> float:
    """CPU microseconds per game of one batch of ``games`` games on the current threads."""
    idx = np.arange(games, dtype=np.int64)
    t = time.process_time()
    play_batch(rs, seats, games=idx, rotations=idx % len(seats), seed=seed)
    return (time.process_time() - t) / games * 1e6


def counts(rs, seats, games: int) -> tuple[float, float]:
    """(chips placed per potion, potions per game) over ``games`` games (the round records)."""
    idx = np.arange(games, dtype=np.int64)
    res = play_batch(rs, seats, games=idx, rotations=idx % len(seats), seed=99, detail=True)
    npot = res.rounds[..., RD_NPOT]
    return float(npot.mean()), float(npot[0].size)


def timed(cases: list[tuple], games: int, rounds: int) -> list[list[float]]:
    """Microseconds per game of every (ruleset, seats) case, ``rounds`` times each in turn
    (after one warm-up batch each)."""
    for rs, seats in cases:
        cpu_us(rs, seats, 1000, 1)
    out = [[] for _ in cases]
    for r in range(rounds):
        for k, (rs, seats) in enumerate(cases):
            out[k].append(cpu_us(rs, seats, games, r + 2))
    return out


def spread(xs: list[float]) -> str:
    """``median (min-max)`` of microsecond figures."""
    return f"{statistics.median(xs):5.1f} ({min(xs):.1f}-{max(xs):.1f})"


def print_steps(games: int, rounds: int) -> None:
    """The expansion's parts added one at a time (``STEPS``), on one thread."""
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    cases = [(load_ruleset(name, sets), lineup(param)) for _l, name, sets, param in STEPS]
    times = timed(cases, games, rounds)
    ref = statistics.median(times[0])
    print(f"a 4-player game, part by part (CPU us per game on 1 thread, median (min-max) of "
          f"{rounds} batches of {games:,} games taken in turn; chips placed per potion and "
          f"potions per game over {min(games, 5000):,} games):")
    for (label, *_), (rs, seats), xs in zip(STEPS, cases, times, strict=True):
        chips, potions = counts(rs, seats, min(games, 5000))
        print(f"  {label:<56} {spread(xs)} us  x{statistics.median(xs) / ref:4.2f}   "
              f"{chips:5.2f} chips/potion x {potions:.0f}")
    numba.set_num_threads(threads)


def print_witches(games: int, rounds: int) -> None:
    """Each witch's cost per game: fixed in play, called by the threshold seats or never; beside
    it the chips her calls add to a game's pots (over ``min(games, 5000)`` games) and her cost
    per chip added (a witch who adds chips costs what their draws and actions cost)."""
    shipped = [w for w in WITCHES if w.number <= 12]
    cases = []
    for w in shipped:
        rs = load_ruleset("herb-witches", [f"witches.fixed=[\"{w.id}\"]"])
        cases += [(rs, lineup("")), (rs, lineup(f"witch_off={w.id}"))]
    times = timed(cases, games, rounds)
    chips = [placed(rs, seats, min(games, 5000)) for rs, seats in cases]
    print(f"each witch fixed in her group (the others dealt): CPU us per game called by the "
          f"threshold seats, and minus never called (median (min-max) of {rounds} pairs), the "
          f"chips her calls add to a game's pots and us per chip added:")
    for k, w in enumerate(shipped):
        on, off = times[2 * k], times[2 * k + 1]
        diff = [a - b for a, b in zip(on, off, strict=True)]
        more = chips[2 * k] - chips[2 * k + 1]
        per = per_chip(diff, more)
        print(f"  {w.id:<14} {spread(on)} us   her calls: {spread(diff)} us  {more:+5.1f} chips  "
              f"{per} us/chip")


def print_cards(games: int, rounds: int) -> None:
    """Each card's cost in the reference lineup (base): every card left out but this one, forced
    into one round of every game (``cards.force``), minus the deck with every card left out;
    beside it the chips the card adds to a game (placed in the pot, over ``min(games, 5000)``
    games) and its cost per chip added, against the no-card game's average cost per chip placed
    (set-up, buying and the rest included): a card near that average costs what its extra draws
    cost, the game's own work; well above it, its own code or its chips' actions (a blue chip
    looks at chips it does not place)."""
    numba.set_num_threads(1)
    cards = [c for c in CARDS if in_deck(c, False)]
    cases = [(load_ruleset("base", [NO_CARDS]), lineup(""))]
    cases += [(load_ruleset("base", [NO_CARDS, f"cards.force={json.dumps(c.id)}"]), lineup(""))
              for c in cards]
    times = timed(cases, games, rounds)
    chips = [placed(rs, seats, min(games, 5000)) for rs, seats in cases]
    base_us = statistics.median(times[0])
    print(f"each card played in one round of every base game (the others left out): CPU us "
          f"per game minus the deck with no card (median (min-max) of {rounds} batches), the "
          f"chips it adds to a game's pots and us per chip added; with no card "
          f"{base_us:.1f} us, {chips[0]:.1f} chips placed, {base_us / chips[0]:.3f} us per chip:")
    rows = []
    for c, xs, n in zip(cards, times[1:], chips[1:], strict=True):
        diff = [a - b for a, b in zip(xs, times[0], strict=True)]
        more = n - chips[0]
        per = per_chip(diff, more)
        rows.append((statistics.median(diff), c.id, f"{spread(diff)} us  {more:+5.1f} chips  "
                                                    f"{per} us/chip"))
    for _m, cid, text in sorted(rows, reverse=True):
        print(f"  {cid:<28} {text}")


def placed(rs, seats, games: int) -> float:
    """Chips placed in the pots per game (all seats, every round; ``counts``)."""
    per_potion, potions = counts(rs, seats, games)
    return per_potion * potions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-witches", action="store_true", help="leave out the per-witch table")
    ap.add_argument("--cards", action="store_true", help="add the per-card table (base)")
    args = ap.parse_args()
    numba.set_num_threads(1)
    print_steps(args.games, args.rounds)
    if not args.no_witches:
        print_witches(args.games, args.rounds)
    if args.cards:
        print_cards(args.games, args.rounds)


if __name__ == "__main__":
    main()
