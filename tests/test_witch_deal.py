"""The herb witches' deal with ``witches.extra``: a rules file's witch shuffled in with her group's
shipped witches (1 in 5 with four of them) and a candidate visitor of Visit from a Witch while not
in play. The exact odds (``sim.rules.witch_deal``, every deal enumerated) against the kernel's
deal and visitor (``sim.kernel.witches.common``) called directly on 20,000 games' witch streams;
each witch's count must fall in its 99.9% Wilson interval (26 comparisons: at 95% each, one in
four seeds would fail one by chance). No rules file is compiled: the kernel takes the extra
witch's number from ``R_WITCH_EXTRA``, so a stand-in witch numbered 14 does.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from sim.kernel import layout as L
from sim.kernel.rng import N_STREAMS, game_streams
from sim.kernel.witches.common import deal_witches, visiting_witch
from sim.rules.witch_deal import deal_odds, deal_pools, visit_odds
from sim.rules.witches import GROUPS, WITCHES, Witch
from sim.stats.intervals import wilson

GAMES = 20_000
Z999 = 3.2905267314919255  # two-sided 99.9%
USER = Witch(14, "stand-in", "buying", "buying (step E)", "A rules file's witch.",
             lambda b, c: {}, user=True)
KNOWN = [*WITCHES, USER]
SETTINGS = {"enabled": True, "fixed": [], "extra": ["stand-in"]}


def _kernel_deals(extra: int, games: int = GAMES) -> tuple[np.ndarray, np.ndarray]:
    """(games, 3) witches dealt and (games,) visitors, the kernel's, for games 0.. of seed 7
    with ``extra`` (a witch number, 0: none) as the buying group's extra witch."""
    R = np.zeros(L.R_WIDTH, np.int64)
    R[L.R_WITCHES] = 1
    R[L.R_WITCH_EXTRA + GROUPS.index("buying")] = extra
    P = np.zeros((2, L.P_WIDTH), np.int64)
    E = np.zeros((0, L.EV_WIDTH), np.int64)
    rng = np.zeros(N_STREAMS, np.uint64)
    dealt = np.zeros((games, 3), np.int64)
    visit = np.zeros(games, np.int64)
    for k in range(games):
        G = np.zeros(L.G_WIDTH, np.int64)
        G[L.G_NP] = 2
        game_streams(np.uint64(7), np.full(N_STREAMS, k, np.int64), rng)
        deal_witches(P, G, R, rng, E)
        visiting_witch(P, G, R, rng, E)
        dealt[k], visit[k] = G[L.G_WITCH:L.G_WITCH + 3], G[L.G_VISIT]
    return dealt, visit


@pytest.fixture(scope="module")
def kernel_deals():
    return _kernel_deals(USER.number)


def test_the_exact_odds_of_a_deal_with_an_extra_witch():
    pools = deal_pools(SETTINGS, KNOWN)
    assert pools["buying"] == ("upgrade", "double-coins", "free-twin", "ruby-coins", "stand-in")
    assert len(pools["potion"]) == len(pools["points"]) == 4
    odds = deal_odds(SETTINGS, KNOWN)
    assert odds["stand-in"] == Fraction(1, 5) and odds["upgrade"] == Fraction(1, 5)
    assert odds["colours"] == Fraction(1, 4) and sum(odds.values()) == 3
    visits = visit_odds(SETTINGS, KNOWN)
    # she is out of play in 4 deals of 5, and then one of the 10 witches out of play
    assert visits["stand-in"] == Fraction(4, 5) * Fraction(1, 10) and sum(visits.values()) == 1
    # without the option she is never dealt and never visits; the shipped odds are the rules'
    plain = {**SETTINGS, "extra": []}
    assert deal_odds(plain, KNOWN)["stand-in"] == 0 == visit_odds(plain, KNOWN)["stand-in"]
    assert set(deal_odds(plain, KNOWN).values()) == {Fraction(1, 4), 0}
    assert visit_odds(plain, KNOWN)["colours"] == Fraction(3, 4) * Fraction(1, 9)
    # a fixed witch of her group leaves her out
    fixed = {**SETTINGS, "fixed": ["upgrade"]}
    assert deal_pools(fixed, KNOWN)["buying"] == ("upgrade",)


@pytest.mark.parametrize("what", ["dealt", "visitor"])
def test_the_kernel_deals_her_at_the_exact_rate(kernel_deals, what):
    dealt, visit = kernel_deals
    exact = (deal_odds if what == "dealt" else visit_odds)(SETTINGS, KNOWN)
    for w in KNOWN:
        n = int((dealt == w.number).any(axis=1).sum() if what == "dealt"
                else (visit == w.number).sum())
        lo, hi = wilson(n, GAMES, Z999)
        assert lo <= exact[w.id] <= hi, (what, w.id, n / GAMES, float(exact[w.id]), (lo, hi))
    assert (dealt[:, GROUPS.index("buying")] == USER.number).any()


def test_an_extra_witch_changes_no_other_groups_deal(kernel_deals):
    # each group draws once from the witch stream with or without her: the other groups' witches
    # are the same games' (and without her, witches 1-12 only: the deal the checksums cover)
    dealt, _ = kernel_deals
    plain, visit = _kernel_deals(0, 2_000)
    b = GROUPS.index("buying")
    others = [g for g in range(3) if g != b]
    assert (plain[:, others] == dealt[:2_000, others]).all()
    assert plain.max() <= 12 and 0 < visit.min() and visit.max() <= 12
    assert ((plain - 1) // 4 == np.arange(3)).all()
