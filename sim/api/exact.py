"""Exact potion outcomes by exhaustive, memoized recursion over the bag: the slow, readable
reference that the Numba kernel is checked against.

It follows the same rules and the same fixed choices as ``quacks potion``: blue places the
highest-value non-white chip it sees (ties: the later colour in w,o,g,b,r,y,p,k), yellow always
returns the white before it, the flask is used on the first white of value >= V that does not
explode, and the stop policy decides after every chip (never before the first). Stop policies:
white total, next-draw risk, never, one-step expected value, and optimal (the stopping rule that
maximises the expected value of the potion, by dynamic programming).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, prod

import numpy as np

from sim.api.errors import TooLargeError
from sim.kernel.decisions import slots as S
from sim.rules.chips import BLUE, N_TYPES, ORANGE, RED, TYPE_COLOUR, TYPE_VALUE, WHITE, YELLOW
from sim.rules.track import SPOON

MAX_STATES = 60_000  # product of (count + 1) over chip types: sub-bags the recursion may visit


@dataclass(frozen=True)
class Setup:
    """The fixed parameters of an exact potion.

    ``coins``, ``vp``, ``ruby`` (the track) and the value weights are needed by the
    expected-value and optimal policies and by ``expected_value``.
    """

    start: int
    limit: int
    last: int  # last chip space (52)
    stop_kind: int
    stop_param: float
    flask_min: int  # 0: flask not used
    flask_reuse: bool
    exact_fractions: bool = False
    coins: tuple = ()
    vp: tuple = ()
    ruby: tuple = ()
    coin_value: float = 0.3
    ruby_value: float = 0.5
    vp_value: float = 1.0

    def value(self, space: int, exploded: int) -> float:
        """What ending on ``space`` is worth (VP + coins x coin value + ruby x ruby value; an
        exploded pot takes the better of VP and coins, and still the ruby)."""
        c = self.coins[space] * self.coin_value
        v = self.vp[space] * self.vp_value
        r = self.ruby[space] * self.ruby_value
        return (max(v, c) if exploded else v + c) + r


def sub_bag_count(counts) -> int:
    """How many sub-multisets the bag has (a bound on the recursion's bag states)."""
    return prod(int(c) + 1 for c in counts)


def _sub_multisets(counts, m, i=0):
    """Yield (taken, ways) for every multiset of size m from counts[i:], ways = prod C(n, k)."""
    if m == 0:
        yield (0,) * (len(counts) - i), 1
        return
    if i == len(counts):
        return
    for k in range(min(m, counts[i]) + 1):
        for rest, ways in _sub_multisets(counts, m - k, i + 1):
            yield (k, *rest), ways * comb(counts[i], k)


def _best_blue(taken) -> int:
    best, bestkey = -1, 0
    for t, k in enumerate(taken):
        if k and TYPE_COLOUR[t] != WHITE:
            key = int(TYPE_VALUE[t]) * 16 + int(TYPE_COLOUR[t])
            if key > bestkey:
                best, bestkey = t, key
    return best


@lru_cache(maxsize=1 << 16)
def _blue_views(bag, m) -> tuple:
    """(ways, the chip blue places, -1 for none) for every multiset of m chips blue may see in
    ``bag``, in ``_sub_multisets``' order; remembered, as every state with that bag asks again."""
    return tuple((ways, _best_blue(taken)) for taken, ways in _sub_multisets(bag, m))


def minus(bag, t):
    """The bag (counts per chip type) with one chip of type t taken out."""
    return bag[:t] + (bag[t] - 1,) + bag[t + 1 :]


def _plus(bag, t):
    return bag[:t] + (bag[t] + 1,) + bag[t + 1 :]


class ExactPotion:
    """Memoized exact recursion for one setup. States are tuples; a *chip state* is the state
    right after a chip resolved, before the flask decision."""

    def __init__(self, setup: Setup):
        self.s = setup
        self.one = Fraction(1) if setup.exact_fractions else 1.0
        self.dist = lru_cache(maxsize=None)(self._dist)
        self.opt = lru_cache(maxsize=None)(self._opt)
        self.opt_draw = lru_cache(maxsize=None)(self._opt_draw)

    # --- transitions shared by every mode -------------------------------------------------
    def place(self, bag, t, white, anchor, norange, flask, last, prev):
        """Outcomes of placing chip t (already out of bag): list of (weight, end, state) where
        ``end`` is (reward, exploded) for a finished potion and ``state`` a chip state."""
        s = self.s
        c, v = int(TYPE_COLOUR[t]), int(TYPE_VALUE[t])
        move = v
        if c == RED:
            move += 2 if norange >= 3 else (1 if norange >= 1 else 0)
        pos = min(anchor + move, s.last)
        prev, last = last, (t, pos)
        anchor = pos
        if c == ORANGE:
            norange = min(norange + 1, 3)
        if c == WHITE:
            white += v
            if white > s.limit:
                return [(self.one, (min(pos + 1, SPOON), 1), None)]
        if c == YELLOW and prev is not None and TYPE_COLOUR[prev[0]] == WHITE:
            bag = _plus(bag, prev[0])
            white -= int(TYPE_VALUE[prev[0]])
            prev = None
        if c == BLUE and anchor < s.last and sum(bag) > 0:
            m = min(v, sum(bag))
            total = comb(sum(bag), m)
            out = []
            for ways, pick in _blue_views(bag, m):
                w = self.one * ways / total
                if pick < 0:
                    out.append((w, None, (bag, white, anchor, norange, flask, last, prev)))
                else:
                    for w2, end, st in self.place(minus(bag, pick), pick, white, anchor, norange,
                                                   flask, last, prev):
                        out.append((w * w2, end, st))
            return out
        return [(self.one, None, (bag, white, anchor, norange, flask, last, prev))]

    def settle(self, state):
        """Apply the flask policy to a chip state; return (state, finished?)."""
        bag, white, anchor, norange, flask, last, prev = state
        s = self.s
        if flask and last is not None and TYPE_COLOUR[last[0]] == WHITE and s.flask_min > 0:
            if TYPE_VALUE[last[0]] >= s.flask_min:
                t = last[0]
                bag = _plus(bag, t)
                white -= int(TYPE_VALUE[t])
                if s.flask_reuse:
                    anchor = prev[1] if prev is not None else s.start
                last, prev, flask = prev, None, False
        finished = (last is not None and last[1] >= s.last) or sum(bag) == 0
        return (bag, white, anchor, norange, flask, last, prev), finished

    def reward(self, last) -> int:
        return min(last[1] + 1, SPOON) if last is not None else min(self.s.start + 1, SPOON)

    def draws(self, bag):
        n = sum(bag)
        for t in range(N_TYPES):
            if bag[t]:
                yield t, self.one * bag[t] / n

    # --- policies -------------------------------------------------------------------------
    def risk(self, state) -> float:
        """The chance the next chip explodes the pot (0 with an empty bag)."""
        bag, white = state[0], state[1]
        n = sum(bag)
        bad = sum(bag[t] for t in range(3) if white + TYPE_VALUE[t] > self.s.limit)
        return bad / n if n else 0.0

    def wants_draw(self, state) -> bool:
        bag, white, anchor, norange, flask, last, prev = state
        s = self.s
        if s.stop_kind == S.STOP_WHITE:
            return white_draws(white, s.stop_param)
        if s.stop_kind == S.STOP_RISK:
            return risk_draws(self.risk(state), s.stop_param)
        if s.stop_kind == S.STOP_EV:
            return self._one_step(state)
        if s.stop_kind == S.STOP_OPTIMAL:
            return float(self.opt_draw(state)) > float(s.value(self.reward(last), 0)) + 1e-12
        if s.stop_kind == S.STOP_NEVER:
            return True
        raise ValueError(f"stop kind {s.stop_kind} cannot be enumerated exactly")

    def _one_step(self, state) -> bool:
        """The one-step expected-value rule (as ``potion_value.one_step_ev_draws``)."""
        bag, white, anchor, norange, flask, last, prev = state
        s = self.s
        now = s.value(self.reward(last), 0)
        n = sum(bag)
        exp = 0.0
        for t in range(N_TYPES):
            if not bag[t]:
                continue
            p = bag[t] / n
            c, v = int(TYPE_COLOUR[t]), int(TYPE_VALUE[t])
            move = v + ((2 if norange >= 3 else (1 if norange >= 1 else 0)) if c == RED else 0)
            pos = min(anchor + move, s.last)
            if c == WHITE:
                if white + v > s.limit:
                    exp += p * s.value(min(pos + 1, SPOON), 1)
                    continue
                if flask and s.flask_min > 0 and v >= s.flask_min:
                    exp += p * now
                    continue
            exp += p * s.value(min(pos + 1, SPOON), 0)
        return exp > now + 1e-12

    # --- distribution under the policy ----------------------------------------------------
    def _dist(self, state):
        """Distribution {(reward, exploded): p} from a chip state."""
        state, finished = self.settle(state)
        last = state[5]
        if finished or not self.wants_draw(state):
            return {(self.reward(last), 0): self.one}
        return self.from_draw(state)

    def from_draw(self, state):
        bag, white, anchor, norange, flask, last, prev = state
        acc: dict = {}
        for t, p in self.draws(bag):
            for w, end, st in self.place(minus(bag, t), t, white, anchor, norange, flask, last,
                                         prev):
                part = {end: self.one} if end is not None else self.dist(st)
                for k, q in part.items():
                    acc[k] = acc.get(k, 0) + q * p * w
        return acc

    # --- optimal values -------------------------------------------------------------------
    def _opt(self, state) -> float:
        """Expected value from a chip state under optimal stopping."""
        state, finished = self.settle(state)
        stop = self.s.value(self.reward(state[5]), 0)
        if finished:
            return stop
        return max(stop, self.opt_draw(state))

    def _opt_draw(self, state) -> float:
        """Expected value of drawing now (settled state), then stopping optimally."""
        bag, white, anchor, norange, flask, last, prev = state
        total = 0.0
        for t, p in self.draws(bag):
            for w, end, st in self.place(minus(bag, t), t, white, anchor, norange, flask, last,
                                         prev):
                val = self.s.value(*end) if end is not None else self.opt(st)
                total += float(p * w) * val
        return total


def white_draws(white, threshold):
    """The white-total rule draws while the white total is below its threshold (a number or,
    elementwise, an array)."""
    return white < threshold


def risk_draws(risk, threshold):
    """The risk rule draws while the next chip's explosion chance is at most its threshold (a
    number or, elementwise, an array)."""
    return risk <= threshold


def draw_choices(potions: list[ExactPotion], states: list) -> np.ndarray:
    """``wants_draw`` of every potion (a column each) in every settled state (a row each); the
    white-total and risk rules are compared for all states at once."""
    out = np.empty((len(states), len(potions)), dtype=bool)
    whites = risks = None
    for r, e in enumerate(potions):
        kind, param = e.s.stop_kind, e.s.stop_param
        if kind == S.STOP_WHITE:
            if whites is None:
                whites = np.array([st[1] for st in states], dtype=np.int64)
            out[:, r] = white_draws(whites, param)
        elif kind == S.STOP_RISK:
            if risks is None:
                risks = np.array([e.risk(st) for st in states], dtype=np.float64)
            out[:, r] = risk_draws(risks, param)
        else:
            out[:, r] = [e.wants_draw(st) for st in states]
    return out


def _check_size(counts) -> None:
    if sub_bag_count(counts) > MAX_STATES:
        raise TooLargeError(
            f"bag too large to enumerate exactly ({sub_bag_count(counts):,} sub-bags, limit "
            f"{MAX_STATES:,}); drop --exact to sample instead"
        )


def exact_distribution(counts, setup: Setup) -> dict[tuple[int, int], float]:
    """Exact probability of every (reward space, exploded) outcome of the potion."""
    counts = tuple(int(c) for c in counts)
    _check_size(counts)
    ex = ExactPotion(setup)
    if sum(counts) == 0:
        return {(min(setup.start + 1, SPOON), 0): ex.one}
    start = (counts, 0, setup.start, 0, setup.flask_min > 0, None, None)
    return dict(ex.from_draw(start))


def optimal_value(counts, setup: Setup) -> float:
    """Expected value of the potion under the optimal stopping rule (never before the first
    chip)."""
    counts = tuple(int(c) for c in counts)
    _check_size(counts)
    ex = ExactPotion(setup)
    if sum(counts) == 0:
        return setup.value(min(setup.start + 1, SPOON), 0)
    return ex.opt_draw((counts, 0, setup.start, 0, setup.flask_min > 0, None, None))


def expected_value(dist: dict, setup: Setup) -> float:
    """Expected value of an outcome distribution, with the setup's value of a reward space."""
    return float(sum(float(p) * setup.value(space, exploded)
                     for (space, exploded), p in dist.items()))
