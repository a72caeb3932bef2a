"""Green Sprouts, an example rules file: an ingredient book, a new effect for the green chips.

    quacks play --rules-file experiments/rules/green_sprouts.py --set books.green=7

Green Set 7 (garden spider, draw): a green chip placed, the pot intact, scores its value in VP at
once (a green 1 one VP, a green 2 two, a green 4 four). Its chips cost Set 1's prices. The hook
point is ``placed`` (a chip of the book's colour just placed: its action), a plain function
compiled by Numba and inlined on the per-chip path, called only when the ruleset chose the book.
"""

from sim.kernel.layout import F_SCORE
from sim.rules.chips import TYPE_VALUE
from sim.rules.declare import book

BOOK = book("green", 7, "draw", name="Green Sprouts", prices=1, doc=(
    "A green chip placed, the pot intact, scores its value in VP at once."))


def placed(P, s, t):
    """Green chip t was just placed by seat s."""
    P[s, F_SCORE] += TYPE_VALUE[t]
