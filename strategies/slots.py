"""The decision slots and the layout of a strategy's arrays, for strategy files.

A re-export of the public constants of :mod:`sim.kernel.decisions.slots`, where they live (the
kernel reads them). User strategy files may keep writing ``from strategies.slots import
SLOT_CUSTOM``; that is a contract. Nothing inside the project imports this module
(``tests/test_layers.py`` checks it).
"""

from sim.kernel.decisions.slots import *  # noqa: F403 (every public constant)
