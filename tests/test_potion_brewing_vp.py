"""The potion command counts the VP a potion's chips score while brewing (a book or card that
scores as a chip is placed), beside its reward space's: ``expected_vp`` is each potion's VP in
all and ``expected_brewing_vp`` the chips' part, each with its 95% interval.

Worked by hand (component-data.md: the base board's ruby spaces are 5, 9, 13, ...; blue Set 4: a
blue chip placed on a ruby space scores its value in VP at once). A bag of one b2 stopped never
places it 2 spaces past the start: from start 3 on space 5, a ruby space, 2 VP; from start 4 on
space 6, none. The reward space is the one right after it (6 or 7), worth rs.vp VP. Every
potion is the same, so the mean is exact and its interval has no width; before the kernel
counted the chips' VP, the answer was the space's VP alone (and the chips' VP of one potion was
carried into the next in a chunk).
"""

from __future__ import annotations

import pytest

from sim.api import potion as pot
from sim.rules.ruleset import load_ruleset


def _answer(start: int, blue: int, n: int = 300) -> dict:
    rs = load_ruleset("base", [f"books.blue={blue}"])
    q = pot.make_query("b2", "never", None, start, rs)
    return pot.summarize(pot.sample(q, n, 1, full=True), q, is_exact=False, seed=1)


@pytest.mark.parametrize(("start", "blue", "chips_vp"), [(3, 4, 2), (4, 4, 0), (3, 1, 0)])
def test_a_blue_set_4_chip_on_a_ruby_space_scores_in_the_potion(start, blue, chips_vp):
    rs = load_ruleset("base", [])
    got = _answer(start, blue)
    space = start + 3  # the space right after the b2
    assert got["expected_reward_space"] == space
    assert got["expected_brewing_vp"] == chips_vp
    assert got["expected_brewing_vp_ci"] == [chips_vp, chips_vp]
    assert got["expected_vp"] == rs.vp[space] + chips_vp
    assert got["expected_vp_ci"] == [rs.vp[space] + chips_vp] * 2


def test_the_chips_vp_of_one_potion_is_not_carried_into_the_next():
    one = _answer(3, 4, n=1)
    q = pot.make_query("b2", "never", None, 3, load_ruleset("base", ["books.blue=4"]))
    many = pot.sample(q, 500, 1, chunks=1, full=True)
    assert one["expected_brewing_vp"] == 2
    assert many[pot.BREW_AT + 2].sum() == 500  # every potion scored 2, none 4, 6, ...
