"""The herb witches (Herb Witches expansion): three groups of four, one witch of each group in
play per game (dealt at set-up from the game's shared stream, or fixed by the ruleset). Every
player holds one penny per group and calls the group's witch at most once a game, at her phase,
by giving the penny up; a penny still held at the end scores ``game.penny_vp``.

Witch numbers (``sim.kernel.decisions.slots.W_*``; ``sim.rules.witches`` has their ids and texts):
1-4 potion phase (second flask, six chips, whites back, both rewards), 5-8 buying (upgrade,
double coins, free twin, ruby coins), 9-12 points and rubies (colours, bag points, ruby space,
cheap rubies). The six-chips witch, which places chips with their actions, is in
``sim.kernel.brewing``; this module holds the rest.
"""

from __future__ import annotations

from sim.kernel.bag import add_chip, discard_chip, remove_pot_entry, return_chip, white_back
from sim.kernel.bowl import bowl_white_back
from sim.kernel.decisions.slots import (
    W_BAG_POINTS,
    W_BOTH_REWARDS,
    W_CHEAP_RUBIES,
    W_COLOURS,
    W_DOUBLE_COINS,
    W_FREE_TWIN,
    W_RUBY_COINS,
    W_RUBY_SPACE,
    W_SECOND_FLASK,
    W_UPGRADE,
    W_WHITES_BACK,
)
from sim.kernel.decisions.witch import decide_witch, one_level_up
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    BAGCNT,
    EV_UPGRADE,
    EV_VISIT,
    EV_WITCH,
    EV_WITCHES,
    F_ANCHOR,
    F_CHEAP,
    F_EXPLODED,
    F_FLASK,
    F_NPOT,
    F_PENNY,
    F_PROTECTED,
    F_REWARD,
    F_RUBIES,
    F_SCORE,
    F_START,
    F_VISITED,
    F_WHITE,
    F_WITCHES,
    G_NP,
    G_OUT,
    G_VISIT,
    G_WITCH,
    POT_P,
    POT_T,
    R_FLASK_REUSE,
    R_PENNY_VP,
    R_WITCH_FIXED,
    R_WITCHES,
)
from sim.kernel.rng import randint
from sim.rules.chips import BLACK, LOCOWEED, N_COLOURS, PURPLE, TYPE_COLOUR, TYPE_VALUE, WHITE

# VP of the colours witch by the number of different non-white colours in the pot (0..8)
COLOUR_VP = (0, 3, 3, 3, 3, 4, 7, 10, 14)


@kernel(inline=True)
def witch_ready(P, s, G, R, w):
    """True when witch w is in play and seat s still holds the penny of her group, or she is
    this round's visitor (Visit from a Witch) and the seat has not called her yet."""
    g = (w - 1) // 4
    if R[R_WITCHES] == 0:
        return False
    if G[G_WITCH + g] == w and ((P[s, F_PENNY] >> g) & 1) != 0:
        return True
    return G[G_VISIT] == w and P[s, F_VISITED] == 0


