"""Scripted rounds for the rules tests: build a round file's data and read what came out."""

from __future__ import annotations

from sim.api.round_file import play_round_data


def play_round(round_, *players, rules="base", card=None, sets=(), die=("vp1", "vp1", "vp1"),
               witches=()):
    """Play one scripted round: ``players`` are the ``[[player]]`` tables of a round file."""
    d = {"players": len(players), "round": round_, "rules": rules, "die": list(die),
         "set": list(sets), "player": [dict(p) for p in players], "witches": list(witches)}
    if card:
        d["card"] = card
    return play_round_data(d, "test round")


def spots(out):
    """A seat's placements as (chip, space) pairs."""
    return [(x["chip"], x["index"]) for x in out["placements"]]


def events(res, name, seat=0):
    """The round's events called ``name`` for one seat."""
    return [e for e in res["events"] if e["event"] == name and e.get("seat") == seat]
