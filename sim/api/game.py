"""Full games as a Python API: batches of games, per-strategy summaries, and single-game replay.

``play_batch`` runs the parallel kernel; ``play_summary`` plays ``quacks play``'s games in
short :class:`Pieces` and sums them in a :class:`PlayStats` (bounded memory, Ctrl-C between
pieces, the table of one batch to the last digit); ``replay`` plays one game of a run again with
events recorded, through the same ``play_game`` kernel the batch uses, so a replay is the scored
game.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.api.errors import GameInputError
from sim.api.events import count_events
from sim.api.rules_array import rules_scalars
from sim.kernel import layout as L
from sim.kernel.game import game_pointer, play_games, scratch_for
from sim.kernel.records import (
    O_ERR,
    O_EXPLOSIONS,
    O_NWIN,
    O_RANK,
    O_SCORE,
    O_WIDTH,
    O_WIN,
    O_WITCHES,
    RD_WIDTH,
    RESULT,
    ROUND,
)
from sim.kernel.rng import N_STREAMS
from sim.rules.ruleset import Ruleset
from sim.rules.witches import WITCHES
from sim.stats.clusters import ClusterSums
from sim.stats.intervals import Z95, rate_interval
from strategies.builtin import MODEL_NONE, Strategy
from strategies.registry import slot_table
from strategies.value_model_file import with_settings

DEFAULT_CHUNKS = 64
MAX_EVENTS = 20_000


def result_fields() -> list[tuple[str, int, int]]:
    """``(name, offset, width)`` of each field of the per-game result ``out[..., seat, :]``, in
    order (``score``, ``rank`` ..., ``bought`` 9 wide), from its declaration."""
    return RESULT.layout()


def round_fields() -> list[tuple[str, int, int]]:
    """``(name, offset, width)`` of each field of the per-round record ``rd[..., round, seat, :]``,
    in order (``reward`` ..., ``bag`` 9 wide, ``card``), from its declaration."""
    return ROUND.layout()


def result_columns() -> dict[str, str]:
    """The ``games.parquet`` columns the per-game result becomes, in order, with their arrow type
    names (fields marked internal left out)."""
    return RESULT.column_types()


def round_columns() -> dict[str, str]:
    """The ``rounds.parquet`` columns the per-round record becomes, in order, with their arrow
    type names (fields marked internal left out)."""
    return ROUND.column_types()


def check_players(ruleset: Ruleset, nplayers: int) -> None:
    """Raise GameInputError unless the ruleset allows this many players (teams: exactly 4)."""
    lo, hi = ruleset.game("min_players"), ruleset.game("max_players")
    if ruleset.game("teams"):
        if nplayers != 4:
            raise GameInputError(f"--players {nplayers}: game.teams = true plays exactly 4 players "
                                 f"(two teams of two)")
        return
    if not lo <= nplayers <= hi:
        hint = "; 5 players need the Herb Witches (--rules herb-witches)" if nplayers == 5 else ""
        raise GameInputError(f"--players {nplayers}: this ruleset plays {lo} to {hi} players{hint}")


def check_round_values(ruleset: Ruleset, lineup: list[Strategy]) -> None:
    """Raise GameInputError for a per-round parameter (``t=5/6/7``) that does not give one
    value, or exactly one per round of this ruleset's game."""
    from strategies.builtin import REGISTRY

    rounds = int(ruleset.game("rounds"))
    for st in lineup:
        d = REGISTRY.get(st.name)
        for p in d.params if d is not None else ():
            v = st.values.get(p.name)
            if p.kind == "round" and isinstance(v, list) and v != p.default and len(v) != rounds:
                raise GameInputError(
                    f"strategy '{st.spec}': parameter {p.name} has {len(v)} per-round values; "
                    f"give one value, or exactly {rounds} (one per round, separated by /)")


