"""``quacks balance`` cards: each fortune-teller card forced into a round (``cards.force``) against
the same deals unforced (sim.study.balance.cards). A card that cannot matter has no effect at
all (every interval exactly [0, 0]: the arms are paired game by game), a card made strong by the
ruleset ranks first, and the trailing player and the rank score are the ones worked out by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.study.balance.arms import ArmGames
from sim.study.balance.cards import (
    COLUMNS,
    METRICS,
    card_effects,
    deck_cards,
    per_deal_metrics,
    rank_scores,
)

# No deck (a forced card is measured against no card) and no rats: Rat Infestation doubles
# nothing, A Good Start has no tail to give up.
QUIET = ["cards.deck=false", "game.rats_from_round=21"]
# Every score a rat tail: Rats Are Your Friends pays 1 VP for every VP a player trails by.
DENSE_RATS = "rats.tails=[" + ",".join(str(i) for i in range(1, 50)) + "]"
# ... and a ruleset where it can do nothing: no rats and no 4-chip in the box to give.
NO_FOUR_CHIPS = [f"supply.{c}4=0" for c in "gbry"]


def row(df, card):
    return df.set_index("card").loc[card]


def exactly_zero(r):
    return all(r[m] == 0 and r[f"{m}_lo"] == 0 and r[f"{m}_hi"] == 0 for m in METRICS)


@pytest.fixture(scope="module")
def quiet():
    return card_effects("base", QUIET, 2, ["balanced"], 40, 5, None)


def test_the_table_has_every_card_of_the_deck_once_ranked(quiet):
    assert list(quiet.columns) == COLUMNS
    assert sorted(quiet["card"]) == sorted(c.id for c in deck_cards("base", []))
    assert len(quiet) == 24 and len(deck_cards("herb-witches", [])) == 27
    assert list(quiet["rank"]) == sorted(quiet["rank"]) and quiet["rank"].iloc[0] == 1
    assert (quiet["games"] == 40).all() and (quiet["deals"] == 40).all()


def test_a_card_that_cannot_matter_has_every_interval_at_0(quiet):
    for card in ("rat-infestation", "a-good-start"):
        r = row(quiet, card)
        assert exactly_zero(r), r  # contains 0, and is 0 wide: the same games, deal by deal
        assert r["score"] == 0 and r["rank"] == quiet["rank"].max()
    # while a card that does something is measured: Just in Time's 4 VP (or a white 1 out)
    assert row(quiet, "just-in-time")["vp_lo"] > 0


def test_a_card_made_strong_ranks_first():
    strong = card_effects("base", ["cards.deck=false", DENSE_RATS], 4, ["balanced"], 100, 3,
                          None)
    r = row(strong, "rats-are-your-friends")
    assert r["rank"] == 1 and r["vp_lo"] > 3
    assert strong["score"].iloc[0] > 1.3 * strong["score"].iloc[1]
    # the same card neutralised: nothing to give, every interval at 0, ranked last
    weak = card_effects("base", [*QUIET, *NO_FOUR_CHIPS], 4, ["balanced"], 30, 3, None)
    r = row(weak, "rats-are-your-friends")
    assert exactly_zero(r) and r["rank"] == weak["rank"].max()


def fake_arm(vp, explosions, win_share, score):
    """An arm of one game per deal from hand-made arrays (games, seats) and (games, 9, seats)."""
    from types import SimpleNamespace

    plan = SimpleNamespace(deals=len(vp), games_per_deal=1, rounds=9)
    cols = {"vp": np.array(vp), "explosions": np.array(explosions),
            "win_share": np.array(win_share, dtype=float)}
    return ArmGames(plan, cols, np.zeros_like(cols["vp"]), np.array(score))


def test_the_metrics_of_a_deal_worked_by_hand():
    score = np.zeros((3, 9, 3), dtype=np.int64)
    score[0, 3] = [10, 4, 7]  # after round 4: seat 1 trails
    score[1, 3] = [6, 9, 6]  # seats 0 and 2 tied last
    score[2, 3] = [1, 2, 3]  # (game 2's card comes in round 1: everyone is tied before it)
    arm = fake_arm(vp=[[30, 40, 50], [20, 20, 20], [9, 9, 12]],
                   explosions=[[0, 3, 6], [9, 0, 0], [0, 0, 0]],
                   win_share=[[0, 0, 1], [0.5, 0, 0.5], [0, 0, 1]], score=score)
    m = per_deal_metrics(arm, forced=np.array([5, 5, 1]))
    assert m["vp"].tolist() == [40, 20, 10]
    assert m["explosions"].tolist() == [1 / 3, 1 / 3, 0]  # explosions per potion: 9 of 27
    assert m["trailing_win"].tolist() == [0, 0.5, 1 / 3]


def test_the_rank_score_worked_by_hand():
    effects = np.array([[1.0, 0.0, 0.0], [0.0, -2.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.3]])
    s = rank_scores(effects, np.array([1.0, 2.0, 0.0]))
    assert s[:3].tolist() == pytest.approx([np.sqrt(1 / 3), np.sqrt(1 / 3), 0])
    assert s[3] == np.inf  # moving a metric that never varies ranks above everything
