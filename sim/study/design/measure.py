"""The balance figures of one ruleset variant on a range of deals, played by a backend.

A *variant* is a ruleset with the field seated as ``quacks balance`` seats it (the field cycled
to the seats). Deal ``d`` is the kernel's game index ``d`` of the seed, played in every seating
(rotation ``r`` puts the field's spec ``(s + r) % n`` in seat ``s``): exactly the games of the
game part of ``quacks balance`` with the same rules, field and seed, so every figure here is the
one ``quacks balance --json`` reports under the same name (``sim.study.balance.game``). Every
variant plays the same deals, so two variants' figures are paired by deal.

The deals go to the backend's ``map_batches`` in pieces of whole deals (each a task on Dask);
each piece comes back reduced to per-deal totals, and a deal's totals depend on nothing but the
seed, the deal and the variant, never on the pieces, the threads or the backend.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from sim.api.columns import game_columns, round_columns
from sim.rules.ruleset import Ruleset
from sim.study.balance import game as game_figures
from sim.study.compare.stats import DealTotals, Estimate
from sim.study.tournament.local import LOCAL

PIECE_GAMES = 4_000  # games per piece (their round records: ~25 MB)
ROUND_KEYS = ("score", "exploded")  # the round columns the game figures read


def batch_totals(res) -> DealTotals:
    """Per-deal totals of the balance game figures of one played batch (``map_batches``'s
    reduce: a ``BatchResult`` with rounds detail, whole deals in every rotation)."""
    m, n = res.out.shape[:2]
    R = res.rounds.shape[1]
    deal = np.asarray(res.games, np.int64)
    gid = deal * n + np.asarray(res.rotations, np.int64)
    games = {"game": np.repeat(gid, n), "deal": np.repeat(deal, n),
             "seat": np.tile(np.arange(n), m), "strategy": res.seat_strategy().ravel(),
             **game_columns(res.out, witches=False)}
    rc = round_columns(res.rounds)
    rounds = {"game": np.repeat(gid, R * n), "round": np.tile(np.repeat(np.arange(1, R + 1), n), m),
              "seat": np.tile(np.arange(n), m * R), **{k: rc[k] for k in ROUND_KEYS}}
    return game_figures.deal_totals(games, rounds, players=n, rounds_per_game=R)


def deal_pieces(d0: int, d1: int, players: int,
                piece_games: int = PIECE_GAMES) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(games, rotations) of deals d0..d1-1 in pieces of whole deals, every rotation of each."""
    per = max(1, piece_games // players)
    for a in range(d0, d1, per):
        b = min(d1, a + per)
        deals = np.arange(a, b, dtype=np.int64)
        yield np.repeat(deals, players), np.tile(np.arange(players, dtype=np.int64), b - a)


def play_totals(ruleset: Ruleset, seated: Sequence[str], seed: int, d0: int, d1: int,
                backend=None) -> DealTotals:
    """The per-deal totals of deals d0..d1-1 of the seated field under ``ruleset`` (``backend``
    entered; None: this process)."""
    be = backend or LOCAL
    parts = list(be.map_batches(ruleset, list(seated), seed, deal_pieces(d0, d1, len(seated)),
                                batch_totals, detail=True))
    return DealTotals.concat(parts)


@dataclass
class Measured:
    """A variant's per-deal totals on its deals so far, and the game's shape."""

    totals: DealTotals
    players: int
    rounds: int

    @property
    def deals(self) -> int:
        """Deals measured."""
        return len(self.totals.deals)

    def extend(self, more: DealTotals) -> Measured:
        """These deals and ``more`` (other deals) together."""
        return Measured(DealTotals.concat([self.totals, more]), self.players, self.rounds)

    def estimates(self) -> dict[str, Estimate]:
        """Every balance game figure with its per-deal residuals (deals as the unit)."""
        return game_figures.estimates(self.totals, self.players, self.rounds)


def measure(ruleset: Ruleset, seated: Sequence[str], seed: int, d0: int, d1: int,
            backend=None) -> Measured:
    """:func:`play_totals` as a :class:`Measured`."""
    return Measured(play_totals(ruleset, seated, seed, d0, d1, backend), len(seated),
                    int(ruleset.game("rounds")))


def field_text(seated: Sequence[str]) -> str:
    """The seated field for a header: ``spec x4`` for a mirror, else the specs by seat."""
    if len(set(seated)) == 1:
        return f"{seated[0]} x{len(seated)}"
    return "; ".join(seated)


def metric_info(players: int, rounds: int) -> dict[str, dict]:
    """The balance game figures of this game shape by name: ``label``, ``kind``, ``digits``,
    ``group``, ``seat``, ``round``."""
    return {m["metric"]: m for m in game_figures.metrics(players, rounds)}


def figure_row(name: str, e: Estimate | None, info: dict | None) -> dict:
    """One figure as a table row: ``metric``, ``label``, ``value``, ``ci_lo``, ``ci_hi``, ``n``,
    ``deals`` (NaN where the variant has no such figure, e.g. a round it does not play)."""
    label = info["label"] if info else name
    if e is None:
        nan = float("nan")
        return {"metric": name, "label": label, "value": nan, "ci_lo": nan, "ci_hi": nan,
                "n": 0, "deals": 0}
    return {"metric": name, "label": label, **game_figures.estimate_row(e)}


def digits_of(name: str, players: int, rounds: int) -> int:
    """Decimals to print a figure with (4 for one a targets file could not name)."""
    info = metric_info(players, rounds).get(name)
    return int(info["digits"]) if info else 4


def check_metric_names(names: Sequence[str], players: int, rounds: int, where: str) -> None:
    """A one-line ValueError (the targets loader's) for a name that is not a balance game
    figure of this game."""
    from sim.study.balance.skill import METRIC_NAMES as SKILL
    from sim.study.balance.targets import TargetsError, check_names

    skill = [n for n in names if n in SKILL]
    if skill:
        raise TargetsError(f"{where}: {skill[0]} is a skill figure of quacks balance; this "
                           "command measures the game's figures (seats, catch-up, lead, ties, "
                           "spread, explosions)")
    check_names(dict.fromkeys(names), game_figures.metric_names(players, rounds), where,
                game_figures.name_patterns(players, rounds))
