"""Issue 50: flags adjusted over their family, the picked pair's simultaneous interval, rank
intervals and no certainty the sample cannot give (``sim.stats.multiplicity``,
``sim.study.design.effects``), on synthetic per-deal data with known truth (numpy only, no
games)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from sim.stats.multiplicity import (
    AdjustError,
    adjust,
    check_adjust,
    maxt_adjust,
    maxt_quantile,
    zero_half_width,
)
from sim.study.compare.stats import ratio
from sim.study.design import effects as fx

# --- adjusted p-values -------------------------------------------------------------------------

P = [0.01, 0.04, 0.03, 0.20]


def test_holm_and_bh_by_hand():
    # Holm: sorted 0.01, 0.03, 0.04, 0.20 times 4, 3, 2, 1 = 0.04, 0.09, 0.08, 0.20, then the
    # running maximum: 0.04, 0.09, 0.09, 0.20
    assert adjust(P, "holm") == pytest.approx([0.04, 0.09, 0.09, 0.20])
    # BH: 4/1 x 0.01, 4/2 x 0.03, 4/3 x 0.04, 4/4 x 0.20 = 0.04, 0.06, 0.0533, 0.20, then the
    # running minimum from the top: 0.04, 0.0533, 0.0533, 0.20
    assert adjust(P, "bh") == pytest.approx([0.04, 4 / 3 * 0.04, 4 / 3 * 0.04, 0.20])
    assert adjust(P, "none") == pytest.approx(P)


@pytest.mark.parametrize(("ours", "theirs"), [("holm", "holm"), ("bh", "fdr_bh")])
def test_adjusted_p_values_are_statsmodels(ours, theirs):
    rng = np.random.default_rng(7)
    for k in (1, 2, 5, 17):
        p = rng.uniform(0, 0.2, k)
        np.testing.assert_allclose(adjust(p, ours), multipletests(p, method=theirs)[1])


def test_a_nan_p_value_is_left_out_of_the_family():
    out = adjust([0.01, np.nan, 0.04], "holm")
    assert math.isnan(out[1])
    assert out[[0, 2]] == pytest.approx([0.02, 0.04])  # a family of two


def test_an_unknown_method_is_one_line():
    assert check_adjust("bh") == "bh"
    with pytest.raises(AdjustError, match="--adjust foo: expected one of holm, bh, none"):
        check_adjust("foo")


# --- synthetic knobs ---------------------------------------------------------------------------

def knob_estimates(mu, deals, rng, noise=1.0, shared=1.0):
    """Each value's estimate of one figure: per deal the value's mean plus the deal's own luck
    (shared by every value: the pairing) plus noise."""
    luck = rng.normal(0, shared, deals)
    return [{"m": ratio(m + luck + rng.normal(0, noise, deals), np.ones(deals))} for m in mu]


def family(mu, deals, rng, **kw):
    labels = [str(i) for i in range(len(mu))]
    return fx.pair_families("k", labels, knob_estimates(mu, deals, rng, **kw), ["m"])[0]


def test_the_simultaneous_interval_holds_the_picked_pairs_own():
    f = family([0, 0.1, 0.2, 0.25, 0.3], 300, np.random.default_rng(1))
    eff = fx.effect_rows([f])[0]
    own = [r for r in fx.difference_rows([f])
           if (r["from"], r["to"]) == (eff["from"], eff["to"])][0]
    assert eff["ci_lo"] < own["ci_lo"] and own["ci_hi"] < eff["ci_hi"]
    q = maxt_quantile(f.resid())
    from sim.stats.multiplicity import bonferroni_quantile

    assert fx.single_quantile(300) < q < bonferroni_quantile(10, 299)


def test_the_picked_pair_is_covered():
    """Five values with the same truth (every pair's true difference 0): the pair furthest
    apart is the one the noise pushed furthest, its own interval misses often, the
    simultaneous one at most about 5% of the time."""
    rng = np.random.default_rng(2026)
    runs, simultaneous, own = 300, 0, 0
    mu = np.array([0.0, 0.0, 0.0, 0.0, 0.0])
    for _ in range(runs):
        f = family(mu, 60, rng)
        eff = fx.effect_rows([f])[0]
        true = mu[int(eff["to"])] - mu[int(eff["from"])]
        simultaneous += eff["ci_lo"] <= true <= eff["ci_hi"]
        top = int(np.argmax(np.abs(f.values())))
        lo, hi = f.diffs[top].interval(fx.single_quantile(60))
        own += lo <= true <= hi
    assert simultaneous / runs >= 0.93
    assert own / runs < 0.85  # the old interval: the choice ignored


def test_a_knob_that_does_nothing_rarely_moves():
    """Ten pairs of five values with the same truth: ``moves`` (Holm's step-down with the
    max-|t| bound over the ten pairs) fires in at most about 5% of the runs; each pair on its
    own fires far more often. (300 deals: the max-|t| null shares one scale over the pairs,
    which is right for the hundreds of deals of a run; at 40 deals it fires in about 7%.)"""
    rng = np.random.default_rng(50)
    runs = 200
    holm = none = 0
    for _ in range(runs):
        f = family(np.zeros(5), 300, rng)
        holm += fx.effect_rows([f], "holm")[0]["moves"]
        none += fx.effect_rows([f], "none")[0]["moves"]
    assert holm / runs <= 0.08
    assert none / runs > 0.10


def near_identical_family(rng, deals=400, shift=0.25):
    """Five values of which the last four are nearly the same game (as ``rats.lap``'s):
    the pairs (0, j) are almost one test, so the max-|t| bound is close to one pair's own t
    quantile while Bonferroni's (and Holm's first step) divides 0.05 by ten."""
    luck = rng.normal(0, 1, deals)
    first = luck + rng.normal(0, 1, deals)
    common = luck + rng.normal(0, 1, deals) + shift
    ests = [{"m": ratio(first, np.ones(deals))}]
    ests += [{"m": ratio(common + rng.normal(0, 0.05, deals), np.ones(deals))} for _ in range(4)]
    return fx.pair_families("k", [str(i) for i in range(5)], ests, ["m"])[0]


def test_the_flag_agrees_with_the_simultaneous_interval():
    """Issue 50: the effect's interval (max-|t| over the family) and the flag decided by
    ``p_adj`` must not disagree: a picked pair whose simultaneous interval excludes 0 is a
    family that ``moves``. Found among near-identical values, where plain Holm (Bonferroni at
    its first step) gave p_adj above 0.05 beside an interval excluding 0."""
    rng = np.random.default_rng(5050)
    disagreed = 0
    for _ in range(30):
        f = near_identical_family(rng)
        eff = fx.effect_rows([f])[0]
        excl = eff["ci_lo"] > 0 or eff["ci_hi"] < 0
        assert not excl or (eff["moves"] and eff["p_adj"] < 0.05)
        # every pair: p_adj below 0.05 exactly when |t| is beyond the family's quantile,
        # i.e. its simultaneous interval excludes 0 (single step; step-down only flags more)
        q, t = f.quantile(), np.abs(f.t())
        ss = maxt_adjust(f.resid(), t, stepdown=False)
        assert np.array_equal(ss < 0.05, t > q)
        assert np.all(f.p_adj() <= ss + 1e-12)
        old = float(np.min(adjust([d.p() for d in f.diffs], "holm")))
        disagreed += excl and old >= 0.05
    assert disagreed > 0  # the old rule disagreed on these data (so the test can fail)


def test_the_rankings_flag_agrees_with_its_interval():
    """The ranking's interval is simultaneous over every pair of every figure of the knob; a
    knob whose ranked interval excludes 0 moves that figure."""
    rng = np.random.default_rng(77)
    seen = 0
    for _ in range(12):
        fams = []
        for m in ("a", "b", "c"):
            f = near_identical_family(rng, shift=0.3)
            f.metric = m
            fams.append(f)
        r = fx.rank_knobs(fx.knob_effects(fams), ["k"], families=fams).iloc[0]
        if r["ci_lo"] > 0 or r["ci_hi"] < 0:
            assert r["effect"] == "moves" and r["metric"] in r["metrics_moved"].split(",")
            assert r["p_adj"] < 0.05
            seen += 1
    assert seen > 0


# --- a difference 0 on every deal ---------------------------------------------------------------

def test_identical_on_every_deal_is_not_certain():
    deals = 150
    x = np.random.default_rng(3).integers(0, 2, deals).astype(float)
    share = {"m": ratio(x, np.ones(deals), "share")}
    # two different rulesets, the same games on every deal: +-3/n x 1 (a share moves at most 1)
    f = fx.pair_families("k", ["a", "b"], [share, share], ["m"], arms=["h1", "h2"])[0]
    row = fx.difference_rows([f])[0]
    assert row["diff"] == 0
    assert (row["ci_lo"], row["ci_hi"]) == pytest.approx((-3 / deals, 3 / deals))
    assert row["note"] == f"identical on all {deals} deals" and row["p"] == 1
    eff = fx.effect_rows([f])[0]
    assert (eff["ci_lo"], eff["ci_hi"]) == pytest.approx((-3 / deals, 3 / deals))
    assert not eff["moves"] and eff["note"] == row["note"]
    # the same ruleset: the same game by construction, [0, 0]
    same = fx.pair_families("k", ["a", "b"], [share, share], ["m"], arms=["h1", "h1"])[0]
    row = fx.difference_rows([same])[0]
    assert (row["ci_lo"], row["ci_hi"]) == (0, 0) and row["note"] == "the same ruleset"


def test_identical_mean_takes_the_span_of_its_deals():
    deals = 100
    v = np.linspace(10, 40, deals)  # a mean figure: per-deal values from 10 to 40
    mean = {"m": ratio(v, np.ones(deals), "mean")}
    f = fx.pair_families("k", ["a", "b"], [mean, mean], ["m"], arms=["h1", "h2"])[0]
    row = fx.difference_rows([f])[0]
    assert row["ci_hi"] == pytest.approx(3 / deals * 30) and row["ci_lo"] == -row["ci_hi"]
    assert zero_half_width(deals, 30) == pytest.approx(0.9)


# --- rank intervals ----------------------------------------------------------------------------

def test_rank_intervals():
    """A knob far stronger than two close ones ranks first in every resample; the two close
    ones share ranks 2 and 3; a knob that does nothing stays last."""
    rng = np.random.default_rng(11)
    deals = 200
    fams = []
    for key, mu in (("strong", [0, 3]), ("a", [0, 0.40]), ("b", [0, 0.42]), ("null", [0, 0])):
        ests = knob_estimates(mu, deals, rng)
        fams += fx.pair_families(key, ["0", "1"], ests, ["m"])
    knobs = ["strong", "a", "b", "null"]
    ci = fx.rank_intervals(fams, knobs, seed=1)
    assert ci["strong"] == (1, 1)
    assert ci["a"][0] == 2 and ci["a"][1] >= 3 and ci["b"][0] == 2 and ci["b"][1] >= 3
    assert ci["null"][1] == 4
    tables = fx.analyse(fams, knobs, seed=1)
    r = tables["ranking"].set_index("knob")
    for k in knobs:
        assert r.loc[k, "rank_lo"] <= r.loc[k, "rank"] <= r.loc[k, "rank_hi"], k
    assert fx.rank_intervals(fams, knobs, seed=1) == ci  # seeded


@pytest.mark.slow  # 300 runs of 30 pairs: about a minute (smaller knobs do not separate)
def test_the_rankings_pick_is_covered_over_the_knobs_figures():
    """A knob of four values that moves none of five figures: the ranking picks the figure
    (and its pair) furthest from 0, so an interval simultaneous over that figure's pairs only
    misses more than 5% of the time; the one over every pair of every figure of the knob
    holds the picked difference (0) in at least 93% of the runs. (The flags are not what is
    tested here: ``method="none"`` spares the adjustment's draws, and the knob's quantile is
    computed once.)"""
    rng = np.random.default_rng(909)
    runs, deals, labels, figures = 300, 60, ["0", "1", "2", "3"], ["m0", "m1", "m2", "m3", "m4"]
    whole = one = 0
    for _ in range(runs):
        luck = rng.normal(0, 1, deals)
        ests = [{m: ratio(luck + rng.normal(0, 1, deals), np.ones(deals)) for m in figures}
                for _ in labels]
        fams = fx.pair_families("k", labels, ests, figures)
        effects = fx.knob_effects(fams, "none")
        kq = fx.knob_quantiles(fams, ["k"])  # once, as the run does
        new = fx.rank_knobs(effects, ["k"], method="none", families=fams, knob_q=kq).iloc[0]
        old = fx.rank_knobs(effects, ["k"], method="none").iloc[0]
        whole += new["ci_lo"] <= 0 <= new["ci_hi"]
        one += old["ci_lo"] <= 0 <= old["ci_hi"]
        # the strength is that interval's: above 1 exactly when it excludes 0
        assert (new["strength"] > 1) == (new["ci_lo"] > 0 or new["ci_hi"] < 0)
        assert kq["k"] > max(f.quantile() for f in fams)
    assert whole / runs >= 0.93
    assert one / runs < 0.93


# --- a difference few deals show ---------------------------------------------------------------

def test_a_difference_few_deals_show_has_the_count_floor():
    """Two rulesets that differ on 3 of 500 deals, each time by +0.1 of a per-deal mean whose
    values span 1: the t interval (about +0.0006 +- 0.0007) rests on three values; the
    interval is at least the exact upper bound on 3 of 500 deals (0.0175) times the span."""
    deals = 500
    rng = np.random.default_rng(4)
    base = rng.uniform(0, 1, deals)
    base[[0, 1]] = (0.0, 1.0)  # the span of the per-deal values: 1 (then 1.1)
    moved = base.copy()
    moved[[10, 20, 30]] += 0.1
    ests = [{"m": ratio(base, np.ones(deals), "mean")}, {"m": ratio(moved, np.ones(deals),
                                                                      "mean")}]
    f = fx.pair_families("k", ["a", "b"], ests, ["m"], arms=["h1", "h2"])[0]
    d = f.diffs[0]
    assert d.differing() == 3
    row = fx.difference_rows([f])[0]
    from sim.stats.intervals import exact_interval

    floor = exact_interval(3, deals)[1][0] * d.change
    assert d.change >= 1
    assert row["ci_hi"] - row["diff"] == pytest.approx(floor)
    assert row["diff"] - row["ci_lo"] == pytest.approx(floor)
    q = fx.single_quantile(deals)
    assert q * d.se < floor / 5  # the t interval alone: far narrower
    assert not row["excludes_zero"]
    # ten deals differing or more: the t interval as before
    many = base.copy()
    many[10:60] += 0.1
    f = fx.pair_families("k", ["a", "b"], [ests[0], {"m": ratio(many, np.ones(deals), "mean")}],
                         ["m"], arms=["h1", "h2"])[0]
    assert f.diffs[0].half_width(q) == pytest.approx(q * f.diffs[0].se)


def test_a_rare_difference_is_covered():
    """Each of 400 deals differs with probability 0.005, by +1 of a share one time in ten and
    by +0.05 otherwise (true difference 0.000725): most runs see two or three small changes
    and no large one, so the t interval alone misses often; with the count floor the interval
    holds the truth in at least 95% of 300 runs."""
    rng = np.random.default_rng(77)
    deals, runs, covered, t_only = 400, 300, 0, 0
    true = 0.005 * (0.1 * 1 + 0.9 * 0.05)
    for _ in range(runs):
        a = rng.uniform(0, 0.9, deals)
        b = a.copy()
        hit = rng.random(deals) < 0.005
        big = rng.random(deals) < 0.1
        a[hit & big] = 0.0
        b[hit] = a[hit] + np.where(big[hit], 1.0, 0.05)
        ests = [{"m": ratio(a, np.ones(deals), "share")}, {"m": ratio(b, np.ones(deals),
                                                                        "share")}]
        f = fx.pair_families("k", ["a", "b"], ests, ["m"], arms=["h1", "h2"])[0]
        row = fx.difference_rows([f])[0]
        covered += row["ci_lo"] <= true <= row["ci_hi"]
        d = f.diffs[0]
        h = fx.single_quantile(deals) * d.se if d.se > 0 else d.half_width(1.0)
        t_only += d.value - h <= true <= d.value + h
    assert covered / runs >= 0.95
    assert t_only / runs < 0.90  # the t interval alone (so the check can fail)
