"""Ingredient book effects, one module per colour, each dispatching on the ruleset's book number
(``R[R_BOOK + colour]``), so adding a set touches one module and its tests."""
