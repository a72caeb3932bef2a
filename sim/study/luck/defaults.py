"""The defaults of ``quacks luck`` (no numpy: the command line reads them to draw its help)."""

DEFAULT_GAMES = 100_000
DEFAULT_PLAYERS = 4
DEFAULT_STRATEGIES = ("expert", "greedy")  # a strong and a weak one, cycled to the seats
