"""Full-game throughput: complete base games per second with the built-in strategies.

    python benchmarks/bench_games.py [--games 200000] [--threads 2] [--presets] [--variants]
                                     [--herb-witches] [--aims] [--no-profile]

Reports 4-, 3- and 2-player games per second (best of --repeat runs, after a warm-up that
compiles the kernels) for a mixed lineup of the built-in strategies, in the base game with Set 1
and no fortune-teller deck (the reference), then where a 4-player game's time goes: ``perf``
samples of one batch on one thread (``profile_kernel.py``), each compiled function counted in
its part of a game (brewing, the round's steps, buying, ...; ``PARTS``). --variants adds 4-player
games with the deck on and each ingredient set, and the published variants (test-tube side,
sequential brewing, teams), as a share of the reference (target: at least 80%). --herb-witches
adds the Herb Witches (witches, overflow bowl, orange 6, the deck) at 4 and 5 players, as a share
of the reference. --aims measures the speed aims of issue 45 (``AIMS``) and says which are met,
and profiles a 4 x expert game and a Herb Witches game as the reference (``PROFILED``), then
times a Herb Witches game part by part (``witch_ablation.py``: the deck, the witches off, dealt
but never called, called; one thread).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numba
import numpy as np
from lineups import LINEUPS

from sim.api.game import play_batch, result_buffer
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy

# The parts of a game, by the compiled functions a profile names (the first part whose words
# are in a function's name takes its samples; inlined code counts in the function it is in)
PARTS = (
    ("brewing: draws, placement, chip actions, stop decisions (the expected-value rule, "
     "one_step_ev_draws, is inlined here)",
     ("brew_round", "decide_all", "brew_until_stop", "place_drawn_call", "chip_actions",
      "on_explosion", "bowl_step", "place_first", "before_draw", "place_held")),
    ("buying at step B (buy_at_b), purchases taken (buy_best is inlined in play_rounds)",
     ("buy_best", "decide_buy", "take_purchases", "buy_at_b")),
    ("bag refill and rats (reset_potion, tails_between)",
     ("reset_potion", "bag_refilled", "tails_between")),
    ("the round's other steps, buying (buy_best and the marginal buyer's marginal_context "
     "are inlined here), spending rubies, records (play_rounds, inlined)", ("play_round",)),
    ("the marginal buyer's bag model, called (draw and tie chances; expert)",
     ("::buy_marginal::",)),
    ("powers (libm pow: the marginal buyer's shape knobs)", ("_pow", "pow@")),
    ("fortune-teller cards, books, witches, other decisions (called)",
     ("::cards::", "::books::", "::witches::", "::decisions::", "::droplet::")),
    ("game set-up, results, the batch loop", ("play_game", "setup_game", "finish_game",
                                              "deal_", "force_card", "parfor")),
)
OUTSIDE = "outside the kernel: memory (page faults, allocation), Python"

# Issue 45's speed aims: (label, what is timed, aim, as a share of the reference or games/s)
AIMS = (
    ("4 players, base (the reference)", "reference", 100_000),
    ("4 players, the deck on (quacks play's default)", "deck", None),
    ("4 players, the Herb Witches, share of the reference", "herb-witches", 0.80),
    # not an aim: Herb Witches games always deal the deck, the reference does not; its cards'
    # extra chips are about 1.2x the reference's work (witch_ablation.py --cards)
    ("  the same, share of the deck on (like for like)", "herb-vs-deck", None),
    ("4 x expert", "expert", 50_000),
    ("1 master + 3 expert", "master", 2_000),
)
SHARES = {"herb-witches", "herb-vs-deck"}  # the aims given as a share, not in games/s


def bench(rs, specs, games: int, repeat: int) -> float:
    """Best games-per-second of ``repeat`` batches of ``games`` games (seats rotating), each
    written into one result buffer, as ``quacks play`` writes its pieces (``play_summary``)."""
    lineup = [parse_strategy(s) for s in specs]
    n = len(lineup)
    warm = np.arange(1000, dtype=np.int64)
    play_batch(rs, lineup, games=warm, rotations=warm % n, seed=1)
    idx = np.arange(games, dtype=np.int64)
    buf = result_buffer(games, n)
    best = float("inf")
    for r in range(repeat):
        t = time.perf_counter()
        play_batch(rs, lineup, games=idx, rotations=idx % n, seed=r + 2, out=buf)
        best = min(best, time.perf_counter() - t)
    return games / best


def part_of(name: str) -> str:
    """The part of a game (``PARTS``) a profiled function's time counts in."""
    for label, words in PARTS:
        if any(w in name for w in words):
            return label
    return OUTSIDE


# the games profiled besides the reference with --aims: (what, rules, lineup, share of --games)
PROFILED = (
    ("a 4 x expert game", "base", ["expert"] * 4, 0.1),
    ("a 4-player Herb Witches game", "herb-witches", LINEUPS[4], 0.5),
)


def print_profile(games: int, what: str = "a 4-player reference game", rules: str = "base",
                  lineup: list[str] | None = None) -> None:
    """Where ``what``'s time goes (the benchmark lineup, or ``lineup``, under ``rules``; base
    without the deck), by part (``PARTS``), from ``perf``."""
    from profile_kernel import sample

    try:
        rows = sample(games, rules=rules, lineup=lineup)
    except RuntimeError as e:
        print(f"profile: none ({e})")
        return
    shares: dict[str, float] = {}
    for pct, name in rows:
        shares[part_of(name)] = shares.get(part_of(name), 0.0) + pct
    print(f"where {what}'s time goes ({games:,} games on 1 thread, perf samples; "
          "benchmarks/profile_kernel.py names the functions):")
    for label, pct in sorted(shares.items(), key=lambda kv: -kv[1]):
        print(f"  {pct:5.1f}%  {label}")


