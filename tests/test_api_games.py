"""The Python API of the game-playing commands: ``sim.play``, ``sim.tournament`` and
``sim.sweep`` give the CLI's numbers for the same seed, their reports save what the command
writes, and a bad argument is a ValueError with the command's one line."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

import sim


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["quacks", *args], capture_output=True, text=True, check=True)


def test_play_equals_the_cli_json():
    """``sim.play(...).to_dict()`` is ``quacks play --json`` less ``seconds``; a list of specs
    is the comma-separated string."""
    cli = json.loads(_cli("play", "--strategies", "threshold:t=5,random", "--games", "60",
                          "--seed", "5", "--json").stdout)
    cli.pop("seconds")
    r = sim.play(strategies="threshold:t=5,random", games=60, seed=5)
    assert r.to_dict() == cli
    assert sim.play(strategies=["threshold:t=5", "random"], games=60, seed=5).to_dict() == cli
    assert list(r.strategies["name"]) == ["threshold:t=5", "random"]
    assert r.header().startswith("60 games, 2 players, seed 5, rules base")
    assert "threshold:t=5" in r._repr_html_()


@pytest.mark.parametrize("kwargs, message", [
    ({"games": 0}, "--games 0: expected 1 to 1000000000"),
    ({"seed": -1}, "--seed -1: expected 0 to 9223372036854775807"),
    ({"players": 6}, "--players 6: expected 1 to 5 (no ruleset seats more)"),
    ({"players": 5}, "--players 5: this ruleset plays 2 to 4 players; 5 players need the Herb"),
    ({"strategies": "threshold,random", "players": 3},
     "--strategies: 2 strategies for 3 players; give one per seat, or one for all"),
    ({"strategies": []}, "--strategies: give at least one strategy"),
    ({"threads": 0}, "--threads 0: expected 1 to"),
    ({"rules": "no-such-rules"}, "no-such-rules"),
    ({"strategies": "no_such_strategy"}, "no_such_strategy"),
])
def test_play_bad_arguments_are_the_cli_lines(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)) as e:
        sim.play(**kwargs)
    if kwargs.get("strategies") == []:
        return  # the CLI has no empty list
    args = [f"--{k}={v}" for k, v in kwargs.items()]
    r = subprocess.run(["quacks", "play", *args], capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stderr == f"error: {e.value}\n"  # the very line the command prints
