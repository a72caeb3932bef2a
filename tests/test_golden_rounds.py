"""Golden rounds: one scripted round per file in tests/rounds/, every number worked out by hand.

Sources for every expected number (``shared/rules``):
* pot track (component-data.md section 2), index: coins / VP / ruby.
    1:1/0  2:2/0  3:3/0  4:4/0  5:5/0 R  6:6/1  7:7/1  8:8/1  9:9/1 R  10:10/2  11:11/2
    12:12/2  13:13/2 R  14:14/3  16:15/3 R  20:17/4 R  23:19/5  53 (spoon): 35/15, no ruby
* rat tails after scores 1, 4, 7, 10, 12, 14, ..., 48, again +50 on the next lap; a seat's rat
  count = tails t with score <= t < leader (section 3, decisions.md).
* prices, Set 1 (section 6): o1 3, g1 4, g2 8, g4 14, b1 5, b2 10, b4 19, r1 6, r2 10, r4 16,
  y1 8, y4 18, p1 9, k1 10.
* rules guide: reward space = space after the last chip; only white values explode (> 7);
  a red moves +1 with 1-2 pumpkins in the pot, +2 with 3+; yellow returns the white placed right
  before it (its space stays empty); the flask returns the last white, its space stays empty;
  evaluation A die (furthest intact pot, ties all roll), B green/purple/black in start-player
  order, C ruby of the reward space (exploded too), D VP / E buying (exploded: one of them),
  F 2 rubies -> droplet or flask refill; round 9: 5 coins -> 1 VP, 2 rubies -> 1 VP.
* starting rubies 1 (decisions.md), flask full, droplet 0 unless the file says otherwise.

The expected ``bag`` strings are in the kernel's type order w1 w2 w3 o1 o6 g1 g2 g4 b1 b2 b4 r1 r2
r4 y1 y2 y4 p1 k1.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from sim.api.round_file import RoundFileError, load, play_round_data, play_round_file

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROUNDS = Path(__file__).parent / "rounds"
START = "w1x4,w2x2,w3,o1,g1"


def seat(*, rat=0, placements=(), exploded=False, reward_space, die=(), vp_gained=0, coins,
         bought=(), rubies, droplet=0, flask=True, score, bag):
    """The full per-seat output of ``play_round_file``; placements as 'chip@index' strings."""
    return {
        "rat": rat,
        "placements": [{"chip": p.split("@")[0], "index": int(p.split("@")[1])}
                       for p in placements],
        "exploded": exploded,
        "reward_space": reward_space,
        "die": list(die),
        "vp_gained": vp_gained,
        "coins": coins,
        "bought": list(bought),
        "rubies": rubies,
        "droplet": droplet,
        "flask": flask,
        "score": score,
        "bag": bag,
    }


EXPECTED: dict[str, dict] = {}

# r01, 2 players, round 1 (no rats in round 1), start player 0, die: pumpkin.
# Seat 0: o1 0+1=1, w1 2, g1 3, w2 5 (white 3) -> reward 6: 6 coins, 1 VP, no ruby. Seat 1
# exploded, so seat 0 alone rolls: pumpkin -> an o1 into the bag. Green: last two chips are w2
# and g1 -> +1 ruby (1+1=2). VP +1. Buys o1 (3 <= 6). Spends 2 rubies on the droplet: 0 rubies,
# droplet 1. Bag: start + o1 (die) + o1 (bought).
# Seat 1: w3 3, w2 5, w2 7 (white 7, safe), w1 8 (white 8 > 7) explodes -> reward 9: 9 coins,
# 1 VP, ruby. No die. Ruby +1 (1+1=2). Chooses coins: no VP, buys g1+o1 = 7 <= 9.
# Supply: box less bags (w1 20-8, w2 8-4, w3 4-2, o1 20-2, g1 15-2), then o1 -3, g1 -1.
EXPECTED["r01-2p-round1-basics.toml"] = {
    "players": [
        seat(placements=["o1@1", "w1@2", "g1@3", "w2@5"], reward_space=6, die=["pumpkin"],
             vp_gained=1, coins=6, bought=["o1"], rubies=0, droplet=1, score=1,
             bag="w1x4,w2x2,w3,o1x3,g1"),
        seat(placements=["w3@3", "w2@5", "w2@7", "w1@8"], exploded=True, reward_space=9,
             coins=9, bought=["g1", "o1"], rubies=2, score=0, bag="w1x4,w2x2,w3,o1x2,g1x2"),
    ],
    "supply": "w1x12,w2x4,w3x2,o1x15,g1x12,g2x10,g4x13,b1x14,b2x10,b4x10,r1x12,r2x8,r4x10,"
              "y1x13,y2x6,y4x10,p1x15,k1x18",
}

# r02, 2 players, round 2, start player 1, die: vp2, ruby.
# Rats: leader seat 1 on 9; seat 0 on 5 -> tails in [5,9): 7 -> 1. Seat 0 starts at 0+1 = 1,
# seat 1 at its droplet 1. Seat 0: k1 2, o1 3, w2 5; seat 1: o1 2, k1 3, w2 5; both reward 6
# (6 coins, 1 VP). Tie on the furthest space: both roll, start player (seat 1) first: seat 1
# vp2, seat 0 ruby. Black 1 vs 1 (2 players, equal, both brewed one) -> droplet +1 each.
# Seat 0: rubies 1+1 = 2, score 5+1 = 6, buys o1, refills the empty flask: rubies 0, flask full.
# Seat 1: score 9+2+1 = 12, droplet 1+1 = 2, rubies 1.
EXPECTED["r02-2p-black-equal-die-tie.toml"] = {
    "players": [
        seat(rat=1, placements=["k1@2", "o1@3", "w2@5"], reward_space=6, die=["ruby"],
             vp_gained=1, coins=6, bought=["o1"], rubies=0, droplet=1, flask=True, score=6,
             bag="w1x4,w2x2,w3,o1x2,g1,k1"),
        seat(placements=["o1@2", "k1@3", "w2@5"], reward_space=6, die=["vp2"], vp_gained=3,
             coins=6, rubies=1, droplet=2, score=12, bag="w1x4,w2x2,w3,o1,g1,k1"),
    ],
}

# r03, 2 players, round 4, both on 20 (both leaders: no rats), die: droplet.
# Seat 0 from droplet 2: o1 3, o1 4, k1 5, o1 6, r2 with 3 pumpkins in the pot +2 -> 6+4 = 10,
# k1 11, w1 12, y1 13 -> the white right before it goes back (space 12 stays empty). Reward 14:
# 14 coins, 3 VP. Seat 1: k1 1, w3 4 sent back by the flask (space 4 stays empty, the next chip
# counts on from 4), w2 6, w1 7, w1 8 (white 4) -> reward 9 (9 coins, 1 VP, ruby).
# Die: seat 0 is furthest -> droplet +1. Black 2 vs 1: seat 0 more -> droplet +1 and ruby +1;
# seat 1 fewer -> nothing. Seat 0: rubies 4+1 = 5, score 20+3 = 23, buys y1 (8, yellow is out
# from round 2) + o1 (3) = 11 <= 14, two droplet moves: rubies 1, droplet 2+1+1+2 = 6.
# Seat 1: ruby +1 (2), score 21, buys b1 (5), refills the flask the w3 emptied: rubies 0.
EXPECTED["r03-2p-black-more-red-yellow-flask.toml"] = {
    "players": [
        seat(placements=["o1@3", "o1@4", "k1@5", "o1@6", "r2@10", "k1@11", "y1@13"],
             reward_space=14, die=["droplet"], vp_gained=3, coins=14, bought=["y1", "o1"],
             rubies=1, droplet=6, score=23, bag="w1x4,w2x2,w3,o1x4,g1,r2,y1x2,k1x2"),
        seat(placements=["k1@1", "w2@6", "w1@7", "w1@8"], reward_space=9, vp_gained=1, coins=9,
             bought=["b1"], rubies=0, flask=True, score=21, bag="w1x4,w2x2,w3,o1,g1,b1,k1"),
    ],
}

# r04, 2 players, round 5, die: vp1.
# Rats: seat 0 on 3, leader on 20 -> tails 4, 7, 10, 12, 14, 16, 18 = 7; start 1+7 = 8.
# Seat 0: w1 9, g1 10, g2 12 -> reward 13 (13 coins, 2 VP, ruby). Last two chips g1, g2 -> +2
# rubies. Seat 1: w3 3, w2 5, w2 7, w1 8 explodes -> reward 9 (ruby). Seat 0 alone rolls: +1 VP.
# Black: both bags hold a k1 but neither brewed one -> no black reward.
# Seat 0: rubies 1+2+1 = 4, score 3+1+2 = 6, buys b2 (10) + o1 (3) = 13 = all its coins.
# Seat 1: ruby +1 (2), takes the VP: 20+1 = 21, coins 0, buys nothing.
EXPECTED["r04-2p-big-rat-green-both-black-none.toml"] = {
    "players": [
        seat(rat=7, placements=["w1@9", "g1@10", "g2@12"], reward_space=13, die=["vp1"],
             vp_gained=3, coins=13, bought=["b2", "o1"], rubies=4, droplet=1, score=6,
             bag="w1x4,w2x2,w3,o1x2,g1,g2,b2,k1"),
        seat(placements=["w3@3", "w2@5", "w2@7", "w1@8"], exploded=True, reward_space=9,
             vp_gained=1, coins=0, rubies=2, score=21, bag="w1x4,w2x2,w3,o1,g1,k1"),
    ],
}

# r05, 2 players, round 6: before brewing every bag gets a w1 (seat 1 can draw five w1).
# Rats: seat 0 on 10, leader 12 -> tail after 10 -> 1; start 1. Seat 0: k1 2, w3 5, o1 6 ->
# reward 7 (7 coins, 1 VP). Seat 1: w1 1..5 (white 5) -> reward 6 (6 coins, 1 VP).
# Die: seat 0 (7 > 6): vp1. Black 1 vs 0 -> seat 0 droplet +1, ruby +1.
# Seat 0: rubies 2, score 10+1+1 = 12, buys r1 (6), droplet move: rubies 0, droplet 2.
# Seat 1: score 13, buys b1 (5), refills the flask: rubies 3-2 = 1.
EXPECTED["r05-2p-round6-white-black-one.toml"] = {
    "players": [
        seat(rat=1, placements=["k1@2", "w3@5", "o1@6"], reward_space=7, die=["vp1"],
             vp_gained=2, coins=7, bought=["r1"], rubies=0, droplet=2, score=12,
             bag="w1x5,w2x2,w3,o1,g1,r1,k1"),
        seat(placements=["w1@1", "w1@2", "w1@3", "w1@4", "w1@5"], reward_space=6, vp_gained=1,
             coins=6, bought=["b1"], rubies=1, flask=True, score=13, bag="w1x5,w2x2,w3,o1,g1,b1"),
    ],
}

# r06, 4 players, round 3, start player 2, die: vp2.
# Rats (leader 20): seat 1 on 19: none; seat 2 on 17: 18 -> 1; seat 3 on 16: 16, 18 -> 2.
# Seat 0: p1 1, k1 2, k1 3, w1 4 -> reward 5 (5 coins, 0 VP, ruby).
# Seat 1: p1 1, p1 2, k1 3, w2 5 -> reward 6 (6 coins, 1 VP).
# Seat 2 from 1: p1 2, p1 3, p1 4, w1 5 -> reward 6.
# Seat 3 from 2: p1 3..6, k1 7, w3 10 -> reward 11 (11 coins, 2 VP); it alone rolls: +2 VP.
# Purple: seat 0 one -> 1 VP; seat 1 two -> 1 VP + 1 ruby; seat 2 three -> 2 VP + droplet;
# seat 3 four but chooses tier 2 -> 1 VP + 1 ruby.
# Black counts 2, 1, 0, 1: seat 0 beats both neighbours (1 and 3) -> droplet + ruby; seat 1
# beats seat 2 only -> droplet; seat 2 nothing; seat 3 beats seat 2 only -> droplet.
# Scores: 20+1 = 21; 19+1+1 = 21; 17+2+1 = 20; 16+2+1+2 = 21. Rubies: seat 0 1+1+1 (space 5)
# = 3, then a droplet move -> 1, droplet 1+1 = 2; seat 1 2; seat 2 1; seat 3 2.
# Buys (order 2, 3, 0, 1): o1 (3<=6), p1 (9<=11, purple is out from round 3), b1 (5<=5), r1.
EXPECTED["r06-4p-purple-tiers-black.toml"] = {
    "players": [
        seat(placements=["p1@1", "k1@2", "k1@3", "w1@4"], reward_space=5, vp_gained=1, coins=5,
             bought=["b1"], rubies=1, droplet=2, score=21, bag="w1x4,w2x2,w3,o1,g1,b1,p1,k1x2"),
        seat(placements=["p1@1", "p1@2", "k1@3", "w2@5"], reward_space=6, vp_gained=2, coins=6,
             bought=["r1"], rubies=2, droplet=1, score=21, bag="w1x4,w2x2,w3,o1,g1,r1,p1x2,k1"),
        seat(rat=1, placements=["p1@2", "p1@3", "p1@4", "w1@5"], reward_space=6, vp_gained=3,
             coins=6, bought=["o1"], rubies=1, droplet=1, score=20,
             bag="w1x4,w2x2,w3,o1x2,g1,p1x3"),
        seat(rat=2, placements=["p1@3", "p1@4", "p1@5", "p1@6", "k1@7", "w3@10"], reward_space=11,
             die=["vp2"], vp_gained=5, coins=11, bought=["p1"], rubies=2, droplet=1, score=21,
             bag="w1x4,w2x2,w3,o1,g1,p1x5,k1"),
    ],
    # box less bags: w1 20-16, w2 8-8, w3 4-4, o1 20-4, g1 15-4, p1 15-10, k1 18-4; then buys.
    "supply": "w1x4,o1x15,g1x11,g2x10,g4x13,b1x13,b2x10,b4x10,r1x11,r2x8,r4x10,y1x13,y2x6,"
              "y4x10,p1x4,k1x14",
}

# r07, 3 players, round 7, start player 1, die: vp1, droplet.
# Rats (leader 62): seat 0 on 48: tails 48, 51, 54, 57, 60 -> 5; seat 1 on 55: 57, 60 -> 2.
# Seat 0 from 40+5 = 45: r4 49, r4 53 -> stays on 52 (the printed 33): reward = spoon 53.
# Seat 1 from 38+2 = 40: w3 43, w2 45, w1 46, w1 47 (white 7), g4 51, w2 53 -> 52, white 9:
# explodes on the spoon. Seat 2 from 47: o1 48, w2 50, w3 53 -> 52: spoon.
# Die: intact pots on the spoon (seats 0 and 2) roll, in start-player order 1, 2, 0: seat 2
# vp1, seat 0 droplet (41). The exploded spoon pot does not roll.
# Green: seat 1's next-to-last chip is g4 -> +1 ruby. No ruby on the spoon.
# VP: seat 0 48+15 = 63; seat 2 62+1+15 = 78; seat 1 takes the 35 coins: r4+b4 = 16+19 = 35.
# Seat 2 buys g4+k1 = 24, seat 0 y4+r4 = 34 (all <= 35).
EXPECTED["r07-3p-spoon-second-lap.toml"] = {
    "players": [
        seat(rat=5, placements=["r4@49", "r4@52"], reward_space=53, die=["droplet"],
             vp_gained=15, coins=35, bought=["y4", "r4"], rubies=1, droplet=41, score=63,
             bag="w1x4,w2x2,w3,o1,g1,r4x3,y4"),
        seat(rat=2, placements=["w3@43", "w2@45", "w1@46", "w1@47", "g4@51", "w2@52"],
             exploded=True, reward_space=53, coins=35, bought=["r4", "b4"], rubies=2,
             droplet=38, score=55, bag="w1x4,w2x2,w3,o1,g1,g4,b4,r4"),
        seat(placements=["o1@48", "w2@50", "w3@52"], reward_space=53, die=["vp1"], vp_gained=16,
             coins=35, bought=["g4", "k1"], rubies=1, droplet=47, score=78,
             bag="w1x4,w2x2,w3,o1,g1,g4,k1"),
    ],
}

# r08, 3 players, round 9 (all on 30: no rats), die: vp2.
# Seat 0 from 10: o1 11, r4 with one pumpkin 4+1 -> 16, w3 19, w2 21, w1 22 (white 6) ->
# reward 23: 19 coins, 5 VP. Alone intact: +2 VP. Conversions: 19 // 5 = 3 VP; 5 rubies -> 2 VP,
# 1 ruby left. Score 30+2+5+3+2 = 42.
# Seat 1 from 7: w3 10, g4 14, w2 16, w2 18, w1 19 (white 8) explodes -> reward 20: 17 coins,
# 4 VP, ruby. Ruby +1 (2). Chooses coins: 17 // 5 = 3 VP, no reward VP; 2 rubies -> 1 VP.
# Score 34. Seat 2 from 4: w1 5, w2 7, w3 10, w2 12 explodes -> reward 13 (13 coins, 2 VP,
# ruby); ruby +1 (1); chooses VP: +2, no coins to convert; 1 ruby -> 0 VP. Score 32.
EXPECTED["r08-3p-round9-conversions.toml"] = {
    "players": [
        seat(placements=["o1@11", "r4@16", "w3@19", "w2@21", "w1@22"], reward_space=23,
             die=["vp2"], vp_gained=12, coins=19, rubies=1, droplet=10, score=42,
             bag="w1x4,w2x2,w3,o1x3,g1,r4"),
        seat(placements=["w3@10", "g4@14", "w2@16", "w2@18", "w1@19"], exploded=True,
             reward_space=20, vp_gained=4, coins=17, rubies=0, droplet=7, score=34,
             bag="w1x4,w2x2,w3,o1,g1,g4"),
        seat(placements=["w1@5", "w2@7", "w3@10", "w2@12"], exploded=True, reward_space=13,
             vp_gained=2, coins=0, rubies=1, droplet=4, score=32, bag=START),
    ],
}

# r09, 4 players, round 2, start player 3, die: vp1, pumpkin.
# Rats (leader seat 2 on 12): seat 0 on 11 -> 0 (the tail after 10 is behind it); seat 1 on 10
# -> 1; seat 3 on 1 -> tails 1, 4, 7, 10 -> 4.
# Seat 0: b2 2, looks at w1 and r1, places r1 (no pumpkins) 3, w1 back; o1 4, w3 7, g1 8 ->
# reward 9 (9 coins, 1 VP, ruby). Seat 1 from 1: w2 3, o1 4, w3 7, g1 8 -> reward 9.
# Seat 2: w3 3, w2 5, w1 6, w2 8 explodes -> reward 9. Seat 3 draws nothing: reward is the space
# after its rat start 4 -> 5 (5 coins, 0 VP, ruby).
# Die: intact seats 0 and 1 tie on 9 and roll in order 3, 0, 1, 2: seat 0 vp1, seat 1 pumpkin.
# Green: seats 0 and 1 end w3, g1 -> +1 each. Ruby: seats 0, 1, 2 (space 9) and 3 (space 5).
# Seat 0: 11+1+1 = 13, rubies 3, buys y1 (8 <= 9, yellow out from round 2), droplet move ->
# rubies 1, droplet 1. Seat 1: 10+1 = 11, rubies 3, buys b1+o1 = 8; bag gets 2 o1 (die, buy).
# Seat 2: chooses VP: 13, rubies 2. Seat 3: 1, rubies 2, buys g1 (4 <= 5).
EXPECTED["r09-4p-rats-blue-die-tie.toml"] = {
    "players": [
        seat(placements=["b2@2", "r1@3", "o1@4", "w3@7", "g1@8"], reward_space=9, die=["vp1"],
             vp_gained=2, coins=9, bought=["y1"], rubies=1, droplet=1, score=13,
             bag="w1x4,w2x2,w3,o1,g1,b2,r1,y1"),
        seat(rat=1, placements=["w2@3", "o1@4", "w3@7", "g1@8"], reward_space=9,
             die=["pumpkin"], vp_gained=1, coins=9, bought=["b1", "o1"], rubies=3, score=11,
             bag="w1x4,w2x2,w3,o1x3,g1,b1"),
        seat(placements=["w3@3", "w2@5", "w1@6", "w2@8"], exploded=True, reward_space=9,
             vp_gained=1, coins=0, rubies=2, score=13, bag=START),
        seat(rat=4, placements=[], reward_space=5, coins=5, bought=["g1"], rubies=2, score=1,
             bag="w1x4,w2x2,w3,o1,g1x2"),
    ],
}

# r10, 3 players, round 8, start player 0, die: ruby.
# Rats (leader 31): seat 0 on 25: 26, 28, 30 -> 3; seat 1 on 30: 30 -> 1.
# Seat 0 from 3+3 = 6: k1 7, w1 8, w2 10 -> flask sends the w2 back (space 10 stays empty),
# g1 11, o1 12 (white 1) -> reward 13 (13 coins, 2 VP, ruby).
# Seat 1 from 2+1 = 3: w3 6, k1 7, w2 9, w2 11, w1 12 (white 8) explodes -> reward 13.
# Seat 2 from 0: o1 1, g1 2, w1 3 -> reward 4 (4 coins, 0 VP).
# Die: seat 0 (13 > 4; seat 1 exploded): ruby. Green: seat 0 (g1, o1) +1; seat 2 (g1, w1) +1.
# Black 1, 1, 0: seat 0 beats seat 2 -> droplet; seat 1 beats seat 2 -> droplet (explosion does
# not cancel it); seat 2 nothing. Ruby: seats 0 and 1 (space 13).
# Seat 0: rubies 1+1+1+1 = 4, score 25+2 = 27, buys g2+o1 = 11, refills flask (2 left) and moves
# the droplet (0 left): droplet 3+1+1 = 5. Seat 1: rubies 2, droplet 3, coins -> k1 (10 <= 13).
# Seat 2: rubies 2, buys g1 (4), droplet move: rubies 0, droplet 1.
EXPECTED["r10-3p-black-flask-exploded.toml"] = {
    "players": [
        seat(rat=3, placements=["k1@7", "w1@8", "g1@11", "o1@12"], reward_space=13, die=["ruby"],
             vp_gained=2, coins=13, bought=["g2", "o1"], rubies=0, droplet=5, flask=True,
             score=27, bag="w1x4,w2x2,w3,o1x2,g1,g2,k1"),
        seat(rat=1, placements=["w3@6", "k1@7", "w2@9", "w2@11", "w1@12"], exploded=True,
             reward_space=13, coins=13, bought=["k1"], rubies=2, droplet=3, score=30,
             bag="w1x4,w2x2,w3,o1,g1,k1x2"),
        seat(placements=["o1@1", "g1@2", "w1@3"], reward_space=4, coins=4, bought=["g1"],
             rubies=0, droplet=1, score=31, bag="w1x4,w2x2,w3,o1,g1x2"),
    ],
}

# r11, 4 players, round 1, everyone explodes -> nobody rolls (the die list is empty).
# Seat 0: w3 3, w2 5, w2 7, w1 8 -> reward 9 (ruby): VP 1, rubies 2 -> droplet move.
# Seat 1: o1 1, w3 4, w2 6, w1 7, w2 9 (white 8) -> reward 10 (10 coins): buys b2 (10).
# Seat 2: g1 1, w1 2..5, w3 8 (white 7), w2 10 (white 9) -> reward 11 (11 coins): buys r2 (10);
# its last two chips are w3, w2 -> no green ruby.
# Seat 3: w2 2, w2 4, w3 7, w1 8 -> reward 9 (ruby, 9 coins): buys g1+o1 = 7.
EXPECTED["r11-4p-all-explode.toml"] = {
    "players": [
        seat(placements=["w3@3", "w2@5", "w2@7", "w1@8"], exploded=True, reward_space=9,
             vp_gained=1, coins=0, rubies=0, droplet=1, score=1, bag=START),
        seat(placements=["o1@1", "w3@4", "w2@6", "w1@7", "w2@9"], exploded=True,
             reward_space=10, coins=10, bought=["b2"], rubies=1, score=0, bag=START + ",b2"),
        seat(placements=["g1@1", "w1@2", "w1@3", "w1@4", "w1@5", "w3@8", "w2@10"], exploded=True,
             reward_space=11, coins=11, bought=["r2"], rubies=1, score=0, bag=START + ",r2"),
        seat(placements=["w2@2", "w2@4", "w3@7", "w1@8"], exploded=True, reward_space=9,
             coins=9, bought=["g1", "o1"], rubies=2, score=0, bag="w1x4,w2x2,w3,o1x2,g1x2"),
    ],
}

# r12, 2 players, round 2, equal scores (10, 10) -> no rats; die: vp1. Set 1 red: +1 with 1-2
# pumpkins already in the pot, +2 with 3 or more; the extra is an ingredient action, which is
# optional (rules guide: "Ingredient actions are optional; you may decline an effect").
# Seat 0 (red = [false, true]): o1 1; r1, one pumpkin, offered +1, declines: 1+1 = 2; w2 4;
# o1 5; r2, two pumpkins, offered +1, takes it: 5+2+1 = 8 -> reward 9 (9 coins, 1 VP, ruby).
# Seat 1 (no red key: takes every extra): o1 1, r1 1+1+1 = 3, w2 5, o1 6, r2 6+2+1 = 9 ->
# reward 10 (10 coins, 2 VP, no ruby). Seat 1 is furthest and alone rolls: vp1.
# Green: last two chips o1, r2 -> none; black: none brewed -> nothing. No buys, no spending.
# Seat 0: ruby +1 (2), score 10+1 = 11. Seat 1: rubies 1, score 10+2+1 = 13.
EXPECTED["r12-2p-red-declined-and-taken.toml"] = {
    "players": [
        seat(placements=["o1@1", "r1@2", "w2@4", "o1@5", "r2@8"], reward_space=9, vp_gained=1,
             coins=9, rubies=2, score=11, bag="w1x4,w2x2,w3,o1x2,g1,r1,r2"),
        seat(placements=["o1@1", "r1@3", "w2@5", "o1@6", "r2@9"], reward_space=10, die=["vp1"],
             vp_gained=3, coins=10, rubies=1, score=13, bag="w1x4,w2x2,w3,o1x2,g1,r1,r2"),
    ],
}


def test_every_round_file_has_expectations():
    files = sorted(p.name for p in ROUNDS.glob("*.toml"))
    assert len(files) >= 10
    assert files == sorted(EXPECTED)
    counts = {tomllib.loads((ROUNDS / f).read_text())["players"] for f in files}
    assert counts == {2, 3, 4}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_round(name):
    res = play_round_file(ROUNDS / name)
    exp = EXPECTED[name]
    assert len(res["players"]) == len(exp["players"])
    for s, (got, want) in enumerate(zip(res["players"], exp["players"])):
        assert got == want, f"seat {s}"
    if "supply" in exp:
        assert res["supply"] == exp["supply"]


# --- variants of the golden files ------------------------------------------------------------

def _data(name: str) -> dict:
    return copy.deepcopy(load(ROUNDS / name))


def _play(d: dict, name: str = "variant.toml") -> dict:
    return play_round_data(d, str(ROUNDS / name))


@pytest.mark.parametrize("rnd, rat, placements, reward", [
    # round 1: no rats even though seat 1 leads by 12
    (1, 0, ["o1@1", "w1@2", "g1@3", "w2@5"], 6),
    # round 2: seat 0 on 0, leader 12: tails 1, 4, 7, 10 -> 4; every chip moves 4 further
    (2, 4, ["o1@5", "w1@6", "g1@7", "w2@9"], 10),
])
def test_rats_start_in_round_2(rnd, rat, placements, reward):
    d = _data("r01-2p-round1-basics.toml")
    d["round"] = rnd
    d["player"][1]["score"] = 12
    p0 = _play(d)["players"][0]
    assert p0["rat"] == rat
    assert [f"{x['chip']}@{x['index']}" for x in p0["placements"]] == placements
    assert p0["reward_space"] == reward


@pytest.mark.parametrize("score, leader, tails", [
    (20, 20, 0),   # the leader gets no rat
    (19, 20, 0),   # nothing printed after 19
    (10, 12, 1),   # the tail after 10 lies between 10 and 11
    (11, 12, 0),
    (0, 1, 0),     # the tail after 1 lies between 1 and 2
    (0, 2, 1),
    (48, 51, 1),   # tail after 48; none after 49, 50
    (48, 52, 2),   # ... and the second lap's tail after 51
    (49, 62, 4),   # 51, 54, 57, 60
    (51, 52, 1),
    (60, 98, 19),  # second lap: 60, then the even scores 62..96 (18) -> 19
])
def test_rat_tail_counts(score, leader, tails):
    d = _data("r01-2p-round1-basics.toml")
    d["round"] = 2
    d["player"][0]["score"] = score
    d["player"][1]["score"] = leader
    d["player"][0]["draws"] = ""      # place nothing: reward = rat start + 1
    d["player"][0].pop("buy")
    d["player"][0].pop("spend")
    d["die"] = ["vp1", "vp1"]
    p0 = _play(d)["players"][0]
    assert p0["rat"] == tails
    assert p0["reward_space"] == min(tails + 1, 53)


def test_rat_start_never_passes_the_last_space():
    # droplet 50 + 5 tails would be 55; the start is capped at the last chip space 52, and a pot
    # with nothing placed scores the space after it: the spoon (35 coins, 15 VP).
    d = _data("r07-3p-spoon-second-lap.toml")
    d["player"][0]["droplet"] = 50
    d["player"][0]["draws"] = ""
    d["player"][0]["buy"] = ""
    p0 = _play(d)["players"][0]
    assert p0["rat"] == 5
    assert p0["reward_space"] == 53


def test_round_5_adds_no_white_chip():
    # The white 1 joins the bags before round 6, not round 5: in round 5 seat 1's bag holds only
    # four w1, so a fifth listed w1 is not in the bag.
    d = _data("r05-2p-round6-white-black-one.toml")
    d["round"] = 5
    with pytest.raises(RoundFileError, match="seat 1"):
        _play(d)
    d["player"][1]["draws"] = "w1,w1,w1,w1"
    res = _play(d)
    assert res["players"][1]["bag"] == "w1x4,w2x2,w3,o1,g1,b1"


def test_round_6_white_chip_counts_toward_explosion():
    # Five w1 + w3 = 8 > 7: the round-6 white explodes the pot like any white.
    d = _data("r05-2p-round6-white-black-one.toml")
    d["player"][1]["draws"] = "w1,w1,w1,w1,w1,w3"
    d["player"][1]["choice"] = "vp"
    d["player"][1]["buy"] = ""
    p1 = _play(d)["players"][1]
    assert p1["exploded"] is True
    assert p1["reward_space"] == 9  # w3 on 5+3 = 8


def test_purple_tier_is_capped_by_purple_count():
    # Asking for tier 3 with one purple chip gives tier 1 (1 VP): tiers need that many chips.
    d = _data("r06-4p-purple-tiers-black.toml")
    d["player"][0]["purple"] = 3
    p0 = _play(d)["players"][0]
    assert p0["score"] == 21 and p0["droplet"] == 2  # unchanged: 1 VP, no purple droplet


def test_purple_lower_tier_one():
    # Seat 2 (three purples) may choose tier 1 instead of tier 3: 1 VP, no droplet.
    d = _data("r06-4p-purple-tiers-black.toml")
    d["player"][2]["purple"] = 1
    p2 = _play(d)["players"][2]
    assert p2["score"] == 17 + 1 + 1
    assert p2["droplet"] == 0


def test_two_player_black_more_but_zero_opponent():
    # 2 players, 1 black vs 0: more -> droplet + ruby (r05 seat 0) while 0 vs 0 gives nothing
    # (r04). Here: both 0 in r05 -> seat 0 loses its droplet and ruby.
    d = _data("r05-2p-round6-white-black-one.toml")
    d["player"][0]["draws"] = "g1,w3,o1"  # 1+1=2, 5, 6 -> reward 7 as before; no green last two
    d["player"][0]["spend"] = []
    p0 = _play(d)["players"][0]
    assert p0["droplet"] == 0 and p0["rubies"] == 1


# --- illegal content: RoundFileError naming the seat -----------------------------------------

def _illegal(name, seat_no, change, match=None):
    d = _data(name)
    change(d)
    with pytest.raises(RoundFileError,
                       match=rf"seat {seat_no}\b" + (f".*{match}" if match else "")):
        _play(d)


def test_illegal_two_chips_of_one_colour():
    def ch(d):
        d["player"][1]["buy"] = "o1,o1"  # 6 <= 10 coins, but the same colour twice
    _illegal("r11-4p-all-explode.toml", 1, ch, "colour")


def test_illegal_two_chips_of_one_colour_different_values():
    def ch(d):
        d["player"][0]["buy"] = "g1,g2"  # 12 <= 14 coins, both green
    _illegal("r03-2p-black-more-red-yellow-flask.toml", 0, ch, "colour")


def test_illegal_three_chips():
    def ch(d):
        d["player"][0]["buy"] = "o1,g1,b1"
    _illegal("r03-2p-black-more-red-yellow-flask.toml", 0, ch)


def test_illegal_over_budget():
    def ch(d):
        d["player"][0]["buy"] = "b2,g1"  # 10 + 4 = 14 > 13 coins
    _illegal("r04-2p-big-rat-green-both-black-none.toml", 0, ch, "afford")


def test_illegal_over_budget_on_the_spoon():
    def ch(d):
        d["player"][0]["buy"] = "y4,b4"  # 18 + 19 = 37 > 35
    _illegal("r07-3p-spoon-second-lap.toml", 0, ch, "afford")


def test_illegal_yellow_in_round_1():
    def ch(d):
        d["player"][1]["buy"] = "y1"  # 8 <= 9 coins, but yellow comes out in round 2
    _illegal("r01-2p-round1-basics.toml", 1, ch, "y1")


def test_illegal_purple_in_round_2():
    def ch(d):
        d["round"] = 2  # purple comes out in round 3; seat 3 buys p1 (after seat 2's o1)
    _illegal("r06-4p-purple-tiers-black.toml", 3, ch, "p1")


def test_illegal_sold_out():
    def ch(d):
        d["supply"] = "o1x2,b1,r1"  # no purple left in the supply
    _illegal("r06-4p-purple-tiers-black.toml", 3, ch, "p1")


def test_sold_out_by_an_earlier_buyer():
    # One b1 in the supply; buying goes 2, 3, 0, 1 from start player 2: seat 0 takes it and
    # seat 1 (next) cannot.
    def ch(d):
        d["supply"] = "o1,b1,p1,r1"
        d["player"][1]["buy"] = "b1"
    _illegal("r06-4p-purple-tiers-black.toml", 1, ch, "b1")


def test_illegal_white_is_never_sold():
    def ch(d):
        d["player"][0]["buy"] = "w1"
    _illegal("r01-2p-round1-basics.toml", 0, ch, "w1")


def test_illegal_spend_without_rubies():
    def ch(d):
        d["player"][2]["spend"] = ["droplet", "droplet"]  # 2 rubies pay for one move only
    _illegal("r10-3p-black-flask-exploded.toml", 2, ch, "rubies")


def test_illegal_refill_a_full_flask():
    def ch(d):
        d["player"][1]["spend"] = ["flask"]  # seat 1 has 2 rubies but its flask is full
    _illegal("r10-3p-black-flask-exploded.toml", 1, ch, "flask")


def test_illegal_flask_when_empty():
    def ch(d):
        d["player"][0]["flask"] = False
    _illegal("r10-3p-black-flask-exploded.toml", 0, ch, "flask")


def test_illegal_die_list_too_short():
    # r02: two seats tie for the die but only one face is listed.
    def ch(d):
        d["die"] = ["vp2"]
    d = _data("r02-2p-black-equal-die-tie.toml")
    ch(d)
    with pytest.raises(RoundFileError, match="die"):
        _play(d)


def test_illegal_buy_after_choosing_vp():
    # An exploded pot chooses VP *or* buying; seat 0 took the VP and has no coins to buy with.
    def ch(d):
        d["player"][0]["buy"] = "o1"
    _illegal("r11-4p-all-explode.toml", 0, ch)


# --- more rule probes (variants worked by hand) ----------------------------------------------

def test_exploded_pot_further_than_intact_does_not_roll_and_keeps_purple_black():
    # r06, seat 1 now explodes: p1@1 p1@2 k1@3 w3@6 w2@8 w2@10 w1@11 (white 8) -> reward 12
    # (12 coins, 2 VP), further than seat 3's intact 11 - but only seat 3 rolls (one face).
    # Explosion does not cancel phase B: purple tier 2 (1 VP + 1 ruby), black 1 beats seat 2's 0
    # -> droplet. Seat 1 takes the VP: 19 + 1 + 2 = 22, rubies 1 + 1 = 2, droplet 1.
    d = _data("r06-4p-purple-tiers-black.toml")
    d["player"][1]["draws"] = "p1,p1,k1,w3,w2,w2,w1"
    d["player"][1]["choice"] = "vp"
    d["player"][1]["buy"] = ""
    res = _play(d)["players"]
    p1 = res[1]
    assert p1["exploded"] and p1["reward_space"] == 12 and p1["die"] == []
    assert (p1["score"], p1["rubies"], p1["droplet"], p1["vp_gained"]) == (22, 2, 1, 3)
    assert res[3]["die"] == ["vp2"]


def test_equal_coins_on_different_spaces_is_no_tie():
    # Spaces 15 and 16 both pay 15 coins / 3 VP; 16 is further, so only that pot rolls.
    # Seat 0 from droplet 13: o1@14 -> 15; seat 1 from 14: o1@15 -> 16 (ruby). One die face: if
    # both rolled, the die list would run short.
    d = {"players": 2, "round": 1, "die": ["vp1"], "player": [
        {"droplet": 13, "bag": "start", "draws": "o1"},
        {"droplet": 14, "bag": "start", "draws": "o1"},
    ]}
    res = _play(d)["players"]
    assert [p["reward_space"] for p in res] == [15, 16]
    assert [p["coins"] for p in res] == [15, 15]
    assert [p["die"] for p in res] == [[], ["vp1"]]
    assert [p["score"] for p in res] == [3, 4]
    assert [p["rubies"] for p in res] == [1, 2]


def test_pumpkin_face_with_no_orange_left():
    # r01 with a supply that has no o1: the pumpkin face gives nothing, seat 0 keeps its start bag.
    d = _data("r01-2p-round1-basics.toml")
    d["supply"] = "g1x2"
    d["player"][0]["buy"] = ""
    d["player"][1]["buy"] = "g1"
    res = _play(d)
    assert res["players"][0]["die"] == ["pumpkin"]
    assert res["players"][0]["bag"] == START
    assert res["supply"] == "g1"


def test_die_pumpkin_comes_before_buying():
    # One o1 in the supply: seat 0's pumpkin face (step A) takes it, so seat 0's own o1 purchase
    # (step E) finds it sold out.
    d = _data("r01-2p-round1-basics.toml")
    d["supply"] = "o1,g1"
    d["player"][1]["buy"] = "g1"
    with pytest.raises(RoundFileError, match=r"seat 0\b.*o1"):
        _play(d)


def test_flask_space_reuse_option():
    # decisions.md: flask_space = reuse counts on from the chip before the returned white.
    # r10 seat 0: k1@7, w1@8, w2@10 returned -> next from 8: g1@9, o1@10 -> reward 11 (11 coins,
    # 2 VP, no ruby). Rubies 1 + 1 (die) + 1 (green) = 3; refill the flask -> 1.
    d = _data("r10-3p-black-flask-exploded.toml")
    d["set"] = ["game.flask_space=reuse"]
    d["player"][0]["spend"] = ["flask"]
    p0 = _play(d)["players"][0]
    assert ([f"{x['chip']}@{x['index']}" for x in p0["placements"]]
            == ["k1@7", "w1@8", "g1@9", "o1@10"])
    assert (p0["reward_space"], p0["coins"], p0["rubies"], p0["flask"]) == (11, 11, 1, True)


def test_explosion_limit_option():
    # With game.explosion_limit = 8, r01 seat 1's white total 8 is safe: reward 9 intact (9 coins,
    # 1 VP, ruby); it is further than seat 0 (6), so it rolls instead: the pumpkin goes to seat 1.
    d = _data("r01-2p-round1-basics.toml")
    d["set"] = ["game.explosion_limit=8"]
    res = _play(d)["players"]
    assert res[1]["exploded"] is False
    assert res[1]["die"] == ["pumpkin"] and res[0]["die"] == []
    assert res[1]["score"] == 1 and res[1]["bag"] == "w1x4,w2x2,w3,o1x3,g1x2"


def test_yellow_may_keep_the_white():
    # r03 seat 0 declines the yellow's return: the w1 stays on 12 (white total 1); the reward
    # space is unchanged (the yellow is on 13 either way).
    d = _data("r03-2p-black-more-red-yellow-flask.toml")
    d["player"][0]["yellow"] = [False]
    p0 = _play(d)["players"][0]
    assert [x["index"] for x in p0["placements"]] == [3, 4, 5, 6, 10, 11, 12, 13]
    assert p0["reward_space"] == 14


def test_flask_frees_the_last_space_and_stopping_scores_the_space_after_the_chip_before():
    # r07 seat 2: o1@48, w2@50, w3 reaches 52 and the flask sends it back (its space stays empty).
    # Stopping there: reward = the space after w2@50 -> 51 (33 coins, 14 VP, no ruby). Seat 2 is no
    # longer on the spoon, so seat 0 alone rolls the first face (vp1): 48 + 1 + 15 = 64.
    # Seat 2: 62 + 14 = 76, buys g4 + k1 = 24 <= 33, flask now empty.
    d = _data("r07-3p-spoon-second-lap.toml")
    d["player"][2]["flask_on"] = 3
    res = _play(d)["players"]
    p2 = res[2]
    assert [f"{x['chip']}@{x['index']}" for x in p2["placements"]] == ["o1@48", "w2@50"]
    assert (p2["reward_space"], p2["coins"], p2["score"], p2["flask"]) == (51, 33, 76, False)
    assert p2["die"] == [] and res[0]["die"] == ["vp1"] and res[0]["score"] == 64


def test_flask_on_the_last_space_then_draw_again():
    # Same, but seat 2 draws once more: w1 counts on from the emptied 52 and is placed on 52
    # -> spoon (reward 53), white 3; seat 2 rolls again (order 1, 2, 0: seat 2 vp1, seat 0 droplet).
    d = _data("r07-3p-spoon-second-lap.toml")
    d["player"][2]["flask_on"] = 3
    d["player"][2]["draws"] = "o1,w2,w3,w1"
    p2 = _play(d)["players"][2]
    assert [f"{x['chip']}@{x['index']}" for x in p2["placements"]] == ["o1@48", "w2@50", "w1@52"]
    assert (p2["reward_space"], p2["die"], p2["score"]) == (53, ["vp1"], 78)


def test_buy_in_round_9_is_refused():
    # Issue 3 had a round-9 `buy` ignored (its coins convert, 5 a VP, nothing is bought); issue
    # 43: a buy that cannot happen is refused with a line naming the file, not dropped silently.
    d = _data("r08-3p-round9-conversions.toml")
    d["player"][0]["buy"] = "o1"
    with pytest.raises(RoundFileError, match="seat 0: key 'buy': nothing is bought in the last"):
        _play(d)


# --- red: the extra distance from pumpkins is optional (rules guide: "Ingredient actions are
# optional; you may decline an effect"; decisions.md: "red's extra distance ... strategy decisions")

def _spots(p):
    return [f"{x['chip']}@{x['index']}" for x in p["placements"]]


def test_red_declined_after_three_pumpkins():
    # r03 seat 0 (start 2): o1 3, o1 4, k1 5, o1 6; r2 with 3 pumpkins is offered +2 and declines:
    # 6+2 = 8; k1 9, w1 10, y1 11 returns w1 -> reward 12 (12 coins, 2 VP, no ruby), 2 spaces
    # short of the golden 14. Still furthest (seat 1: 9): rolls droplet. Black 2 vs 1: droplet +1,
    # ruby +1. Rubies 4+1 = 5, two droplet moves -> 1; droplet 2+1+1+2 = 6; score 20+2 = 22;
    # buys y1 (8) + o1 (3) = 11 <= 12 coins.
    d = _data("r03-2p-black-more-red-yellow-flask.toml")
    d["player"][0]["red"] = [False]
    res = _play(d)
    p0 = res["players"][0]
    assert _spots(p0) == ["o1@3", "o1@4", "k1@5", "o1@6", "r2@8", "k1@9", "y1@11"]
    assert (p0["reward_space"], p0["coins"], p0["vp_gained"], p0["score"]) == (12, 12, 2, 22)
    assert ((p0["die"], p0["rubies"], p0["droplet"], p0["bought"])
            == (["droplet"], 1, 6, ["y1", "o1"]))
    red = [e for e in res["events"] if e["event"] == "red"]
    assert red == [{"round": 4, "event": "red", "seat": 0, "chip": "r2", "extra": 2,
                    "taken": False}]


def test_red_taken_when_scripted_true_is_the_default():
    # red = [true] is what an unscripted red chip does: exactly the golden r03 result.
    d = _data("r03-2p-black-more-red-yellow-flask.toml")
    d["player"][0]["red"] = [True]
    res = _play(d)
    assert res["players"] == EXPECTED["r03-2p-black-more-red-yellow-flask.toml"]["players"]
    assert [e["taken"] for e in res["events"] if e["event"] == "red"] == [True]


def test_red_list_has_one_entry_per_red_chip_placed():
    # Like `yellow`, `red` is consumed one entry per red chip placed, offered an extra or not.
    # r12 seat 0 draws r1, o1, r2: r1 on 1 (no pumpkin yet: nothing offered, entry 0 used),
    # o1 2, r2 offered +1 (one pumpkin).
    d = _data("r12-2p-red-declined-and-taken.toml")
    d["player"][0]["draws"] = "r1,o1,r2"
    d["player"][0]["red"] = [True, False]  # entry 1 declines: r2 2+2 = 4 -> reward 5 (ruby)
    p0 = _play(d)["players"][0]
    assert _spots(p0) == ["r1@1", "o1@2", "r2@4"]
    assert (p0["reward_space"], p0["coins"], p0["rubies"]) == (5, 5, 2)
    d["player"][0]["red"] = [False]  # entry 0 is the r1's; the r2 has none: takes, 2+3 = 5
    p0 = _play(d)["players"][0]
    assert _spots(p0) == ["r1@1", "o1@2", "r2@5"]
    assert (p0["reward_space"], p0["coins"], p0["vp_gained"]) == (6, 6, 1)


def test_red_placed_by_a_blue_chip_may_decline():
    # r12 seat 0 with a b1 bought in: o1 1, b1 2 looks at r1 and places it; one pumpkin: +1
    # offered, declined: 2+1 = 3 -> reward 4 (4 coins). Taken (the default): 4 -> reward 5.
    d = _data("r12-2p-red-declined-and-taken.toml")
    d["player"][0]["bag"] = "start,o1,r1,r2,b1"
    d["player"][0]["draws"] = "o1,b1,r1"
    d["player"][0]["blue"] = ["r1"]
    d["player"][0]["red"] = [False]
    p0 = _play(d)["players"][0]
    assert _spots(p0) == ["o1@1", "b1@2", "r1@3"] and p0["reward_space"] == 4
    d["player"][0].pop("red")
    p0 = _play(d)["players"][0]
    assert _spots(p0) == ["o1@1", "b1@2", "r1@4"] and p0["reward_space"] == 5


@pytest.mark.parametrize("value", [[1, 0], "false", [True, "no"]])
def test_red_script_must_be_true_false_list(value):
    d = _data("r12-2p-red-declined-and-taken.toml")
    d["player"][0]["red"] = value
    with pytest.raises(RoundFileError, match=r"seat 0: key 'red'"):
        _play(d)
