"""A ruleset's balance (``quacks balance``): the game's own figures (seats, catch-up, leads,
ties, spread, explosions), how much skill is rewarded, the cards, witches and ingredient books,
and a designer's target bands, every figure with its 95% interval clustered by deal."""
