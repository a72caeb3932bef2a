"""The evaluation of a round, steps A to F: the bonus die, chip actions, rubies, points, buying
(or the final conversions) and spending rubies, then the round record. Each step is one function
called by ``sim.kernel.round.play_round`` in that order."""

from __future__ import annotations

from sim.kernel.bag import add_chip, colour_totals, show_supply
from sim.kernel.books.common import count_black
from sim.kernel.books.hooks import (
    black_at_b,
    bought_at_b,
    buying_moves_droplet,
    chip_bought,
    coins_at_b,
    grants_at_b,
    green_at_b,
    purple_at_b,
    user_books_at_b,
)
from sim.kernel.bowl import bowl_vp
from sim.kernel.cards.hooks import after_ruby_space, buy_coins, die_rolls, ruby_space_rubies
from sim.kernel.costs import droplet_cost, flask_cost
from sim.kernel.decisions.decide import decide_buy, decide_explosion, decide_spend
from sim.kernel.decisions.slots import SCRIPTED, SLOT_BUY
from sim.kernel.die import roll_die
from sim.kernel.droplet import move_droplet, settle_droplets
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    BOUGHT,
    EV_BOWL_VP,
    EV_BUY,
    EV_CHOICE,
    EV_CONVERT,
    EV_PURPLE_COINS,
    EV_RUBY,
    EV_SCORE,
    EV_SPEND,
    EV_VP,
    F_BOWL_N,
    F_CHOICE,
    F_COINS,
    F_DROPLET,
    F_EXPLODED,
    F_FLASK,
    F_NCHIPS,
    F_NPOT,
    F_PROTECTED,
    F_RAT,
    F_REWARD,
    F_RUBIES,
    F_SCORE,
    F_VPGAIN,
    F_WHITE,
    G_AVAIL,
    G_CARD,
    G_MAX_BUYS,
    G_NP,
    G_OUT,
    G_ROUND,
    G_START_PLAYER,
    G_SUPPLY,
    R_BOOK,
    R_BOOK_ROUND,
    R_FINAL_COINS,
    R_FINAL_RUBIES,
    R_MAX_BUYS,
    R_PRICE,
    R_ROUNDS,
    SPEND_DROPLET,
    SPEND_FLASK,
)
from sim.kernel.records import (
    GERR_BUY_OVER_BUDGET,
    GERR_BUY_SAME_COLOUR,
    GERR_BUY_TOO_MANY,
    GERR_BUY_UNAVAILABLE,
    GERR_SPEND,
    RD_BAG,
    RD_BAGVALUE,
    RD_CARD,
    RD_COINS,
    RD_DROPLET,
    RD_EXPLODED,
    RD_FLASK,
    RD_NCHIPS,
    RD_NPOT,
    RD_RAT,
    RD_REWARD,
    RD_RUBIES,
    RD_SCORE,
    RD_VPGAIN,
    RD_WHITE,
    W_BLACK,
    game_error,
)
from sim.kernel.seats import seat_after
from sim.kernel.witches import called_hooks
from sim.kernel.witches import hooks as witch_hooks
from sim.rules.chips import TYPE_COLOUR


@kernel(llvm_inline=True)
def phase_a_die(P, G, R, die, DS, supply, SK, SP, SC, rng, E, UF):
    """A: the bonus die for the furthest intact potions (all ties roll; the spoon is furthest).
    An exploded seat may call a witch here (``witch_hooks.step_a``: both rewards, which marks the
    seat, ``called_hooks.die_caller``); the furthest of those who do rolls too if no intact potion
    is further (she never takes the die from anyone)."""
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    best = -1
    for s in range(n):
        if P[s, F_EXPLODED] == 0:
            best = max(best, P[s, F_REWARD])
    # a witch's callers: the furthest of them rolls if none intact is further
    both = witch_hooks.step_a(P, G, R, best, SK, SP, SC, rng, E, UF)
    for k in range(n):
        s = seat_after(sp, k, n)
        rolls = P[s, F_EXPLODED] == 0 and P[s, F_REWARD] == best
        if called_hooks.die_caller(P, s, G, R):
            rolls = P[s, F_REWARD] == both
        if rolls:
            for _ in range(die_rolls(G)):
                roll_die(P, s, G, die, DS, supply, rng, E)
            settle_droplets(P, s, G, R, supply, SK, SP, SC, rng, E, UF)


