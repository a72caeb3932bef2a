"""Parameter sweeps: one strategy parameter varied against a fixed field."""
