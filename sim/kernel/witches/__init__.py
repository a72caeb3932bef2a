"""The herb witches (Herb Witches expansion), one module per witch.

Three groups of four, one witch of each group in play per game (dealt at set-up from the game's
shared stream, or fixed by the ruleset). Every player holds one penny per group and calls the
group's witch at most once a game, at her phase, by giving the penny up; a penny still held at the
end scores ``game.penny_vp``.

Each witch is a unit, one module: her declaration (``WITCH = witch(...)``,
``sim.rules.declare``: number, group, name, text, phase, events (her call's first), the
built-in strategy's first round and thresholds, the round-file answer form), her effect in
functions named after the hook points she uses, and her built-in answer (``default``, taken
where ``witch_answer`` says ``ASK_DEFAULT``). The hook tables ``sim.kernel.witches.hooks``,
``potion_hooks`` and ``called_hooks``, which brewing, the explosion, the evaluation and the ruby
prices call, are generated from the declarations
(``sim.kernel.witches.table``); a user's witch is the same module in a rules file
(``--rules-file``). ``common`` holds what witches share (``witch_ready``, ``call_witch``), the
deal, the pennies scored at the end and Visit from a Witch's visitor.

The names below are re-exported for the game kernel, round files and tests; a new witch needs no
line here.
"""

from __future__ import annotations

from sim.kernel.witches.common import (
    call_witch,
    deal_witches,
    penny_points,
    visiting_witch,
    witch_ready,
)

__all__ = ["call_witch", "deal_witches", "penny_points", "visiting_witch", "witch_ready"]
