"""Playing one chunk of a tournament: deals d0..d1-1 at every table and rotation, as the rows
of ``games.parquet`` (and, with rounds detail, ``rounds.parquet``).

Layout: game ``g`` of a run is deal ``g // games_per_deal``, table ``(g % games_per_deal) //
rotations``, rotation ``g % rotations`` (see ``sim.study.tournament.plan``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from sim.api.columns import empty_results, game_columns, round_columns
from sim.api.game import play_batch
from sim.study.tournament.plan import Plan

ROUNDS_BATCH_GAMES = 4_000  # kernel batch with rounds detail (its record is ~6 KB per game)
KERNEL_THREAD_CHUNKS = 64


@dataclass
class ChunkRows:
    """The rows of one chunk: ``games`` (one per game and seat) and optional ``rounds``
    (one per game, round and seat), as numpy columns named as in the parquet files."""

    games: dict[str, np.ndarray]
    rounds: dict[str, np.ndarray] | None
    first_game: int
    n_games: int


def _items(plan: Plan, d0: int, d1: int):
    """Per item of deals d0..d1-1 in game order: global game index, deal, table, rotation."""
    nd, T, R, n = d1 - d0, len(plan.tables), plan.rotations, plan.players
    deal = np.repeat(np.arange(d0, d1, dtype=np.int64), T * R)
    table = np.tile(np.repeat(np.arange(T, dtype=np.int64), R), nd)
    if plan.config.duplicate:
        rot = np.tile(np.arange(R, dtype=np.int64), nd * T)
    else:
        rot = deal % n
    game = np.arange(d0 * plan.games_per_deal, d1 * plan.games_per_deal, dtype=np.int64)
    return game, deal, table, rot


def _play_block(plan: Plan, game, deal, table, rot):
    """Kernel results of the given items: ``out`` and, with rounds detail, ``rd``, as
    ``play_batch`` returns them; one ``play_batch`` call per table."""
    m = len(game)
    detail = plan.config.detail == "rounds"
    if len(plan.tables) == 1:  # one kernel call, no copies
        res = play_batch(plan.ruleset, plan.lineup(0), games=deal, rotations=rot,
                         seed=plan.config.seed, detail=detail, chunks=min(KERNEL_THREAD_CHUNKS, m))
        return res.out, res.rounds
    out, rd = empty_results(m, plan.players, plan.rounds, detail)
    for t in range(len(plan.tables)):
        part = np.nonzero(table == t)[0]
        res = play_batch(plan.ruleset, plan.lineup(t), games=deal[part], rotations=rot[part],
                         seed=plan.config.seed, detail=detail,
                         chunks=min(KERNEL_THREAD_CHUNKS, len(part)))
        out[part] = res.out
        if detail:
            rd[part] = res.rounds
    return out, rd


def _concat(parts: list[dict]) -> dict[str, np.ndarray]:
    if len(parts) == 1:
        return parts[0]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


GAME_LAYOUT = ("game", "deal", "seed", "combo", "rotation", "seat", "strategy")
ROUND_LAYOUT = ("game", "deal", "round", "seat", "strategy")


def _layout(plan: Plan, game, deal, table, rot, rounds: bool):
    """The layout columns of these items' games rows and (``rounds``) rounds rows."""
    n, R = plan.players, plan.rounds
    m = len(game)
    seat = np.arange(n, dtype=np.int64)
    tab = np.array(plan.tables, dtype=np.int64)
    sid = tab[table[:, None], (seat[None, :] + rot[:, None]) % n]  # (m, n) strategy ids
    games = {
        "game": np.repeat(game, n),
        "deal": np.repeat(deal, n),
        "seed": np.full(m * n, plan.config.seed, dtype=np.int64),
        "combo": np.repeat(table, n).astype(np.int16),
        "rotation": np.repeat(rot, n).astype(np.int8),
        "seat": np.tile(seat, m).astype(np.int8),
        "strategy": sid.ravel().astype(np.int16),
    }
    if not rounds:
        return games, None
    return games, {
        "game": np.repeat(game, R * n),
        "deal": np.repeat(deal, R * n),
        "round": np.tile(np.repeat(np.arange(1, R + 1, dtype=np.int8), n), m),
        "seat": np.tile(seat.astype(np.int8), m * R),
        "strategy": np.repeat(sid[:, None, :], R, axis=1).ravel().astype(np.int16),
    }


def layout_columns(plan: Plan, d0: int, d1: int, rounds: bool = False):
    """(games, rounds or None) layout columns of deals d0..d1-1: which game, deal, seat and
    strategy each row is (GAME_LAYOUT, ROUND_LAYOUT). They follow from the plan alone, so a
    distributed backend ships only the other columns and adds these back."""
    return _layout(plan, *_items(plan, d0, d1), rounds)


def deal_blocks(plan: Plan, d0: int, d1: int) -> list[tuple[int, int]]:
    """The blocks of deals ``play_chunk`` plays deals d0..d1-1 in (one with games detail)."""
    step = max(1, ROUNDS_BATCH_GAMES // plan.games_per_deal) \
        if plan.config.detail == "rounds" else max(1, d1 - d0)
    return [(b0, min(d1, b0 + step)) for b0 in range(d0, d1, step)]


def play_chunk(plan: Plan, d0: int, d1: int,
               on_rounds: Callable[[dict[str, np.ndarray]], None] | None = None) -> ChunkRows:
    """Play deals d0..d1-1 (every table and rotation) and return their rows.

    With rounds detail the deals run in blocks of about ROUNDS_BATCH_GAMES games (see
    :func:`deal_blocks`), in game order; each block's rounds rows go to ``on_rounds`` as soon as
    they exist (so a chunk's round records are never all in memory at once), or are gathered
    into the result.
    """
    n = plan.players
    detail = plan.config.detail == "rounds"
    games_parts, rounds_parts = [], []
    for b0, b1 in deal_blocks(plan, d0, d1):
        game, deal, table, rot = _items(plan, b0, b1)
        out, rd = _play_block(plan, game, deal, table, rot)
        cols, rcols = _layout(plan, game, deal, table, rot, detail)
        cols.update(game_columns(out, witches=plan.ruleset.data["witches"]["enabled"]))
        del out
        games_parts.append(cols)
        if detail:
            rcols.update(round_columns(rd))
            del rd
            if on_rounds is not None:
                on_rounds(rcols)
            else:
                rounds_parts.append(rcols)
    games = _concat(games_parts)
    rounds = _concat(rounds_parts) if rounds_parts else None
    first = int(games["game"][0]) if len(games["game"]) else 0
    return ChunkRows(games, rounds, first, len(games["game"]) // n)
