"""A complete game in Numba: set-up, nine rounds (``sim.kernel.round``), ranks; and many games
in parallel chunks."""

from __future__ import annotations

import numpy as np
from numba import prange

from sim.kernel.bag import add_chip
from sim.kernel.cards.deck import deal_deck, force_card
from sim.kernel.decisions.slots import SC_WIDTH
from sim.kernel.events import record
from sim.kernel.jit import in_roomy_frame, kernel
from sim.kernel.layout import (
    BOUGHT,
    EV_FINAL,
    F_DROPLET,
    F_EXPLOSIONS,
    F_FINALPOS,
    F_FLASK,
    F_NCHIPS,
    F_RUBIES,
    F_SCORE,
    F_WITCHES,
    G_ERR,
    G_ERRSEAT,
    G_NP,
    G_WIDTH,
    G_WITCH,
    P_WIDTH,
    R_ROUNDS,
    R_START_DROPLET,
    R_START_RUBIES,
    R_TEAMS,
)
from sim.kernel.records import (
    O_BOUGHT,
    O_DROPLET,
    O_ERR,
    O_EXPLOSIONS,
    O_FINALPOS,
    O_NCHIPS,
    O_NWIN,
    O_RANK,
    O_RUBIES,
    O_SCORE,
    O_WIN,
    O_WITCHES,
    W_WIDTH,
)
from sim.kernel.rng import DECK_STREAM, N_STREAMS, game_streams
from sim.kernel.round import play_rounds
from sim.kernel.witches import deal_witches, penny_points


@kernel
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


