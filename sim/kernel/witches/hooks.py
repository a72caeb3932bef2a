"""The hook table of the herb witches, generated from their declarations: every point of a round
where a witch can act (``sim.rules.declare.WITCH_HOOK_POINTS``) is a kernel function here that
checks which witches are in play (``witch_ready``: in play and the seat holds her group's penny,
or she visits) and calls the function of that name in each witch's module that has one
(``sim.kernel.witches.<id>``, or a user's rules file). The brewing, explosion and evaluation code
call these entries and never name a witch; witches only play under the Herb Witches ruleset
(``R_WITCHES``), so a game without them makes one compare at each point. ``SOURCE`` is the
generated text (``python -m sim.kernel.witches.hooks`` prints it; the generator is
``sim.kernel.witches.table``).

Entries, in the order of a round (the hook point a witch's function is named after):

- ``between_draws_possible`` / ``between_draws``: between draws of an intact pot
  (``between_draws``): in ``potion_hooks``, which ``sim.kernel.brewing`` calls: a witch there may
  place chips through ``sim.kernel.brew``, which calls this table on an explosion, so one module
  would close an import circle.
- ``on_explosion``: the pot just exploded, after the card's hook (``exploded``); True if the
  potion goes on.
- ``step_a``: the bonus die, before it is rolled (``at_die``); returns how far the furthest seat
  she lets roll got.
- ``step_c_rubies``: step C on a ruby space, the rubies taken (``at_rubies``).
- ``step_d``: step D, after the reward space's VP (``at_points``).
- ``step_e_before_buying`` / ``step_e_after_buying``: step E around the purchases
  (``before_buying``, returning the coins to spend, through ``buying_witches``;
  ``after_buying``).
- ``step_f``: step F, before rubies are spent (``at_spending``).
- ``final_conversion``: the last round's coins turned into VP (``final_coins``).

Set-up, the pennies scored at the end and Visit from a Witch's visitor are in ``common``. The
Numba cache stamps this module with every witch module of the folder (the marker line below);
with a rules file loaded, the kernels that depend on it are cached apart
(``sim.numba_cache.RULES_TABLES``).
"""

# numba-cache-depends: sim/kernel/witches/*.py

from __future__ import annotations

# the generated source's names (it runs in this module's namespace)
from sim.kernel.jit import kernel  # noqa: F401
from sim.kernel.layout import (  # noqa: F401
    F_PENNY,
    F_REWARD,
    F_VISITED,
    G_NP,
    G_START_PLAYER,
    R_WITCHES,
)
from sim.kernel.rules_modules import install
from sim.kernel.witches.common import witch_ready  # noqa: F401
from sim.kernel.witches.table import entry, shipped_sources, witch_modules
from sim.rules.witch_files import WITCHES_BUILT

# (entry, hook point, form, inlined) in the order of a round; between draws: potion_hooks
ENTRIES = (
    ("on_explosion", "exploded", "first", True),
    ("step_a", "at_die", "die", True),
    ("step_c_rubies", "at_rubies", "first", True),
    ("step_d", "at_points", "each", True),
    ("buying_witches", "before_buying", "thread", True),
    ("step_e_after_buying", "after_buying", "each", True),
    ("step_f", "at_spending", "each", True),
    ("final_conversion", "final_coins", "first", True),
)

# the part that names no witch: the supply a strategy sees is refreshed after the witches, when
# one was called (a witch changes the supply only when called: her penny is spent, or the
# visitor's call marked, ``common.call_witch``)
CORE = '''

@kernel(inline=True)
def step_e_before_buying(P, s, coins, G, R, supply, shop, SK, SP, SC, rng, E, UF):
    if R[R_WITCHES] == 0:
        return coins
    penny = P[s, F_PENNY]
    visited = P[s, F_VISITED]
    coins = buying_witches(P, s, coins, G, R, supply, SK, SP, SC, rng, E, UF)
    if P[s, F_PENNY] != penny or P[s, F_VISITED] != visited:
        for t in range(shop.shape[0]):
            shop[t] = supply[t]
    return coins
'''


def generate(sources=None) -> str:
    """The table's source, of the witches loaded (of ``sources`` if given)."""
    return "".join(entry(name, point, form, _modules, inline, sources) + "\n"
                   for name, point, form, inline in ENTRIES) + CORE


_modules = witch_modules([point for _name, point, _form, _inline in ENTRIES])
SOURCE = generate()
install(globals(), _modules, SOURCE, WITCHES_BUILT,
        as_shipped=SOURCE == generate(shipped_sources()))
