"""Exact potion outcomes by exhaustive, memoized recursion over the bag: the slow, readable
reference that the Numba kernel is checked against.

It follows the same rules and the same fixed choices as ``quacks potion``: blue places the
highest-value non-white chip it sees (ties: the later colour in w,o,g,b,r,y,p,k), yellow always
returns the white before it, the flask is used on the first white of value >= V that does not
explode, and the stop policy decides after every chip (never before the first).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb, prod

from sim.chips import BLUE, N_TYPES, ORANGE, RED, TYPE_COLOUR, TYPE_VALUE, WHITE, YELLOW
from strategies import slots as S

MAX_STATES = 60_000  # product of (count + 1) over chip types: sub-bags the recursion may visit
SPOON = 53


class TooLargeError(ValueError):
    """The bag has too many distinct sub-bags to enumerate."""


@dataclass(frozen=True)
class Setup:
    """The fixed parameters of an exact potion."""

    start: int
    limit: int
    last: int  # last chip space (52)
    stop_kind: int
    stop_param: float
    flask_min: int  # 0: flask not used
    flask_reuse: bool
    exact_fractions: bool = False


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


def exact_distribution(counts, setup: Setup) -> dict[tuple[int, int], float]:
    """Exact probability of every (reward space, exploded) outcome of the potion."""
    counts = tuple(int(c) for c in counts)
    if sub_bag_count(counts) > MAX_STATES:
        raise TooLargeError(
            f"bag too large to enumerate exactly ({sub_bag_count(counts):,} sub-bags, limit "
            f"{MAX_STATES:,}); drop --exact to sample instead"
        )
    one = Fraction(1) if setup.exact_fractions else 1.0

    def add(acc, dist, w):
        for k, p in dist.items():
            acc[k] = acc.get(k, 0) + p * w

    def terminal(last, start, exploded):
        reward = min(last[1] + 1, SPOON) if last is not None else min(start + 1, SPOON)
        return {(reward, exploded): one}

    def wants_draw(bag, white):
        if setup.stop_kind == S.STOP_WHITE:
            return white < setup.stop_param
        if setup.stop_kind == S.STOP_RISK:
            n = sum(bag)
            bad = sum(bag[t] for t in range(3) if white + TYPE_VALUE[t] > setup.limit)
            return (bad / n if n else 0.0) <= setup.stop_param
        return True  # never

    @cache
    def after_chip(bag, white, anchor, norange, flask, last, prev):
        """State right after a chip resolved (not exploded): flask, end checks, then decide."""
        if flask and last is not None and TYPE_COLOUR[last[0]] == WHITE and setup.flask_min > 0:
            if TYPE_VALUE[last[0]] >= setup.flask_min:
                t = last[0]
                bag = _plus(bag, t)
                white -= int(TYPE_VALUE[t])
                if setup.flask_reuse:
                    anchor = prev[1] if prev is not None else setup.start
                last, prev, flask = prev, None, False
        if (last is not None and last[1] >= setup.last) or sum(bag) == 0:
            return terminal(last, setup.start, 0)
        if not wants_draw(bag, white):
            return terminal(last, setup.start, 0)
        return draw(bag, white, anchor, norange, flask, last, prev)

    @cache
    def draw(bag, white, anchor, norange, flask, last, prev):
        n = sum(bag)
        acc: dict = {}
        for t in range(N_TYPES):
            if bag[t]:
                add(acc, place(_minus(bag, t), t, white, anchor, norange, flask, last, prev),
                    one * bag[t] / n)
        return acc

    def place(bag, t, white, anchor, norange, flask, last, prev):
        c, v = int(TYPE_COLOUR[t]), int(TYPE_VALUE[t])
        move = v
        if c == RED:
            move += 2 if norange >= 3 else (1 if norange >= 1 else 0)
        pos = min(anchor + move, setup.last)
        prev, last = last, (t, pos)
        anchor = pos
        if c == ORANGE:
            norange = min(norange + 1, 3)
        if c == WHITE:
            white += v
            if white > setup.limit:
                return terminal(last, setup.start, 1)
        if c == YELLOW and prev is not None and TYPE_COLOUR[prev[0]] == WHITE:
            bag = _plus(bag, prev[0])
            white -= int(TYPE_VALUE[prev[0]])
            prev = None
        if c == BLUE and anchor < setup.last and sum(bag) > 0:
            m = min(v, sum(bag))
            total = comb(sum(bag), m)
            acc: dict = {}
            for taken, ways in _sub_multisets(bag, m):
                pick = _best_blue(taken)
                w = one * ways / total
                if pick < 0:
                    add(acc, after_chip(bag, white, anchor, norange, flask, last, prev), w)
                else:
                    add(acc, place(_minus(bag, pick), pick, white, anchor, norange, flask, last, prev), w)
            return acc
        return after_chip(bag, white, anchor, norange, flask, last, prev)

    bag0 = counts
    if sum(bag0) == 0:
        return {(min(setup.start + 1, SPOON), 0): one}
    return dict(draw(bag0, 0, setup.start, 0, setup.flask_min > 0, None, None))


def _best_blue(taken) -> int:
    best, bestkey = -1, 0
    for t, k in enumerate(taken):
        if k and TYPE_COLOUR[t] != WHITE:
            key = int(TYPE_VALUE[t]) * 16 + int(TYPE_COLOUR[t])
            if key > bestkey:
                best, bestkey = t, key
    return best


def _minus(bag, t):
    return bag[:t] + (bag[t] - 1,) + bag[t + 1 :]


def _plus(bag, t):
    return bag[:t] + (bag[t] + 1,) + bag[t + 1 :]
