"""The experiments that ship with quacks-sim, as package data.

This package holds no code: its ``*.toml`` files are the shipped experiments
(``quacks experiment list``), ``rounds/`` the example round files, ``strategies/`` the example
strategy files (``--strategy-file``) and ``targets/`` the balance target bands that the balance
experiments name. It is a package only so that an installed copy (``pip install .``, the wheel)
carries these files and finds them with ``importlib.resources``, wherever it is run from.
"""
