"""One arm of a balance measurement: a field of strategies on deals 0..deals-1 under one ruleset
variant, played by a backend (local or Dask), as per-game arrays.

Every arm of a measurement plays the same deals: deal ``d`` is the kernel's game index ``d``
(the seed's random streams of deal d), played once, in the seating ``d % players`` (the seats
rotate from deal to deal; a tournament plan with ``duplicate=False``). Two arms with the same
players therefore seat the same field member in the same seat of the same deal, so they are
paired by deal and, seat by seat, by (deal, seat).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sim.study.tournament.local import LOCAL
from sim.study.tournament.plan import Plan, TournamentConfig, resolve_plan


class MeasureError(ValueError):
    """A measurement that cannot run as asked (too few deals, a strategy that cannot be
    restricted); the message is one line saying why."""


def seated_field(field: Sequence[str], players: int) -> list[str]:
    """The spec in each seat: the field cycled to ``players`` seats (its first ``players`` when
    it has more)."""
    specs = [s.strip() for s in field if s.strip()]
    if not specs:
        raise MeasureError("the field has no strategy")
    return [specs[k % len(specs)] for k in range(players)]


def arm_plan(rules: str, overrides: Sequence[str], seated: Sequence[str], deals: int, seed: int,
             rounds: bool = False) -> Plan:
    """The plan of one arm: ``seated`` (one spec per seat) on deals 0..deals-1, one game per
    deal; ``rounds`` keeps the per-round records (for scores before a round)."""
    if deals < 2:
        raise MeasureError(f"deals {deals}: expected at least 2 (intervals need two deals)")
    return resolve_plan(TournamentConfig(
        strategies=tuple(seated), players=len(seated), format="rotate", games=int(deals),
        seed=seed, rules=rules, overrides=tuple(overrides),
        detail="rounds" if rounds else "games", duplicate=False))


@dataclass
class ArmGames:
    """An arm's games, in game order (deal 0 first): the columns asked for, each (games, seats),
    ``strategy`` (games, seats) the index into ``plan.names`` of the spec in each seat, and with
    rounds ``score`` (games, rounds, seats), the score after each round."""

    plan: Plan
    cols: dict[str, np.ndarray]
    strategy: np.ndarray
    score: np.ndarray | None = None

    @property
    def games(self) -> int:
        """Games played."""
        return int(self.strategy.shape[0])

    @property
    def deals(self) -> int:
        """Deals played."""
        return self.plan.deals

    def per_deal(self, x: np.ndarray) -> np.ndarray:
        """Per deal, the mean of a per-game quantity ``x`` (games, ...) over the deal's games."""
        x = np.asarray(x, np.float64)
        return x.reshape(self.deals, self.plan.games_per_deal, *x.shape[1:]).mean(axis=1)

    def seats_of(self, spec: str) -> np.ndarray:
        """(games, seats) True where ``spec`` sits."""
        return self.strategy == self.plan.names.index(spec)


def play_arm(plan: Plan, backend, columns: Sequence[str]) -> ArmGames:
    """Play every chunk of ``plan`` on ``backend`` (entered; None: this process) and keep the
    games-table ``columns`` (and, with rounds detail, the scores after each round)."""
    n, rounds = plan.players, plan.config.detail == "rounds"
    keep = ("strategy", *columns)
    parts: dict[str, list[np.ndarray]] = {k: [] for k in keep}
    scores: list[np.ndarray] = []
    source = (backend or LOCAL).chunks(plan)
    try:
        for k in range(len(plan.chunk_bounds) - 1):
            rows = source.rows(k, on_rounds=(lambda r: scores.append(r["score"])) if rounds
                               else None)
            for c in keep:
                parts[c].append(np.asarray(rows.games[c]))
    finally:
        source.close()
    cols = {c: np.concatenate(v).reshape(-1, n) for c, v in parts.items()}
    strategy = cols.pop("strategy").astype(np.int64)
    score = (np.concatenate(scores).reshape(strategy.shape[0], plan.rounds, n) if rounds
             else None)
    return ArmGames(plan, cols, strategy, score)
