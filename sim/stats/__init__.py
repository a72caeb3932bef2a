"""Interval arithmetic shared by every layer: Wilson, t, cluster-robust (deal) intervals."""
