"""The marginal buyer: what a chip adds to the bag for the rounds still to play.

A chip bought now is in the bag for every later round, and a non-white chip is drawn in a potion
exactly when it comes out before the white chips stop the potion. With the potion stopping once
the white total reaches ``mg_stop`` (or the whites run out), a non-white chip is drawn with chance
E[J] / (m + 1), where m is the number of white chips and J the number of whites drawn until the
total reaches ``mg_stop`` (m + 1 if it never does): the chip sits in any of the m + 1 gaps between
the whites with equal chance, whatever else is in the bag. That chance is computed exactly from
the seat's white chips, so a bag heavy in whites values new chips less.

A drawn chip is worth its move (its value; a red its pumpkin bonus, a blue the chip it places, a
yellow the white it sends back) times ``mg_space`` VP, plus its colour's own effect: a green the
ruby it pays at the end of the pot (``mg_ruby`` x the chance of being among the last two chips),
a purple ``mg_purple`` VP, and a black ``mg_black`` VP times the chance that it breaks a tie with a
neighbour's pot (the moth pays for more blacks than a neighbour: one more black drawn wins a
comparison exactly when both pots held as many), so it buys black when the neighbours do and
stops once it is ahead, and an arms race of blacks soon stops paying. The worth of a chip
is that per-draw worth times the chance it is drawn, summed over the rounds still to play, times
its colour's weight (``worth_<colour>``, 1 by default: a correction a tune can find where the
model misjudges a colour); the buyer then buys the legal pair (or single chip) of the greatest
total worth, as the value buyer does. ``mg_size`` bends a chip's own value (a v-chip moves v **
mg_size spaces in the model) and ``mg_horizon`` the rounds left (worth grows as left **
mg_horizon); both 1 by default.
"""

from __future__ import annotations

import numpy as np

from sim.kernel.decisions.potion_value import rounds_left
from sim.kernel.decisions.slots import (
    P_MG_BLACK,
    P_MG_HORIZON,
    P_MG_PURPLE,
    P_MG_RUBY,
    P_MG_SIZE,
    P_MG_SPACE,
    P_MG_STOP,
    P_MG_YELLOW,
    SLOT_BUY,
)
from sim.kernel.float_bits import bits_float, float_bits
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    CHIPS,
    F_NCHIPS,
    G_MEMO_MOVE,
    G_MEMO_TIE,
    G_MEMO_WEIGHT,
    G_MEMO_WHITE,
    G_NP,
)
from sim.rules.chips import (
    BLACK,
    BLUE,
    GREEN,
    ORANGE,
    PURPLE,
    RED,
    TYPE_COLOUR,
    TYPE_VALUE,
    W1,
    W2,
    W3,
    WHITE,
    YELLOW,
)


@kernel(inline=True)
def comb(n, k):
    """C(n, k) as a float (0 outside 0 <= k <= n)."""
    if k < 0 or k > n:
        return 0.0
    out = 1.0
    for i in range(k):
        out = out * (n - i) / (i + 1)
    return out


@kernel
def draw_chance(n1, n2, n3, stop):
    """Chance that a non-white chip is drawn before white chips (n1 of value 1, n2 of 2, n3 of 3)
    reach a white total of ``stop``, in a random order: E[J] / (m + 1) (module docstring)."""
    m = n1 + n2 + n3
    # E[J] = sum over j = 0..m of P(the first j whites add up to less than stop): every
    # a w1 + b w2 + c w3 below stop adds C(n1, a) C(n2, b) C(n3, c) / C(m, a + b + c).
    # C(m, j) is carried along as j = a + b + c grows by one: comb's own step, C(m, j + 1) =
    # C(m, j) * (m - j) / (j + 1), so each value is comb's to the last bit, without its loop.
    ej = 0.0
    ca = 1.0
    ma = 1.0  # C(m, a)
    for a in range(min(n1, int(np.ceil(stop)) - 1) + 1):
        cb = 1.0
        mb = ma  # C(m, a + b)
        for b in range(n2 + 1):
            if a + 2 * b >= stop:
                break
            cc = 1.0
            mc = mb  # C(m, a + b + c)
            for c in range(n3 + 1):
                if a + 2 * b + 3 * c >= stop:
                    break
                ej += ca * cb * cc / mc
                cc = cc * (n3 - c) / (c + 1)
                mc = mc * (m - (a + b + c)) / (a + b + c + 1)
            cb = cb * (n2 - b) / (b + 1)
            mb = mb * (m - (a + b)) / (a + b + 1)
        ca = ca * (n1 - a) / (a + 1)
        ma = ma * (m - a) / (a + 1)
    return ej / (m + 1)


