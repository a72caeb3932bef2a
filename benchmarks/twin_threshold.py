"""A user-file twin of the built-in ``threshold`` stop rule, for the benchmark (same decisions),
written with the plugin helpers."""
from sim.kernel.decisions.slots import SLOT_STOP
from strategies.helpers_nb import round_number, white_total
from strategies.registry import register


def stop(P, s, G, R, SP, a, b, M):
    # the built-in threshold reads its per-round t from SP[s, SLOT_STOP, round]
    return 1 if white_total(P, s) < SP[s, SLOT_STOP, round_number(G)] else 0


register("threshold-twin", "User-file twin of threshold (benchmark)", fallback="threshold",
         stop=stop)
