"""A user strategy that buys from its own list: the first chips of `prefer` it may buy, in order."""
from strategies.builtin import Param
from strategies.helpers_nb import can_buy, chip_at, colour_of, price, write_purchase
from strategies.registry import param_index, register

PARAMS = [Param("prefer", "chips", ["b4", "r4", "o1"], help="chips to buy, best first")]
PREFER = param_index(PARAMS, "prefer")


def buy(P, s, G, R, SP, a, b, M):
    # a = coins, b = how many chips may be bought; return how many were written
    # (the whole function is the helper buy_list(SP, s, G, R, PREFER, a, b)).
    coins, n, used, k = a, 0, 0, 0
    while n < b:
        t = chip_at(SP, s, PREFER, k)  # the k-th chip of the list, -1 past its end
        if t < 0:
            break
        if can_buy(G, R, t, coins, used):  # for sale, in the supply, affordable, a new colour
            write_purchase(G, n, t)
            n += 1
            coins -= price(R, t)
            used |= 1 << colour_of(t)
        k += 1
    return n


register("shopper", "Buys the first chips of its list it may buy, in order.",
         fallback="balanced", buy=buy, params=PARAMS)