@kernel
def equal_chance(n, p, m, q):
    """P(X = Y) for independent X ~ Binomial(n, p) and Y ~ Binomial(m, q).

    C(n, j) and C(m, j) are carried along as j grows by comb's own step, so each is comb's to
    the last bit, without its loop."""
    out = 0.0
    cn = 1.0  # C(n, j)
    cm = 1.0  # C(m, j)
    for j in range(min(n, m) + 1):
        out += cn * p ** j * (1 - p) ** (n - j) * cm * q ** j * (1 - q) ** (m - j)
        cn = cn * (n - j) / (j + 1)
        cm = cm * (m - j) / (j + 1)
    return out


# --- a seat's chips counted in one pass: every chip type's counts packed into one int64 ------
# (8 bits a count, as a seat has at most MAX_CHIPS = 64 chips; the moves, at most 64 x 6, in
# the top 16), summed over the seat's chips (``chip_tally``) and read back by ``tally_field``
TALLY_W1, TALLY_W2, TALLY_W3, TALLY_BLACK, TALLY_NONWHITE, TALLY_ORANGE, TALLY_MOVES = (
    0, 8, 16, 24, 32, 40, 48)


def tally_of_type(t: int) -> int:
    """Chip type t's addend in ``chip_tally``: one in each count it falls in, its value in the
    moves if it is not white."""
    c = int(TYPE_COLOUR[t])
    if c == WHITE:
        return 1 << {W1: TALLY_W1, W2: TALLY_W2, W3: TALLY_W3}[t]
    out = (1 << TALLY_NONWHITE) + (int(TYPE_VALUE[t]) << TALLY_MOVES)
    if c == BLACK:
        out += 1 << TALLY_BLACK
    if c == ORANGE:
        out += 1 << TALLY_ORANGE
    return out


CHIP_TALLY = np.array([tally_of_type(t) for t in range(len(TYPE_COLOUR))], dtype=np.int64)


@kernel(inline=True)
def chip_tally(P, s):
    """Seat s's chips (bag and pot) counted at once: the sum of their ``CHIP_TALLY`` entries
    (whites by value, blacks, non-white chips, oranges and the non-white chips' moves)."""
    acc = 0
    for i in range(P[s, F_NCHIPS]):
        acc += CHIP_TALLY[P[s, CHIPS + i]]
    return acc


@kernel(inline=True)
def tally_field(acc, shift):
    """One count of a ``chip_tally`` (its field at bit ``shift``; the moves take the top 16)."""
    return (acc >> shift) & (0xFFFF if shift == TALLY_MOVES else 0xFF)


@kernel
def white_black_counts(P, s):
    """(white 1s, white 2s, white 3s, black chips) seat s owns (bag and pot)."""
    acc = chip_tally(P, s)
    return (tally_field(acc, TALLY_W1), tally_field(acc, TALLY_W2), tally_field(acc, TALLY_W3),
            tally_field(acc, TALLY_BLACK))


