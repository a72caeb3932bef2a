"""Complete Herb Witches games, 2 to 5 players: chip conservation against the box, bags rebuilt
from the events (witch upgrades and free twins included), legal purchases with the coin witches,
each witch called at most once a game and only when in play, pennies scored at the end,
reproducibility and replay. Numbers come from component-data.md sections 5 and 10, not from the
ruleset file."""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np
import pytest

from sim.api.events import event_dict
from sim.api.game import play_batch, replay
from sim.kernel.records import O_ERR, O_SCORE, O_WITCHES, RD_SCORE
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy
from tests.test_game_invariants import drive_game

# section 5.1 plus section 5.2
BOX = {"w1": 25, "w2": 10, "w3": 5, "o1": 32, "o6": 20, "g1": 25, "g2": 15, "g4": 18, "b1": 22,
       "b2": 15, "b4": 15, "r1": 18, "r2": 13, "r4": 15, "y1": 19, "y2": 11, "y4": 15, "p1": 23,
       "k1": 26, "l1": 25}
PRICE = {"o1": 3, "o6": 22, "g1": 4, "g2": 8, "g4": 14, "b1": 5, "b2": 10, "b4": 19, "r1": 6,
         "r2": 10, "r4": 16, "y1": 8, "y2": 12, "y4": 18, "p1": 9, "k1": 10}
START_BAG = Counter({"w1": 4, "w2": 2, "w3": 1, "o1": 1, "g1": 1})
GROUP_OF = {w: (i // 4) for i, w in enumerate(
    ["second-flask", "six-chips", "whites-back", "both-rewards", "upgrade", "double-coins",
     "free-twin", "ruby-coins", "colours", "bag-points", "ruby-space", "cheap-rubies"])}

RS = load_ruleset("herb-witches", ["cards.deck=false"])
SETS = {1: RS, 5: load_ruleset("herb-witches", ["cards.deck=false", "books.all=5"]),
        6: load_ruleset("herb-witches", ["cards.deck=false", "books.all=6"])}
PRICES56 = {5: {"g1": 5, "g2": 9, "g4": 16, "b1": 8, "b2": 15, "b4": 19, "r1": 6, "r2": 11,
                "r4": 18,
                "y1": 10, "y2": 14, "y4": 20, "p1": 9, "k1": 10, "l1": 8},
            6: {"g1": 4, "g2": 8, "g4": 14, "b1": 5, "b2": 10, "b4": 18, "r1": 7, "r2": 11,
                "r4": 17,
                "y1": 8, "y2": 12, "y4": 18, "p1": 16, "k1": 9, "l1": 10}}  # section 6
LINEUP = ["random", "expert", "balanced", "random:p=0.1", "greedy"]
GAMES = 40
CASES = [(n, 1) for n in (2, 3, 4, 5)] + [(n, k) for n in (3, 5) for k in (5, 6)]


@pytest.fixture(scope="module")
def played():
    return {(n, k): [drive_game(500 + n + k, g, [parse_strategy(x) for x in LINEUP[:n]], SETS[k],
                                  BOX)
                     for g in range(GAMES)] for n, k in CASES}


def price_of(k, chip):
    return {**PRICE, **PRICES56.get(k, {})}[chip]


@pytest.mark.parametrize("n, k", CASES)
def test_no_illegal_decisions_and_every_witch_seen(played, n, k):
    seen = set()
    for events, out, _, _ in played[(n, k)]:
        assert (out[:, O_ERR] == 0).all()
        for e in events:
            if e["event"] == "witch" and "witch" in e:
                seen.add(e["witch"])
    if (n, k) == (5, 1):  # 40 games x 3 witches in play, random callers: every witch is called
        assert seen == set(GROUP_OF)


