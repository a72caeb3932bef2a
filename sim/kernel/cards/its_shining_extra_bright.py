"""It's Shining Extra Bright (blue): a player whose scoring space shows a ruby takes 1 extra
ruby."""

from __future__ import annotations

from sim.kernel.jit import kernel
from sim.rules.declare import BLUE, card

CARD = card(17, "its-shining-extra-bright", BLUE, name="It's Shining Extra Bright", doc=(
    "A player whose scoring space shows a ruby takes 1 extra ruby."))


@kernel(inline=True)
def ruby_space_rubies():
    """Step C: rubies a ruby space gives (before the ruby-space witch's choice)."""
    return 2
