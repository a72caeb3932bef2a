"""The complete base game in Numba: round start, rats, potion phase, evaluation A-F, nine rounds.

``play_round`` plays one round on the state arrays and is used both by ``play_game`` (the fast
batch path) and by ``quacks round`` (a scripted round from a file). Recording events is a flag
(an event buffer with rows), so a replay runs exactly the code that scored the game.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from sim.brew_nb import (
    add_chip,
    brew_until_stop,
    finish_potion,
    potion_step,
    record,
    reset_potion,
    wants_draw,
)
from sim.chips import BLACK, GREEN, O1, PURPLE, TYPE_COLOUR, W1
from sim.layout import (
    BOUGHT,
    CHIPS,
    EV_BLACK,
    EV_BOOK,
    EV_BUY,
    EV_CHOICE,
    EV_CONVERT,
    EV_DIE,
    EV_FINAL,
    EV_GREEN,
    EV_PURPLE,
    EV_RAT,
    EV_REWARD,
    EV_ROUND,
    EV_RUBY,
    EV_SCORE,
    EV_SPEND,
    EV_VP,
    EV_WHITE_ADDED,
    F_CHOICE,
    F_COINS,
    F_DONE,
    F_DROPLET,
    F_EXPLODED,
    F_EXPLOSIONS,
    F_FINALPOS,
    F_FLASK,
    F_FORCED_N,
    F_NBAG,
    F_NCHIPS,
    F_NPOT,
    F_RAT,
    F_REWARD,
    F_RUBIES,
    F_RUBYGAIN,
    F_SCORE,
    F_SCRIPT_ERR,
    F_START,
    F_VPGAIN,
    F_WHITE,
    G_AVAIL,
    G_CARD,
    G_DIE_N,
    G_DIE_PTR,
    G_ERR,
    G_ERRARG,
    G_ERRSEAT,
    G_INFO,
    G_MAX_BUYS,
    G_NP,
    G_OUT,
    G_ROUND,
    G_START_PLAYER,
    G_SUPPLY,
    G_WIDTH,
    INFO_SYNCHRONIZED,
    P_WIDTH,
    POT_P,
    POT_T,
    R_FINAL_COINS,
    R_FINAL_INFO,
    R_FINAL_RUBIES,
    R_INFO,
    R_LAP,
    R_LAST,
    R_LIMIT,
    R_MAX_BUYS,
    R_RATS_FROM,
    R_ROUNDS,
    R_RUBY_DROPLET,
    R_RUBY_FLASK,
    R_START_DROPLET,
    R_START_RUBIES,
    R_WHITE_ROUND,
    SPEND_DROPLET,
    SPEND_FLASK,
    STOP_CHOICE,
    STOP_EMPTY,
    STOP_SCRIPT,
)
from sim.rng_nb import randint, stream_seed
from strategies.decide_nb import decide_buy, decide_explosion, decide_purple, decide_spend

FACE_VP1, FACE_VP2, FACE_RUBY, FACE_DROPLET, FACE_PUMPKIN = 0, 1, 2, 3, 4

# Game errors (G_ERR): illegal decisions. Built-in strategies must never cause one.
GERR_BUY_UNAVAILABLE = 1  # book not out, not sold in this book, or sold out (arg = chip type)
GERR_BUY_SAME_COLOUR = 2
GERR_BUY_OVER_BUDGET = 3
GERR_BUY_TOO_MANY = 4
GERR_SPEND = 5  # not enough rubies, or refilling a full flask (arg = action)
GERR_DIE_SHORT = 6  # the die script has no face left
GERR_BLUE = 7  # a scripted blue or draw problem (arg = F_SCRIPT_ERR code)

# Scratch space of play_round (W)
W_BLACK, W_WANT, W_WIDTH = 0, 8, 16

# Per-round record (rd[round, seat, :])
RD_REWARD, RD_EXPLODED, RD_VPGAIN, RD_COINS, RD_WHITE, RD_RAT, RD_SCORE, RD_RUBIES = range(8)
RD_DROPLET, RD_NCHIPS, RD_NPOT, RD_BAG = 8, 9, 10, 11  # RD_BAG: 9 colour counts
RD_WIDTH = 20

# Per-game result (out[seat, :])
O_SCORE, O_RANK, O_WIN, O_NWIN, O_EXPLOSIONS, O_RUBIES, O_DROPLET, O_FINALPOS = range(8)
O_NCHIPS, O_ERR = 8, 9
O_BOUGHT = 10  # 9 colour counts
O_WIDTH = 20


@njit(cache=True, error_model="numpy", _nrt=False)
def tails_between(tails, lap, a, b):
    """Rat tails strictly between scores a <= b: printed tails t + lap*k with a <= t + lap*k < b."""
    n = 0
    base = 0
    while base <= b:
        for t in tails:
            x = base + t
            if a <= x < b:
                n += 1
        base += lap
    return n


@njit(cache=True, error_model="numpy", _nrt=False)
def _error(G, code, s, arg):
    if G[G_ERR] == 0:
        G[G_ERR] = code
        G[G_ERRSEAT] = s
        G[G_ERRARG] = arg


@njit(cache=True, error_model="numpy", _nrt=False)
def setup_game(P, G, R, supply, start_bag, nplayers):
    """Give every seat its starting bag (taken from the supply), rubies, droplet and full flask."""
    P[:, :] = 0
    G[:] = 0
    G[G_NP] = nplayers
    for s in range(nplayers):
        for t in range(start_bag.shape[0]):
            for _ in range(start_bag[t]):
                add_chip(P, s, t)
                supply[t] -= 1
        P[s, F_RUBIES] = R[R_START_RUBIES]
        P[s, F_DROPLET] = R[R_START_DROPLET]
        P[s, F_FLASK] = 1


@njit(cache=True, error_model="numpy", _nrt=False)
def roll_die(P, s, G, die, DS, supply, rng, E):
    """Roll the bonus die for seat s (a scripted face if a die script is set) and apply it."""
    if G[G_DIE_N] != 0:  # scripted faces (-1: scripted, but none given)
        if G[G_DIE_PTR] >= max(G[G_DIE_N], 0):
            _error(G, GERR_DIE_SHORT, s, 0)
            return
        face = DS[G[G_DIE_PTR]]
        G[G_DIE_PTR] += 1
    else:
        face = die[randint(rng, s, die.shape[0])]
    record(E, G, s, EV_DIE, face, 0, 0)
    if face == FACE_VP1:
        P[s, F_SCORE] += 1
    elif face == FACE_VP2:
        P[s, F_SCORE] += 2
    elif face == FACE_RUBY:
        P[s, F_RUBIES] += 1
    elif face == FACE_DROPLET:
        P[s, F_DROPLET] += 1
    elif face == FACE_PUMPKIN:
        if supply[O1] > 0 and add_chip(P, s, O1):
            supply[O1] -= 1


@njit(cache=True, error_model="numpy", _nrt=False)
def _brew_all(P, G, R, SK, SP, SC, FD, rng, E, W, UF):
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    if G[G_INFO] == INFO_SYNCHRONIZED:
        # Lock-step: first chips for all, then before each reveal every active player decides
        # (seeing every pot so far), then all who go on draw one chip.
        want = W[W_WANT : W_WANT + n]
        for k in range(n):
            s = (sp + k) % n
            brew_first(P, s, G, R, SK, SP, SC, FD, rng, E, UF)
        while True:
            active = 0
            for k in range(n):
                s = (sp + k) % n
                want[s] = 0
                if P[s, F_DONE] == 0:
                    if wants_draw(P, s, G, R, SK, SP, SC, rng, UF):
                        want[s] = 1
                        active += 1
                    else:
                        _stop_by_choice(P, s, E, G)
            if active == 0:
                break
            for k in range(n):
                s = (sp + k) % n
                if want[s] != 0:
                    potion_step(P, s, G, R, SK, SP, SC, FD, rng, E, UF)
    else:
        for k in range(n):
            s = (sp + k) % n
            brew_until_stop(P, s, G, R, SK, SP, SC, FD, rng, E, UF)


@njit(cache=True, error_model="numpy", _nrt=False)
def brew_first(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """The first chip of a potion (never stop before it), or the end if the bag is empty."""
    if P[s, F_FORCED_N] < 0:  # scripted with no draws at all
        finish_potion(P, s, STOP_SCRIPT, E, G)
    elif P[s, F_NBAG] == 0:
        finish_potion(P, s, STOP_EMPTY, E, G)
    else:
        potion_step(P, s, G, R, SK, SP, SC, FD, rng, E, UF)


@njit(cache=True, error_model="numpy", _nrt=False)
def _stop_by_choice(P, s, E, G):
    finish_potion(P, s, STOP_SCRIPT if P[s, F_FORCED_N] > 0 else STOP_CHOICE, E, G)


@njit(cache=True, error_model="numpy", _nrt=False)
def fortune_card(P, G, R, rng, E):
    """Draw and apply the round's fortune-teller card; return its number, -1 for none.

    The deck is empty until the fortune-card issue: the hook sits where the rules put the card
    (after the round-start chips, before the rats) and draws from the shared stream rng[players].
    """
    return -1


@njit(cache=True, error_model="numpy", _nrt=False)
def play_round(P, G, R, coins, vp, ruby, tails, die, supply, price, book_round, book_set,
               SK, SP, SC, FD, DS, rng, E, rd, W, UF):
    """Play round G[G_ROUND] from its start (books, white chip, rats) to the end of step F.

    ``rd`` (rounds x seats x RD_WIDTH, or empty) receives the per-round record; ``W`` is scratch
    space (int64, at least W_WIDTH) so the hot loop allocates nothing.
    """
    r = G[G_ROUND]
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    final = r >= R[R_ROUNDS]
    last = R[R_LAST]
    record(E, G, -1, EV_ROUND, sp, 0, 0)
    for c in range(book_set.shape[0]):
        if book_set[c] > 0 and book_round[c] == r and r > 1:
            record(E, G, -1, EV_BOOK, c, 0, 0)
    if r == R[R_WHITE_ROUND]:
        for k in range(n):
            s = (sp + k) % n
            if supply[W1] > 0 and add_chip(P, s, W1):
                supply[W1] -= 1
                record(E, G, s, EV_WHITE_ADDED, W1, 0, 0)
    G[G_CARD] = fortune_card(P, G, R, rng, E)
    leader = 0
    for s in range(n):
        leader = max(leader, P[s, F_SCORE])
    for s in range(n):
        P[s, F_VPGAIN] = P[s, F_SCORE]  # score at round start; turned into the gain at the end
        P[s, F_RUBYGAIN] = 0
        tails_n = 0
        if r >= R[R_RATS_FROM]:
            tails_n = tails_between(tails, R[R_LAP], P[s, F_SCORE], leader)
        P[s, F_RAT] = tails_n
        start = min(P[s, F_DROPLET] + tails_n, last)
        reset_potion(P, s, start, R[R_LIMIT])
        record(E, G, s, EV_RAT, tails_n, start, 0)
    G[G_INFO] = R[R_FINAL_INFO] if final else R[R_INFO]
    _brew_all(P, G, R, SK, SP, SC, FD, rng, E, W, UF)
    for s in range(n):
        if P[s, F_SCRIPT_ERR] != 0:
            _error(G, GERR_BLUE, s, P[s, F_SCRIPT_ERR])
        if P[s, F_EXPLODED] != 0:
            P[s, F_EXPLOSIONS] += 1
        rw = P[s, F_REWARD]
        P[s, F_COINS] = coins[rw]
        record(E, G, s, EV_REWARD, rw, coins[rw], vp[rw])
        np_ = P[s, F_NPOT]
        P[s, F_FINALPOS] = P[s, POT_P + np_ - 1] if np_ > 0 else P[s, F_START]
    # A: the bonus die for the furthest intact potions (all ties roll; the spoon is furthest).
    best = -1
    for s in range(n):
        if P[s, F_EXPLODED] == 0:
            best = max(best, P[s, F_REWARD])
    for k in range(n):
        s = (sp + k) % n
        if P[s, F_EXPLODED] == 0 and P[s, F_REWARD] == best:
            roll_die(P, s, G, die, DS, supply, rng, E)
    # B: green, purple, black in start-player order.
    black = W[W_BLACK : W_BLACK + n]
    for s in range(n):
        black[s] = 0
        for i in range(P[s, F_NPOT]):
            if TYPE_COLOUR[P[s, POT_T + i]] == BLACK:
                black[s] += 1
    for k in range(n):
        s = (sp + k) % n
        npot = P[s, F_NPOT]
        g = 0
        for i in range(max(0, npot - 2), npot):
            if TYPE_COLOUR[P[s, POT_T + i]] == GREEN:
                g += 1
        if g > 0:
            P[s, F_RUBIES] += g
            record(E, G, s, EV_GREEN, g, 0, 0)
        npurple = 0
        for i in range(npot):
            if TYPE_COLOUR[P[s, POT_T + i]] == PURPLE:
                npurple += 1
        if npurple > 0:
            tier = decide_purple(P, s, npurple, G, R, SK, SP, SC, rng, UF)
            if tier == 1:
                P[s, F_SCORE] += 1
            elif tier == 2:
                P[s, F_SCORE] += 1
                P[s, F_RUBIES] += 1
            elif tier >= 3:
                P[s, F_SCORE] += 2
                P[s, F_DROPLET] += 1
            record(E, G, s, EV_PURPLE, tier, 0, 0)
        drop = 0
        rub = 0
        if n == 2:
            o = 1 - s
            if black[s] > 0 and black[s] >= black[o]:
                drop = 1
                if black[s] > black[o]:
                    rub = 1
        elif n >= 3:
            beaten = 0
            if black[s] > black[(s + 1) % n]:
                beaten += 1
            if black[s] > black[(s + n - 1) % n]:
                beaten += 1
            if beaten >= 1:
                drop = 1
            if beaten == 2:
                rub = 1
        if drop + rub > 0:
            P[s, F_DROPLET] += drop
            P[s, F_RUBIES] += rub
            record(E, G, s, EV_BLACK, drop, rub, 0)
    # C: rubies from the reward space, exploded or not.
    for s in range(n):
        if ruby[P[s, F_REWARD]] != 0:
            P[s, F_RUBIES] += 1
            record(E, G, s, EV_RUBY, 1, 0, 0)
    # D and E (an exploded player chooses one), or the final conversions.
    for s in range(n):
        rw = P[s, F_REWARD]
        take_vp = True
        take_coins = True
        if P[s, F_EXPLODED] != 0:
            ch = decide_explosion(P, s, vp[rw], coins[rw], G, R, SK, SP, SC, rng, UF)
            P[s, F_CHOICE] = ch
            take_vp = ch == 0
            take_coins = ch != 0
            record(E, G, s, EV_CHOICE, ch, 0, 0)
        if take_vp:
            P[s, F_SCORE] += vp[rw]
            record(E, G, s, EV_VP, vp[rw], P[s, F_SCORE], 0)
        if not take_coins:
            P[s, F_COINS] = 0
    out = G[G_OUT : G_OUT + 8]
    if final:
        for k in range(n):
            s = (sp + k) % n
            cv = P[s, F_COINS] // R[R_FINAL_COINS]
            rv = P[s, F_RUBIES] // R[R_FINAL_RUBIES]
            P[s, F_SCORE] += cv + rv
            P[s, F_RUBIES] -= rv * R[R_FINAL_RUBIES]
            record(E, G, s, EV_CONVERT, cv, rv, 0)
    else:
        nt = price.shape[0]
        avail = G[G_AVAIL : G_AVAIL + nt]
        shop = G[G_SUPPLY : G_SUPPLY + nt]
        for t in range(nt):
            c = TYPE_COLOUR[t]
            avail[t] = 1 if book_set[c] > 0 and r >= book_round[c] and price[t] >= 0 else 0
        G[G_MAX_BUYS] = R[R_MAX_BUYS]
        for k in range(n):
            s = (sp + k) % n
            cn = P[s, F_COINS]  # 0 for an exploded player who took the VP: nothing is affordable
            for t in range(nt):
                shop[t] = supply[t]
            nb = decide_buy(P, s, cn, R[R_MAX_BUYS], supply, price, avail, out,
                            G, R, SK, SP, SC, rng, UF)
            used = 0
            spent = 0
            for i in range(nb):
                t = out[i]
                if i >= R[R_MAX_BUYS]:
                    _error(G, GERR_BUY_TOO_MANY, s, nb)
                    break
                if t < 0 or t >= price.shape[0] or avail[t] == 0 or supply[t] <= 0:
                    _error(G, GERR_BUY_UNAVAILABLE, s, t)
                    continue
                if (used >> TYPE_COLOUR[t]) & 1:
                    _error(G, GERR_BUY_SAME_COLOUR, s, t)
                    continue
                if spent + price[t] > cn:
                    _error(G, GERR_BUY_OVER_BUDGET, s, t)
                    continue
                if not add_chip(P, s, t):
                    continue
                spent += price[t]
                used |= 1 << TYPE_COLOUR[t]
                supply[t] -= 1
                P[s, BOUGHT + TYPE_COLOUR[t]] += 1
                record(E, G, s, EV_BUY, t, price[t], 0)
        # F: spend rubies.
        for k in range(n):
            s = (sp + k) % n
            for i in range(64):
                a = decide_spend(P, s, i, G, R, SK, SP, SC, rng, UF)
                if a == SPEND_DROPLET and P[s, F_RUBIES] >= R[R_RUBY_DROPLET]:
                    P[s, F_RUBIES] -= R[R_RUBY_DROPLET]
                    P[s, F_DROPLET] += 1
                elif a == SPEND_FLASK and P[s, F_RUBIES] >= R[R_RUBY_FLASK] and P[s, F_FLASK] == 0:
                    P[s, F_RUBIES] -= R[R_RUBY_FLASK]
                    P[s, F_FLASK] = 1
                elif a == 0:
                    break
                else:
                    _error(G, GERR_SPEND, s, a)
                    break
                record(E, G, s, EV_SPEND, a, P[s, F_RUBIES], 0)
    for s in range(n):
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
            for c in range(9):
                row[RD_BAG + c] = 0
            for i in range(P[s, F_NCHIPS]):
                row[RD_BAG + TYPE_COLOUR[P[s, CHIPS + i]]] += 1
    G[G_START_PLAYER] = (sp + 1) % n


@njit(cache=True, error_model="numpy", _nrt=False)
def finish_game(P, G, out, E):
    """Ranks and win shares: most VP, then the furthest final potion, then a shared win."""
    n = G[G_NP]
    nwin = 0
    for s in range(n):
        better = 0
        for o in range(n):
            if P[o, F_SCORE] > P[s, F_SCORE] or (
                P[o, F_SCORE] == P[s, F_SCORE] and P[o, F_FINALPOS] > P[s, F_FINALPOS]
            ):
                better += 1
        out[s, O_RANK] = better + 1
        if better == 0:
            nwin += 1
    for s in range(n):
        out[s, O_SCORE] = P[s, F_SCORE]
        out[s, O_WIN] = 1 if out[s, O_RANK] == 1 else 0
        out[s, O_NWIN] = nwin
        out[s, O_EXPLOSIONS] = P[s, F_EXPLOSIONS]
        out[s, O_RUBIES] = P[s, F_RUBIES]
        out[s, O_DROPLET] = P[s, F_DROPLET]
        out[s, O_FINALPOS] = P[s, F_FINALPOS]
        out[s, O_NCHIPS] = P[s, F_NCHIPS]
        out[s, O_ERR] = G[G_ERR] if G[G_ERRSEAT] == s else 0
        for c in range(9):
            out[s, O_BOUGHT + c] = P[s, BOUGHT + c]
        record(E, G, s, EV_FINAL, out[s, O_RANK], P[s, F_SCORE], 1000000 * out[s, O_WIN] // nwin)


@njit(cache=True, error_model="numpy")
def play_game(seed, game, nplayers, R, coins, vp, ruby, tails, die, supply0, price, book_round,
              book_set, start_bag, SK, SP, out, rd, E, UF):
    """Play one complete game; fill ``out`` (seats x O_WIDTH), ``rd`` and events ``E``.

    The randomness of seat s comes from stream (seed, game, s) only, so the same seat meets the
    same luck whatever strategy sits there and whatever else runs in the batch.
    """
    P = np.zeros((nplayers, P_WIDTH), dtype=np.int64)
    G = np.zeros(G_WIDTH, dtype=np.int64)
    SC = np.zeros((nplayers, 64), dtype=np.int64)
    FD = np.zeros((nplayers, 1), dtype=np.int64)
    DS = np.zeros(1, dtype=np.int64)
    W = np.zeros(W_WIDTH, dtype=np.int64)
    rng = np.empty(nplayers + 1, dtype=np.uint64)
    for s in range(nplayers + 1):
        rng[s] = stream_seed(seed, game, s)
    supply = supply0.copy()
    setup_game(P, G, R, supply, start_bag, nplayers)
    for r in range(1, R[R_ROUNDS] + 1):
        G[G_ROUND] = r
        play_round(P, G, R, coins, vp, ruby, tails, die, supply, price, book_round, book_set,
                   SK, SP, SC, FD, DS, rng, E, rd, W, UF)
    finish_game(P, G, out, E)
    return G[G_ERR]


@njit(cache=True, error_model="numpy", parallel=True)
def play_games(seed, games, rotations, nplayers, R, coins, vp, ruby, tails, die, supply0, price,
               book_round, book_set, start_bag, lineup_SK, lineup_SP, out, rd, n_chunks, UF_funcs,
               UF_memory):
    """Play games[k] with the lineup rotated by rotations[k] for every k, in parallel chunks.

    Seat s of item k gets lineup entry (s + rotations[k]) % nplayers. Every item depends only on
    (seed, games[k], rotations[k]), never on the chunking or the thread that runs it.
    """
    m = games.shape[0]
    E = np.zeros((0, 6), dtype=np.int64)
    for c in prange(n_chunks):
        lo = c * m // n_chunks
        hi = (c + 1) * m // n_chunks
        SK = np.empty_like(lineup_SK)
        SP = np.empty_like(lineup_SP)
        rd_empty = np.zeros((0, nplayers, rd.shape[-1] if rd.ndim == 4 else 1), dtype=np.int64)
        UFc = (UF_funcs, np.zeros_like(UF_memory))  # each chunk its own strategy memory
        for k in range(lo, hi):
            for s in range(nplayers):
                j = (s + rotations[k]) % nplayers
                SK[s] = lineup_SK[j]
                SP[s] = lineup_SP[j]
            rdk = rd[k] if rd.shape[0] > 0 else rd_empty
            play_game(seed, games[k], nplayers, R, coins, vp, ruby, tails, die, supply0, price,
                      book_round, book_set, start_bag, SK, SP, out[k], rdk, E, UFc)
