"""How each shipped value model is trained: the one declaration of the shipped models.

Every model is ``quacks train --rules RULES --players N --games GAMES --iterations ITERATIONS
--seed SEED --master SETTINGS``. The settings are ``master``'s parameters for that game, found by
``quacks tune`` against ``expert`` (README: master); a master seat playing with the model takes
them unless its spec gives them itself. ``python -m sim.study.train.shipped`` trains them all
again into this folder (about 30 s on 2 cores).
"""

from __future__ import annotations

GAMES, ITERATIONS, SEED = 6000, 2, 1

# quacks tune master --players 2 ... --vs expert --budget 1000000 --seed 82 (README: master)
TWO_PLAYERS = ("mg_horizon=1.15,mg_size=1.07,mg_space=0.59,mg_stop=6.49,buys=1.22,mg_black=4.68,"
               "mg_yellow=0.91,coin=2.42,press=0.198,die=1.51,ruby=1.07,flask_keep=4.66")

# (rules, players) -> master's settings ("" = master's defaults, tuned for base, 4 players)
RECIPES: dict[tuple[str, int], str] = {
    ("base", 2): TWO_PLAYERS,
    ("base", 3): "",
    ("base", 4): "",
    ("herb-witches", 2): TWO_PLAYERS,
    ("herb-witches", 3): "",
    ("herb-witches", 4): "",
    ("herb-witches", 5): "",
}


def command(rules: str, players: int, out: str) -> list[str]:
    """The ``quacks train`` arguments of a shipped model."""
    args = ["train", "--rules", rules, "--players", str(players), "--games", str(GAMES),
            "--iterations", str(ITERATIONS), "--seed", str(SEED), "--out", out]
    settings = RECIPES[(rules, players)]
    return args + (["--master", settings] if settings else [])
