"""A user strategy: stop at a white total or at a risk, and keep the flask for a white 3."""
from sim.kernel.layout import BAGCNT, F_LIMIT, F_NBAG, F_WHITE
from strategies.builtin import Param
from strategies.registry import register
from strategies.slots import SLOT_CUSTOM


def stop(P, s, G, R, SP, a, b, M):
    # Draw again while the white total is below t and the next chip explodes with chance <= p.
    n = P[s, F_NBAG]
    bad = 0
    for t in range(3):  # bag counts of w1, w2, w3 sit at BAGCNT + 0, 1, 2
        if P[s, F_WHITE] + t + 1 > P[s, F_LIMIT]:
            bad += P[s, BAGCNT + t]
    risky = n > 0 and bad / n > SP[s, SLOT_CUSTOM, 1]
    return 1 if P[s, F_WHITE] < SP[s, SLOT_CUSTOM, 0] and not risky else 0


def flask(P, s, G, R, SP, a, b, M):
    # a is the white chip just placed (chip types 0, 1, 2 are w1, w2, w3).
    return 1 if a == 2 else 0


register(
    "careful", "Stops at white total t or risk p; keeps the flask for a white 3.",
    fallback="balanced", stop=stop, flask=flask,
    params=[Param("t", "float", 6, 1, 20, "white total to stop at"),
            Param("p", "float", 0.25, 0, 1, "largest explosion chance to draw at")],
)
