"""``quacks luck``: the settings, the sources of a game's randomness and the pick-freeze design.

Every source of randomness has its own streams in the game kernel (``sim.kernel.rng``): each
seat's bag draws, the bonus die, the fortune-teller deck, the herb witches, the strategies' own
random choices. The skill side is one more input: the seating, i.e. which lineup member sits
in which seat (a rotation of the lineup, drawn uniformly). The start player is not random in
this simulator (seat 0 starts round 1, then it passes clockwise), so who starts is part of the
seating.

The design (Saltelli): row k of N plays game A_k (every source from game index 2k, rotation
rA_k), game B_k (every source from 2k + 1, rotation rB_k) and, for each input j, AB_k^j: A_k
with input j taken from B_k (its streams started from 2k + 1, or B_k's rotation). Rows are
independent; a row is the statistical unit (it plays ``inputs + 2`` games).
"""

from __future__ import annotations

import shlex
from dataclasses import asdict, dataclass

import numpy as np

from sim.api import streams
from sim.study.luck.defaults import DEFAULT_GAMES, DEFAULT_PLAYERS, DEFAULT_STRATEGIES

OUTCOMES = ("win", "vp", "rank")  # seat 0's win share, VP and rank
OUTCOME_TEXT = {"win": "seat 0's win share", "vp": "seat 0's VP", "rank": "seat 0's rank"}
SEATING = "seating"  # the skill input: which strategy sits where
PIECE_GAMES = 24_000  # games per batch handed to the backend (whole rows)


class LuckError(ValueError):
    """Settings that cannot run; the message is one line naming the option."""


@dataclass(frozen=True)
class Source:
    """One input of the design: a name, ``luck`` or ``skill``, and the kernel streams it owns
    (none for the seating, which is the lineup's rotation)."""

    name: str
    kind: str
    streams: tuple[int, ...]
    what: str


def sources(cauldrons: int) -> list[Source]:
    """The inputs of a game with ``cauldrons`` cauldrons (seats; teams share one): the luck
    sources, then the seating."""
    seats = range(cauldrons)
    out = [Source(f"bag {s}", "luck", (streams.BAG_STREAM + s,),
                  f"the chips drawn from seat {s}'s bag") for s in seats]
    out += [
        Source("die", "luck", tuple(streams.DIE_STREAM + s for s in seats),
               "the bonus-die rolls"),
        Source("deck", "luck", (streams.DECK_STREAM,),
               "the fortune-teller deck (its order, a forced card's round)"),
        Source("witches", "luck", (streams.WITCH_STREAM,),
               "the herb witches dealt and the visiting witch"),
        Source("choices", "luck", tuple(streams.CHOICE_STREAM + s for s in seats),
               "the strategies' own random choices"),
        Source(SEATING, "skill", (), "which strategy sits where (the lineup's rotation; seat 0 "
               "starts)"),
    ]
    return out


@dataclass(frozen=True)
class Variant:
    """One column of a comparison: a label, a ruleset name or file, and overrides."""

    label: str
    rules: str
    overrides: tuple[str, ...] = ()


@dataclass(frozen=True)
class LuckSettings:
    """What one ``quacks luck`` run plays: the variants (one, or several side by side), the
    lineup (cycled to ``players`` seats), the games per variant (rounded down to whole rows of
    the design), the seed and where the games run (the numbers are the same wherever)."""

    variants: tuple[Variant, ...]
    players: int = DEFAULT_PLAYERS
    strategies: tuple[str, ...] = DEFAULT_STRATEGIES
    games: int = DEFAULT_GAMES
    seed: int = 1
    backend: str = "local"
    scheduler: str | None = None
    workers: int | None = None
    threads: int | None = None
    variant_texts: tuple[str, ...] = ()  # the --variant texts as given (for the command)
    rules: str = "base"
    overrides: tuple[str, ...] = ()
    more_rules: tuple[str, ...] = ()  # the --rules after the first, as given (for the command)

    def to_json(self) -> dict:
        """JSON-ready settings."""
        d = asdict(self)
        d["variants"] = [asdict(v) for v in self.variants]
        for k in ("strategies", "variant_texts", "overrides", "more_rules"):
            d[k] = list(d[k])
        for v in d["variants"]:
            v["overrides"] = list(v["overrides"])
        return d

    def command(self) -> str:
        """The ``quacks luck`` command line that reproduces the run."""
        parts = ["quacks", "luck"]
        for r in (self.rules, *self.more_rules):
            parts += ["--rules", r]
        for o in self.overrides:
            parts += ["--set", o]
        for v in self.variant_texts:
            parts += ["--variant", v]
        parts += ["--players", str(self.players), "--strategies", ",".join(self.strategies),
                  "--games", str(self.games), "--seed", str(self.seed)]
        return shlex.join(parts)


def seated(strategies, players: int) -> list[str]:
    """The lineup: the strategies cycled to fill the seats."""
    s = list(strategies)
    return [s[i % len(s)] for i in range(players)]


@dataclass(frozen=True)
class Design:
    """The games of a run: ``games`` (items x N_STREAMS: each stream's game index) and
    ``rotations``, in rows of ``inputs + 2`` games (A, B, then AB^j for each input j)."""

    rows: int
    inputs: list[Source]
    games: np.ndarray
    rotations: np.ndarray

    @property
    def per_row(self) -> int:
        return len(self.inputs) + 2


def rows_for(games: int, inputs: int) -> int:
    """Rows of the design that ``games`` games pay for (every row plays inputs + 2 games)."""
    return int(games) // (inputs + 2)


def make_design(rows: int, inputs: list[Source], players: int, seed: int) -> Design:
    """The pick-freeze design (see the module); the rotations from ``seed`` only."""
    k = len(inputs)
    per = k + 2
    rng = np.random.default_rng([int(seed), 0x1C4])
    rot_a = rng.integers(0, players, size=rows)
    rot_b = rng.integers(0, players, size=rows)
    a_id = 2 * np.arange(rows, dtype=np.int64)
    b_id = a_id + 1
    g = np.empty((rows, per, streams.N_STREAMS), dtype=np.int64)
    rot = np.empty((rows, per), dtype=np.int64)
    g[:, 0, :] = a_id[:, None]
    rot[:, 0] = rot_a
    g[:, 1, :] = b_id[:, None]
    rot[:, 1] = rot_b
    for j, src in enumerate(inputs):
        g[:, 2 + j, :] = a_id[:, None]
        for st in src.streams:
            g[:, 2 + j, st] = b_id
        rot[:, 2 + j] = rot_b if src.name == SEATING else rot_a
    return Design(rows, list(inputs), g.reshape(rows * per, streams.N_STREAMS),
                  rot.reshape(rows * per))


def pieces(design: Design, piece_games: int = PIECE_GAMES):
    """(games, rotations) batches of whole rows, in order."""
    per = design.per_row
    step = max(1, piece_games // per) * per
    n = len(design.rotations)
    return [(design.games[i:i + step], design.rotations[i:i + step]) for i in range(0, n, step)]
