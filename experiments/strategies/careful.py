"""A user strategy: stop at a white total or at a risk, and keep the flask for a white 3."""
from sim.rules.chips import W3
from strategies.builtin import Param
from strategies.helpers_nb import explosion_chance, param, risk_free_draw, white_total
from strategies.registry import param_index, register

PARAMS = [Param("t", "float", 6, 1, 20, "white total to stop at"),
          Param("p", "float", 0.25, 0, 1, "largest explosion chance to draw at")]
T, RISK = param_index(PARAMS, "t"), param_index(PARAMS, "p")  # constants for param(SP, s, i)


def stop(P, s, G, R, SP, a, b, M):
    # Draw again while the white total is below t and the next chip explodes with chance <= p
    # (A Second Chance's first five chips carry no risk: always draw them).
    if risk_free_draw(P, s, G):
        return 1
    t, p = param(SP, s, T), param(SP, s, RISK)
    return 1 if white_total(P, s) < t and explosion_chance(P, s) <= p else 0


def flask(P, s, G, R, SP, a, b, M):
    # a is the white chip just placed.
    return 1 if a == W3 else 0


register(
    "careful", "Stops at white total t or risk p; keeps the flask for a white 3.",
    fallback="balanced", stop=stop, flask=flask, params=PARAMS,
)
