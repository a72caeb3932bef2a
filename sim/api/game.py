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

from sim.kernel import cards as K
from sim.kernel import layout as L
from sim.kernel.game import play_game, play_games
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
)
from sim.rules import chips
from sim.rules.ruleset import Ruleset
from sim.stats.clusters import ClusterSums
from sim.stats.intervals import Z95, wilson
from strategies.builtin import Strategy
from strategies.registry import slot_table

DEFAULT_CHUNKS = 64
MAX_EVENTS = 20_000


class GameInputError(ValueError):
    """Bad input to a game run; the message says what would be right."""


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


def lineup_arrays(strategies: list[Strategy]) -> tuple[np.ndarray, np.ndarray]:
    """Stack the seats' strategies into the kernel's SK and SP arrays."""
    return (
        np.stack([s.kinds for s in strategies]).astype(np.int64),
        np.stack([s.params for s in strategies]).astype(np.float64),
    )


def _kernel_tables(rs: Ruleset):
    return (rs.scalars(), rs.coins, rs.vp, rs.ruby, rs.tails, rs.die, rs.supply, rs.price,
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


def play_batch(ruleset: Ruleset, lineup: list[Strategy], *, games: np.ndarray, rotations: np.ndarray,
               seed: int, detail: bool = False, chunks: int = DEFAULT_CHUNKS) -> BatchResult:
    """Play every (games[k], rotations[k]) with the lineup; results independent of chunking."""
    ruleset.check_implemented()
    n = len(lineup)
    check_players(ruleset, n)
    check_round_values(ruleset, lineup)
    SK, SP = lineup_arrays(lineup)
    m = len(games)
    out = np.zeros((m, n, O_WIDTH), dtype=np.int64)
    rounds = int(ruleset.game("rounds"))
    rd = np.zeros((m if detail else 0, rounds, n, RD_WIDTH), dtype=np.int64)
    play_games(np.uint64(seed), np.asarray(games, dtype=np.int64), np.asarray(rotations, dtype=np.int64),
               n, *_kernel_tables(ruleset), SK, SP, out, rd, max(1, min(chunks, m)), *slot_table())
    return BatchResult(np.asarray(games), np.asarray(rotations), out, rd if detail else None, lineup)


def summarize(res: BatchResult, rounds: int) -> pd.DataFrame:
    """Per-strategy summary with 95% intervals: win share (Wilson; every game is its own deal,
    so games are independent), mean VP, mean rank, explosion rate (Wilson at the effective sample
    size with games as the unit, since a game's nine potions are related). The same table as
    :class:`PlayStats` gives for these games added in any pieces."""
    stats = PlayStats(res.lineup, rounds)
    stats.add(res)
    return stats.frame()


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
        order = np.argsort(res.seat_strategy(), axis=1, kind="stable")  # strategy j's seat
        o = np.take_along_axis(res.out, order[:, :, None], axis=1)  # (game, strategy, field)
        nwin = o[:, :, O_NWIN]
        if ((o[:, :, O_WIN] != 0) & ((nwin < 1) | (WIN_UNITS % np.maximum(nwin, 1) != 0))).any():
            raise ValueError("a game with a winner count that is not 1 to 5")
        self.games += m
        self.win_units += np.where(o[:, :, O_WIN] != 0, WIN_UNITS // np.maximum(nwin, 1), 0).sum(axis=0)
        for total, square, x in ((self.vp, self.vp2, o[:, :, O_SCORE]),
                                 (self.rank, self.rank2, o[:, :, O_RANK])):
            total += x.sum(axis=0)
            square += (x * x).sum(axis=0)
        self.illegal += (o[:, :, O_ERR] != 0).sum(axis=0)
        self.explosions.add_totals(o[:, :, O_EXPLOSIONS], np.full((m, n), self.rounds, np.int64))
        wit = o[:, :, O_WITCHES].astype(np.int64)
        if (wit >> 17).any():  # the herb witches: witches called per game (a penny each)
            self.witches = True
            calls = sum((wit >> w) & 1 for w in range(1, 13))
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
            rows.append({
                "seat_in_lineup": j,
                "name": strat.spec,
                "games": g,
                "win_share": wins / g if g else float("nan"),
                "win_share_ci": wilson(wins, g),
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
    for i, j in pieces.ranges(games):
        idx = np.arange(i, j, dtype=np.int64)
        stats.add(play_batch(ruleset, lineup, games=idx, rotations=idx % n, seed=seed))
        if progress is not None:
            progress(j, games)
    return stats


def replay(ruleset: Ruleset, lineup: list[Strategy], *, seed: int, game: int, rotation: int = 0):
    """Play game ``game`` of a run again with events recorded. Returns (events, out)."""
    ruleset.check_implemented()
    n = len(lineup)
    check_players(ruleset, n)
    check_round_values(ruleset, lineup)
    SK0, SP0 = lineup_arrays(lineup)
    order = [(s + rotation) % n for s in range(n)]
    SK, SP = SK0[order].copy(), SP0[order].copy()
    E = np.zeros((MAX_EVENTS, L.EV_WIDTH), dtype=np.int64)
    out = np.zeros((n, O_WIDTH), dtype=np.int64)
    rd = np.zeros((int(ruleset.game("rounds")), n, RD_WIDTH), dtype=np.int64)
    tables = _kernel_tables(ruleset)
    play_game(np.uint64(seed), game, n, *tables, SK, SP, out, rd, E, slot_table())
    nev = _count_events(E)
    return E[:nev], out


def event_seat_names(ruleset: Ruleset, names: list[str]) -> list[str]:
    """The names events use for their seats: the players, or with ``game.teams`` the two
    cauldrons (team t is players t and t + 2, who take turns deciding, t in odd rounds)."""
    if not ruleset.game("teams"):
        return names
    h = len(names) // 2
    return [f"team {'AB'[t]} ({names[t]} & {names[t + h]})" for t in range(h)]


def _count_events(E: np.ndarray) -> int:
    nz = np.nonzero(E[:, 2])[0]
    return int(nz[-1]) + 1 if len(nz) else 0


DIE_NAMES = ("1 VP", "2 VP", "ruby", "droplet", "pumpkin")
FACE_KEYS = ("vp1", "vp2", "ruby", "droplet", "pumpkin")
EVENT_NAMES = {
    L.EV_ROUND: "round", L.EV_BOOK: "book", L.EV_WHITE_ADDED: "white_added", L.EV_RAT: "rat",
    L.EV_DRAW: "draw", L.EV_PLACE: "place", L.EV_EXPLODE: "explode", L.EV_BLUE_LOOK: "blue_look",
    L.EV_BLUE_PICK: "blue_pick", L.EV_YELLOW: "yellow_return", L.EV_FLASK: "flask",
    L.EV_STOP: "stop", L.EV_REWARD: "reward", L.EV_DIE: "die", L.EV_GREEN: "green",
    L.EV_PURPLE: "purple", L.EV_BLACK: "black", L.EV_RUBY: "ruby", L.EV_CHOICE: "choice",
    L.EV_VP: "vp", L.EV_BUY: "buy", L.EV_SPEND: "spend", L.EV_CONVERT: "convert",
    L.EV_SCORE: "score", L.EV_FINAL: "final", L.EV_DIE_ROLL: "die_roll", L.EV_RED: "red", L.EV_ASIDE: "red_aside",
    L.EV_RED_AFTER: "red_after", L.EV_PROTECT: "protect", L.EV_PROTECTED: "protected",
    L.EV_BLUE_RUBY: "blue_ruby", L.EV_BLUE_VP: "blue_vp", L.EV_DOUBLE: "double",
    L.EV_LIMIT: "limit", L.EV_GREEN_CHIP: "green_chip", L.EV_GREEN_MOVE: "green_move",
    L.EV_GREEN_DROPLET: "green_droplet", L.EV_PURPLE_TRADE: "purple_trade",
    L.EV_PURPLE_VP: "purple_vp", L.EV_UPGRADE: "upgrade", L.EV_CARD: "card",
    L.EV_CARD_GAIN: "card_effect", L.EV_CARD_LOOK: "card_look", L.EV_TUBE: "tube",
    L.EV_BOWL: "bowl", L.EV_BOWL_VP: "bowl_vp", L.EV_WITCHES: "witches", L.EV_WITCH: "witch",
    L.EV_WITCH_LOOK: "witch_look", L.EV_GREEN_FIRST: "green_first", L.EV_GREEN_DIE: "green_die",
    L.EV_FIRST: "first", L.EV_RED_HOLD: "red_hold", L.EV_YELLOW_PUSH: "yellow_push",
    L.EV_YELLOW_RUBY: "yellow_ruby", L.EV_PURPLE_COINS: "purple_coins", L.EV_BLACK_GIFT: "black_gift",
    L.EV_LOCO: "locoweed", L.EV_BLACK_RUBY: "black_ruby", L.EV_VISIT: "visit",
}
CARD_GAINS = {0: "rats_doubled", K.GAIN_VP: "vp", K.GAIN_RUBY: "rubies", K.GAIN_DROPLET: "droplet",
              K.GAIN_CHIP: "chip", K.GAIN_REMOVE: "chip_removed", K.GAIN_FLASK: "flask",
              K.GAIN_RESTART: "restart", K.GAIN_PENNY_GIVEN: "penny_given",
              K.GAIN_PENNY_BACK: "penny_back"}  # EV_CARD_GAIN kinds (sim.kernel.cards)
LAST_CHIP_SPACE = 52  # every ruleset's last chip space (game.last_chip_space); past it: the bowl
STOP_NAMES = {L.STOP_CHOICE: "stopped", L.STOP_EMPTY: "bag empty", L.STOP_TRACK: "end of track",
              L.STOP_EXPLODED: "exploded", L.STOP_SCRIPT: "end of listed draws"}


def event_dict(row) -> dict:
    """One event row as a JSON-ready dict with named fields."""
    rnd, seat, code, a, b, c = (int(x) for x in row)
    d: dict = {"round": rnd, "event": EVENT_NAMES.get(code, str(code))}
    if seat >= 0:
        d["seat"] = seat
    chip = chips.chip_name(a) if 0 <= a < chips.N_TYPES else None
    if code == L.EV_ROUND:
        d["start_player"] = a
    elif code == L.EV_BOOK:
        d["colour"] = chips.COLOUR_NAMES[a]
    elif code in (L.EV_WHITE_ADDED, L.EV_DRAW, L.EV_BLUE_LOOK):
        d["chip"] = chip
    elif code in (L.EV_YELLOW, L.EV_FLASK):
        d.update(chip=chip, index=b)
    elif code == L.EV_RED:
        d.update(chip=chip, extra=b, taken=bool(c))
    elif code == L.EV_BLUE_PICK:
        d["chip"] = chip if a >= 0 else None
    elif code == L.EV_PLACE:
        d.update(chip=chip, index=b)
        if c:  # red Set 6: a chip held beside the pot, placed once the potion ended
            d["held"] = True
    elif code == L.EV_EXPLODE:
        d["white_total"] = a
    elif code == L.EV_RAT:
        d.update(tails=a, start=b)
    elif code == L.EV_STOP:
        d.update(reason=STOP_NAMES.get(a, str(a)), reward_space=b, white_total=c)
    elif code == L.EV_REWARD:
        d.update(space=a, coins=b, vp=c)
    elif code == L.EV_DIE:
        d["face"] = FACE_KEYS[a]
    elif code == L.EV_GREEN:
        d["rubies"] = a
    elif code == L.EV_PURPLE:
        d["tier"] = a
    elif code == L.EV_BLACK:
        d.update(droplet=a, ruby=b)
    elif code == L.EV_RUBY:
        d["rubies"] = a
    elif code == L.EV_CHOICE:
        d["choice"] = "coins" if a else "vp"
    elif code == L.EV_VP:
        d.update(vp=a, score=b)
    elif code == L.EV_BUY:
        d.update(chip=chip, price=b)
    elif code == L.EV_SPEND:
        d.update(on="droplet" if a == L.SPEND_DROPLET else "flask", rubies_left=b)
    elif code == L.EV_CONVERT:
        d.update(vp_from_coins=a, vp_from_rubies=b)
    elif code == L.EV_SCORE:
        d.update(score=a, rubies=b, droplet=c)
    elif code == L.EV_FINAL:
        d.update(rank=a, score=b, win_share=c / 1e6)
    elif code in (L.EV_ASIDE, L.EV_GREEN_CHIP, L.EV_CARD_LOOK):
        d["chip"] = chip
    elif code == L.EV_RED_AFTER:
        d.update(chip=chip, action=("place", "keep", "return")[b], index=c)
        if b == 0 and c > LAST_CHIP_SPACE:
            d.update(action="bowl", index=None)  # past the last space: the overflow bowl
    elif code == L.EV_PROTECT:
        d["draws"] = a
    elif code in (L.EV_BLUE_RUBY,):
        d["rubies"] = a
    elif code in (L.EV_BLUE_VP, L.EV_PURPLE_VP):
        d["vp"] = a
    elif code == L.EV_LIMIT:
        d["limit"] = a
    elif code == L.EV_GREEN_MOVE:
        d.update(spaces=a, reward_space=b)
    elif code == L.EV_GREEN_DROPLET:
        d["droplet"] = a
    elif code == L.EV_PURPLE_TRADE:
        d["tier"] = a
    elif code == L.EV_UPGRADE:
        d.update(chip=chip, to=chips.chip_name(b))
    elif code == L.EV_CARD:
        from sim.rules.cards import CARDS

        d["card"] = CARDS[a - 1].id
    elif code == L.EV_TUBE:
        d.update(glass=a, bonus=glass_name(b), given=not c)
    elif code in (L.EV_GREEN_FIRST, L.EV_FIRST):
        d["chip"] = chip
    elif code == L.EV_GREEN_DIE:
        d["rolls"] = a
    elif code == L.EV_RED_HOLD:
        d.update(chip=chip, held=b == 1)
        if b == 2:  # a held chip placed now, before a draw, with its action
            d["placed_from_beside"] = True
    elif code == L.EV_YELLOW_PUSH:
        d.update(chip=chip, spaces=b, index=c)
    elif code == L.EV_YELLOW_RUBY:
        d["spaces"] = a
    elif code == L.EV_PURPLE_COINS:
        d.update(coins=a, vp=b)
    elif code == L.EV_BLACK_GIFT:
        d["to_seat"] = a
    elif code == L.EV_LOCO:
        d.update(copies=chip, spaces=b if b >= 0 else None)
    elif code == L.EV_BLACK_RUBY:
        d["rubies"] = a
    elif code in (L.EV_BOWL, L.EV_WITCH_LOOK):
        d["chip"] = chip
        if code == L.EV_BOWL:
            d["bowl_value"] = b
    elif code == L.EV_BOWL_VP:
        d.update(vp=a, score=b)
    elif code == L.EV_WITCHES:
        from sim.rules.witches import witch_by_number

        d["witches"] = [witch_by_number(w).id for w in (a, b, c) if w > 0]
    elif code == L.EV_VISIT:
        from sim.rules.witches import witch_by_number

        d["witch"] = witch_by_number(a).id if a > 0 else None
    elif code == L.EV_WITCH:
        d.update(witch_event(a, b, c))
    elif code == L.EV_CARD_GAIN:
        d["effect"] = CARD_GAINS.get(a, str(a))
        if a == 4 or a == 5:
            d["chip"] = chips.chip_name(b)
        elif a == 8 or a == 9:
            from sim.rules.witches import GROUPS

            d["group"] = GROUPS[b]
        else:
            d["amount"] = b
    return d


def witch_event(w: int, b: int, c: int) -> dict:
    """The fields of a witch event: which witch and what she did (w = 0: pennies scored at the end)."""
    from sim.rules.witches import witch_by_number

    if w == 0:
        return {"pennies_kept": b, "vp": c}
    wid = witch_by_number(w).id
    name = chips.chip_name
    detail = {
        "second-flask": lambda: {"chip": name(b)},
        "six-chips": lambda: {"drawn": b},
        "whites-back": lambda: {"whites": b, "chips": [name(x % 32 - 1) for x in (c // 32, c) if x % 32]},
        "both-rewards": lambda: {"reward_space": b},
        "upgrade": lambda: {"chips_upgraded": c},
        "double-coins": lambda: {"coins": b, "now": c},
        "free-twin": lambda: {"chip": name(b)},
        "ruby-coins": lambda: {"rubies": b, "coins": c},
        "colours": lambda: {"vp": b},
        "bag-points": lambda: {"vp": b},
        "ruby-space": lambda: {"rubies": b},
        "cheap-rubies": lambda: {"rubies": b},
    }[wid]()
    return {"witch": wid, **detail}


def glass_name(code: int) -> str:
    """A test-tube glass bonus code as the ruleset writes it: ``ruby``, ``vp:2``, ``b1``."""
    if code >= L.TUBE_VP:
        return f"vp:{code - L.TUBE_VP}"
    if code >= L.TUBE_RUBY:
        return "ruby" if code == L.TUBE_RUBY + 1 else f"ruby:{code - L.TUBE_RUBY}"
    return chips.chip_name(code)


def plural(k: int, word: str, many: str | None = None) -> str:
    """``1 ruby``, ``2 rubies``, ``0 coins``: a count with its noun in the right number."""
    return f"{k} {word if k == 1 else (many or word + 's')}"


def event_text(d: dict, names: list[str], ruby_costs: dict[str, int] | None = None) -> str:
    """A human line for one event dict. ``ruby_costs`` (``{"droplet": n, "flask": m}``, from the
    ruleset) says what a ruby spending cost; without it the base game's 2 is shown."""
    costs = ruby_costs or {}
    who = f"  {names[d['seat']]} (seat {d['seat']}): " if "seat" in d else ""
    e = d["event"]
    if e == "round":
        return f"Round {d['round']} (start player seat {d['start_player']})"
    if e == "book":
        return f"  the {d['colour']} book is out"
    text = {
        "white_added": lambda: "adds a w1 to the bag",
        "rat": lambda: f"rat {plural(d['tails'], 'space')}; brews from space {d['start']}",
        "draw": lambda: f"draws {d['chip']}",
        "place": lambda: f"{d['chip']} -> space {d['index']}" + (" (held beside the pot)" if d.get("held") else ""),
        "explode": lambda: f"EXPLODES (white total {d['white_total']})",
        "blue_look": lambda: f"blue looks at {d['chip']}",
        "blue_pick": lambda: f"blue places {d['chip'] or 'nothing'}",
        "yellow_return": lambda: f"yellow returns {d['chip']} from space {d['index']} to the bag",
        "flask": lambda: f"flask returns {d['chip']} from space {d['index']} to the bag",
        "red": lambda: f"{d['chip']}: {'takes' if d['taken'] else 'declines'} +{d['extra']} extra",
        "stop": lambda: f"{d['reason']}; reward space {d['reward_space']} (white {d['white_total']})",
        "reward": lambda: f"reward space {d['space']}: {plural(d['coins'], 'coin')}, {d['vp']} VP",
        "die": lambda: f"rolls the bonus die: {d['face']}",
        "green": lambda: f"green: +{plural(d['rubies'], 'ruby', 'rubies')}",
        "purple": lambda: f"purple tier {d['tier']}",
        "black": lambda: f"black: droplet +{d['droplet']}, ruby +{d['ruby']}",
        "ruby": lambda: f"{plural(d['rubies'], 'ruby', 'rubies')} from the reward space",
        "choice": lambda: f"exploded, takes the {d['choice']}",
        "vp": lambda: f"+{d['vp']} VP (score {d['score']})",
        "buy": lambda: f"buys {d['chip']} for {d['price']}",
        "spend": lambda: (f"spends {plural(costs.get(d['on'], 2), 'ruby', 'rubies')} on {d['on']} "
                          f"({d['rubies_left']} left)"),
        "convert": lambda: f"converts: +{d['vp_from_coins']} VP from coins, +{d['vp_from_rubies']} VP from rubies",
        "red_aside": lambda: f"{d['chip']} set beside the pot",
        "red_after": lambda: (f"{d['chip']} from beside the pot -> space {d['index']}" if d["action"] == "place"
                              else f"{d['chip']} from beside the pot into the overflow bowl" if d["action"] == "bowl"
                              else f"{d['chip']} {'kept beside the pot' if d['action'] == 'keep' else 'back to the bag'}"),
        "protect": lambda: f"protected for the next {plural(d['draws'], 'draw')}",
        "protected": lambda: "the explosion falls in the protection window: VP and coins",
        "blue_ruby": lambda: "blue on a ruby space: +1 ruby",
        "blue_vp": lambda: f"blue on a ruby space: +{d['vp']} VP",
        "double": lambda: "the next chip moves twice as far",
        "limit": lambda: f"explosion limit now {d['limit']}",
        "green_chip": lambda: f"green: takes {d['chip']}",
        "green_move": lambda: f"green: last chip +{d['spaces']}; reward space {d['reward_space']}",
        "green_droplet": lambda: f"green: pays {plural(d['droplet'], 'ruby', 'rubies')} for droplet +{d['droplet']}",
        "purple_trade": lambda: f"purple: trades tier {d['tier']}",
        "purple_vp": lambda: f"purple: +{d['vp']} VP",
        "upgrade": lambda: f"purple: {d['chip']} becomes {d['to']}",
        "card": lambda: f"fortune card: {d['card']}",
        "card_effect": lambda: f"card: {d['effect']} {d.get('chip', d.get('amount', ''))}",
        "card_look": lambda: f"card draws {d['chip']}",
        "tube": lambda: (f"test-tube droplet to glass {d['glass']}: {d['bonus']}"
                         + ("" if d["given"] else " (not given: book not out or none left)")),
        "score": lambda: (f"ends the round with {d['score']} VP, {plural(d['rubies'], 'ruby', 'rubies')}, "
                          f"droplet {d['droplet']}"),
        "final": lambda: f"FINAL: rank {d['rank']}, {d['score']} VP, win share {d['win_share']:.3g}",
    }.get(e)
    if text:
        return who + text()
    fields = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in d.items()
                       if k not in ("round", "event", "seat") and v is not None)
    return who + e.replace("_", " ") + (f": {fields}" if fields else "")  # the Herb Witches events
