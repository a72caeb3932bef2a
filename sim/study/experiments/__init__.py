"""Experiments: a TOML file of parts (tournaments, sweeps, comparisons, thresholds) run as one."""
