"""What the studies' settings share: the fields kept as tuples, and where the games run.

A study's settings are a frozen dataclass, filled from the command line, a question's answers or
a run's saved ``run.json`` (where its tuples come back as lists). This module imports nothing of
the simulation: the command line's help quotes the studies' defaults.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class TupleFields:
    """Settings whose ``TUPLES`` fields are kept as tuples, whatever sequence is given."""

    TUPLES: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self):
        for name in self.TUPLES:
            object.__setattr__(self, name, tuple(getattr(self, name)))

    def json_lists(self, d: dict) -> dict:
        """``d`` (the settings as a dict) with the ``TUPLES`` fields as lists, JSON-ready."""
        return {**d, **{k: list(d[k]) for k in self.TUPLES}}


@dataclass(frozen=True, kw_only=True)
class PlacedSettings(TupleFields):
    """Settings that say where the games run (``backend``, and the Dask ``scheduler``,
    ``workers`` and ``threads``; keyword-only): the result is the same wherever."""

    backend: str = "local"
    scheduler: str | None = None
    workers: int | None = None
    threads: int | None = None


@contextmanager
def placed_backend(s: PlacedSettings, backend=None):
    """The backend a study's run plays in: ``backend`` when given (entered by the caller), else
    the one the settings name, entered here for the run and closed after it."""
    if backend is not None:
        yield backend
        return
    from sim.study.tournament.backend import make_backend

    with make_backend(s.backend, scheduler=s.scheduler, workers=s.workers,
                      threads=s.threads) as be:
        yield be
