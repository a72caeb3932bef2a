"""Two checkouts of different sources (git worktrees) share one Numba cache: each function's
files are named by its source stamp (``sim.numba_cache.disambiguator``), so both keep their
compiled entry. Before, one index per function held one stamp, and each checkout's compile
overwrote the other's (every switch compiled again). Each function keeps the files of its newest
``STAMPS_KEPT`` stamps (``prune_stamps``)."""

from __future__ import annotations

import importlib.util
import itertools

import pytest

from sim import numba_cache as nc

TINY = '''
from numba import njit


@njit(cache=True)
def plus_one(x):
    return x + 1
'''
_loads = itertools.count()


@pytest.fixture
def tiny(monkeypatch, tmp_path):
    """A module with one cached function, located like a loaded rules file (so by this project's
    locator), cached under ``tmp_path``; ``tiny(stamp)`` imports it afresh with that source stamp
    and returns its function after one call."""
    path = tmp_path / "tiny.py"
    path.write_text(TINY, encoding="utf-8")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setitem(nc.RULES_FILES, str(path.resolve()), "code")
    stamp = {}
    original = nc.module_stamp
    monkeypatch.setattr(nc, "module_stamp",
                        lambda rel: stamp["now"] if rel == path.resolve().as_posix()
                        else original(rel))

    def load(now: str):
        stamp["now"] = now
        spec = importlib.util.spec_from_file_location(f"tiny_{next(_loads)}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        assert module.plus_one(1) == 2
        return module.plus_one

    load.folder = lambda: nc.cache_folder(path.resolve().as_posix())
    return load


def stamps_on_disk(folder: str) -> set[str]:
    import os

    prefix = f"tiny.plus_one-{nc.CACHE_DISAMBIGUATOR}"
    return {n[len(prefix):].split(".", 1)[0] for n in os.listdir(folder)
            if n.startswith(prefix) and n.endswith(".nbi")}


def test_two_stamps_keep_an_entry_each_in_one_cache(tiny):
    a, b = "a" * 16, "b" * 16
    assert tiny(a).stats.cache_misses  # compiled, saved under a
    assert tiny(b).stats.cache_misses  # other sources: compiled, saved under b
    assert stamps_on_disk(tiny.folder()) == {a, b}
    back = tiny(a)  # the first checkout again: loaded, not compiled (before: b overwrote a)
    assert back.stats.cache_hits and not back.stats.cache_misses
    again = tiny(b)
    assert again.stats.cache_hits and not again.stats.cache_misses


def test_only_the_newest_stamps_are_kept(tiny, monkeypatch):
    monkeypatch.setattr(nc, "STAMPS_KEPT", 2)
    for s in "abc":
        tiny(s * 16)
    # c's import found no entry of its own: the oldest other stamp (a) went, b stays beside c
    assert stamps_on_disk(tiny.folder()) == {"b" * 16, "c" * 16}
    assert tiny("b" * 16).stats.cache_hits