@kernel(llvm_inline=True)
def phase_b_actions(P, G, R, supply, die, DS, SK, SP, SC, rng, E, W, UF):
    """B: green, purple and black chip actions, in start-player order."""
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    black = W[W_BLACK : W_BLACK + n]
    count_black(P, n, black)
    grants = grants_at_b(R)  # a book at B grants chips: the strategies see the supply
    for k in range(n):
        s = seat_after(sp, k, n)
        if grants:
            show_supply(G, supply)  # what a strategy sees of the supply when a book grants a chip
        green_at_b(P, s, G, R, supply, die, DS, SK, SP, SC, rng, E, UF)
        if grants:
            show_supply(G, supply)
        purple_at_b(P, s, G, R, supply, SK, SP, SC, rng, E, UF)
        coins = coins_at_b(P, s, R)  # purple Set 5
        if coins > 0:
            buy_at_b(P, s, coins, G, R, supply, SK, SP, SC, rng, E, UF)
        black_at_b(P, s, black, R, G, E)
        user_books_at_b(P, s, G, R, supply, die, DS, SK, SP, SC, rng, E, UF)
        settle_droplets(P, s, G, R, supply, SK, SP, SC, rng, E, UF)


@kernel(llvm_inline=True)
def phase_c_rubies(P, G, R, vp, ruby, SK, SP, SC, rng, E, UF):
    """C: a ruby for every reward space that shows one, exploded or not (two with It's Shining
    Extra Bright); or what a witch gives instead (ruby space: as many rubies as the space's VP)."""
    for s in range(G[G_NP]):
        rw = P[s, F_REWARD]
        if ruby[rw] != 0:
            n = ruby_space_rubies(G)
            n = witch_hooks.step_c_rubies(P, s, vp[rw], n, G, R, SK, SP, SC, rng, E, UF)
            P[s, F_RUBIES] += n
            record(E, G, s, EV_RUBY, n, 0, 0)
            after_ruby_space(P, s, G, E)


@kernel(llvm_inline=True)
def phase_d_points(P, G, R, vp, coins, SK, SP, SC, rng, E, UF):
    """D: VP of the reward space (and of the overflow bowl); an exploded player chooses the VP or
    the coins (E); then the witches of step D (colours, bag points)."""
    for s in range(G[G_NP]):
        rw = P[s, F_REWARD]
        take_vp = True
        take_coins = True
        if P[s, F_EXPLODED] != 0 and P[s, F_PROTECTED] == 0:
            ch = decide_explosion(P, s, vp[rw], coins[rw], G, R, SK, SP, SC, rng, UF)
            P[s, F_CHOICE] = ch
            take_vp = ch == 0
            take_coins = ch != 0
            record(E, G, s, EV_CHOICE, ch, 0, 0)
        if take_vp:
            P[s, F_SCORE] += vp[rw]
            record(E, G, s, EV_VP, vp[rw], P[s, F_SCORE], 0)
            if P[s, F_BOWL_N] > 0:
                P[s, F_SCORE] += bowl_vp(P, s)
                record(E, G, s, EV_BOWL_VP, bowl_vp(P, s), P[s, F_SCORE], 0)
        if not take_coins:
            P[s, F_COINS] = 0
        witch_hooks.step_d(P, s, take_vp, G, R, SK, SP, SC, rng, E, UF)


@kernel(llvm_inline=True)
def final_conversions(P, G, R, SK, SP, SC, rng, E, UF):
    """The last round: coins and rubies into VP instead of buying (a witch may change the coins
    first: double coins)."""
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    for k in range(n):
        s = seat_after(sp, k, n)
        coins = P[s, F_COINS]
        coins = witch_hooks.final_conversion(P, s, coins, G, R, SK, SP, SC, rng, E, UF)
        cv = coins // R[R_FINAL_COINS]
        rv = P[s, F_RUBIES] // R[R_FINAL_RUBIES]
        P[s, F_SCORE] += cv + rv
        P[s, F_RUBIES] -= rv * R[R_FINAL_RUBIES]
        record(E, G, s, EV_CONVERT, cv, rv, 0)


