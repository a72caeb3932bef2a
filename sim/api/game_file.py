"""Whole scripted games (golden games): ``play_game_file`` / ``play_scripted_game`` play a game
from the rules' starting state with every draw, die face and decision forced, round by round
through the round-file machinery of :mod:`sim.api.round_file`."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.api.round_file import (
    apply_script,
    file_ruleset,
    load,
    play_checked_round,
)
from sim.api.round_script import (
    RoundFileError,
    card_of,
    cauldrons_of,
    check_tables,
    die_script,
    forced_draws,
    round_witches,
)
from sim.api.rules_array import rules_scalars
from sim.kernel import layout as L
from sim.kernel.decisions import slots as S
from sim.kernel.rng import N_STREAMS
from sim.rules import chips
from sim.rules.books import SCRIPTED, round_file_keys


def script_keys() -> set[str]:
    """The keys of a round's ``[[round.player]]`` table: the scripted decisions, with those of
    every book (the user's loaded too)."""
    return {"draws", "flask_on", "choice", "buy", "spend", "card_choice", "card_draws", "tube",
            "witch", *(k for k, (kind, _) in round_file_keys().items() if kind == SCRIPTED)}


SCRIPT_KEYS = script_keys()  # with the shipped books' keys
GAME_KEYS = {"players", "rules", "set", "round", "witches"}


def play_game_file(path: str | Path) -> dict:
    """Play a whole scripted game from a file (golden games); see ``play_scripted_game``."""
    return play_scripted_game(load(path), str(path))


def play_scripted_game(d: dict, label: str = "game file") -> dict:
    """A complete game from the rules' starting state with every draw, die face and decision forced.

    ``d`` has ``players``, optional ``rules``/``set``, and one ``[[round]]`` table per round, each
    with ``die`` (faces in order) and one ``[[round.player]]`` table per seat (with ``game.teams``:
    ``players = 4`` and one per team's cauldron) holding that seat's script (``draws``, ``blue``,
    ``yellow``, ``red``, ``flask_on``, ``choice``, ``buy``, ``spend``, ``purple``; no ``buy`` or
    ``spend`` in the last round). Returns every round's result and the final ranks and win shares
    (per cauldron).
    """
    from sim.kernel.game import finish_game, setup_game
    from sim.kernel.records import O_NWIN, O_RANK, O_WIDTH, O_WIN
    from sim.kernel.witches import penny_points

    rs = file_ruleset(d, label, GAME_KEYS)
    n = cauldrons_of(d, rs, label)  # teams (game.teams): two cauldrons for the four players
    rounds = d.get("round")
    nr = int(rs.game("rounds"))
    if not isinstance(rounds, list) or len(rounds) != nr:
        raise RoundFileError(f"{label}: expected {nr} [[round]] tables, found "
                             f"{len(rounds) if isinstance(rounds, list) else 0}")
    starting = rs.game("starting_bag")
    R = rules_scalars(rs)
    P = np.zeros((n, L.P_WIDTH), dtype=np.int64)
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    supply = rs.supply.copy()
    setup_game(P, G, R, supply, rs.starting_bag, n)
    G[L.G_WITCH:L.G_WITCH + 3] = round_witches(d, rs, label)
    if R[L.R_WITCHES]:
        P[:, L.F_PENNY] = 7
    SC = np.zeros((n, S.SC_WIDTH), dtype=np.int64)
    SK = np.full((n, S.N_SLOTS), S.SCRIPTED, dtype=np.int64)
    SP = np.zeros((n, S.N_SLOTS, S.PARAM_WIDTH), dtype=np.float64)
    E = np.zeros((5000, L.EV_WIDTH), dtype=np.int64)
    rng = np.zeros(N_STREAMS, dtype=np.uint64)
    results = []
    for r, rnd in enumerate(rounds, start=1):
        where = f"{label}: round {r}"
        if not isinstance(rnd, dict):
            raise RoundFileError(f"{where}: expected a [[round]] table")
        for k in rnd:
            if k not in ("die", "player", "card"):
                raise RoundFileError(f"{where}: unknown key '{k}'; expected card, die, player")
        card = card_of(rnd, where)  # a scripted game has no deck: a round's card is named or none
        G[L.G_DECK + r - 1] = card
        G[L.G_DECK_N] = r
        seats = rnd.get("player")
        check_tables(seats, n, rs, where, "[[round.player]]")
        draws = []
        keys = script_keys()
        for s, pl in enumerate(seats):
            for k in pl:
                if k not in keys:
                    raise RoundFileError(f"{where}: seat {s}: unknown key '{k}'; expected "
                                         f"{', '.join(sorted(keys))}")
            draws.append(apply_script(SC, P, s, pl, f"{where}: seat {s}", starting, r >= nr, rs,
                                       card, game=True))
        FD = forced_draws(draws)
        faces, DS = die_script(rnd, where)
        G[L.G_ROUND] = r
        G[L.G_DIE_N] = len(faces) if faces else -1
        G[L.G_DIE_PTR] = 0
        G[L.G_NEV] = 0
        E[:] = 0
        res = play_checked_round(P, G, R, rs, n, supply, SK, SP, SC, FD, DS, rng, E, where)
        res["round"] = r
        results.append(res)
    out = np.zeros((n, O_WIDTH), dtype=np.int64)
    E[:] = 0
    G[L.G_NEV] = 0
    penny_points(P, G, R, E)
    finish_game(P, G, out, E)
    final = [{
        "score": int(out[s, 0]),
        "rank": int(out[s, O_RANK]),
        "win_share": float(out[s, O_WIN]) / float(out[s, O_NWIN]),
        "rubies": int(P[s, L.F_RUBIES]),
        "droplet": int(P[s, L.F_DROPLET]),
        **({"glass": int(P[s, L.F_TUBE])} if R[L.R_TUBE] else {}),
        **({"pennies_kept": bin(int(P[s, L.F_PENNY]) & 7).count("1")} if R[L.R_WITCHES] else {}),
        "final_position": int(P[s, L.F_FINALPOS]),
        "bag": chips.format_counts(chips.counts_of(list(P[s, L.CHIPS:L.CHIPS + P[s, L.F_NCHIPS]]))),
    } for s in range(n)]
    return {"rounds": results, "final": final, "supply": chips.format_counts(supply)}
