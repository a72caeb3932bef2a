"""Train every shipped value model again from its recipe (``strategies/models/recipes.py``) and
write it into the package's model folder: ``python -m sim.study.train.shipped``."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from sim.study.train.run import TrainSettings, train
from strategies.models.recipes import GAMES, ITERATIONS, RECIPES, SEED
from strategies.value_model_file import shipped_path, write_atomic


def recipe_settings(rules: str, players: int) -> TrainSettings:
    """The training settings of the shipped model for a ruleset family and player count."""
    return TrainSettings(rules=rules, players=players, games=GAMES, iterations=ITERATIONS,
                         seed=SEED, master=RECIPES[(rules, players)])


def main() -> int:
    """Train the shipped models (each run's folder in a temporary directory)."""
    for rules, players in RECIPES:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / f"{rules}-{players}p.json"
            train(recipe_settings(rules, players), out)
            write_atomic(shipped_path(rules, players), out.read_text())
        print(f"trained {rules}-{players}p.json", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
