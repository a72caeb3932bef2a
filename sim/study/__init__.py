"""Many games: tournaments, sweeps, statistics, reports and plots."""
