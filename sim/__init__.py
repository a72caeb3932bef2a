"""quacks-sim: a rules-exact, Numba-fast simulator for The Quacks of Quedlinburg."""

__version__ = "0.1.0"
