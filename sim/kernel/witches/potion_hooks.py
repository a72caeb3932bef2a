"""The witches' entries between draws of an intact pot, called by ``sim.kernel.brewing``: the
rest of the witch hook table (``sim.kernel.witches.hooks``), generated the same way
(``sim.kernel.witches.table``), kept apart because a witch acting here may place chips through
``sim.kernel.brew`` (six chips), and brew calls ``hooks`` on an explosion: one module would close
an import circle.

- ``between_draws_possible``: the quick test, per chip (inlined): a witch who acts between draws
  (``BETWEEN_DRAWS``, bit w) is in play and the seat still holds her group's penny, or she
  visits.
- ``between_draws``: the seat may call her (``stopping``: it would stop now); the first ready
  witch in number order acts (her ``between_draws``).

``SOURCE`` is the generated text (``python -m sim.kernel.witches.potion_hooks`` prints it).
"""

# numba-cache-depends: sim/kernel/witches/*.py

from __future__ import annotations

# the generated source's names (it runs in this module's namespace)
from sim.kernel.jit import kernel  # noqa: F401
from sim.kernel.layout import F_PENNY, F_VISITED, G_VISIT, G_WITCH, R_WITCHES  # noqa: F401
from sim.kernel.rules_modules import install
from sim.kernel.witches.common import witch_ready  # noqa: F401
from sim.kernel.witches.table import (
    between_draws_mask,
    between_draws_test,
    entry,
    shipped_sources,
    witch_modules,
)
from sim.rules.witch_files import WITCHES_BUILT

BETWEEN_DRAWS = between_draws_mask()  # bit w: witch w acts between draws


def generate(sources=None) -> str:
    """The table's source, of the witches loaded (of ``sources`` if given)."""
    return (between_draws_test("between_draws_possible", sources) + "\n"
            + entry("between_draws", "between_draws", "first", _modules, False, sources) + "\n")


_modules = witch_modules(["between_draws"])
SOURCE = generate()
install(globals(), _modules, SOURCE, WITCHES_BUILT, as_shipped=(SOURCE, BETWEEN_DRAWS) == (
    generate(shipped_sources()), between_draws_mask(shipped_sources())))
