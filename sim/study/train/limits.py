"""The ranges of ``quacks train``'s counts, declared once for its options (their ``--help`` and
their one-line errors) and for :func:`sim.study.train.run.check_settings`. No imports: the
command line reads them without loading the simulation."""

# Each iteration plays its games and refits; the shipped models take 2 (strategies/models).
MAX_ITERATIONS = 50
# Games per iteration: every position of an iteration is held for its fit, 216 bytes per seat and
# round (23 features, round, margin, win, game), about 10 kB a game at 5 players: 2 GB here.
MAX_GAMES = 200_000
