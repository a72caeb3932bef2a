"""Compile (or load from the on-disk cache) every kernel a command may need, timing each step:
``quacks warmup``."""

from __future__ import annotations

import time

from sim.cli.common import OPTIMAL_ENTRY, compile_notice

# every cached entry point, in the order warm_all compiles them
WARMUP_ENTRIES = ("sim/kernel/potions.potion_histograms", "sim/kernel/potions.potion_forced",
                  "sim/kernel/game.play_games", "sim/kernel/game.play_game",
                  "sim/kernel/round.play_rounds", OPTIMAL_ENTRY)


def warm_all(optimal: bool = False, on_step=None) -> tuple[list[tuple[str, float]], bool]:
    """Run every kernel once on a tiny input; return (label, seconds) per step and whether
    everything was already in the cache. The optimal stopper is compiled (or loaded) too;
    ``optimal`` also times one game with it; ``on_step(label, seconds)`` is called as each step
    ends."""
    # the kernels are imported here, not at module level, so quacks --help starts at once
    import numpy as np

    from sim.api import potion as pot
    from sim.api import potion_draws as draws_api
    from sim.api.game import play_batch
    from sim.api.game import replay as replay_game
    from sim.api.round_file import play_round_data
    from sim.numba_cache import is_cached
    from sim.rules.ruleset import load_ruleset
    from sim.stats.clusters import warm as warm_statistics
    from strategies.builtin import REGISTRY, parse_strategy

    rs = load_ruleset("base", [])
    names = [d.name for d in REGISTRY.values() if d.source == "built-in" and d.name != "optimal"]
    cached = all(is_cached(e) for e in WARMUP_ENTRIES)
    compile_notice(*WARMUP_ENTRIES)
    steps: list[tuple[str, float]] = []
    one = np.zeros(1, dtype=np.int64)

    def step(label: str, work) -> None:
        t = time.perf_counter()
        work()
        steps.append((label, time.perf_counter() - t))
        if on_step is not None:
            on_step(label, steps[-1][1])

    def games() -> None:
        for i in range(0, len(names), 4):
            group = (names[i:i + 4] * 4)[:4]
            play_batch(rs, [parse_strategy(x) for x in group], games=one, rotations=one, seed=1)

    def start(stop: str):
        return pot.make_query("start", stop, None, 0, rs)

    two = [parse_strategy("threshold"), parse_strategy("random")]
    scripted = {"players": 2, "round": 1, "die": ["vp1"],
                "player": [{"bag": "start", "draws": "w1"}, {"bag": "start", "draws": "w2"}]}
    step("potion kernel", lambda: pot.sample(start("white:6"), 1_000, 1))
    step("forced draws (potion --draws)", lambda: draws_api.forced(start("white:6"), "w1,w2"))
    step("exact enumeration (pure Python)", lambda: pot.exact(start("white:6")))
    step(f"game kernel ({len(names)} built-in strategies)", games)
    step("replay", lambda: replay_game(rs, two, seed=1, game=0))
    step("scripted round (quacks round)", lambda: play_round_data(scripted, "warmup"))
    step("optimal stopper", lambda: pot.sample(start("optimal"), 10, 1))
    if optimal:
        step("optimal stopper in a game",
             lambda: play_batch(rs, [parse_strategy("optimal"), two[0]], games=one, rotations=one,
                                seed=1))
    step("report statistics (group sums)", warm_statistics)
    return steps, cached
