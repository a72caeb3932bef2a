"""Train every shipped value model again from its recipe (``strategies/models/recipes.py``) and
write it into the package's model folder: ``python -m sim.study.train.shipped``.

``--check`` writes nothing: it trains each model again and compares it, byte for byte, with the
shipped file (exit status 1 when one differs). Names (``base-4p``) pick some of the models.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from sim.study.train.run import TrainSettings, train
from strategies.models.recipes import GAMES, ITERATIONS, RECIPES, SEED
from strategies.value_model_file import shipped_path, write_atomic


def recipe_settings(rules: str, players: int) -> TrainSettings:
    """The training settings of the shipped model for a ruleset family and player count."""
    return TrainSettings(rules=rules, players=players, games=GAMES, iterations=ITERATIONS,
                         seed=SEED, master=RECIPES[(rules, players)])


def model_name(rules: str, players: int) -> str:
    """A shipped model's name, its file name without ``.json`` (``base-4p``)."""
    return f"{rules}-{players}p"


def retrain(rules: str, players: int) -> str:
    """The text of the model file its recipe trains (the run's folder in a temporary one)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / f"{model_name(rules, players)}.json"
        train(recipe_settings(rules, players), out)
        return out.read_text()


def main(argv: list[str] | None = None) -> int:
    """Train the shipped models again and write them, or with ``--check`` compare them."""
    ap = argparse.ArgumentParser(prog="python -m sim.study.train.shipped",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="models to train (base-4p, ...); all by default")
    ap.add_argument("--check", action="store_true",
                    help="write nothing: exit 1 if a retrained model differs from the shipped file")
    a = ap.parse_args(argv)
    known = {model_name(*k): k for k in RECIPES}
    unknown = [n for n in a.names if n not in known]
    if unknown:
        ap.error(f"no shipped model {', '.join(unknown)} (the models: {', '.join(known)})")
    differ = 0
    for name in a.names or list(known):
        rules, players = known[name]
        t0 = time.perf_counter()
        text = retrain(rules, players)
        took = f"{time.perf_counter() - t0:.0f} s"
        path = shipped_path(rules, players)
        if not a.check:
            write_atomic(path, text)
            print(f"trained {name}.json ({took})", file=sys.stderr)
        elif text.encode() == path.read_bytes():
            print(f"{name}.json: the same, byte for byte ({took})")
        else:
            differ += 1
            print(f"{name}.json: differs from the shipped file ({took})")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
