"""``quacks luck``: how much of a game is luck, and from which source (pick-freeze Sobol
indices)."""
