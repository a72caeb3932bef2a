"""``sim.play``: many complete games of one lineup, each strategy's win share, VP and explosion
rate (``quacks play``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sim.questions.ask_rules import as_list, load_rules_files, load_strategy_files
from sim.questions.running import check_ints, set_threads, strategy_specs, warm_games


class PlayInputError(ValueError):
    """Games the simulator cannot play as asked (one line, the option named)."""


@dataclass
class PlayResult:
    """The answer of :func:`play`: ``strategies`` is the table ``quacks play`` prints (one row
    per seat of the lineup: win share, mean VP, mean rank, explosions per potion, each with its
    95% interval, and the games); ``seconds`` the time the games took."""

    players: int
    games: int
    seed: int
    ruleset: object = field(repr=False)
    strategies: object = field(repr=False)  # a pandas DataFrame
    seconds: float = 0.0

    def to_json(self) -> dict:
        """What ``quacks play --json`` prints."""
        return {"players": self.players, "games": self.games, "seed": self.seed,
                "rules": self.ruleset.name, "overrides": list(self.ruleset.overrides),
                "seconds": round(self.seconds, 3),
                "strategies": [{k: (list(v) if isinstance(v, tuple) else v) for k, v in row.items()}
                               for row in self.strategies.to_dict(orient="records")]}

    def to_dict(self) -> dict:
        """What ``quacks play --json`` prints, less ``seconds``."""
        return {k: v for k, v in self.to_json().items() if k != "seconds"}

    def header(self) -> str:
        """The line ``quacks play`` prints above its table."""
        g, secs = self.games, self.seconds
        rate = f"{g / secs:,.0f}" if secs > 0 else "-"
        return (f"{g:,} {'game' if g == 1 else 'games'}, {self.players} players, seed "
                f"{self.seed}, rules {self.ruleset.display}; seats rotate every game; "
                f"{secs:.2f} s ({rate} games/s)")

    def _repr_html_(self) -> str:
        from html import escape

        return f"<p>{escape(self.header())}</p>{self.strategies.to_html(index=False)}"


def lineup(strategies: Sequence[str] | str | None, players: int | None,
           error: type[ValueError] = PlayInputError, ruleset=None):
    """The strategies of ``--strategies`` for ``--players`` seats (one spec for all seats, or
    one per seat; default: quacks play's lineup) as (strategies, players). Without
    ``players``, one spec fills the default seats of ``ruleset`` (issue 43)."""
    from sim.study.reports.replay import default_specs
    from sim.study.tournament.defaults import default_players
    from strategies.builtin import parse_strategy

    specs = strategy_specs(strategies) if strategies is not None else default_specs(players)
    if not specs:
        raise error("--strategies: give at least one strategy, e.g. threshold,random")
    if players is None:
        one = len(specs) == 1 and ruleset is not None
        players = default_players(ruleset) if one else len(specs)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise error(f"--strategies: {len(specs)} strategies for {players} players; give one per "
                    "seat, or one for all")
    return [parse_strategy(s) for s in specs], players


def play(
    *,
    strategies: Sequence[str] | str | None = None,
    players: int | None = None,
    games: int = 10_000,
    seed: int = 1,
    rules: str = "base",
    set: Sequence[str] | str | None = None,  # noqa: A002 - named as the CLI's --set
    rules_file: Sequence[str] | str | None = None,
    threads: int | None = None,
    strategy_file: Sequence[str] | str | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_compile: Callable[[str], None] | None = None,
) -> PlayResult:
    """Play ``games`` complete games and tabulate each strategy's win share, VP and explosion
    rate (``quacks play``). Game ``k`` seats the lineup rotated by ``k`` and is fixed by the seed
    and ``k``, so the same arguments give the same numbers as the command. ``strategies`` is one
    spec per seat (or one for all), comma-separated or a list; ``progress(done, games)`` is called
    as the games go (from 0); ``on_compile(entry)`` before the game kernel is first used.
    ``rules_file``: rules files loaded first (the CLI's ``--rules-file``; ValueError if bad)."""
    load_rules_files(rules_file)
    from sim.api.game import check_players, check_round_values, play_summary
    from sim.rules.ruleset import load_ruleset

    check_ints(PlayInputError, players=players, games=games, seed=seed)
    set_threads(threads, PlayInputError)
    load_strategy_files(strategy_file)
    rs = load_ruleset(rules, as_list(set))
    seats, players = lineup(strategies, players, ruleset=rs)
    check_players(rs, players)
    check_round_values(rs, seats)
    warm_games(rs, seats, seed=seed, on_compile=on_compile)  # compile outside the clock
    if progress is not None:
        progress(0, games)
    # games in short pieces summed as they finish: bounded memory, Ctrl-C seen at once
    t0 = time.perf_counter()
    stats = play_summary(rs, seats, games=games, seed=seed, progress=progress)
    secs = time.perf_counter() - t0
    return PlayResult(players, games, seed, rs, stats.frame(), secs)