def lineup_arrays(strategies: list[Strategy], ruleset: Ruleset | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Stack the seats' strategies into the kernel's SK and SP arrays.

    With a ruleset, a strategy that plays by a value model (``master``) takes the model's
    settings (those its spec does not give) and gets the model's rows after the slots
    (``sim.kernel.decisions.value_layout``); every seat's array then has those rows (zero for the
    others), and a lineup without such a strategy is exactly as before."""
    wants = [uses_value_model(s) for s in strategies]
    models = ([seat_model(s, ruleset, len(strategies)) if w else None
               for s, w in zip(strategies, wants)]
              if ruleset is not None and any(wants) else [None] * len(strategies))
    strategies = [s if m is None else with_settings(s, m.settings)
                  for s, m in zip(strategies, models)]
    SK = np.stack([s.kinds for s in strategies]).astype(np.int64)
    SP = np.stack([s.params for s in strategies]).astype(np.float64)
    if not any(m is not None for m in models):
        return SK, SP
    blocks = [None if m is None else m.rows() for m in models]
    width = max(b.shape[0] for b in blocks if b is not None)  # a model with a net has more rows
    SPm = np.zeros((SP.shape[0], SP.shape[1] + width, SP.shape[2]), dtype=np.float64)
    SPm[:, : SP.shape[1]] = SP
    for i, b in enumerate(blocks):
        if b is not None:
            SPm[i, SP.shape[1]:SP.shape[1] + b.shape[0]] = b
    return SK, SPm


def uses_value_model(st: Strategy) -> bool:
    """True if the strategy's stop rule values its leaves by a value model (``master``)."""
    from sim.kernel.decisions import slots as S

    return bool(st.params[S.SLOT_STOP, S.P_LEAF_MODEL] > 0
                and str(st.values.get("model", "auto")) != MODEL_NONE)


_NOTES_SHOWN: set[str] = set()


def seat_model(st: Strategy, ruleset: Ruleset, players: int):
    """The value model of a ``master`` seat for this ruleset and player count; prints the
    one-line note (once a process) when the model is the nearest shipped one."""
    import sys

    from strategies.value_model_file import ModelFileError, resolve

    try:
        model, note = resolve(str(st.values.get("model", "auto")), ruleset, players)
    except ModelFileError as e:
        raise GameInputError(f"strategy '{st.spec}': {e}") from None
    if st.values.get("buy_by") == "net" and model.net is None:
        raise GameInputError(f"strategy '{st.spec}': buy_by=net needs a model with a value net "
                             "(quacks train --value net); this one has none")
    if note and note not in _NOTES_SHOWN:
        _NOTES_SHOWN.add(note)
        print(note, file=sys.stderr)
    return model


def _kernel_tables(rs: Ruleset):
    return (rules_scalars(rs), rs.coins, rs.vp, rs.ruby, rs.tails, rs.die, rs.supply, rs.price,
            rs.book_round, rs.book_set, rs.starting_bag)


@dataclass
class BatchResult:
    """Per-game, per-seat results of a batch: ``out[k, seat, O_*]`` and optional ``rounds``."""

    games: np.ndarray
    rotations: np.ndarray
    out: np.ndarray
    rounds: np.ndarray | None
    lineup: list[Strategy]

    def seat_strategy(self) -> np.ndarray:
        """Index into the lineup of the strategy at each (item, seat)."""
        n = self.out.shape[1]
        return (np.arange(n)[None, :] + self.rotations[:, None]) % n

    def strategy_seat(self) -> np.ndarray:
        """The seat of each (item, lineup index): :meth:`seat_strategy` inverted (the rotation
        back; an argsort of it was a tenth of a piece's summing)."""
        n = self.out.shape[1]
        return (np.arange(n)[None, :] - self.rotations[:, None]) % n


def result_buffer(games: int, players: int) -> np.ndarray:
    """A buffer for :func:`play_batch`'s ``out``: room for the results of ``games`` games of
    ``players`` seats (the kernel writes every field of every seat of a game it plays)."""
    return np.zeros((games, players, O_WIDTH), dtype=np.int64)


def result_view(buf: np.ndarray | None, games: int, players: int) -> np.ndarray:
    """The first ``games`` rows of ``buf`` (:func:`result_buffer`) for a batch of ``players``
    seats, or a new array without one."""
    if buf is None:
        return result_buffer(games, players)
    if buf.dtype != np.int64 or buf.ndim != 3 or buf.shape[0] < games or \
            buf.shape[1:] != (players, O_WIDTH) or not buf.flags.c_contiguous:
        raise ValueError(f"out: expected an int64 buffer of at least ({games}, {players}, "
                         f"{O_WIDTH}) (result_buffer), got {buf.dtype} {buf.shape}")
    return buf[:games]


