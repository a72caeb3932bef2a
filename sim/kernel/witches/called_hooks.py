"""The witches' entries for what the core does for a witch a seat has already called (her penny
given up, so ``witch_ready`` no longer holds): the rest of the witch hook table
(``sim.kernel.witches.hooks``), generated the same way (``sim.kernel.witches.table``, form
``called``), kept apart because the ruby prices are read by the strategies' spending decision
(``sim.kernel.costs``, which ``sim.kernel.decisions.decide`` imports), below the brewing and
evaluation code that ``hooks`` serves.

- ``die_caller``: step A, True if seat s called a witch at the die this round (both rewards): it
  rolls if it got furthest of those who did and no intact potion is further.
- ``ruby_price``: step F, the rubies a droplet move or a flask refill costs seat s (cheap
  rubies: 1).
- ``after_spending``: step F, after seat s spent its rubies (cheap rubies: her price ends).

Each tests ``R[R_WITCHES]`` once, so a game without the witches makes one compare. The Numba
cache stamps this module with the modules of the shipped witches that use these hook points (the
marker lines below, checked by ``tests/test_core_names_no_book.py``), not the whole folder: the
ruby prices are under every card's decisions, so a witch's edit elsewhere recompiles no card.
``SOURCE`` is the generated text (``python -m sim.kernel.witches.called_hooks`` prints it).
"""

# numba-cache-depends: sim/kernel/witches/both_rewards.py
# numba-cache-depends: sim/kernel/witches/cheap_rubies.py

from __future__ import annotations

# the generated source's names (it runs in this module's namespace)
from sim.kernel.jit import kernel  # noqa: F401
from sim.kernel.layout import F_WITCHES, R_WITCHES  # noqa: F401
from sim.kernel.rules_modules import install
from sim.kernel.witches.table import entry, shipped_sources, witch_modules
from sim.rules.witch_declare import CALLED_HOOK_POINTS
from sim.rules.witch_files import WITCHES_BUILT


def generate(sources=None) -> str:
    """The table's source, of the witches loaded (of ``sources`` if given)."""
    return "".join(entry(point, point, "called", _modules, True, sources) + "\n"
                   for point in CALLED_HOOK_POINTS)


_modules = witch_modules(CALLED_HOOK_POINTS)
SOURCE = generate()
# the ruby prices' dependents (every decision) keep the shared cache with a rules file loaded
# unless a user's witch uses these hook points
install(globals(), _modules, SOURCE, WITCHES_BUILT,
        as_shipped=SOURCE == generate(shipped_sources()))
