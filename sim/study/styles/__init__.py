"""Styles: a quality-diversity map of the ways a strategy's parameters can play and win."""
