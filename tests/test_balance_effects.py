"""``quacks balance`` witches and ingredient books (sim.study.balance.witches, .books): one
member of the field restricted against the same field unrestricted, paired by deal and seat
(sim.study.balance.restricted). A restriction that changes nothing costs exactly nothing even
where the seats differ a lot (the seat advantage cancels seat by seat); forbidding the colour a
strategy lives on costs it; a buyer that ignores its list is caught; base has no witches; and
the tables do not depend on the thread count.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.rules.ruleset import load_ruleset
from sim.study.balance import books, witches
from sim.study.balance.arms import MeasureError, arm_plan, play_arm, seated_field
from sim.study.balance.books import book_effects, forbid, sold_colours
from sim.study.balance.restricted import members, restricted_effects, with_param
from sim.study.balance.witches import witch_effects


def test_specs_with_a_parameter_set_and_a_colour_forbidden():
    assert with_param("balanced", "flask", "3") == "balanced:flask=3"
    assert with_param("risk:p=0.3,buy=r4,b4,flask=1", "buy", "g4") == "risk:p=0.3,flask=1,buy=g4"
    assert forbid("pumpkin", "red") == "pumpkin:buy=k1>o1"  # its list: r4, k1, r2, o1, r1
    assert forbid("pumpkin", "green") == "pumpkin"  # never bought: nothing to restrict
    assert forbid("balanced:buy=blue", "blue") == "balanced:buy=blue,buyer=none"
    for spec in ("random", "balanced:buyer=random", "master:buy_by=model"):
        with pytest.raises(MeasureError, match="cannot be forbidden"):
            forbid(spec, "red")
    assert members(["a", "b", "a", "a"]) == [(0, "a", 0.75), (1, "b", 0.25)]
    assert seated_field(["a", "b"], 3) == ["a", "b", "a"]
    assert sold_colours(load_ruleset("base")) == ["orange", "green", "blue", "red", "yellow",
                                                  "purple", "black"]
    assert "locoweed" in sold_colours(load_ruleset("herb-witches", ["books.all=5"]))


def test_the_seat_advantage_cancels_seat_by_seat():
    """A field whose members differ a lot; its first member "restricted" to a spec that plays
    the same: the difference is exactly 0 in every deal (compared with any other seat it would
    not be), and the member sat in every seat."""
    field = ["balanced", "cautious", "greedy", "random"]
    ref = play_arm(arm_plan("base", [], field, 60, 9), None, ["win_share", "vp"])
    means = [ref.cols["vp"][ref.strategy == k].mean() for k in range(4)]
    assert max(means) - min(means) > 5
    seen = []

    def look(arm, seats, spec):
        seen.append(np.nonzero(seats)[1])

    same = lambda s: with_param(s, "flask", "2") if s == "balanced" else s  # noqa: E731
    effect, games = restricted_effects(ref, None, same, ["win_share", "vp"], check=look)
    assert games == 60 and all((effect[m] == 0).all() for m in effect)
    assert set(seen[0]) == {0, 1, 2, 3}


@pytest.fixture(scope="module")
def pumpkin():
    return book_effects("base", [], 4, ["pumpkin"], 300, 4, None).set_index("colour")


def test_a_forbidden_colour_costs_the_strategy_that_lives_on_it(pumpkin):
    red = pumpkin.loc["red"]
    assert red["win_share_hi"] < 0 and red["vp_hi"] < 0 and red["games"] == 300
    for c in ("green", "blue", "yellow", "purple"):  # never on its list: no arm, exactly 0
        r = pumpkin.loc[c]
        assert r["games"] == 0 and (r[["win_share", "win_share_lo", "vp_hi"]] == 0).all()
    assert pumpkin["winner_buy_share"].sum() == pytest.approx(1)
    assert pumpkin.loc["red", "winner_buy_share"] > 0.3 and pumpkin.loc["green",
                                                                       "winner_buy_share"] == 0
    ok = pumpkin[["winner_buy_share_lo", "winner_buy_share", "winner_buy_share_hi"]]
    assert (ok.diff(axis=1).iloc[:, 1:] >= 0).all().all()
    assert (pumpkin["deals"] == 300).all()


def test_a_buyer_that_ignores_its_list_is_caught(monkeypatch):
    monkeypatch.setattr(books, "forbid", lambda s, c: with_param(s, "buyer", "random"))
    with pytest.raises(MeasureError, match="does not keep to the list"):
        book_effects("base", [], 2, ["balanced"], 30, 1, None)


def test_no_witches_in_base():
    df = witch_effects("base", [], 4, ["expert"], 30, 1, None)
    assert df.empty and list(df.columns) == witches.COLUMNS


def test_a_seat_that_never_calls_a_witch_loses_nothing_by_going_without():
    df = witch_effects("herb-witches", [], 3, ["balanced:witches=never,flask=2"], 20, 2, None)
    assert len(df) == 12 and (df["called"] == 0).all()
    for m in ("win_share", "vp"):
        assert (df[[m, f"{m}_lo", f"{m}_hi"]] == 0).all().all()


def test_witches_called_and_worth():
    df = witch_effects("herb-witches", [], 3, ["balanced"], 150, 2, None).set_index("witch")
    assert ((df["called_lo"] <= df["called"]) & (df["called"] <= df["called_hi"])).all()
    assert (df["called"] > 0).sum() >= 10 and df.loc["second-flask", "called"] < 1
    assert list(df["group"].unique()) == ["potion", "buying", "points"]
    # going without the witches keeps the three pennies (6 VP); the witches are worth more
    assert df["vp"].mean() > 0 and (df["games"] == 150).all()


def test_the_tables_do_not_depend_on_the_threads():
    import numba

    n = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = book_effects("base", [], 3, ["greenruby"], 40, 6, None)
        numba.set_num_threads(max(2, n) if numba.config.NUMBA_NUM_THREADS > 1 else 1)
        two = book_effects("base", [], 3, ["greenruby"], 40, 6, None)
    finally:
        numba.set_num_threads(n)
    assert one.equals(two)


@pytest.mark.slow
def test_dask_gives_the_local_answer():
    pytest.importorskip("distributed")
    import logging

    from distributed import LocalCluster

    from sim.study.balance.cards import card_effects
    from sim.study.tournament.backend import make_backend

    args = ("base", ["cards.deck=false"], 2, ["balanced", "greedy"], 12, 3)
    local = card_effects(*args, None)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0", silence_logs=logging.ERROR) as c, \
            make_backend("dask", scheduler=c.scheduler_address) as be:
        far = card_effects(*args, be)
        far_books = book_effects("base", [], 2, ["pumpkin"], 12, 3, be)
    assert far.equals(local)
    assert far_books.equals(book_effects("base", [], 2, ["pumpkin"], 12, 3, None))