def no_deals() -> np.ndarray:
    """``play_games``' ``deals`` when every stream of a game starts from its own game index."""
    return np.zeros((0, N_STREAMS), dtype=np.int64)


def play_batch(ruleset: Ruleset, lineup: list[Strategy], *, games: np.ndarray,
               rotations: np.ndarray,
               seed: int, detail: bool = False, chunks: int = DEFAULT_CHUNKS,
               out: np.ndarray | None = None) -> BatchResult:
    """Play every (games[k], rotations[k]) with the lineup; results independent of chunking.

    ``games`` may also be an items x ``N_STREAMS`` array: item k's random stream i (its source,
    ``sim.kernel.rng``) then starts from game games[k, i] (pick-freeze designs that share some
    sources between games and redraw the others: ``sim.study.luck``). ``out``: an array the
    results are written into (:func:`result_buffer`, at least as many games as the batch; the
    result's ``out`` is a view of it, overwritten by the next batch written there), for a caller
    that reads each batch before the next one: memory touched for the first time costs the
    kernel zeroing its pages, 5-6% of a base game's time when every batch is new memory."""
    ruleset.check_implemented()
    n = len(lineup)
    check_players(ruleset, n)
    check_round_values(ruleset, lineup)
    SK, SP = lineup_arrays(lineup, ruleset)
    games = np.asarray(games, dtype=np.int64)
    m = len(games)
    out = result_view(out, m, n)
    rounds = int(ruleset.game("rounds"))
    rd = np.zeros((m if detail else 0, rounds, n, RD_WIDTH), dtype=np.int64)
    tables, uf = _kernel_tables(ruleset), slot_table(SK)
    deals = no_deals()
    if games.ndim == 2:
        if games.shape[1] != N_STREAMS:
            raise ValueError(f"games: expected {N_STREAMS} streams a game, got {games.shape[1]}")
        deals, games = np.ascontiguousarray(games), np.ascontiguousarray(games[:, 0])
    play_games(np.uint64(seed), games,
               np.asarray(rotations, dtype=np.int64),
               n, *tables, SK, SP, out, rd, max(1, min(chunks, m)), *uf,
               game_pointer(tables, SK, SP, uf), deals)
    return BatchResult(games, np.asarray(rotations), out, rd if detail else None,
                       lineup)


def summarize(res: BatchResult, rounds: int) -> pd.DataFrame:
    """Per-strategy summary with 95% intervals: win share (``rate_interval``; every game is its
    own deal, so games are independent), mean VP, mean rank, explosion rate (Wilson at the
    effective sample size with games as the unit, since a game's nine potions are related).
    The same table as :class:`PlayStats` gives for these games added in any pieces."""
    stats = PlayStats(res.lineup, rounds)
    stats.add(res)
    return stats.frame()


# the result fields PlayStats sums, in the order PlayStats.add unpacks them
SUMMED = [O_WIN, O_NWIN, O_SCORE, O_RANK, O_ERR, O_EXPLOSIONS, O_WITCHES]
WIN_UNITS = 60  # a shared win is 1/k of a win, k = 1..5 winners: every share is a whole 1/60