def print_aims(rs, ref: float, games: int, repeat: int) -> None:
    """Issue 45's speed aims (``AIMS``), measured, each with its aim and whether it is met: the
    expert mirror in the reference's rules (as ``--presets``), the master seat in the base rules
    with the deck (as ``bench_optimal.py``)."""
    deck = load_ruleset("base")
    herb = load_ruleset("herb-witches")
    runs: dict[str, float] = {}  # games/s, each timed once

    def once(key: str, rules) -> float:
        if key not in runs:
            runs[key] = bench(rules, LINEUPS[4], games, repeat)
        return runs[key]

    timed = {
        "reference": lambda: ref,
        "deck": lambda: once("deck", deck),
        "herb-witches": lambda: once("herb", herb) / ref,
        "herb-vs-deck": lambda: once("herb", herb) / once("deck", deck),
        "expert": lambda: bench(rs, ["expert"] * 4, max(games // 4, 10_000), repeat),
        "master": lambda: bench(deck, ["master", "expert", "expert", "expert"],
                                max(games // 100, 2_000), 1),
    }
    print("issue 45's speed aims:")
    for label, key, aim in AIMS:
        got = timed[key]()
        shown = f"{got:.0%}" if key in SHARES else f"{got:,.0f} games/s"
        verdict = "" if aim is None else (
            f"   aim {aim:.0%}" if aim < 1 else f"   aim {aim:,}") + (
            ": met" if got >= aim else ": NOT met")
        print(f"  {label:<52} {shown:>16}{verdict}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--threads", type=int, default=numba.config.NUMBA_NUM_THREADS)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--variants", action="store_true",
                    help="also time the deck on with each ingredient set (4 players)")
    ap.add_argument("--herb-witches", action="store_true",
                    help="also time the Herb Witches expansion (4 and 5 players, the deck on)")
    ap.add_argument("--presets", action="store_true",
                    help="also time each preset (4 copies) and a user-file twin of threshold")
    ap.add_argument("--aims", action="store_true",
                    help="also measure issue 45's aims (deck on, Herb Witches, expert, master)")
    ap.add_argument("--no-profile", action="store_true",
                    help="leave out where the time goes (a perf-sampled batch, about 10 s)")
    args = ap.parse_args()
    numba.set_num_threads(args.threads)
    rs = load_ruleset("base", ["cards.deck=false"])
    print(f"threads {args.threads}, {args.games:,} games per run, best of {args.repeat}")
    print("base game, Set 1, no deck:")
    ref = {}
    for n in (4, 3, 2):
        ref[n] = bench(rs, LINEUPS[n], args.games, args.repeat)
        print(f"{n} players: {ref[n]:12,.0f} games/s   lineup {', '.join(LINEUPS[n])}")
    if not args.no_profile:
        print_profile(min(args.games, 100_000))
    if args.aims:
        print_aims(rs, ref[4], args.games, args.repeat)
        if not args.no_profile:
            for what, rules, lineup, share in PROFILED:
                print_profile(max(int(min(args.games, 100_000) * share), 2_000), what, rules,
                              lineup)
            from witch_ablation import print_steps

            print_steps(max(min(args.games, 100_000) // 5, 2_000), 5)
    if args.variants:
        print("4 players, with the fortune-teller deck:")
        for books in (1, 2, 3, 4):
            v = load_ruleset("base", [f"books.all={books}"])
            gps = bench(v, LINEUPS[4], args.games, args.repeat)
            print(f"  deck + Set {books}: {gps:12,.0f} games/s   {gps / ref[4]:.0%} of the "
                  "reference")
        for label, sets in (("test-tube side", ["pot.side=test-tube"]),
                            ("sequential brewing", ["game.info_model=sequential"]),
                            ("teams of two", ["game.teams=true"])):
            gps = bench(load_ruleset("base", sets), LINEUPS[4], args.games, args.repeat)
            print(f"  deck + {label}: {gps:12,.0f} games/s   {gps / ref[4]:.0%} of the reference")
    if args.herb_witches:
        hw = load_ruleset("herb-witches")
        print("the Herb Witches (witches, overflow bowl, orange 6, deck on):")
        for specs in (LINEUPS[4], [*LINEUPS[4], "threshold:t=6"]):
            gps = bench(hw, specs, args.games, args.repeat)
            print(f"  {len(specs)} players: {gps:12,.0f} games/s   {gps / ref[4]:.0%} of the "
                  f"4-player reference   lineup {', '.join(specs)}")
    if args.presets:
        from strategies.builtin import PRESETS
        from strategies.registry import load_strategy_file

        load_strategy_file(Path(__file__).with_name("twin_threshold.py"))
        print("4 copies of one strategy per game:")
        for name in (*PRESETS, "threshold", "threshold-twin"):
            g = 64 if name == "optimal" else args.games
            gps = bench(rs, [name] * 4, g, 1 if name == "optimal" else args.repeat)
            print(
                f"  {name:16s} {gps:12,.0f} games/s"
                + (f"   ({g:,} games)" if g != args.games else ""))


if __name__ == "__main__":
    main()
