"""The settings of one ``quacks balance`` run (:class:`BalanceSettings`) and their defaults.

This module imports nothing of the simulation: the command line's help quotes the defaults.

One run measures every part on the same deals: deal ``d`` (the random streams of seed and
deal) is played in every seating of the field for the game figures, in every seating of each
skill lineup, and by the card, witch and book measurements, so every difference is paired by
deal. ``games`` is per part (the field's games), rounded up to whole deals of ``players``
seatings each.
"""

from __future__ import annotations

import shlex
from dataclasses import asdict, dataclass
from typing import ClassVar

from sim.study.common.settings import PlacedSettings

PARTS = ("game", "skill", "cards", "witches", "books")  # in the order they run and report
DEFAULT_FIELD = ("expert", "balanced", "greedy", "ev")
DEFAULT_PLAYERS = 4
# Games per part (50,000 deals at 4 players). Measured on 2 cores (README, quacks balance): the
# whole command with these defaults, cards, witches and books included, takes about 3 minutes
# for the base game and 6 for herb-witches (4 players).
DEFAULT_GAMES = 200_000
# Skill: the strongest preset in one seat against the weakest sensible ones (plain stop rules
# without look-ahead), and the reverse (the first weak one against copies of the strongest).
STRONG = "expert"
WEAK = ("balanced", "greedy", "cautious")
# the headings of the effect parts, in the report, its plots and the terminal
TITLES = {"cards": "Fortune-teller cards", "witches": "Herb witches", "books": "Ingredient books"}


@dataclass(frozen=True, kw_only=True)
class SeatedSettings(PlacedSettings):
    """Settings that seat a field under one ruleset (balance's, sensitivity's and design's;
    keyword-only): ``rules`` with its ``overrides``, the ``field`` of strategies cycled to
    ``players`` seats, and the ``seed``."""

    rules: str = "base"
    overrides: tuple[str, ...] = ()
    players: int = DEFAULT_PLAYERS
    field: tuple[str, ...] = DEFAULT_FIELD
    seed: int = 1


@dataclass(frozen=True)
class BalanceSettings(SeatedSettings):
    """What one balance run plays. ``field``: the strategies seated for the game figures and
    the cards, witches and books (cycled to fill ``players`` seats; the first ``players`` when
    there are more); ``strong``/``weak``: the skill lineups; ``parts``: which measurements run
    (a subset of PARTS); ``targets``: a TOML file of bands; the backend options say where the
    games are played (the result is the same wherever)."""

    TUPLES: ClassVar[tuple[str, ...]] = ("overrides", "field", "weak", "parts")
    games: int = DEFAULT_GAMES
    strong: str = STRONG
    weak: tuple[str, ...] = WEAK
    parts: tuple[str, ...] = PARTS
    targets: str | None = None

    @property
    def deals(self) -> int:
        """Deals per part: ``games`` rounded up to whole deals of ``players`` seatings."""
        return -(-int(self.games) // max(1, int(self.players)))

    @property
    def seated(self) -> list[str]:
        """The field's spec in each seat (the field cycled to ``players`` seats)."""
        return [self.field[k % len(self.field)] for k in range(self.players)] if self.field else []

    def runs(self, part: str) -> bool:
        """True when ``part`` is one of the measurements this run makes."""
        return part in self.parts

    def to_json(self) -> dict:
        """JSON-ready settings (tuples as lists) and the deals they give."""
        return {**self.json_lists(asdict(self)), "deals": self.deals}

    def command(self) -> str:
        """The ``quacks balance`` command line that reproduces these settings (not where the
        games run, which changes no result)."""
        parts = ["quacks", "balance", "--rules", self.rules]
        for o in self.overrides:
            parts += ["--set", o]
        parts += ["--players", str(self.players), "--field", ",".join(self.field),
                  "--games", str(self.games), "--seed", str(self.seed)]
        if (self.strong, self.weak) != (STRONG, WEAK):
            parts += ["--strong", self.strong, "--weak", ",".join(self.weak)]
        if self.parts != PARTS:
            parts += ["--parts", ",".join(self.parts)]
        if self.targets:
            parts += ["--targets", self.targets]
        return shlex.join(parts)
