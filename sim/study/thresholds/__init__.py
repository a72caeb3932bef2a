"""Stop thresholds of a potion: when to stop drawing, by white total and risk."""
