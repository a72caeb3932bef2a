"""The fortune-teller deck in whole games: dealt per game from the game's seed, one card a round;
a ruleset can turn it off, fix its order or leave cards out. (Chip conservation with the deck and
every set: test_game_invariants.test_deck_games_with_every_set_keep_every_chip.)"""

from __future__ import annotations

import pytest

from sim.api.events import event_dict
from sim.api.game import replay
from sim.kernel import layout as L
from sim.rules.cards import CARD_IDS
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy

LINEUP = [parse_strategy(s) for s in ("greedy", "ev", "balanced", "random")]


def cards_of(rs, seed, game):
    events, _ = replay(rs, LINEUP, seed=seed, game=game)
    return [event_dict(e)["card"] for e in events if int(e[2]) == L.EV_CARD]


def test_the_base_deck_deals_nine_different_cards_per_game():
    rs = load_ruleset("base")
    a = cards_of(rs, 7, 0)
    assert len(a) == 9 and len(set(a)) == 9 and set(a) <= set(CARD_IDS)
    assert cards_of(rs, 7, 0) == a  # the game's seed decides the deck
    assert any(cards_of(rs, 7, g) != a for g in range(1, 4))  # and games differ


def test_the_deck_can_be_turned_off():
    assert cards_of(load_ruleset("base", ["cards.deck=false"]), 7, 0) == []


def test_a_fixed_order_is_played_in_order():
    order = ["living-in-luxury", "charity", "magic-potion"]
    rs = load_ruleset("base", [f'cards.order={order!r}'.replace("'", '"')])
    assert cards_of(rs, 7, 0) == order  # then the deck has run out: no card


def test_excluded_cards_never_come_up():
    base = CARD_IDS[:24]  # the witch-hat cards 25-27 are never in a deck without the witches
    keep = ["charity", "magic-potion"] + [c for c in base if c.startswith("a-")]
    out = [c for c in base if c not in keep]
    rs = load_ruleset("base", ["cards.exclude=" + str(out).replace("'", '"')])
    for g in range(5):
        dealt = cards_of(rs, 3, g)
        assert set(dealt) <= set(keep) and len(dealt) == len(keep)


def test_bad_card_lists_are_refused():
    from sim.rules.ruleset import RulesetError

    with pytest.raises(RulesetError, match="cards.exclude"):
        load_ruleset("base", ['cards.exclude=["no-such-card"]'])
