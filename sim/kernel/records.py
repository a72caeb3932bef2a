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
    "GERR_BUY_UNAVAILABLE",  # book not out, not sold in this book, or sold out (arg = chip type)
    "GERR_BUY_SAME_COLOUR",  # two chips of one colour bought
    "GERR_BUY_OVER_BUDGET",  # chips bought cost more than the coins
    "GERR_BUY_TOO_MANY",  # more chips bought than allowed
    "GERR_SPEND",  # not enough rubies, or refilling a full flask (arg = action)
    "GERR_DIE_SHORT",  # the die script has no face left
    "GERR_BLUE",  # a scripted blue or draw problem (arg = F_SCRIPT_ERR code)
)

# Scratch space of play_round (W)
SCRATCH = Table("W_", [
    Field("black", 8, doc="black chips in each seat's pot (black chip actions, step B)"),
    Field("want", 8, doc="each seat's wish to draw on (synchronized brewing)"),
], width_name="W_WIDTH")

_C = COLOUR_NAMES

# Per-round record (rd[round, seat, :]): each field becomes the rounds.parquet column(s) named.
ROUND = Table("RD_", [
    Field("reward", 1, doc="reward space of the potion", columns=("reward_space",), arrow="int16"),
    Field("exploded", 1, doc="the pot exploded", columns=("exploded",), arrow="int16"),
    Field("vpgain", 1, doc="VP gained in the round", columns=("vp_gained",), arrow="int16"),
    Field("coins", 1, doc="coins from the reward space", columns=("coins",), arrow="int16"),
    Field("white", 1, doc="white total in the pot", columns=("white_total",), arrow="int16"),
    Field("rat", 1, doc="rat spaces", columns=("rat",), arrow="int16"),
    Field("score", 1, doc="score after the round", columns=("score",), arrow="int16"),
    Field("rubies", 1, doc="rubies after the round", columns=("rubies",), arrow="int16"),
    Field("droplet", 1, doc="droplet position after the round",
          columns=("droplet",), arrow="int16"),
    Field("nchips", 1, doc="chips in the bag after the round", columns=("chips",), arrow="int16"),
    Field("npot", 1, doc="chips in the pot", columns=("pot_chips",), arrow="int16"),
    Field("bag", len(_C), doc="chips in the bag after the round, per colour",
          columns=tuple(f"bag_{c}" for c in _C), arrow="int16"),
    Field("bagvalue", len(_C), doc="chips in the bag after the round, per colour: their values "
          "added up (training data of quacks train; no report column)", internal=True),
    Field("flask", 1, doc="1 if the flask is full after the round (training data; no report "
          "column)", internal=True),
    Field("card", 1, doc="the round's fortune-teller card number (0 none)",
          columns=("card",), arrow="int8"),
], width_name="RD_WIDTH")

# Per-game result (out[seat, :]): each field becomes the games.parquet column(s) named.
RESULT = Table("O_", [
    Field("score", 1, doc="final VP", columns=("vp",), arrow="int16"),
    Field("rank", 1, doc="final rank (1 = first)", columns=("rank",), arrow="int8"),
    Field("win", 1, doc="win share numerator (1 if tied first)",
          columns=("win_share",), arrow="float64"),
    Field("nwin", 1, doc="players tied first (win_share = win / nwin)",
          columns=("win_share",), arrow="float64"),
    Field("explosions", 1, doc="explosions in the game", columns=("explosions",), arrow="int8"),
    Field("rubies", 1, doc="rubies at the end", columns=("rubies",), arrow="int16"),
    Field("droplet", 1, doc="droplet position at the end", columns=("droplet",), arrow="int16"),
    Field("finalpos", 1, doc="furthest space of the last potion (tie-break)",
          columns=("final_position",), arrow="int16"),
    Field("nchips", 1, doc="chips owned at the end", columns=("chips",), arrow="int16"),
    Field("err", 1, doc="game error code (GERR_*; 0 none)", columns=("illegal",), arrow="int8"),
    Field("bought", len(_C), doc="chips bought per colour",
          columns=tuple(f"bought_{c}" for c in _C), arrow="int8"),
    Field("witches", 1, doc="bit w: the seat called herb witch w (1-12, 14 a rules file's) this "
          "game; bit 16 + w: w was in play (a column only with the witches)",
          columns=("witches",), arrow="int32"),
], width_name="O_WIDTH")

globals().update(numbered(list(GAME_ERRORS)))
for _table in (SCRATCH, ROUND, RESULT):
    globals().update(_table.constants())


@kernel
def game_error(G, code, s, arg):
    """Record the first illegal decision of a game (later ones are ignored)."""
    if G[G_ERR] == 0:
        G[G_ERR] = code
        G[G_ERRSEAT] = s
        G[G_ERRARG] = arg
