"""Tournaments: the plan, the chunks and backends that play it, its statistics and the run."""