@kernel(inline=True)
def buy_chips(P, s, G, R, supply, price, avail, SK, SP, SC, rng, E, UF):
    """E for one player: the buying witches, then the strategy's purchases, each checked
    against the rules."""
    nt = price.shape[0]
    out = G[G_OUT : G_OUT + 8]
    shop = G[G_SUPPLY : G_SUPPLY + nt]
    cn = P[s, F_COINS]  # 0 for an exploded player who took the VP: nothing is affordable
    for t in range(nt):
        shop[t] = supply[t]
    cn = witch_hooks.step_e_before_buying(P, s, cn, G, R, supply, shop, SK, SP, SC, rng, E, UF)
    cn = buy_coins(P, s, cn, G, R, supply, SK, SP, SC, rng, E, UF)  # a card's coins
    nb = decide_buy(P, s, cn, R[R_MAX_BUYS], supply, price, avail, out, G, R, SK, SP, SC, rng, UF)
    ok = take_purchases(P, s, nb, cn, G, R, supply, price, avail, E)
    witch_hooks.step_e_after_buying(P, s, ok, G, R, supply, SK, SP, SC, rng, E, UF)
    if buying_moves_droplet(R):  # black Set 5: a black chip bought moved the droplet
        settle_droplets(P, s, G, R, supply, SK, SP, SC, rng, E, UF)


@kernel(inline=True)
def take_purchases(P, s, nb, cn, G, R, supply, price, avail, E):
    """The chips listed at G_OUT, each checked: at most ``max_buys``, of different colours, for
    sale, within ``cn`` coins. Returns how many were bought (listed again at G_OUT, in order);
    with black Set 5 a black chip goes into the left neighbour's bag."""
    nt = price.shape[0]
    out = G[G_OUT : G_OUT + 8]
    used = 0
    spent = 0
    ok = 0
    for i in range(nb):
        t = out[i]
        if i >= R[R_MAX_BUYS]:
            game_error(G, GERR_BUY_TOO_MANY, s, nb)
            break
        if t < 0 or t >= nt or avail[t] == 0 or supply[t] <= 0:
            game_error(G, GERR_BUY_UNAVAILABLE, s, t)
            continue
        if (used >> TYPE_COLOUR[t]) & 1:
            game_error(G, GERR_BUY_SAME_COLOUR, s, t)
            continue
        if spent + price[t] > cn:
            game_error(G, GERR_BUY_OVER_BUDGET, s, t)
            continue
        if not chip_bought(P, s, t, G, R, E) and not add_chip(P, s, t):
            continue
        spent += price[t]
        used |= 1 << TYPE_COLOUR[t]
        supply[t] -= 1
        P[s, BOUGHT + TYPE_COLOUR[t]] += 1
        record(E, G, s, EV_BUY, t, price[t], 0)
        out[ok] = t
        ok += 1
    return ok


@kernel
def buy_at_b(P, s, coins, G, R, supply, SK, SP, SC, rng, E, UF):
    """At B, ``coins`` (a book's, ``hooks.coins_at_b``: purple Set 5) buy up to 2 chips of
    different colours at once (from the books out this round); in the last round they buy VP
    instead, 5 coins each."""
    if G[G_ROUND] >= R[R_ROUNDS]:
        vp = coins // R[R_FINAL_COINS]
        P[s, F_SCORE] += vp
        record(E, G, s, EV_PURPLE_COINS, coins, vp, 0)
        return
    record(E, G, s, EV_PURPLE_COINS, coins, 0, 0)
    nt = supply.shape[0]
    price = R[R_PRICE : R_PRICE + nt]
    avail = G[G_AVAIL : G_AVAIL + nt]
    for t in range(nt):
        c = TYPE_COLOUR[t]
        avail[t] = 1 if R[R_BOOK + c] > 0 and G[G_ROUND] >= R[R_BOOK_ROUND + c] \
            and price[t] >= 0 else 0
        G[G_SUPPLY + t] = supply[t]
    G[G_MAX_BUYS] = R[R_MAX_BUYS]
    out = G[G_OUT : G_OUT + 8]
    if SK[s, SLOT_BUY] == SCRIPTED:
        nb = bought_at_b(P, s, out, R, SC)  # the round file's, as its book reads it
    else:
        nb = decide_buy(P, s, coins, R[R_MAX_BUYS], supply, price, avail, out, G, R, SK, SP, SC,
                        rng, UF)
    take_purchases(P, s, nb, coins, G, R, supply, price, avail, E)
    if buying_moves_droplet(R):
        settle_droplets(P, s, G, R, supply, SK, SP, SC, rng, E, UF)