@pytest.mark.parametrize("n, k", CASES)
def test_bags_follow_from_events(played, n, k):
    for events, _, _, bags in played[(n, k)]:
        recon = [Counter(START_BAG) for _ in range(n)]
        gifts = Counter()  # black Set 5: a black chip bought goes to the left neighbour
        for r in range(1, 10):
            for e in events:
                if e["round"] != r or "seat" not in e:
                    continue
                bag = recon[e["seat"]]
                if e["event"] == "white_added":
                    bag["w1"] += 1
                elif e["event"] == "die" and e["face"] == "pumpkin":
                    pass  # checked below through the box count (an empty supply gives nothing)
                elif e["event"] == "black_gift":
                    assert k == 5 and e["to_seat"] == (e["seat"] + 1) % n
                    recon[e["to_seat"]]["k1"] += 1
                    gifts[e["seat"]] += 1
                elif e["event"] == "buy" and e["chip"] == "k1" and gifts[e["seat"]]:
                    gifts[e["seat"]] -= 1
                elif e["event"] == "buy":
                    bag[e["chip"]] += 1
                elif e["event"] == "upgrade":
                    bag[e["chip"]] -= 1
                    bag[e["to"]] += 1
                elif e["event"] == "witch" and e.get("witch") == "free-twin":
                    bag[e["chip"]] += 1
            pumpkins = [bags[r - 1][s]["o1"] - recon[s]["o1"] for s in range(n)]
            for s in range(n):  # die pumpkins: one o1 per pumpkin face, at most
                faces = sum(1 for e in events if e["round"] <= r and e.get("seat") == s
                            and e["event"] == "die" and e["face"] == "pumpkin")
                assert 0 <= pumpkins[s] <= faces
                recon[s]["o1"] += pumpkins[s]
            assert [+b for b in recon] == [+b for b in bags[r - 1]], f"round {r}"


@pytest.mark.parametrize("n, k", CASES)
def test_witches_once_a_game_in_play_and_pennies_scored(played, n, k):
    for events, out, rd, _ in played[(n, k)]:
        in_play = next(e["witches"] for e in events if e["event"] == "witches")
        assert len(in_play) == 3 and sorted(GROUP_OF[w] for w in in_play) == [0, 1, 2]
        for s in range(n):
            called = [e["witch"] for e in events if e["event"] == "witch" and e.get("seat") == s
                      and "witch" in e]
            assert len(called) == len(set(called)) and set(called) <= set(in_play)
            kept = 3 - len(called)
            bonus = [e for e in events if e["event"] == "witch" and e.get("seat") == s
                     and "pennies_kept" in e]
            assert sum(e["vp"] for e in bonus) == 2 * kept
            assert out[s, O_SCORE] == rd[8, s, RD_SCORE] + 2 * kept
            bits = int(out[s, O_WITCHES])
            assert {w for w in GROUP_OF if bits >> (list(GROUP_OF).index(w) + 1) & 1} == set(called)


@pytest.mark.parametrize("n, k", CASES)
def test_purchases_are_legal_with_the_coin_witches(played, n, k):
    for events, _, _, _ in played[(n, k)]:
        by = defaultdict(list)
        for e in events:
            if "seat" in e and e["event"] != "final":
                by[(e["round"], e["seat"])].append(e)
        for (r, s), ev in by.items():
            names = [e["event"] for e in ev]
            # purple Set 5: the buys right after the purple coins are bought with them, at B
            purple = []
            if "purple_coins" in names:
                i = names.index("purple_coins")
                j = i + 1
                while j < len(ev) and ev[j]["event"] in ("buy", "black_gift"):
                    j += 1
                purple = [e for e in ev[i + 1:j] if e["event"] == "buy"]
                assert sum(b["price"] for b in purple) <= ev[i]["coins"] and len(purple) <= 2
                assert len({b["chip"][0] for b in purple}) == len(purple)
            buys = [e for e in ev if e["event"] == "buy" and e not in purple]
            if not buys:
                continue
            assert r < 9 and len(buys) <= 2 and len({b["chip"][0] for b in buys}) == len(buys)
            coins = ev[names.index("reward")]["coins"]
            choice = [e["choice"] for e in ev if e["event"] == "choice"]
            protected = any(e["event"] == "witch" and e.get("witch") == "both-rewards" for e in ev)
            if choice == ["vp"] and not protected:
                coins = 0
            for e in ev:
                if e["event"] == "witch" and e.get("witch") == "double-coins":
                    assert e["coins"] == coins
                    coins *= 2
                elif e["event"] == "witch" and e.get("witch") == "ruby-coins":
                    coins += 2 * e["rubies"]
            assert all(b["price"] == price_of(k, b["chip"]) for b in buys + purple)
            assert sum(b["price"] for b in buys) <= coins, f"round {r} seat {s}"


