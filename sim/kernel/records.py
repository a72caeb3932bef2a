"""What the kernel reports: game error codes, the per-round record and the per-game result."""

from __future__ import annotations

from numba import njit

from sim.kernel.layout import G_ERR, G_ERRARG, G_ERRSEAT

# Game errors (G_ERR): illegal decisions. Built-in strategies must never cause one.
GERR_BUY_UNAVAILABLE = 1  # book not out, not sold in this book, or sold out (arg = chip type)
GERR_BUY_SAME_COLOUR = 2
GERR_BUY_OVER_BUDGET = 3
GERR_BUY_TOO_MANY = 4
GERR_SPEND = 5  # not enough rubies, or refilling a full flask (arg = action)
GERR_DIE_SHORT = 6  # the die script has no face left
GERR_BLUE = 7  # a scripted blue or draw problem (arg = F_SCRIPT_ERR code)

# Scratch space of play_round (W)
W_BLACK, W_WANT, W_WIDTH = 0, 8, 16

# Per-round record (rd[round, seat, :])
RD_REWARD, RD_EXPLODED, RD_VPGAIN, RD_COINS, RD_WHITE, RD_RAT, RD_SCORE, RD_RUBIES = range(8)
RD_DROPLET, RD_NCHIPS, RD_NPOT, RD_BAG = 8, 9, 10, 11  # RD_BAG: 9 colour counts
RD_CARD = 20  # the round's fortune-teller card number (0 none)
RD_WIDTH = 21

# Per-game result (out[seat, :])
O_SCORE, O_RANK, O_WIN, O_NWIN, O_EXPLOSIONS, O_RUBIES, O_DROPLET, O_FINALPOS = range(8)
O_NCHIPS, O_ERR = 8, 9
O_BOUGHT = 10  # 9 colour counts
O_WITCHES = 19  # bit w: the seat called herb witch w (1-12) this game; bit 16 + w: w was in play
O_WIDTH = 20


@njit(cache=True, error_model="numpy", _nrt=False)
def game_error(G, code, s, arg):
    """Record the first illegal decision of a game (later ones are ignored)."""
    if G[G_ERR] == 0:
        G[G_ERR] = code
        G[G_ERRSEAT] = s
        G[G_ERRARG] = arg
