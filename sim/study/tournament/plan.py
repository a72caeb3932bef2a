"""A tournament's settings and layout: :class:`TournamentConfig` (what to run) resolved into a
:class:`Plan` (the strategies, tables, rotations, deals and chunk boundaries).

Formats (``TournamentConfig.format``):

- ``rotate`` (duplicate format): every deal (game seed) is played in every cyclic rotation of the
  seats, so every strategy meets the same luck from every seat. As in ``quacks play``, give one
  spec per seat or one for all (copies of one spec count as one strategy).
- ``round-robin``: every combination of ``players`` strategies from a larger pool is a table;
  every deal is played at every table in every rotation.
- ``vs-field``: the first spec is the focus strategy, the rest a field cycled into the other
  seats; every deal in every rotation.

Layout and determinism: game ``g`` (0-based) of a run is deal ``g // games_per_deal``, table
``(g % games_per_deal) // rotations``, rotation ``g % rotations``. Games run in *chunks* of whole
deals whose boundaries depend only on the settings (a first chunk of about
``first_chunk_games`` games, doubling up to ``max_chunk_games``), never on threads, timing or
interruptions. Every sum the statistics keep is an integer, so a run interrupted after any chunk
and resumed ends bit-identical to an uninterrupted one; ``until_ci`` decides after each chunk
whether to stop, from the same sums, so it stops at the same chunk too.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace

from sim.api.game import check_players, check_round_values
from sim.rules.card_numbers import loaded_rules_files
from sim.rules.ruleset import Ruleset, load_ruleset
from sim.study.tournament.defaults import (  # the defaults live apart: the CLI's help quotes them
    DEFAULT_CI_CAP,
    DEFAULT_FIELD,
    DEFAULT_GAMES,
    DEFAULT_PLAYERS,
    default_players,
)

FORMATS = ("rotate", "round-robin", "vs-field")
DETAILS = ("games", "rounds")
FIRST_CHUNK_GAMES = 2_000
MAX_CHUNK_GAMES = 50_000
MAX_TABLES = 5_000

class TournamentError(ValueError):
    """Settings that cannot run; the message names the option and what would be right."""


@dataclass(frozen=True)
class TournamentConfig:
    """What to run. ``None`` fields take their defaults when the plan is resolved."""

    strategies: tuple[str, ...] = ()
    players: int | None = None
    format: str | None = None
    games: int | None = None
    seed: int = 1
    rules: str = "base"
    overrides: tuple[str, ...] = ()
    until_ci: float | None = None
    sequential: bool = False  # until_ci's stop from confidence sequences (anytime-valid)
    detail: str = "games"
    duplicate: bool = True
    strategy_files: tuple[str, ...] = ()
    first_chunk_games: int = FIRST_CHUNK_GAMES
    max_chunk_games: int = MAX_CHUNK_GAMES

    @classmethod
    def from_settings(cls, settings: dict) -> TournamentConfig:
        """The config a run's saved ``settings`` describe (see :meth:`Plan.settings`)."""
        keys = {f for f in cls.__dataclass_fields__}
        d = {k: v for k, v in settings.items() if k in keys}
        for k in ("strategies", "overrides", "strategy_files"):
            d[k] = tuple(d.get(k, ()))
        return cls(**d)


