"""The Numba kernel: state layout, random streams, brewing, round phases, effects and cards."""