@kernel
def call_witch(P, s, G, E, w, b, c):
    """Seat s gives up the penny of witch w's group (a visiting witch is free: once a round);
    the event says what she did (b, c)."""
    if G[G_VISIT] == w:
        P[s, F_VISITED] = 1
    else:
        P[s, F_PENNY] &= ~(1 << ((w - 1) // 4))
    P[s, F_WITCHES] |= 1 << w
    record(E, G, s, EV_WITCH, w, b, c)


@kernel
def deal_witches(P, G, R, rng, stream, E):
    """Set-up: one witch per group (fixed by the ruleset, else drawn from the game's shared
    stream ``stream``) and one penny per group for every seat."""
    if R[R_WITCHES] == 0:
        return
    for g in range(3):
        f = R[R_WITCH_FIXED + g]
        G[G_WITCH + g] = f if f > 0 else 4 * g + 1 + randint(rng, stream, 4)
    for s in range(G[G_NP]):
        P[s, F_PENNY] = 7
    record(E, G, -1, EV_WITCHES, G[G_WITCH], G[G_WITCH + 1], G[G_WITCH + 2])


@kernel
def second_flask(P, s, t, bowl, G, R, SK, SP, SC, rng, E, UF):
    """Second flask (1): the pot just exploded on white chip t (in the bowl if ``bowl``) and the
    flask is full: t goes back to the bag, the flask empties, and brewing may go on. True if
    called."""
    if not witch_ready(P, s, G, R, W_SECOND_FLASK) or P[s, F_FLASK] == 0 or TYPE_COLOUR[t] != WHITE:
        return False
    if decide_witch(P, s, W_SECOND_FLASK, t, G, R, SK, SP, SC, rng, UF) == 0:
        return False
    if bowl:
        bowl_white_back(P, s, t)
    else:
        white_back(P, s, t, R)
    P[s, F_FLASK] = 0
    P[s, F_EXPLODED] = 0
    call_witch(P, s, G, E, W_SECOND_FLASK, t, 0)
    return True


@kernel
def whites_back(P, s, n, G, R, E):
    """Whites back (3): the last n (1 or 2) white chips in the pot go back to the bag; their
    spaces stay empty (with ``flask_space = reuse`` the next chip counts from the last chip left).
    Returns the whites sent back."""
    done = 0
    sent = 0
    for k in range(P[s, F_NPOT] - 1, -1, -1):
        if done == n:
            break
        t = P[s, POT_T + k]
        if TYPE_COLOUR[t] == WHITE:
            remove_pot_entry(P, s, k)
            P[s, F_WHITE] -= TYPE_VALUE[t]
            return_chip(P, s, t)
            sent = sent * 32 + t + 1
            done += 1
    if done > 0:
        if R[R_FLASK_REUSE] != 0:
            k = P[s, F_NPOT]
            P[s, F_ANCHOR] = P[s, POT_P + k - 1] if k > 0 else P[s, F_START]
        call_witch(P, s, G, E, W_WHITES_BACK, done, sent)
    return done


@kernel
def both_rewards(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Both rewards (4), at step A: an exploded seat (not already protected) takes VP and coins,
    and may roll the die (``sim.kernel.evaluation.phase_a_die``). True if called."""
    if P[s, F_EXPLODED] == 0 or P[s, F_PROTECTED] != 0 or not witch_ready(P, s, G, R, W_BOTH_REWARDS):
        return False
    if decide_witch(P, s, W_BOTH_REWARDS, P[s, F_REWARD], G, R, SK, SP, SC, rng, UF) == 0:
        return False
    P[s, F_PROTECTED] = 1  # VP and coins both, as a protected explosion
    call_witch(P, s, G, E, W_BOTH_REWARDS, P[s, F_REWARD], 0)
    return True


@kernel
def upgrade_entry(P, s, k, supply, G, E):
    """Pot entry k becomes the chip one level up, from the supply; the old chip goes back to it."""
    t = P[s, POT_T + k]
    u = one_level_up(t)
    if u < 0 or supply[u] <= 0:
        return 0
    remove_pot_entry(P, s, k)
    discard_chip(P, s, t)
    supply[t] += 1
    add_chip(P, s, u)
    supply[u] -= 1
    record(E, G, s, EV_UPGRADE, t, u, 0)
    return 1


@kernel
def upgrade_witch(P, s, G, R, supply, SK, SP, SC, rng, E, UF):
    """Upgrade (5), at step E before buying: the last two chips in the pot one level up each,
    or one chip anywhere in the pot (never orange or white; 1 -> 2, 2 -> 4)."""
    a = decide_witch(P, s, W_UPGRADE, 0, G, R, SK, SP, SC, rng, UF)
    n = P[s, F_NPOT]
    done = 0
    if a == 1:
        for k in (n - 1, n - 2):
            if k >= 0:
                done += upgrade_entry(P, s, k, supply, G, E)
    elif 2 <= a < 2 + n:
        done = upgrade_entry(P, s, a - 2, supply, G, E)
    if done > 0:
        call_witch(P, s, G, E, W_UPGRADE, a, done)


@kernel
def double_coins(P, s, coins, G, R, SK, SP, SC, rng, E, UF):
    """Double coins (6): the coins to buy with (in the last round: to turn into VP) double."""
    if coins > 0 and witch_ready(P, s, G, R, W_DOUBLE_COINS):
        if decide_witch(P, s, W_DOUBLE_COINS, coins, G, R, SK, SP, SC, rng, UF) != 0:
            call_witch(P, s, G, E, W_DOUBLE_COINS, coins, 2 * coins)
            return 2 * coins
    return coins


@kernel
def coin_witches(P, s, coins, G, R, supply, SK, SP, SC, rng, E, UF):
    """Step E, before buying: upgrade (5), double coins (6) or ruby coins (8); return the coins
    the seat may spend (free twin, 7, comes after buying)."""
    if witch_ready(P, s, G, R, W_UPGRADE):
        upgrade_witch(P, s, G, R, supply, SK, SP, SC, rng, E, UF)
    coins = double_coins(P, s, coins, G, R, SK, SP, SC, rng, E, UF)
    rubies = P[s, F_RUBIES]
    if rubies > 0 and witch_ready(P, s, G, R, W_RUBY_COINS):
        if decide_witch(P, s, W_RUBY_COINS, rubies, G, R, SK, SP, SC, rng, UF) != 0:
            call_witch(P, s, G, E, W_RUBY_COINS, rubies, 2 * rubies)
            coins += 2 * rubies
    return coins


@kernel
def free_twin(P, s, nbought, G, R, supply, SK, SP, SC, rng, E, UF):
    """Free twin (7), after buying: one chip just bought (listed at G_OUT) comes a second time,
    free, if the supply has one."""
    if nbought == 0 or not witch_ready(P, s, G, R, W_FREE_TWIN):
        return
    t = decide_witch(P, s, W_FREE_TWIN, nbought, G, R, SK, SP, SC, rng, UF)
    ok = False
    for i in range(nbought):
        if G[G_OUT + i] == t:
            ok = True
    if ok and supply[t] > 0 and add_chip(P, s, t):
        supply[t] -= 1
        call_witch(P, s, G, E, W_FREE_TWIN, t, 0)


@kernel
def colour_points(P, s):
    """VP of the colours witch: by the different non-white colours in the pot (locoweed too)."""
    seen = 0
    for i in range(P[s, F_NPOT]):
        c = TYPE_COLOUR[P[s, POT_T + i]]
        if c != WHITE:
            seen |= 1 << c
    n = 0
    for c in range(N_COLOURS):
        n += (seen >> c) & 1
    return COLOUR_VP[n]


@kernel
def bag_points(P, s):
    """VP of the bag-points witch: 2 for every chip left in the bag that is a non-white 2-, 4- or
    6-chip, a purple chip or a locoweed (never white or black)."""
    vp = 0
    for t in range(TYPE_COLOUR.shape[0]):
        c = TYPE_COLOUR[t]
        if c == WHITE or c == BLACK:
            continue
        if TYPE_VALUE[t] >= 2 or c == PURPLE or c == LOCOWEED:
            vp += 2 * P[s, BAGCNT + t]
    return vp


@kernel
def points_witches(P, s, take_vp, G, R, SK, SP, SC, rng, E, UF):
    """Step D: colours (9), only for a seat taking the VP, and bag points (10), for anyone."""
    if take_vp and witch_ready(P, s, G, R, W_COLOURS):
        vp = colour_points(P, s)
        if vp > 0 and decide_witch(P, s, W_COLOURS, vp, G, R, SK, SP, SC, rng, UF) != 0:
            P[s, F_SCORE] += vp
            call_witch(P, s, G, E, W_COLOURS, vp, 0)
    if witch_ready(P, s, G, R, W_BAG_POINTS):
        vp = bag_points(P, s)
        if vp > 0 and decide_witch(P, s, W_BAG_POINTS, vp, G, R, SK, SP, SC, rng, UF) != 0:
            P[s, F_SCORE] += vp
            call_witch(P, s, G, E, W_BAG_POINTS, vp, 0)


@kernel
def ruby_space(P, s, vp, rubies, G, R, SK, SP, SC, rng, E, UF):
    """Ruby space (11), at step C on a reward space showing a ruby: as many rubies as the space's
    VP instead of the usual ``rubies`` (It's Shining Extra Bright's extra ruby included). Returns
    the rubies the seat takes."""
    if R[R_WITCHES] == 0 or vp <= 0 or not witch_ready(P, s, G, R, W_RUBY_SPACE):
        return rubies
    if decide_witch(P, s, W_RUBY_SPACE, vp, G, R, SK, SP, SC, rng, UF) == 0:
        return rubies
    call_witch(P, s, G, E, W_RUBY_SPACE, vp, 0)
    return vp


@kernel
def cheap_rubies(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Cheap rubies (12), at the start of step F: droplet moves and flask refills cost 1 ruby
    each for the rest of the step (``sim.kernel.costs``)."""
    if P[s, F_RUBIES] > 0 and witch_ready(P, s, G, R, W_CHEAP_RUBIES):
        if decide_witch(P, s, W_CHEAP_RUBIES, P[s, F_RUBIES], G, R, SK, SP, SC, rng, UF) != 0:
            P[s, F_CHEAP] = 1
            call_witch(P, s, G, E, W_CHEAP_RUBIES, P[s, F_RUBIES], 0)


@kernel
def penny_points(P, G, R, E):
    """The end of the game: every penny still held scores ``game.penny_vp``."""
    if R[R_WITCHES] == 0:
        return
    for s in range(G[G_NP]):
        n = (P[s, F_PENNY] & 1) + ((P[s, F_PENNY] >> 1) & 1) + ((P[s, F_PENNY] >> 2) & 1)
        if n > 0:
            P[s, F_SCORE] += n * R[R_PENNY_VP]
            record(E, G, s, EV_WITCH, 0, n, n * R[R_PENNY_VP])


@kernel
def visiting_witch(P, G, R, rng, E):
    """Visit from a Witch: unless already set (a round file names her), one of the witches not
    in play, drawn from the game's shared stream, visits this round."""
    if G[G_VISIT] == 0:
        k = randint(rng, rng.shape[0] - 1, 12 - 3)
        for w in range(1, 13):
            if w != G[G_WITCH] and w != G[G_WITCH + 1] and w != G[G_WITCH + 2]:
                if k == 0:
                    G[G_VISIT] = w
                    break
                k -= 1
    for s in range(G[G_NP]):
        P[s, F_VISITED] = 0
    record(E, G, -1, EV_VISIT, G[G_VISIT], 0, 0)
