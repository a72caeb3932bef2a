"""The defaults of ``quacks sensitivity`` and ``quacks design``. This module imports nothing of
the simulation (only the light table of integer ranges): the command line's help quotes them."""

from sim.api.limits import MAX_STEPS  # noqa: F401 - the steps' range, declared with the others

DEFAULT_STEPS = 5  # values of a KEY=LO:HI knob in a sensitivity run
# Games per knob value (and per cell of a pair), rounded up to whole deals: about 0.7 s each
# with the default field on 2 cores; a paired difference of seat 1's win share then has an
# interval about +-0.02 wide, the explosion rate's +-0.003.
SENSITIVITY_GAMES = 8_000
DEFAULT_METRICS = ("seat0_win_share", "explosion_rate", "tie_rate", "winner_vp_mean",
                   "winner_vp_sd", "last_after_round_6_wins")
DESIGN_BUDGET = 200_000  # games the design search may play (quacks tune's default budget)
RETUNE_BUDGET = 40_000  # games quacks tune may play to adapt a preset to the best rules