@kernel(llvm_inline=True)
def phase_e_buy(P, G, R, supply, price, book_round, book_set, SK, SP, SC, rng, E, UF):
    """E: every player buys, in start-player order, from the books that are out."""
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    r = G[G_ROUND]
    nt = price.shape[0]
    avail = G[G_AVAIL : G_AVAIL + nt]
    for t in range(nt):
        c = TYPE_COLOUR[t]
        avail[t] = 1 if book_set[c] > 0 and r >= book_round[c] and price[t] >= 0 else 0
    G[G_MAX_BUYS] = R[R_MAX_BUYS]
    for k in range(n):
        buy_chips(P, seat_after(sp, k, n), G, R, supply, price, avail, SK, SP, SC, rng, E, UF)


@kernel(llvm_inline=True)
def phase_f_rubies(P, G, R, supply, SK, SP, SC, rng, E, UF):
    """F: rubies for droplet moves and flask refills, as the strategy asks (at a witch's price:
    1 ruby each after the cheap-rubies witch, ``sim.kernel.costs``)."""
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    for k in range(n):
        s = seat_after(sp, k, n)
        witch_hooks.step_f(P, s, G, R, SK, SP, SC, rng, E, UF)
        for i in range(64):
            a = decide_spend(P, s, i, G, R, SK, SP, SC, rng, UF)
            if a == SPEND_DROPLET and P[s, F_RUBIES] >= droplet_cost(P, s, R):
                P[s, F_RUBIES] -= droplet_cost(P, s, R)
                move_droplet(P, s, 1)
                settle_droplets(P, s, G, R, supply, SK, SP, SC, rng, E, UF)
            elif a == SPEND_FLASK and P[s, F_RUBIES] >= flask_cost(P, s, R) and P[s, F_FLASK] == 0:
                P[s, F_RUBIES] -= flask_cost(P, s, R)
                P[s, F_FLASK] = 1
            elif a == 0:
                break
            else:
                game_error(G, GERR_SPEND, s, a)
                break
            record(E, G, s, EV_SPEND, a, P[s, F_RUBIES], 0)
        called_hooks.after_spending(P, s, G, R, SK, SP, SC, rng, E, UF)


@kernel(llvm_inline=True)
def round_end(P, G, coins, E, rd):
    """Score events, and the per-round record ``rd`` (if it has rows)."""
    r = G[G_ROUND]
    for s in range(G[G_NP]):
        P[s, F_VPGAIN] = P[s, F_SCORE] - P[s, F_VPGAIN]
        record(E, G, s, EV_SCORE, P[s, F_SCORE], P[s, F_RUBIES], P[s, F_DROPLET])
        if rd.shape[0] > 0:
            row = rd[r - 1, s]
            row[RD_REWARD] = P[s, F_REWARD]
            row[RD_EXPLODED] = P[s, F_EXPLODED]
            row[RD_VPGAIN] = P[s, F_VPGAIN]
            row[RD_COINS] = coins[P[s, F_REWARD]]
            row[RD_WHITE] = P[s, F_WHITE]
            row[RD_RAT] = P[s, F_RAT]
            row[RD_SCORE] = P[s, F_SCORE]
            row[RD_RUBIES] = P[s, F_RUBIES]
            row[RD_DROPLET] = P[s, F_DROPLET]
            row[RD_NCHIPS] = P[s, F_NCHIPS]
            row[RD_NPOT] = P[s, F_NPOT]
            row[RD_CARD] = G[G_CARD]
            row[RD_FLASK] = P[s, F_FLASK]
            colour_totals(P, s, row, RD_BAG, RD_BAGVALUE)


