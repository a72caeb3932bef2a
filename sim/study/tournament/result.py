"""A finished tournament (:class:`TournamentResult`) and the progress facts after each chunk
(:class:`ChunkInfo`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from sim.study.tournament.plan import Plan
from sim.study.tournament.summary import Summary


@dataclass
class ChunkInfo:
    """Passed to ``on_chunk`` after each chunk is kept."""

    chunk: int
    games_done: int
    games_max: int
    seconds: float
    max_halfwidth: float


@dataclass
class TournamentResult:
    """A finished tournament: its plan, summary tables and run facts."""

    plan: Plan
    summary: Summary
    games: int
    deals: int
    stopped: str  # "games" (all planned), "until-ci" (intervals narrow enough) or "cap"
    max_halfwidth: float
    seconds: float
    seconds_total: float
    out: Path | None = None
    notes: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    deal_totals: dict = field(default_factory=dict)  # strategy id -> per-deal totals (keep_deals)
    report_seconds: float = 0.0  # writing the report (tables, plots) at the end

    @property
    def games_per_second(self) -> float:
        """Games per second of wall time over the whole run (all sessions), not counting the
        writing of the report at the end (its plots take seconds whatever the run's size)."""
        play = self.seconds_total - self.report_seconds
        return self.games / play if play > 0 else float("nan")

    def to_json(self) -> dict:
        """One JSON-ready object: run settings, per-strategy results, pairs, seats and (with
        strategies at more than one table) the head-to-head rows and the cycle ratings
        (``nash``: Nash averaging and AlphaRank per strategy)."""
        from sim.study.tournament.summary import frame_records

        s = self.plan.settings()
        seats = self.summary.seats
        return {
            "kind": "tournament",
            "format": s["format"], "players": s["players"], "strategies_given": s["strategies"],
            "games": self.games, "deals": self.deals, "games_per_deal": self.plan.games_per_deal,
            "games_requested": s["games"], "seed": s["seed"], "rules": self.plan.ruleset.name,
            "overrides": s["overrides"], "rules_hash": s["rules_hash"], "until_ci": s["until_ci"],
            "stopped": self.stopped, "max_win_share_halfwidth": _num(self.max_halfwidth),
            "detail": s["detail"], "duplicate": s["duplicate"],
            "out": str(self.out) if self.out is not None else None,
            "seconds": round(self.seconds_total, 3),
            "games_per_second": _num(round(self.games_per_second, 1)),
            "report_seconds": round(self.report_seconds, 3),
            "strategies": [{**r, "spec": st.spec, "params": st.values}
                           for r, st in zip(self.summary.records(), self.plan.strategies)],
            "pairs": frame_records(self.summary.pairs),
            "seats": frame_records(seats[seats["strategy"] == "all"].drop(columns="strategy")),
            "head_to_head": (frame_records(self.summary.head_to_head)
                             if self.summary.head_to_head is not None else None),
            "nash": (frame_records(self.summary.nash) if self.summary.nash is not None else None),
            "rating_note": self.summary.info.get("rating_note", ""),
            "interval_methods": self.summary.info.get("interval_methods", {}),
            "notes": list(self.notes),
            **({"sequential": True} if s.get("sequential") else {}),  # --sequential only
        }


def _num(x):
    return None if x is None or (isinstance(x, float) and not math.isfinite(x)) else x

