"""Rulesets compared: the same strategies under several rulesets, paired by deal."""
