"""The golden games: every ruleset, player count, variant and strategy family of
``benchmarks/game_checksums.py`` plays the games whose checksums ``benchmarks/game_checksums.json``
holds (the script's ``--check``, run through its functions). A change meant to change games
updates that file in a commit of its own that says why; any other difference is a bug."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "game_checksums.py"
STORED = ROOT / "benchmarks" / "game_checksums.json"


def load_script():
    spec = importlib.util.spec_from_file_location("game_checksums", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_configuration_has_a_stored_checksum():
    gc = load_script()
    labels = [c[0] for c in gc.CONFIGS] + [f"{label}-{stop}" for label, _, _, stop in gc.POTIONS]
    assert sorted(json.loads(STORED.read_text())["checksums"]) == sorted(labels)


@pytest.mark.slow
def test_the_stored_games_are_played():
    gc = load_script()
    stored = json.loads(STORED.read_text())
    got = gc.run(stored["games"], stored["seed"], say=lambda line: None)
    assert set(got) == set(stored["checksums"])
    assert gc.differences(stored["checksums"], got) == [], (
        "games changed: if meant, rewrite benchmarks/game_checksums.json "
        "(python benchmarks/game_checksums.py --json benchmarks/game_checksums.json) in a commit "
        "that says why")
