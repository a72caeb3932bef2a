"""Tuning: a search over strategy parameters, played in pieces."""