@kernel
def finish_game(P, G, out, E):
    """Ranks and win shares: most VP, then the furthest final potion, then a shared win."""
    n = G[G_NP]
    in_play = 0  # bit 16 + w: herb witch w was in play
    for g in range(3):
        if G[G_WITCH + g] > 0:
            in_play |= 1 << (16 + G[G_WITCH + g])
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
        out[s, O_WITCHES] = P[s, F_WITCHES] | in_play
        record(E, G, s, EV_FINAL, out[s, O_RANK], P[s, F_SCORE], 1000000 * out[s, O_WIN] // nwin)


@kernel(nrt=True)
def game_scratch(nplayers, R, supply0, SK, SP):
    """The arrays a game works in, made once per chunk of games and handed to every game of it
    (``play_game`` sets each before reading it): the seats' rows P, the game row G, the
    strategies' scratch SC, forced draws FD, the die script DS, the round's scratch W, the random
    streams, the supply, and with teams the rows of the players deciding for the cauldrons."""
    nc = nplayers // 2 if R[R_TEAMS] != 0 else nplayers
    return (np.empty((nc, P_WIDTH), dtype=np.int64), np.empty(G_WIDTH, dtype=np.int64),
            np.empty((nc, SC_WIDTH), dtype=np.int64), np.empty((nc, 1), dtype=np.int64),
            np.empty(1, dtype=np.int64), np.empty(W_WIDTH, dtype=np.int64),
            np.empty(N_STREAMS, dtype=np.uint64), np.empty_like(supply0),
            np.empty((nc, SK.shape[1]), dtype=np.int64),
            np.empty((nc, SP.shape[1], SP.shape[2]), dtype=np.float64))


@kernel(nrt=True)
def play_game(seed, deal, nplayers, R, coins, vp, ruby, tails, die, supply0, price, book_round,
              book_set, start_bag, SK, SP, out, rd, E, UF, S):
    """Play one complete game; fill ``out`` (seats x O_WIDTH), ``rd`` and events ``E``. ``S``:
    the arrays the game works in (``game_scratch``), whatever they held before.

    Every source of randomness has its own streams (``sim.kernel.rng``): seat s's bag draws, its
    bonus-die rolls and its strategy's random choices, the deck, the witches. Stream i starts
    from game ``deal[i]`` of the run (``game_streams``): a game of the run gives every stream its
    game index; a game sharing some sources with another gives those streams the other's index.
    So the same seat meets the same luck whatever strategy sits there and whatever else runs in
    the batch.

    Teams (``R_TEAMS``): players t and t + n/2 share cauldron t (the kernel's seat t), and take
    turns deciding for it, player t in odd rounds and player t + n/2 in even ones; both get the
    cauldron's result in ``out`` and ``rd``. Events name cauldrons.
    """
    teams = R[R_TEAMS] != 0
    nc = nplayers // 2 if teams else nplayers
    P, G, SC, FD, DS, W, rng, supply, SKt, SPt = S  # setup_game clears P and G
    SC[:, :] = 0
    FD[:, :] = 0
    DS[:] = 0
    W[:] = 0
    SKr = SKt if teams else SK  # teams: each round, the rows of the players deciding
    SPr = SPt if teams else SP
    game_streams(seed, deal, rng)
    supply[:] = supply0
    setup_game(P, G, R, supply, start_bag, nc)
    deal_deck(G, R, rng)
    force_card(G, R, seed, deal[DECK_STREAM])
    deal_witches(P, G, R, rng, E)
    play_rounds(P, G, R, coins, vp, ruby, tails, die, supply, price, book_round, book_set,
                SK, SP, SKr, SPr, SC, FD, DS, rng, E, rd, W, UF, 1, R[R_ROUNDS])
    penny_points(P, G, R, E)
    finish_game(P, G, out, E)
    for m in range(nc, nplayers):  # teams: the second member shares the cauldron's result
        out[m] = out[m - nc]
        if rd.shape[0] > 0:
            for r in range(rd.shape[0]):
                rd[r, m] = rd[r, m - nc]
    return G[G_ERR]


def scratch_for(tables, SK, SP) -> tuple:
    """:func:`game_scratch` for a game of ``SK.shape[0]`` players under the kernel ``tables``
    (``R, coins, vp, ruby, tails, die, supply0, ...``, as ``play_game`` takes them)."""
    R, _coins, _vp, _ruby, _tails, _die, supply0 = tables[:7]
    return game_scratch(SK.shape[0], R, supply0, SK, SP)


_GAME_FOR: dict = {}  # argument types -> play_game compiled for exactly those


def game_pointer(tables, SK, SP, UF) -> tuple:
    """``play_game`` compiled (or loaded) for the argument types ``play_games`` gives it, as the
    one-entry tuple ``play_games`` takes. A compiled function with one fixed signature reaches a
    kernel as a function pointer, so the parallel kernel calls the game without compiling its
    code again; ``replay`` calls the same compiled code (with :func:`game_scratch`'s arrays)."""
    from numba import njit, typeof, types

    rows = types.Array(types.int64, 2, "C")
    deal = types.Array(types.int64, 1, "C")
    scratch = typeof(scratch_for(tables, SK, SP))
    argtypes = (types.uint64, deal, types.int64, *(typeof(t) for t in tables), typeof(SK),
                typeof(SP), rows, types.Array(types.int64, 3, "C"), rows, typeof(UF), scratch)
    fn = _GAME_FOR.get(argtypes)
    if fn is None:
        compile_game = njit(types.int64(*argtypes), cache=True, error_model="numpy")
        fn = in_roomy_frame(compile_game)(play_game.py_func)
        _GAME_FOR[argtypes] = fn
    return (fn,)


@kernel(parallel=True, nrt=True)
def play_games(seed, games, rotations, nplayers, R, coins, vp, ruby, tails, die, supply0, price,
               book_round, book_set, start_bag, lineup_SK, lineup_SP, out, rd, n_chunks, UF_funcs,
               UF_memory, game, deals):
    """Play games[k] with the lineup rotated by rotations[k] for every k, in parallel chunks;
    ``game`` is :func:`game_pointer`'s ``play_game``.

    Seat s of item k gets lineup entry (s + rotations[k]) % nplayers. Every stream of item k
    starts from game games[k], or with ``deals`` of a row per item (pick-freeze designs,
    ``quacks luck``) stream i from game deals[k, i]; none: ``deals`` has no rows. Every item
    depends only on (seed, its game indices, rotations[k]), never on the chunking or the thread
    that runs it.
    """
    m = games.shape[0]
    E = np.zeros((0, 6), dtype=np.int64)
    # the lineup in each of its rotations, made once: a game reads its seats' rows in place
    SKr = np.empty((nplayers, *lineup_SK.shape), dtype=lineup_SK.dtype)
    SPr = np.empty((nplayers, *lineup_SP.shape), dtype=lineup_SP.dtype)
    for r in range(nplayers):
        for s in range(nplayers):
            SKr[r, s] = lineup_SK[(s + r) % nplayers]
            SPr[r, s] = lineup_SP[(s + r) % nplayers]
    for c in prange(n_chunks):
        lo = c * m // n_chunks
        hi = (c + 1) * m // n_chunks
        rd_empty = np.zeros((0, nplayers, rd.shape[-1] if rd.ndim == 4 else 1), dtype=np.int64)
        UFc = (UF_funcs, np.zeros_like(UF_memory))  # each chunk its own strategy memory
        deal = np.empty(N_STREAMS, dtype=np.int64)
        S = game_scratch(nplayers, R, supply0, lineup_SK, lineup_SP)  # every game of the chunk
        for k in range(lo, hi):
            r = rotations[k] % nplayers
            rdk = rd[k] if rd.shape[0] > 0 else rd_empty
            if deals.shape[0] > 0:
                deal[:] = deals[k]
            else:
                deal[:] = games[k]
            game[0](seed, deal, nplayers, R, coins, vp, ruby, tails, die, supply0, price,
                    book_round, book_set, start_bag, SKr[r], SPr[r], out[k], rdk, E, UFc, S)