@kernel(llvm_inline=True)
def marginal_context(P, s, G, R, SP):
    """What every chip's worth shares, for seat s now: (rounds left, chance a non-white chip is
    drawn in a potion, chips in a typical pot, mean move of its non-white chips, a red chip's
    pumpkin bonus, the chance a black chip breaks a tie with a neighbour, the rounds' weight),
    as ``worth_context`` makes it."""
    left = rounds_left(G, R)
    stop = SP[s, SLOT_BUY, P_MG_STOP]
    acc = chip_tally(P, s)
    n1 = tally_field(acc, TALLY_W1)
    n2 = tally_field(acc, TALLY_W2)
    n3 = tally_field(acc, TALLY_W3)
    mine = tally_field(acc, TALLY_BLACK)
    f = white_chance(G, s, n1, n2, n3, stop)
    nonwhite = tally_field(acc, TALLY_NONWHITE)
    moves = tally_field(acc, TALLY_MOVES)
    oranges = tally_field(acc, TALLY_ORANGE)
    drawn = f * nonwhite + (n1 + n2 + n3) * 0.5 + 1.0  # chips in a typical pot, roughly
    avg_move = moves / nonwhite if nonwhite > 0 else 1.0
    in_pot_orange = f * oranges
    red_bonus = 2.0 if in_pot_orange >= 3 else (1.0 if in_pot_orange >= 1 else in_pot_orange)
    # black: the moth pays for more blacks in the pot than a neighbour's, so one more black drawn
    # wins a comparison exactly when the two pots held as many: the mean over the neighbours of
    # P(X = Y), X and Y the blacks drawn from this seat's and the neighbour's bags
    np_ = G[G_NP]
    tie = 0.0
    near = 0
    if np_ >= 2:
        for o in ((s + np_ - 1) % np_, (s + 1) % np_):
            o1, o2, o3, theirs = white_black_counts(P, o)
            tie += tie_chance(G, s, near, mine, f, theirs, white_chance(G, o, o1, o2, o3, stop))
            near += 1
            if np_ == 2:
                break
    black_share = tie / near if near > 0 else 1.0
    # worth_context's fields, its power from the memo (rounds_weight)
    return (float(left), f, drawn, avg_move, red_bonus, black_share,
            rounds_weight(G, left, SP[s, SLOT_BUY, P_MG_HORIZON]))


@kernel(inline=True)
def worth_context(SP, s, left, f, drawn, avg_move, red_bonus, black_share):
    """The context ``drawn_worth`` reads for seat s: the rounds counted (``left``), the other
    fields of ``marginal_context``, and the rounds' weight ``left ** mg_horizon``, computed once
    here rather than for every chip weighed."""
    return (left, f, drawn, avg_move, red_bonus, black_share,
            left ** SP[s, SLOT_BUY, P_MG_HORIZON])


@kernel(inline=True)
def marginal_worth(SP, s, t, ctx):
    """VP seat s expects chip type t to add over the rounds left (``ctx``: ``marginal_context``),
    times the seat's weight of the type (``SP[s, SLOT_BUY, t]``: its colour's ``worth_*``, 1 as
    the model says); 0 for a white and for a type its buy list leaves out (weight <= 0)."""
    w = SP[s, SLOT_BUY, t]
    if w <= 0:
        return 0.0
    return w * drawn_worth(SP, s, t, ctx)


@kernel(inline=True)
def drawn_worth(SP, s, t, ctx):
    """VP chip type t adds to seat s's bag over the rounds counted in ``ctx`` (its first field;
    ``worth_context`` makes it), whether or not the seat's buy list has it; 0 for a white."""
    if TYPE_COLOUR[t] == WHITE or ctx[0] <= 0:
        return 0.0
    v = TYPE_VALUE[t]
    move = 1.0 if v == 1 else float(v) ** SP[s, SLOT_BUY, P_MG_SIZE]  # 1 ** x is 1, exactly
    return worth_of_move(SP, s, t, ctx, move)


@kernel(inline=True)
def worth_of_move(SP, s, t, ctx, move):
    """``drawn_worth`` of chip type t, given its own move (``v ** mg_size``, v its value)."""
    left, f, drawn, avg_move, red_bonus, black_share, weight = ctx
    c = TYPE_COLOUR[t]
    if c == WHITE or left <= 0:
        return 0.0
    effect = 0.0
    if c == RED:
        move += red_bonus
    elif c == BLUE:
        move += avg_move
    elif c == YELLOW:
        move += SP[s, SLOT_BUY, P_MG_YELLOW]
    elif c == GREEN:
        effect = SP[s, SLOT_BUY, P_MG_RUBY] * min(1.0, 2.0 / drawn)
    elif c == PURPLE:
        effect = SP[s, SLOT_BUY, P_MG_PURPLE]
    elif c == BLACK:
        effect = SP[s, SLOT_BUY, P_MG_BLACK] * black_share
    return weight * f * (move * SP[s, SLOT_BUY, P_MG_SPACE] + effect)


# --- memos in the game row (G_MEMO_WHITE, G_MEMO_MOVE, G_MEMO_TIE: float64s as their bits) --
# A seat's whites rarely change and its mg_size never does within a game, so the marginal buyer
# computes each draw chance and each power once and reads it back after (the same bits: the same
# function of the same arguments). A zeroed row holds nothing (no key is 0).