class PlayStats:
    """The sums behind :func:`summarize`, per strategy of the lineup, added batch by batch.

    Every sum is an integer (a shared win counts ``WIN_UNITS // winners`` units), so the table
    is the same to the last digit however the games were split into batches; memory does not
    grow with the games."""

    def __init__(self, lineup: list[Strategy], rounds: int):
        self.lineup = list(lineup)
        self.rounds = int(rounds)
        n = len(self.lineup)
        z = np.zeros(n, np.int64)
        self.games = 0
        self.win_units, self.illegal = z.copy(), z.copy()
        self.vp, self.vp2, self.rank, self.rank2 = z.copy(), z.copy(), z.copy(), z.copy()
        self.calls, self.calls2 = z.copy(), z.copy()
        self.witches = False
        self.explosions = ClusterSums(n)  # one deal per game: the game is the unit

    def add(self, res: BatchResult) -> None:
        """Add a batch's games (each seats every strategy of the lineup once)."""
        m, n = res.out.shape[:2]
        if m == 0:
            return
        # (game, strategy) of each field summed here, gathered from its column of the results
        # (a reordered copy of every field was as big as the batch's results, all new memory)
        rows = res.out.reshape(m * n, -1)
        at = np.arange(m)[:, None] * n + res.strategy_seat()  # the row of (game, strategy)
        win, nwin, score, rank, err, explosions, wit = (np.take(rows[:, f], at) for f in SUMMED)
        if ((win != 0) & ((nwin < 1) | (WIN_UNITS % np.maximum(nwin, 1) != 0))).any():
            raise ValueError("a game with a winner count that is not 1 to 5")
        self.games += m
        self.win_units += np.where(win != 0, WIN_UNITS // np.maximum(nwin, 1), 0).sum(axis=0)
        for total, square, x in ((self.vp, self.vp2, score), (self.rank, self.rank2, rank)):
            total += x.sum(axis=0)
            square += (x * x).sum(axis=0)
        self.illegal += (err != 0).sum(axis=0)
        self.explosions.add_totals(explosions, np.full((m, n), self.rounds, np.int64))
        if (wit >> 17).any():  # the herb witches: witches called per game (a penny each)
            self.witches = True  # every declared witch, a rules file's too (bit w: her number)
            calls = sum((wit >> w.number) & 1 for w in WITCHES)
            self.calls += calls.sum(axis=0)
            self.calls2 += (calls * calls).sum(axis=0)

    def frame(self) -> pd.DataFrame:
        """The per-strategy table (one row per lineup seat, as :func:`summarize`)."""
        g = self.games
        _, ex_ci = self.explosions.share_ci(g)
        rows = []
        for j, strat in enumerate(self.lineup):
            wins = int(self.win_units[j]) / WIN_UNITS
            vp, vp_ci = _mean_ci(self.vp[j], self.vp2[j], g)
            rank, rank_ci = _mean_ci(self.rank[j], self.rank2[j], g)
            potions = g * self.rounds
            win = wins / g if g else float("nan")
            rows.append({
                "seat_in_lineup": j,
                "name": strat.spec,
                "games": g,
                "win_share": win,
                "win_share_ci": win_interval(win, g),
                "mean_vp": vp,
                "mean_vp_ci": vp_ci,
                "mean_rank": rank,
                "mean_rank_ci": rank_ci,
                "explosion_rate": int(self.explosions.sx[j]) / potions if potions else float("nan"),
                "explosion_rate_ci": (float(ex_ci[0][j]), float(ex_ci[1][j])),
                "illegal_decisions": int(self.illegal[j]),
            })
            if self.witches:
                m, ci = _mean_ci(self.calls[j], self.calls2[j], g)
                rows[-1].update(witches_called=m, witches_called_ci=ci)
        return pd.DataFrame(rows)


def win_interval(win: float, games: int) -> tuple[float, float]:
    """A win share's 95% interval (``rate_interval``): every game its own deal, the variance
    of a win or loss ``p (1 - p) / games`` (a shared win varies less), never narrower than the
    exact interval on the count."""
    if not games:
        return (float("nan"), float("nan"))
    lo, hi = rate_interval(win, games, win * (1 - win) / games, games)
    return (float(lo[0]), float(hi[0]))


def _mean_ci(s1, s2, n: int) -> tuple[float, tuple[float, float]]:
    """Mean and normal-approximation 95% interval from a count and integer sums of the values
    and their squares (the variance numerator n*s2 - s1^2 is exact)."""
    s1, s2 = int(s1), int(s2)
    if n <= 0:
        return float("nan"), (float("nan"), float("nan"))
    m = s1 / n
    if n < 2:
        return m, (m, m)
    var = (n * s2 - s1 * s1) / (n * (n - 1))
    half = Z95 * math.sqrt(max(var, 0.0) / n)
    return m, (m - half, m + half)


PIECE_SECONDS = 0.25  # a compiled call lasts about this long, so Ctrl-C is seen at once
FIRST_PIECE = 16  # the first piece; pieces double or halve towards PIECE_SECONDS
MAX_PIECE_GAMES = 50_000  # and never hold more games (a piece's out array is at most 40 MB)


class Pieces:
    """Consecutive ranges ``[i, j)`` over 0..total-1, each meant for one compiled call that
    lasts about ``seconds`` (the interpreter sees Ctrl-C between calls): a piece doubles after
    one that took under half of it and halves after one over twice it, between 1 and ``most``.
    ``seconds=None`` keeps every piece at ``first``. Only the work may depend on the ranges,
    never a result: a game is fixed by the seed and its index."""

    def __init__(self, first: int = FIRST_PIECE, seconds: float | None = PIECE_SECONDS,
                 most: int = MAX_PIECE_GAMES, clock=time.perf_counter):
        self.most = max(1, int(most))
        self.size = max(1, min(int(first), self.most))
        self.seconds = seconds
        self.clock = clock

    def ranges(self, total: int, start: int = 0):
        """Yield (i, j) until ``total``; the time until the next request sizes the next piece."""
        i = start
        while i < total:
            j = min(total, i + self.size)
            t0 = self.clock()
            yield i, j
            took = self.clock() - t0
            if self.seconds is not None:
                if took < self.seconds / 2 and j - i == self.size:
                    self.size = min(self.most, self.size * 2)
                elif took > 2 * self.seconds and self.size > 1:
                    self.size //= 2
            i = j


def play_summary(ruleset: Ruleset, lineup: list[Strategy], *, games: int, seed: int,
                 pieces: Pieces | None = None, progress=None) -> PlayStats:
    """``quacks play``'s games 0..games-1, game k with the lineup rotated by k, played in
    :class:`Pieces` (at most ``MAX_PIECE_GAMES`` a call, so memory is bounded for any number
    of games) and summed as they finish. ``progress(done, games)`` after each piece. The sums
    are those of one :func:`play_batch` of every game."""
    n = len(lineup)
    stats = PlayStats(lineup, int(ruleset.game("rounds")))
    # a call costs ~15 ms besides its games (typing the slot table): pieces of ~0.5 s keep that
    # to a few per cent, and Ctrl-C still ends the run within a second
    pieces = pieces or Pieces(first=256, seconds=2 * PIECE_SECONDS)
    buf = None  # one result buffer for every piece (stats.add reads a piece before the next)
    for i, j in pieces.ranges(games):
        idx = np.arange(i, j, dtype=np.int64)
        if buf is None or len(buf) < j - i:  # a piece bigger than any before (they double)
            buf = result_buffer(j - i, n)
        stats.add(play_batch(ruleset, lineup, games=idx, rotations=idx % n, seed=seed, out=buf))
        if progress is not None:
            progress(j, games)
    return stats


def replay(ruleset: Ruleset, lineup: list[Strategy], *, seed: int, game: int, rotation: int = 0):
    """Play game ``game`` of a run again with events recorded. Returns (events, out)."""
    ruleset.check_implemented()
    n = len(lineup)
    check_players(ruleset, n)
    check_round_values(ruleset, lineup)
    SK0, SP0 = lineup_arrays(lineup, ruleset)
    order = [(s + rotation) % n for s in range(n)]
    SK, SP = SK0[order].copy(), SP0[order].copy()
    E = np.zeros((MAX_EVENTS, L.EV_WIDTH), dtype=np.int64)
    out = np.zeros((n, O_WIDTH), dtype=np.int64)
    rd = np.zeros((int(ruleset.game("rounds")), n, RD_WIDTH), dtype=np.int64)
    tables, uf = _kernel_tables(ruleset), slot_table()
    # the very compiled game play_games calls, so a replay is the scored game (and compiles nothing)
    deal = np.full(N_STREAMS, game, dtype=np.int64)
    game_pointer(tables, SK, SP, uf)[0](np.uint64(seed), deal, n, *tables, SK, SP, out, rd, E, uf,
                                        scratch_for(tables, SK, SP))
    nev = count_events(E)
    return E[:nev], out
