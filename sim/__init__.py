"""quacks-sim: a rules-exact, Numba-fast simulator for The Quacks of Quedlinburg."""

from sim._numba_cache import configure as _configure_numba_cache

__version__ = "0.1.0"
NUMBA_CACHE_DIR = _configure_numba_cache()
