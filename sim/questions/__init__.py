"""The Python API: one function per question, with keyword arguments named as the ``quacks``
command's options (snake_case; a list where the command takes comma-separated values) and the
same defaults. ``import sim`` exposes them as ``sim.potion``, ``sim.tournament`` and so on; the
``quacks`` commands call the same functions, so a notebook and the command line give the same
numbers for the same seed.

A report-producing call returns a :class:`~sim.questions.report.Report`: ``.tables`` (pandas
frames named as the command's files without extension), ``.figures`` (matplotlib figures named as
its PNGs), ``.save(out)`` (writes what the command writes) and a rich display in Jupyter.

Nothing here is imported by ``import sim``: each function's module is imported when the function
is first looked up, and the kernels compile (or load from the cache) on first use.
"""

from __future__ import annotations

import importlib

# public name -> the module of this package that defines it (``ask_<question>``: a module may
# not share its function's name, or importing it would shadow the function here)
FUNCTIONS = {
    "potion": "ask_potion",
    "play": "ask_play",
    "tournament": "ask_tournament",
    "sweep": "ask_sweep",
    "load_rules": "ask_rules",
    "strategy": "ask_rules",
    "thresholds": "ask_thresholds",
    "tune": "ask_tune",
    "compare": "ask_compare",
    "balance": "ask_balance",
    "sensitivity": "ask_sensitivity",
    "design": "ask_design",
    "experiment": "ask_experiment",
    "exploit": "ask_exploit",
    "styles": "ask_styles",
    "luck": "ask_luck",
}

__all__ = sorted(FUNCTIONS)


def __getattr__(name: str):
    """``sim.questions.<name>``, imported on first use."""
    module = FUNCTIONS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(FUNCTIONS))
