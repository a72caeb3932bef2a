"""Experiment files the tests write: a seats experiment as text (one strategy's mirror at 2 and
3 players, the smallest valid file) and the writer of a file into a test's folder."""

from __future__ import annotations

from pathlib import Path


def seats_experiment(*, title: str, games: int, strategy: str, seed: int | None = None) -> str:
    """The TOML of an experiment with one part: ``strategy`` against itself at 2 and 3 players
    (``seed`` line left out when None: the file's default)."""
    seed_line = "" if seed is None else f"seed = {seed}\n"
    return (f'\n[experiment]\ntitle = "{title}"\n{seed_line}games = {games}\n\n[[part]]\n'
            f'kind = "seats"\nname = "mirror"\nstrategy = "{strategy}"\n'
            "player_counts = [2, 3]\n")


def write_experiment(folder: Path, text: str, name: str = "x.toml") -> Path:
    """``text`` written as the file ``name`` in ``folder``; its path."""
    p = folder / name
    p.write_text(text)
    return p
