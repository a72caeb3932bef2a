"""One round as a sequence of phases: start, card, rats, brew, A die, B chip actions, C rubies,
D/E points and buying (or the final conversions), F rubies, and the round record.

``play_round`` is used both by ``play_game`` (the fast batch path) and by ``quacks round`` (a
scripted round from a file). Each phase is one function that reads on one screen.
"""

from __future__ import annotations

from numba import njit

from sim.kernel.bag import add_chip, reset_potion, show_supply
from sim.kernel.brew import brew_first, brew_until_stop, potion_step, stop_by_choice, wants_draw
from sim.kernel.cards import (
    GOOD_START,
    LAST_PURPLE,
    LUCKY_DEVIL,
    LUXURY,
    MAGIC_POTION,
    POT_IS_FULL,
    RAT_INFESTATION,
    RATS_FRIENDS,
    SEASONED,
    SHINING,
    after_brewing,
    purple_card,
    rat_card,
    round_card,
)
from sim.kernel.die import roll_die
from sim.kernel.droplet import move_droplet, settle_all, settle_droplets
from sim.kernel.effects.black import black_at_b, count_black
from sim.kernel.effects.green import green_at_b
from sim.kernel.effects.purple import purple_at_b
from sim.kernel.effects.red import hold_aside, reds_after_stop
from sim.kernel.effects.yellow import raise_limit
from sim.kernel.events import record
from sim.kernel.layout import (
    ASIDE,
    BOUGHT,
    CHIPS,
    EV_BOOK,
    EV_BUY,
    EV_CHOICE,
    EV_CONVERT,
    EV_RAT,
    EV_REWARD,
    EV_ROUND,
    EV_RUBY,
    EV_SCORE,
    EV_SPEND,
    EV_VP,
    EV_WHITE_ADDED,
    F_CARD_PTR,
    F_CHOICE,
    F_COINS,
    F_DONE,
    F_DROPLET,
    F_EXPLODED,
    F_EXPLOSIONS,
    F_FINALPOS,
    F_FLASK,
    F_NCHIPS,
    F_NPOT,
    F_PROTECTED,
    F_RAT,
    F_REWARD,
    F_RUBIES,
    F_RUBYGAIN,
    F_SCORE,
    F_SCRIPT_ERR,
    F_START,
    F_TUBE_PTR,
    F_VPGAIN,
    F_WHITE,
    G_AVAIL,
    G_BREWED,
    G_CARD,
    G_INFO,
    G_MAX_BUYS,
    G_NP,
    G_OUT,
    G_ROUND,
    G_SEEN,
    G_START_PLAYER,
    G_SUPPLY,
    INFO_SEQUENTIAL,
    INFO_SYNCHRONIZED,
    POT_P,
    R_BOOK,
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
    R_WHITE_ROUND,
    SPEND_DROPLET,
    SPEND_FLASK,
)
from sim.kernel.records import (
    GERR_BLUE,
    GERR_BUY_OVER_BUDGET,
    GERR_BUY_SAME_COLOUR,
    GERR_BUY_TOO_MANY,
    GERR_BUY_UNAVAILABLE,
    GERR_SPEND,
    RD_BAG,
    RD_CARD,
    RD_COINS,
    RD_DROPLET,
    RD_EXPLODED,
    RD_NCHIPS,
    RD_NPOT,
    RD_RAT,
    RD_REWARD,
    RD_RUBIES,
    RD_SCORE,
    RD_VPGAIN,
    RD_WHITE,
    W_BLACK,
    W_WANT,
    game_error,
)
from sim.rules.chips import GREEN, PURPLE, RED, TYPE_COLOUR, W1
from strategies.decide_nb import decide_buy, decide_explosion, decide_spend


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


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def round_start(P, G, R, supply, book_round, book_set, E):
    """New books out, and the extra white chip before round ``R_WHITE_ROUND``."""
    r = G[G_ROUND]
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    record(E, G, -1, EV_ROUND, sp, 0, 0)
    for s in range(n):
        P[s, F_VPGAIN] = P[s, F_SCORE]  # score at round start; turned into the gain at the end
        P[s, F_RUBYGAIN] = 0
        P[s, F_CARD_PTR] = 0
        P[s, F_TUBE_PTR] = 0
    G[G_BREWED] = 0
    G[G_SEEN] = (1 << n) - 1  # outside brewing every potion is on the table
    for c in range(book_set.shape[0]):
        if book_set[c] > 0 and book_round[c] == r and r > 1:
            record(E, G, -1, EV_BOOK, c, 0, 0)
    if r == R[R_WHITE_ROUND]:
        for k in range(n):
            s = (sp + k) % n
            if supply[W1] > 0 and add_chip(P, s, W1):
                supply[W1] -= 1
                record(E, G, s, EV_WHITE_ADDED, W1, 0, 0)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def rats_phase(P, G, R, tails, supply, SK, SP, SC, rng, E, UF):
    """Rat tails between each player and the leader move their start; every pot is emptied."""
    n = G[G_NP]
    leader = 0
    for s in range(n):
        leader = max(leader, P[s, F_SCORE])
    for s in range(n):
        tails_n = 0
        if G[G_ROUND] >= R[R_RATS_FROM]:
            tails_n = tails_between(tails, R[R_LAP], P[s, F_SCORE], leader)
        card = G[G_CARD]
        if card == RAT_INFESTATION:
            tails_n *= 2
        elif card == RATS_FRIENDS or card == GOOD_START:
            tails_n = rat_card(P, s, tails_n, G, R, supply, SK, SP, SC, rng, E, UF)
        P[s, F_RAT] = tails_n
        start = min(P[s, F_DROPLET] + tails_n, R[R_LAST])
        reset_potion(P, s, start, R[R_LIMIT])
        hold_aside(P, s)
        if card == LUXURY:
            raise_limit(P, s, 2, G, E)
        record(E, G, s, EV_RAT, tails_n, start, 0)


