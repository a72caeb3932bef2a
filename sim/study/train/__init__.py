"""Training master's value model by self-play (``quacks train``): the positions of a batch
of games, the fit, and the iteration loop."""
