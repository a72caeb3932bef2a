"""The value model behind ``master``: its file, the training data from self-play games, the fit,
and ``quacks train``'s loop."""