def test_witches_off_change_nothing_but_the_pennies():
    # The same games with the witches in play but never called score exactly 3 pennies x 2 VP
    # more than with the witches out of the game: dealing them draws nothing any player uses.
    lineup = [parse_strategy(x + ":witches=never")
              for x in ("expert", "balanced", "greedy", "pumpkin", "ev")]
    idx = np.arange(300, dtype=np.int64)
    on = play_batch(RS, lineup, games=idx, rotations=idx % 5, seed=9)
    off = play_batch(load_ruleset("herb-witches", ["cards.deck=false", "witches.enabled=false"]),
                     lineup, games=idx, rotations=idx % 5, seed=9)
    np.testing.assert_array_equal(on.out[:, :, O_SCORE], off.out[:, :, O_SCORE] + 6)


def test_chunking_and_replay_with_five_players():
    lineup = [parse_strategy(x) for x in LINEUP]
    rs = load_ruleset("herb-witches")  # with the deck
    idx = np.arange(150, dtype=np.int64)
    a = play_batch(rs, lineup, games=idx, rotations=idx % 5, seed=3, detail=True, chunks=1)
    b = play_batch(rs, lineup, games=idx, rotations=idx % 5, seed=3, detail=True, chunks=64)
    np.testing.assert_array_equal(a.out, b.out)
    np.testing.assert_array_equal(a.rounds, b.rounds)
    for k in (0, 7, 149):
        _, out = replay(rs, lineup, seed=3, game=int(idx[k]), rotation=int(idx[k] % 5))
        np.testing.assert_array_equal(out, a.out[k])


def test_base_ruleset_stops_at_four_players():
    from sim.api.game import GameInputError, check_players

    with pytest.raises(GameInputError, match="2 to 4 players; 5 players need the Herb Witches"):
        check_players(load_ruleset("base"), 5)
    check_players(RS, 5)


def test_witch_off_never_calls_her_not_even_in_the_last_round():
    # double-coins in play in every game: a seat with witch_off=double-coins never calls her
    # (the default player calls every witch in the last round whenever she gains anything),
    # while it still calls the other two and the same seat without the parameter calls her
    rs = load_ruleset("herb-witches", ["cards.deck=false",
                                       'witches.fixed=["whites-back","double-coins","colours"]'])
    idx = np.arange(200, dtype=np.int64)
    bit = {w: 1 << (list(GROUP_OF).index(w) + 1) for w in GROUP_OF}
    called = {}
    for spec in ("expert:witch_off=double-coins", "expert"):
        lineup = [parse_strategy(spec)] + [parse_strategy("expert")] * 3
        out = play_batch(rs, lineup, games=idx, rotations=np.zeros_like(idx), seed=5).out
        assert not out[:, :, O_ERR].any()
        called[spec] = {w: int(((out[:, 0, O_WITCHES] & b) != 0).sum()) for w, b in bit.items()}
    off, on = called["expert:witch_off=double-coins"], called["expert"]
    assert off["double-coins"] == 0 and on["double-coins"] > 0
    assert off["whites-back"] > 0 and off["colours"] > 0


def test_witch_knobs_set_her_first_round_and_threshold():
    # colours in play in every game; she is asked at step D of a seat taking the VP (its "vp"
    # event). With colours_from=1 and w_colours=0 the seat calls her in the first round it takes
    # the VP; with colours_from=9, or with the threshold alone out of reach (w_colours=100), only
    # in the last round (9), where she is called whenever her VP beat the penny.
    rs = load_ruleset("herb-witches", ["cards.deck=false",
                                       'witches.fixed=["whites-back","double-coins","colours"]'])

    def rounds(spec: str) -> list[tuple[int, int]]:
        """(round called, first round taking the VP) of seat 0, one per game where she is."""
        lineup = [parse_strategy(spec)] + [parse_strategy("expert")] * 3
        found = []
        for g in range(12):
            events = [event_dict(e) for e in replay(rs, lineup, seed=3, game=g)[0]]
            mine = [e for e in events if e.get("seat") == 0]
            called = [e["round"] for e in mine if e["event"] == "witch"
                      and e.get("witch") == "colours"]
            first_vp = min(e["round"] for e in mine if e["event"] == "vp")
            found += [(r, first_vp) for r in called]
        return found

    early = rounds("expert:colours_from=1,w_colours=0")
    assert len(early) == 12 and all(r == first for r, first in early)
    assert any(first < 9 for _, first in early)
    for spec in ("expert:colours_from=9", "expert:w_colours=100"):
        late = rounds(spec)
        assert late and {r for r, _ in late} == {9}
    assert min(r for r, _ in rounds("expert")) < 9  # the default 4 VP is reached before round 9
