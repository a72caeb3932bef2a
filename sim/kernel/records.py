"""What the kernel reports: game error codes, the per-round record and the per-game result.

The records are declared once as field lists (``sim.kernel.fields``): the ``RD_*`` and ``O_*``
offsets are computed from them, and so are the report columns (``sim.study.reports.schema``) and the
api's ``result_fields`` / ``round_fields``."""

from __future__ import annotations

from sim.kernel.fields import Field, Table, numbered
from sim.kernel.jit import kernel
from sim.kernel.layout import G_ERR, G_ERRARG, G_ERRSEAT
from sim.rules.chips import COLOUR_NAMES

# Game errors (G_ERR): illegal decisions, numbered from 1. Built-in strategies must never cause one.
GAME_ERRORS = (
    ("GERR_BUY_UNAVAILABLE", "book not out, not sold in this book, or sold out (arg = chip type)"),
    ("GERR_BUY_SAME_COLOUR", "two chips of one colour bought"),
    ("GERR_BUY_OVER_BUDGET", "chips bought cost more than the coins"),
    ("GERR_BUY_TOO_MANY", "more chips bought than allowed"),
    ("GERR_SPEND", "not enough rubies, or refilling a full flask (arg = action)"),
    ("GERR_DIE_SHORT", "the die script has no face left"),
    ("GERR_BLUE", "a scripted blue or draw problem (arg = F_SCRIPT_ERR code)"),
)

# Scratch space of play_round (W)
SCRATCH = Table("W_", [
    Field("black", 8, "black chips in each seat's pot (black chip actions, step B)"),
    Field("want", 8, "each seat's wish to draw on (synchronized brewing)"),
], width_name="W_WIDTH")

_C = COLOUR_NAMES

# Per-round record (rd[round, seat, :]): each field becomes the rounds.parquet column(s) named.
ROUND = Table("RD_", [
    Field("reward", 1, "reward space of the potion", ("reward_space",), "int16"),
    Field("exploded", 1, "the pot exploded", ("exploded",), "int16"),
    Field("vpgain", 1, "VP gained in the round", ("vp_gained",), "int16"),
    Field("coins", 1, "coins from the reward space", ("coins",), "int16"),
    Field("white", 1, "white total in the pot", ("white_total",), "int16"),
    Field("rat", 1, "rat spaces", ("rat",), "int16"),
    Field("score", 1, "score after the round", ("score",), "int16"),
    Field("rubies", 1, "rubies after the round", ("rubies",), "int16"),
    Field("droplet", 1, "droplet position after the round", ("droplet",), "int16"),
    Field("nchips", 1, "chips in the bag after the round", ("chips",), "int16"),
    Field("npot", 1, "chips in the pot", ("pot_chips",), "int16"),
    Field("bag", len(_C), "chips in the bag after the round, per colour",
          tuple(f"bag_{c}" for c in _C), "int16"),
    Field("bagvalue", len(_C), "chips in the bag after the round, per colour: their values added "
          "up (training data of quacks train; no report column)", internal=True),
    Field("flask", 1, "1 if the flask is full after the round (training data; no report column)",
          internal=True),
    Field("card", 1, "the round's fortune-teller card number (0 none)", ("card",), "int8"),
], width_name="RD_WIDTH")

# Per-game result (out[seat, :]): each field becomes the games.parquet column(s) named.
RESULT = Table("O_", [
    Field("score", 1, "final VP", ("vp",), "int16"),
    Field("rank", 1, "final rank (1 = first)", ("rank",), "int8"),
    Field("win", 1, "win share numerator (1 if tied first)", ("win_share",), "float64"),
    Field("nwin", 1, "players tied first (win_share = win / nwin)", ("win_share",), "float64"),
    Field("explosions", 1, "explosions in the game", ("explosions",), "int8"),
    Field("rubies", 1, "rubies at the end", ("rubies",), "int16"),
    Field("droplet", 1, "droplet position at the end", ("droplet",), "int16"),
    Field("finalpos", 1, "furthest space of the last potion (tie-break)", ("final_position",),
          "int16"),
    Field("nchips", 1, "chips owned at the end", ("chips",), "int16"),
    Field("err", 1, "game error code (GERR_*; 0 none)", ("illegal",), "int8"),
    Field("bought", len(_C), "chips bought per colour", tuple(f"bought_{c}" for c in _C), "int8"),
    Field("witches", 1, "bit w: the seat called herb witch w (1-12) this game; bit 16 + w: w was "
                        "in play (a column only with the witches)", ("witches",), "int32"),
], width_name="O_WIDTH")

globals().update(numbered([name for name, _ in GAME_ERRORS]))
for _table in (SCRATCH, ROUND, RESULT):
    globals().update(_table.constants())


@kernel
def game_error(G, code, s, arg):
    """Record the first illegal decision of a game (later ones are ignored)."""
    if G[G_ERR] == 0:
        G[G_ERR] = code
        G[G_ERRSEAT] = s
        G[G_ERRARG] = arg