@njit(cache=True, error_model="numpy", _nrt=False)
def brew_synchronized(P, G, R, SK, SP, SC, FD, rng, E, W, UF):
    """Lock-step brewing: first chips for all, then before each reveal every active player
    decides (seeing every pot so far), then all who go on draw one chip. Not inlined: it runs
    once a game (the last round) unless every round is synchronized, and keeping it out of
    ``play_round`` keeps the hot loop small."""
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    G[G_SEEN] = (1 << n) - 1
    want = W[W_WANT : W_WANT + n]
    for k in range(n):
        brew_first(P, (sp + k) % n, G, R, SK, SP, SC, FD, rng, E, UF)
    while True:
        active = 0
        for k in range(n):  # everyone decides on the same view, then the stops are revealed
            s = (sp + k) % n
            want[s] = 0
            if P[s, F_DONE] == 0:
                if wants_draw(P, s, G, R, SK, SP, SC, rng, UF):
                    want[s] = 1
                    active += 1
                else:
                    want[s] = -1
        for k in range(n):
            s = (sp + k) % n
            if want[s] < 0:
                stop_by_choice(P, s, E, G)
        if active == 0:
            break
        for k in range(n):
            s = (sp + k) % n
            if want[s] > 0:
                potion_step(P, s, G, R, SK, SP, SC, FD, rng, E, UF)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def brew_phase(P, G, R, SK, SP, SC, FD, rng, E, W, UF):
    """Every player brews, by the round's information model."""
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    everyone = (1 << n) - 1
    if G[G_INFO] == INFO_SYNCHRONIZED:
        brew_synchronized(P, G, R, SK, SP, SC, FD, rng, E, W, UF)
    else:
        # One after another from the start player. Independent: nobody sees another potion of
        # this round; sequential: each player sees the potions brewed before theirs.
        seen = 0
        for k in range(n):
            s = (sp + k) % n
            G[G_SEEN] = seen if G[G_INFO] == INFO_SEQUENTIAL else 0
            brew_until_stop(P, s, G, R, SK, SP, SC, FD, rng, E, UF)
            seen |= 1 << s
    G[G_SEEN] = everyone
    G[G_BREWED] = 1


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def potions_done(P, G, R, coins, vp, supply, FD, SK, SP, SC, rng, E, UF):
    """After brewing: red chips beside the pot (red Set 2), explosions counted, coins of the
    reward space, the tie-break position."""
    n = G[G_NP]
    if R[R_BOOK + RED] == 2:
        for k in range(n):
            s = (G[G_START_PLAYER] + k) % n
            if P[s, ASIDE] + P[s, ASIDE + 1] + P[s, ASIDE + 2] > 0:  # a call is dear: only if needed
                reds_after_stop(P, s, G, R, SK, SP, SC, rng, E, UF)
    if G[G_CARD] >= SEASONED and G[G_CARD] != LUXURY:
        after_brewing(P, G, R, supply, FD, SK, SP, SC, rng, E, UF)
    for s in range(n):
        if P[s, F_SCRIPT_ERR] != 0:
            game_error(G, GERR_BLUE, s, P[s, F_SCRIPT_ERR])
        if P[s, F_EXPLODED] != 0:
            P[s, F_EXPLOSIONS] += 1
        rw = P[s, F_REWARD]
        P[s, F_COINS] = coins[rw]
        record(E, G, s, EV_REWARD, rw, coins[rw], vp[rw])
        np_ = P[s, F_NPOT]
        P[s, F_FINALPOS] = P[s, POT_P + np_ - 1] if np_ > 0 else P[s, F_START]


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def phase_a_die(P, G, R, die, DS, supply, SK, SP, SC, rng, E, UF):
    """A: the bonus die for the furthest intact potions (all ties roll; the spoon is furthest)."""
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    best = -1
    for s in range(n):
        if P[s, F_EXPLODED] == 0:
            best = max(best, P[s, F_REWARD])
    for k in range(n):
        s = (sp + k) % n
        if P[s, F_EXPLODED] == 0 and P[s, F_REWARD] == best:
            roll_die(P, s, G, die, DS, supply, rng, E)
            if G[G_CARD] == POT_IS_FULL:
                roll_die(P, s, G, die, DS, supply, rng, E)
            settle_droplets(P, s, G, R, supply, SK, SP, SC, rng, E, UF)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def phase_b_actions(P, G, R, supply, SK, SP, SC, rng, E, W, UF):
    """B: green, purple and black chip actions, in start-player order."""
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    black = W[W_BLACK : W_BLACK + n]
    count_black(P, n, black)
    # the books whose choices at B involve the supply (green 2 and purple 2 and 4 grant chips)
    grants = R[R_BOOK + GREEN] == 2 or R[R_BOOK + PURPLE] == 2 or R[R_BOOK + PURPLE] == 4
    for k in range(n):
        s = (sp + k) % n
        if grants:
            show_supply(G, supply)  # what a strategy sees of the supply when a book grants a chip
        green_at_b(P, s, G, R, supply, SK, SP, SC, rng, E, UF)
        if grants:
            show_supply(G, supply)
        purple_at_b(P, s, G, R, supply, SK, SP, SC, rng, E, UF)
        black_at_b(P, s, black, G, E)
        settle_droplets(P, s, G, R, supply, SK, SP, SC, rng, E, UF)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def phase_c_rubies(P, G, ruby, E):
    """C: a ruby for every reward space that shows one, exploded or not."""
    for s in range(G[G_NP]):
        if ruby[P[s, F_REWARD]] != 0:
            extra = 1 if G[G_CARD] == SHINING else 0
            P[s, F_RUBIES] += 1 + extra
            record(E, G, s, EV_RUBY, 1 + extra, 0, 0)
            if G[G_CARD] == LUCKY_DEVIL:
                P[s, F_SCORE] += 2
                record(E, G, s, EV_VP, 2, P[s, F_SCORE], 0)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def phase_d_points(P, G, R, vp, coins, SK, SP, SC, rng, E, UF):
    """D: VP of the reward space; an exploded player chooses the VP or the coins (E)."""
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
        if not take_coins:
            P[s, F_COINS] = 0


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def final_conversions(P, G, R, E):
    """The last round: coins and rubies into VP instead of buying."""
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    for k in range(n):
        s = (sp + k) % n
        cv = P[s, F_COINS] // R[R_FINAL_COINS]
        rv = P[s, F_RUBIES] // R[R_FINAL_RUBIES]
        P[s, F_SCORE] += cv + rv
        P[s, F_RUBIES] -= rv * R[R_FINAL_RUBIES]
        record(E, G, s, EV_CONVERT, cv, rv, 0)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def buy_chips(P, s, G, R, supply, price, avail, SK, SP, SC, rng, E, UF):
    """E for one player: the strategy's purchases, each checked against the rules."""
    nt = price.shape[0]
    out = G[G_OUT : G_OUT + 8]
    shop = G[G_SUPPLY : G_SUPPLY + nt]
    cn = P[s, F_COINS]  # 0 for an exploded player who took the VP: nothing is affordable
    for t in range(nt):
        shop[t] = supply[t]
    nb = decide_buy(P, s, cn, R[R_MAX_BUYS], supply, price, avail, out, G, R, SK, SP, SC, rng, UF)
    used = 0
    spent = 0
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
        if not add_chip(P, s, t):
            continue
        spent += price[t]
        used |= 1 << TYPE_COLOUR[t]
        supply[t] -= 1
        P[s, BOUGHT + TYPE_COLOUR[t]] += 1
        record(E, G, s, EV_BUY, t, price[t], 0)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
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
        buy_chips(P, (sp + k) % n, G, R, supply, price, avail, SK, SP, SC, rng, E, UF)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def phase_f_rubies(P, G, R, supply, SK, SP, SC, rng, E, UF):
    """F: rubies for droplet moves and flask refills, as the strategy asks."""
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    for k in range(n):
        s = (sp + k) % n
        for i in range(64):
            a = decide_spend(P, s, i, G, R, SK, SP, SC, rng, UF)
            if a == SPEND_DROPLET and P[s, F_RUBIES] >= R[R_RUBY_DROPLET]:
                P[s, F_RUBIES] -= R[R_RUBY_DROPLET]
                move_droplet(P, s, 1)
                settle_droplets(P, s, G, R, supply, SK, SP, SC, rng, E, UF)
            elif a == SPEND_FLASK and P[s, F_RUBIES] >= R[R_RUBY_FLASK] and P[s, F_FLASK] == 0:
                P[s, F_RUBIES] -= R[R_RUBY_FLASK]
                P[s, F_FLASK] = 1
            elif a == 0:
                break
            else:
                game_error(G, GERR_SPEND, s, a)
                break
            record(E, G, s, EV_SPEND, a, P[s, F_RUBIES], 0)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
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
            for c in range(9):
                row[RD_BAG + c] = 0
            for i in range(P[s, F_NCHIPS]):
                row[RD_BAG + TYPE_COLOUR[P[s, CHIPS + i]]] += 1