@kernel(inline=True)
def white_chance(G, o, n1, n2, n3, stop):
    """``draw_chance(n1, n2, n3, stop)`` for seat o's whites (n1, n2, n3), from seat o's memo
    when its key (the three counts and ``stop``) is the same, else ``white_chance_kept``."""
    k = G_MEMO_WHITE + 3 * o
    key = 1 + n1 + (n2 << 16) + (n3 << 32)
    sb = float_bits(stop)
    if G[k] == key and G[k + 1] == sb:
        return bits_float(G[k + 2])
    return white_chance_kept(G, o, key, sb, n1, n2, n3, stop)


@kernel
def white_chance_kept(G, o, key, sb, n1, n2, n3, stop):
    """``white_chance`` when seat o's memo misses: another seat's memo with the same key (the
    seats start a game with the same whites), else ``draw_chance``; kept in seat o's memo."""
    k = G_MEMO_WHITE + 3 * o
    fb = 0
    found = False
    for other in range(G[G_NP]):
        j = G_MEMO_WHITE + 3 * other
        if other != o and G[j] == key and G[j + 1] == sb:
            fb = G[j + 2]
            found = True
            break
    if not found:
        fb = float_bits(draw_chance(n1, n2, n3, stop))
    G[k] = key
    G[k + 1] = sb
    G[k + 2] = fb
    return bits_float(fb)


@kernel(inline=True)
def tie_chance(G, s, side, n, p, m, q):
    """``equal_chance(n, p, m, q)`` (seat s's blacks against its neighbour on ``side``, 0 or 1),
    from that memo when its key (n, m and the bits of p and q) is the same, else computed and
    kept: blacks and whites rarely change, so neither do the chances."""
    k = G_MEMO_TIE + 4 * (2 * s + side)
    key = 1 + n + (m << 16)
    pb = float_bits(p)
    qb = float_bits(q)
    if G[k] == key and G[k + 1] == pb and G[k + 2] == qb:
        return bits_float(G[k + 3])
    out = equal_chance(n, p, m, q)
    G[k] = key
    G[k + 1] = pb
    G[k + 2] = qb
    G[k + 3] = float_bits(out)
    return out


@kernel(inline=True)
def rounds_weight(G, left, horizon):
    """``worth_context``'s rounds' weight ``float(left) ** horizon`` (``left``: the rounds left,
    an int), from the game row's memo when its key (left and the bits of horizon) is the same,
    else computed and kept: every seat buying in a round asks with the same rounds left."""
    k = G_MEMO_WEIGHT
    hb = float_bits(horizon)
    if G[k] == left + 1 and G[k + 1] == hb:
        return bits_float(G[k + 2])
    w = float(left) ** horizon
    G[k] = left + 1
    G[k + 1] = hb
    G[k + 2] = float_bits(w)
    return w


@kernel(inline=True)
def chip_move(G, s, v, size):
    """A chip of value v's own move in seat s's model, ``v ** size`` (1 for v = 1, as
    ``drawn_worth``), from the seat's memo (by value, for this ``size``)."""
    if v == 1:
        return 1.0
    k = G_MEMO_MOVE + 9 * s
    sb = float_bits(size)
    if G[k] != sb:
        G[k] = sb
        G[k + 1] = 0
    if (G[k + 1] >> v) & 1:
        return bits_float(G[k + 2 + v])
    m = float(v) ** size
    G[k + 2 + v] = float_bits(m)
    G[k + 1] |= 1 << v
    return m


@kernel(inline=True)
def memo_worth(G, SP, s, t, ctx):
    """``marginal_worth(SP, s, t, ctx)``, its power read from the memo (``chip_move``)."""
    w = SP[s, SLOT_BUY, t]
    if w <= 0:
        return 0.0
    if TYPE_COLOUR[t] == WHITE or ctx[0] <= 0:
        return w * 0.0  # as marginal_worth: w times drawn_worth's 0
    move = chip_move(G, s, TYPE_VALUE[t], SP[s, SLOT_BUY, P_MG_SIZE])
    return w * worth_of_move(SP, s, t, ctx, move)
