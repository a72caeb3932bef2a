"""The exceptions of a run, in a module that imports no kernel: a command names them, and a Dask
worker receives them, before a run's rules files are loaded (the kernel's hook tables are built
with them)."""

from __future__ import annotations

from pathlib import Path


class BackendError(ValueError):
    """A backend that cannot run (a missing extra, bad options, a cluster that cannot be reached
    or that lost a chunk for good); the message is one line saying what would be right."""


class RunInterrupted(KeyboardInterrupt):
    """A run stopped early (Ctrl-C or a hook); every finished chunk is kept for ``resume``."""

    def __init__(self, games_done: int, out: Path | None):
        super().__init__(f"interrupted after {games_done:,} games")
        self.games_done = games_done
        self.out = out