@dataclass
class Plan:
    """A resolved tournament: ruleset, distinct strategies, tables and the chunk layout."""

    config: TournamentConfig
    ruleset: Ruleset
    names: list[str]
    strategies: list  # strategies.builtin.Strategy, aligned with names
    tables: list[tuple[int, ...]]
    rotations: int
    games_per_deal: int
    deals: int
    chunk_bounds: list[int] = field(repr=False)

    @property
    def players(self) -> int:
        """Seats per game."""
        return int(self.config.players)

    @property
    def rounds(self) -> int:
        """Rounds per game."""
        return int(self.ruleset.game("rounds"))

    @property
    def max_games(self) -> int:
        """Games the plan plays at most (all of them without ``until_ci``)."""
        return self.deals * self.games_per_deal

    def games_after(self, chunk: int) -> int:
        """Games played once ``chunk`` chunks are done."""
        return self.chunk_bounds[chunk] * self.games_per_deal

    def settings(self) -> dict:
        """JSON-ready settings; a resumed run must match them exactly."""
        d = asdict(self.config)
        for k in ("strategies", "overrides", "strategy_files"):
            d[k] = list(d[k])
        d["rules_hash"] = self.ruleset.hash
        if not d["sequential"]:  # runs saved before --sequential existed resume as before
            del d["sequential"]
        files = rules_file_paths()
        if files:  # the user's rules files loaded (--rules-file, plugins): the command names them
            d["rules_files"] = files
        return d

    def lineup(self, table: int) -> list:
        """The strategies seated at a table, in lineup order (rotation 0)."""
        return [self.strategies[i] for i in self.tables[table]]


def rules_file_paths() -> list[str]:
    """The user's rules files this process loaded (``--rules-file``, a ruleset's ``plugins``), as
    resolved paths in load order: what a run's settings record, and what ``resume`` loads again
    before the saved ruleset names their cards and books."""
    return [f["path"] for f in loaded_rules_files()]


def default_field() -> list[str]:
    """The default tournament field: the names of DEFAULT_FIELD the registry holds (at most 4),
    or, if fewer than two are registered, every registered strategy."""
    from strategies.builtin import REGISTRY

    chosen = [n for n in DEFAULT_FIELD if n in REGISTRY][:DEFAULT_PLAYERS]
    return chosen if len(chosen) >= 2 else list(REGISTRY)


def load_strategy_files(files: Sequence[str] = ()) -> None:
    """Register user strategies: ``strategies/user_*.py`` and each file given (if the strategy
    layer offers plugin files; a bad file raises its own one-line error)."""
    try:
        from strategies.registry import load_plugins_dir, load_strategy_file
    except ImportError:  # a strategy layer without plugin files
        if files:
            raise TournamentError(
                "--strategy-file: this version has no user strategy files") from None
        return
    load_plugins_dir()
    for f in files:
        load_strategy_file(f)