@njit(cache=True, error_model="numpy", _nrt=False)
def play_round(P, G, R, coins, vp, ruby, tails, die, supply, price, book_round, book_set,
               SK, SP, SC, FD, DS, rng, E, rd, W, UF):
    """Play round G[G_ROUND] from its start (books, white chip, card, rats) to the end of step F.

    ``rd`` (rounds x seats x RD_WIDTH, or empty) receives the per-round record; ``W`` is scratch
    space (int64, at least W_WIDTH) so the hot loop allocates nothing.
    """
    final = G[G_ROUND] >= R[R_ROUNDS]
    round_start(P, G, R, supply, book_round, book_set, E)
    if round_card(G, E) <= LAST_PURPLE and G[G_CARD] > 0:
        purple_card(P, G, R, supply, die, DS, FD, SK, SP, SC, rng, E, UF)
        settle_all(P, G, R, supply, SK, SP, SC, rng, E, UF)  # before the rats: the start moves
    rats_phase(P, G, R, tails, supply, SK, SP, SC, rng, E, UF)
    G[G_INFO] = R[R_FINAL_INFO] if final else R[R_INFO]
    brew_phase(P, G, R, SK, SP, SC, FD, rng, E, W, UF)
    potions_done(P, G, R, coins, vp, supply, FD, SK, SP, SC, rng, E, UF)
    settle_all(P, G, R, supply, SK, SP, SC, rng, E, UF)
    phase_a_die(P, G, R, die, DS, supply, SK, SP, SC, rng, E, UF)
    phase_b_actions(P, G, R, supply, SK, SP, SC, rng, E, W, UF)
    phase_c_rubies(P, G, ruby, E)
    phase_d_points(P, G, R, vp, coins, SK, SP, SC, rng, E, UF)
    if final:
        final_conversions(P, G, R, E)
    else:
        phase_e_buy(P, G, R, supply, price, book_round, book_set, SK, SP, SC, rng, E, UF)
        phase_f_rubies(P, G, R, supply, SK, SP, SC, rng, E, UF)
    if G[G_CARD] == MAGIC_POTION:
        for s in range(G[G_NP]):
            P[s, F_FLASK] = 1
    settle_all(P, G, R, supply, SK, SP, SC, rng, E, UF)
    round_end(P, G, coins, E, rd)
    G[G_START_PLAYER] = (G[G_START_PLAYER] + 1) % G[G_NP]
