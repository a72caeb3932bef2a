"""``quacks compare``: a difference 0 on every deal is [0, 0] only for the same game by
construction (issue 50 item 4); two different rulesets get +-3/n times the figure's largest
change on one deal, noted "identical on all n deals"."""

from __future__ import annotations

import numpy as np
import pytest

from sim.study.compare.config import CompareConfig
from sim.study.compare.run import difference_row, run_compare
from sim.study.compare.stats import ratio

FIELD = ["cautious", "greedy", "expected-value"]


def _share(x):
    x = np.asarray(x, np.float64)
    return ratio(x, np.ones_like(x), "share")


def test_hand_made_identical_share_gets_the_rule_of_three():
    a = _share([1, 0, 0, 1, 0, 1, 0, 0, 0, 1] * 3)  # 30 deals, the same on both sides
    b = _share([1, 0, 0, 1, 0, 1, 0, 0, 0, 1] * 3)
    r = difference_row(a, b, same=False)
    assert r["value"] == 0.0 and r["deals"] == 30
    assert r["ci_lo"] == pytest.approx(-3 / 30) and r["ci_hi"] == pytest.approx(3 / 30)
    assert r["note"] == "identical on all 30 deals"
    same = difference_row(a, b, same=True)
    assert (same["ci_lo"], same["ci_hi"]) == (0.0, 0.0) and same["note"] == "the same ruleset"


def test_hand_made_identical_mean_uses_the_span_of_the_per_deal_values():
    x = np.array([40.0, 55.0, 47.0, 62.0, 51.0, 44.0, 58.0, 49.0, 53.0, 60.0])
    a = ratio(x, np.full(10, 3.0))  # a mean over 3 observations per deal
    r = difference_row(a, ratio(x.copy(), np.full(10, 3.0)), same=False)
    span = (x.max() - x.min()) / 3  # per-deal values are the per-deal means
    assert r["ci_hi"] == pytest.approx(3 / 10 * span) and r["ci_lo"] == pytest.approx(-r["ci_hi"])


@pytest.fixture(scope="module")
def lap49():
    """Base, base again, and rats.lap=49 (the rat track's lap, a rule that changes no game on
    most deals at 20 deals)."""
    return run_compare(CompareConfig(rulesets=["base", "base", ("lap49", "base", ["rats.lap=49"])],
                                     games=60, seed=1, strategies=FIELD))


def test_different_rulesets_never_get_zero_width(lap49):
    d = lap49.tables["differences"]
    lap = d[d["ruleset"] == "lap49"]
    ident = lap[lap["note"] == "identical on all 20 deals"]
    assert len(ident) >= 3, lap[["metric", "strategy", "diff", "note"]]
    assert (ident["diff"] == 0).all()
    assert (ident["ci_lo"] < 0).all() and (ident["ci_hi"] > 0).all()
    shares = ident[ident["metric"].str.startswith(("seat_", "win_share"))]
    assert len(shares) and np.allclose(shares["ci_hi"], 3 / 20)
    assert (lap["ci_hi"] > lap["ci_lo"]).all()  # no [0, 0] anywhere for a different ruleset
    js = lap49.to_json()
    entry = next(e for e in js["differences"] if e["label"] == "lap49")
    assert entry["metrics"]["seat_0"]["note"] == "identical on all 20 deals"


def test_the_same_ruleset_stays_exactly_zero(lap49):
    d = lap49.tables["differences"]
    same = d[d["ruleset"] == "base#2"]
    assert len(same) and (same["ci_lo"] == 0).all() and (same["ci_hi"] == 0).all()
    assert (same["note"] == "the same ruleset").all()


def test_the_report_shows_the_note(lap49):
    from sim.study.compare.report import difference_rows

    _, rows = difference_rows(lap49)
    assert any("(identical on all 20 deals)" in c for row in rows for c in row)
