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


# --- a card forced into a round (cards.force, cards.force_round) ------------------------------

SEATS = ("greedy", "ev", "balanced", "random")


def dealt(over, games=(0,), rotations=None, seed=7):
    """Each game's card of every round (card ids, "-" for none), from the rounds record."""
    import numpy as np

    from sim.api.columns import round_columns
    from sim.api.game import play_batch
    from sim.rules.cards import CARDS

    rs = load_ruleset("base", over)
    g = np.asarray(games, dtype=np.int64)
    rot = np.zeros_like(g) if rotations is None else np.asarray(rotations, dtype=np.int64)
    res = play_batch(rs, LINEUP, games=g, rotations=rot, seed=seed, detail=True)
    nr = int(rs.game("rounds"))
    card = round_columns(res.rounds)["card"].reshape(len(g), nr, len(SEATS))[:, :, 0]
    return [[CARDS[c - 1].id if c else "-" for c in row] for row in card], res


# seed 7, game 0, 20 rounds: the first 20 cards of the shuffled deck, read off the game once
# (again when the deck got its own random stream, sim.kernel.rng.DECK_STREAM)
DECK20 = ["the-pot-is-filling-up", "less-is-more", "you-only-get-to-choose-one",
          "a-second-chance", "choose-wisely", "magic-potion", "rat-infestation",
          "its-shining-extra-bright", "the-pot-is-full", "living-in-luxury", "roll-the-die",
          "lucky-devil", "pumpkin-patch-party", "beginners-bonus", "well-stirred",
          "an-opportunistic-moment", "charity", "a-good-start", "rats-are-your-friends",
          "schadenfreude"]


def test_a_forced_card_swaps_places_with_the_card_of_its_round():
    (deck,), _ = dealt(["game.rounds=20"])
    assert deck == DECK20
    # charity (round 17) forced into round 2: less-is-more, round 2's card, goes to 17
    (forced,), _ = dealt(["game.rounds=20", 'cards.force="charity"', "cards.force_round=2"])
    assert forced == [*DECK20[:1], "charity", *DECK20[2:16], "less-is-more", *DECK20[17:]]
    # within the nine rounds: a-second-chance (round 4) into round 8 swaps with
    # its-shining-extra-bright
    (nine,), _ = dealt(['cards.force="a-second-chance"', "cards.force_round=8"])
    assert nine == [*DECK20[:3], "its-shining-extra-bright", *DECK20[4:7], "a-second-chance",
                    DECK20[8]]
    # already in round K: nothing moves
    (same,), _ = dealt(['cards.force="choose-wisely"', "cards.force_round=5"])
    assert same == DECK20[:9]


def test_a_forced_card_outside_the_deck_replaces_the_card_of_its_round():
    (out,), _ = dealt(['cards.exclude=["living-in-luxury"]'])
    (back,), _ = dealt(['cards.exclude=["living-in-luxury"]', 'cards.force="living-in-luxury"',
                        "cards.force_round=2"])
    assert "living-in-luxury" not in out and back == [out[0], "living-in-luxury", *out[2:]]
    order = 'cards.order=["charity","magic-potion","living-in-luxury"]'
    (fixed,), _ = dealt([order, 'cards.force="lucky-devil"', "cards.force_round=5"])
    assert fixed == ["charity", "magic-potion", "living-in-luxury", "-", "lucky-devil"] + ["-"] * 4
    (first,), _ = dealt([order, 'cards.force="living-in-luxury"', "cards.force_round=1"])
    assert first == ["living-in-luxury", "magic-potion", "charity"] + ["-"] * 6
    (alone,), _ = dealt(["cards.deck=false", 'cards.force="charity"', "cards.force_round=4"])
    assert alone == ["-"] * 3 + ["charity"] + ["-"] * 5


def test_force_round_0_spreads_the_card_and_every_game_of_a_deal_shares_its_round():
    import numpy as np

    from sim.api.forced_card import forced_rounds

    deals = np.repeat(np.arange(180), 4)
    rot = np.tile(np.arange(4), 180)
    over = ['cards.force="charity"', "cards.force_round=0"]
    decks, _ = dealt(over, games=deals, rotations=rot)
    rounds = np.array([d.index("charity") + 1 for d in decks]).reshape(180, 4)
    assert (rounds == rounds[:, :1]).all()  # every seating of a deal: the same round
    k = forced_rounds(load_ruleset("base", over), 7, np.arange(180))
    assert (rounds[:, 0] == k).all()
    counts = np.bincount(k, minlength=10)[1:]
    assert (counts > 8).all() and counts.sum() == 180  # every round, about 20 each
    assert not (forced_rounds(load_ruleset("base", over), 8, np.arange(180)) == k).all()
    # the round depends on the deal only, not on the card
    other = load_ruleset("base", ['cards.force="magic-potion"', "cards.force_round=0"])
    assert (forced_rounds(other, 7, np.arange(180)) == k).all()


def test_forcing_changes_no_other_draw():
    """A no-op forced card (Rat Infestation with the rats off, no deck) leaves every game as it
    was; a card forced into round K leaves rounds 1..K-1 as they were when the displaced card
    had no earlier round."""
    import numpy as np

    g = np.arange(40)
    quiet = ["cards.deck=false", "game.rats_from_round=21"]
    _, a = dealt(quiet, games=g)
    _, b = dealt([*quiet, 'cards.force="rat-infestation"', "cards.force_round=0"], games=g)
    from sim.api.columns import CARD_COLUMN, ROUND_COLUMNS

    # every round record field but the card itself
    fields = [i for name, at in ROUND_COLUMNS.items() if name != CARD_COLUMN for i in at]
    assert np.array_equal(a.rounds[..., fields], b.rounds[..., fields])
    decks, c = dealt([], games=g)
    forced, d = dealt(['cards.force="magic-potion"', "cards.force_round=6"], games=g)
    later = 0
    for i in range(len(g)):
        if "magic-potion" in decks[i][:5]:
            continue
        later += 1
        assert np.array_equal(c.rounds[i, :5], d.rounds[i, :5])
        want = list(decks[i])
        if "magic-potion" in want:  # it would have come after round 6: the swap
            want[want.index("magic-potion")] = want[5]
        want[5] = "magic-potion"
        assert forced[i] == want
    assert later > 25


def test_an_unset_force_is_the_ordinary_game():
    import numpy as np

    g = np.arange(30)
    _, a = dealt([], games=g)
    _, b = dealt(['cards.force=""', "cards.force_round=4"], games=g)
    assert np.array_equal(a.out, b.out) and np.array_equal(a.rounds, b.rounds)


@pytest.mark.parametrize("setting, fragment", [
    ("cards.force=nope", "key 'cards.force': expected a card id"),
    ("cards.force_round=10", "key 'cards.force_round': expected 0 (a round per deal) to 9"),
    ("cards.force_round=-1", "key 'cards.force_round': expected an integer from 0 to 20"),
    ('cards.force="visit-from-a-witch"', "visit-from-a-witch needs the herb witches"),
])
def test_bad_forced_cards_are_one_line_and_exit_2(setting, fragment):
    from cli_helpers import assert_user_error, invokers

    from sim.cli.main import app

    invoke, _ = invokers(app)
    assert_user_error(invoke("play", "--games", 4, "--set", setting), fragment)
