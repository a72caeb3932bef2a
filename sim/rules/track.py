"""The pot track's size, as the kernels compile it in: one track of ``TRACK_LEN`` spaces, index
0..``SPOON`` (component-data.md section 2). The spoon is the last space and holds no chip: a chip
on the space before it scores the spoon.

A ruleset's ``[track]`` table gives one coins and one VP entry per space (``sim.rules.schema``
checks every ruleset against ``TRACK_LEN``; ``tests/test_track.py`` checks these numbers against
the built-in rulesets' tables). The numbers are written here, not read from the rulesets' files:
a compiled kernel's cache stamp covers the Python modules it imports, not data files.
"""

from __future__ import annotations

TRACK_LEN = 54
SPOON = TRACK_LEN - 1
