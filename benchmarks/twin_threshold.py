"""A user-file twin of the built-in ``threshold`` stop rule, for the benchmark (same decisions)."""
from sim.kernel.layout import F_WHITE
from strategies.registry import register
from strategies.slots import SLOT_STOP


def stop(P, s, G, R, SP, a, b, M):
    # the built-in threshold reads its per-round t from SP[s, SLOT_STOP, round]
    return 1 if P[s, F_WHITE] < SP[s, SLOT_STOP, G[0]] else 0


register("threshold-twin", "User-file twin of threshold (benchmark)", fallback="threshold", stop=stop)