def _chunk_bounds(deals: int, gpd: int, first_games: int, max_games: int) -> list[int]:
    first = max(1, first_games // gpd)
    most = max(first, max_games // gpd)
    bounds, size = [0], first
    while bounds[-1] < deals:
        bounds.append(min(deals, bounds[-1] + size))
        size = min(most, size * 2)
    return bounds


def resolve_plan(config: TournamentConfig) -> Plan:
    """Validate a config and lay the tournament out; raise TournamentError (or the ruleset's,
    strategy parser's or game layer's own ValueError) with one clear line."""
    from strategies.builtin import parse_strategy

    c = config
    if c.format is not None and c.format not in FORMATS:
        raise TournamentError(f"--format {c.format}: expected one of {', '.join(FORMATS)}")
    if c.detail not in DETAILS:
        raise TournamentError(f"--detail {c.detail}: expected one of {', '.join(DETAILS)}")
    if not 0 <= c.seed < 2**63:
        raise TournamentError(f"--seed {c.seed}: expected 0 to 2**63 - 1")
    if c.games is not None and c.games <= 0:
        raise TournamentError(f"--games {c.games}: expected a positive number of games")
    if c.until_ci is not None and not (0 < c.until_ci < 0.5):
        raise TournamentError(f"--until-ci {c.until_ci}: expected a half-width between 0 and 0.5, "
                              "e.g. 0.01")
    if c.sequential and c.until_ci is None:
        raise TournamentError("--sequential: give --until-ci W, the win-share half-width to stop "
                              "at, e.g. --until-ci 0.01 --sequential")
    if c.players is not None and c.players < 1:
        raise TournamentError(f"--players {c.players}: expected a player count such as 2, 3 or 4")
    if c.first_chunk_games <= 0 or c.max_chunk_games <= 0:
        raise TournamentError("chunk sizes must be positive")
    rs = load_ruleset(c.rules, list(c.overrides))
    rs.check_implemented()
    load_strategy_files(c.strategy_files)
    lo, hi = int(rs.game("min_players")), int(rs.game("max_players"))
    specs = [s.strip() for s in c.strategies if s.strip()]
    players = c.players
    if not specs:
        specs = default_field()
        if not specs:
            raise TournamentError("no strategies are registered")
        if players is None:
            players = default_players(rs)
    parsed = {s: parse_strategy(s) for s in dict.fromkeys(specs)}
    distinct = list(dict.fromkeys(specs))
    fmt = c.format
    if fmt is None:
        too_many = len(distinct) > (players if players is not None else hi)
        fmt = "round-robin" if too_many else "rotate"
    if fmt == "rotate":
        if players is None:  # one spec fills the default seats, as in quacks play
            players = default_players(rs) if len(specs) == 1 else max(len(specs), lo)
        if len(specs) > players:
            raise TournamentError(
                f"--strategies: {len(specs)} strategies for {players} seats; use --format "
                f"round-robin to play every combination of {players}, or give at most {players}")
        check_players(rs, players)
        if 1 < len(specs) < players:  # as quacks play: one per seat, or one for all
            raise TournamentError(
                f"--strategies: {len(specs)} strategies for {players} seats; give one per seat, "
                f"or one for all")
        seated = [specs[k % len(specs)] for k in range(players)]
        names = list(dict.fromkeys(seated))
        tables = [tuple(names.index(s) for s in seated)]
        strategies = [parsed[s] for s in names]
    elif fmt == "round-robin":
        if players is None:
            players = min(len(distinct), hi)
        check_players(rs, players)
        if len(distinct) < players:
            raise TournamentError(
                f"--format round-robin: {len(distinct)} distinct strategies for {players} seats; "
                f"give at least {players}")
        names = distinct
        tables = list(itertools.combinations(range(len(names)), players))
        if len(tables) > MAX_TABLES:
            raise TournamentError(
                f"--format round-robin: {len(tables):,} tables of {players} from {len(names)} "
                f"strategies; at most {MAX_TABLES:,}: use a smaller pool")
        strategies = [parsed[s] for s in names]
    else:  # vs-field
        if len(specs) < 2:
            raise TournamentError(
                "--format vs-field: give the focus strategy first, then the field "
                                  "(at least one spec), e.g. threshold:t=7,threshold")
        if players is None:
            players = default_players(rs)
        check_players(rs, players)
        focus, fld = specs[0], specs[1:]
        if len(fld) > players - 1:
            raise TournamentError(
                f"--format vs-field: a field of {len(fld)} strategies does not fit {players - 1} "
                f"seats; give at most {players - 1} after the focus strategy")
        fnames = list(dict.fromkeys(fld))
        focus_name = f"{focus} (focus)" if focus in fnames else focus
        names = [focus_name, *fnames]
        tables = [(0, *(1 + fnames.index(fld[k % len(fld)]) for k in range(players - 1)))]
        strategies = [parsed[focus], *(parsed[s] for s in fnames)]
    check_round_values(rs, strategies)
    rotations = players if c.duplicate else 1
    gpd = len(tables) * rotations
    games = c.games
    if games is None:
        games = DEFAULT_CI_CAP if c.until_ci is not None else DEFAULT_GAMES
    deals = -(-games // gpd)
    cfg = replace(c, strategies=tuple(c.strategies) if c.strategies else tuple(specs),
                  players=players, format=fmt, games=games)
    return Plan(cfg, rs, names, strategies, tables, rotations, gpd, deals,
                _chunk_bounds(deals, gpd, c.first_chunk_games, c.max_chunk_games))


# --- running --------------------------------------------------------------------------------

