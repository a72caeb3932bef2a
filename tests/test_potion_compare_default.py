"""``quacks potion --regret`` runs ``sim.potion``: an empty ``--compare`` (or ``compare=""`` /
``[]``) is the default list of stop rules, as the command always read it."""

import pytest

import sim
from sim.api.potion import DEFAULT_COMPARE


@pytest.mark.parametrize("compare", ["", [], None])
def test_empty_compare_is_the_default_list(compare):
    r = sim.potion(bag="w1x2,o1", regret=True, compare=compare, n=1000)
    assert [x["rule"] for x in r.answer["rules"]] == list(DEFAULT_COMPARE)
