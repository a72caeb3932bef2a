"""Strategies: the decision slots, the built-in strategies and their registry."""
