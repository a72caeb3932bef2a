"""The generator of the witches' hook tables (``sim.kernel.witches.hooks`` and ``potion_hooks``):
Python source, one kernel function per table entry, written from the witches' declarations
(``sim.rules.witch_files.WITCH_SOURCES``: every shipped witch's module, then a user's rules
files), so the round, brewing, explosion and evaluation code call hook points and never name a
witch.

Every witch that uses a hook point is called behind ``witch_ready`` (she is in play and the seat
holds her group's penny, or she visits), in number order, the same chain of compares a
hand-written table makes. An entry combines its witches in one of these ways (``FORMS``):

- ``first``: the first ready witch's answer is returned (``default`` when none is ready);
- ``each``: every ready witch acts;
- ``thread``: every ready witch acts on a value in turn (``coins``), which is returned;
- ``die``: step A's loop over the seats in start-player order: a seat whose ready witch says True
  may roll the die; the furthest such seat's reward space (or ``best``) is returned.
- ``called``: what the core does for a witch already called (``CALLED_HOOK_POINTS``): every
  witch the seat called this game (bit w of ``F_WITCHES``) acts, behind one compare of
  ``R[R_WITCHES]``: each acts (no default), any says True (default ``False``), or each acts on the
  value in turn (another default: ``price``), which is returned.

A user's witch module is imported under a private name and its plain hook functions become
kernel functions (``sim.kernel.rules_modules``, shared with the cards and the user's books).
"""

from __future__ import annotations

import importlib

from sim.kernel.rules_modules import compile_hooks, hook_params, import_rules_module
from sim.rules.declare import WITCH_GROUPS, WITCH_HOOKS, WITCH_SPECIAL_FUNCTIONS
from sim.rules.witch_files import WITCH_SOURCES, WitchSource

FORMS = ("first", "each", "thread", "die", "called")
CALLED = "((P[s, F_WITCHES] >> {}) & 1) != 0"  # the seat called witch w this game
WITCH_GROUPS_INDEX = {g: i for i, g in enumerate(WITCH_GROUPS)}


def variable(src: WitchSource) -> str:
    """The name a witch's module has in the generated source."""
    stem = src.decl.id.replace("-", "_")
    return stem if src.module else f"user_witch_{stem}"


def _import(src: WitchSource):
    """The witch's module (a user's rules file is imported under a private name, its hooks
    compiled)."""
    if src.module:
        return importlib.import_module(f"{__package__}.{src.module}")
    module = import_rules_module(f"quacks_rules_witch_{src.decl.id.replace('-', '_')}",
                                 src.path, f"witch '{src.decl.id}'")
    compile_hooks(module, {**{h: WITCH_HOOKS[h].per_chip for h in src.hooks},
                           **dict.fromkeys(WITCH_SPECIAL_FUNCTIONS, False)})
    return module


def witch_modules(points) -> dict[str, object]:
    """The modules of the witches that use any of these hook points, by their names in the
    generated source, in number order."""
    return {variable(src): _import(src) for src in WITCH_SOURCES
            if any(p in src.hooks for p in points)}


def users_of(point: str, sources: list[WitchSource] | None = None) -> list[WitchSource]:
    """The witches that use a hook point, in number order (of ``sources``: every witch loaded
    unless given)."""
    return [src for src in (WITCH_SOURCES if sources is None else sources) if point in src.hooks]


def shipped_sources() -> list[WitchSource]:
    """The shipped witches (a table generated from them alone is the shipped text)."""
    return [src for src in WITCH_SOURCES if src.module]


def call(src: WitchSource, point: str, modules: dict) -> str:
    """``module.point(args)``: a witch's function called with the arguments it names."""
    var = variable(src)
    return f"{var}.{point}({', '.join(hook_params(getattr(modules[var], point)))})"


def entry(name: str, point: str, form: str, modules: dict, inline: bool = True,
          sources: list[WitchSource] | None = None) -> str:
    """The source of one table entry: kernel function ``name`` (taking the hook point's
    arguments, ``best`` for the ``die`` form) calling the witches that use ``point`` (of
    ``sources``: every witch loaded unless given)."""
    hp = WITCH_HOOKS[point]
    users = users_of(point, sources)
    ready = "witch_ready(P, s, G, R, {})"
    if form == "die":
        args = ", ".join(["P", "G", "R", "best", *hp.params[4:]])
    else:
        args = ", ".join(hp.params)
    out = ["", "", "@kernel(inline=True)" if inline else "@kernel", f"def {name}({args}):"]
    if form == "first":
        for src in users:
            out += [f"    if {ready.format(src.decl.number)}:",
                    f"        return {call(src, point, modules)}"]
        out.append(f"    return {hp.default}")
    elif form == "each":
        if users and name == "step_d":
            out.append("    if R[R_WITCHES] != 0:")
        pad = "    " * (2 if users and name == "step_d" else 1)
        for src in users:
            out += [f"{pad}if {ready.format(src.decl.number)}:",
                    f"{pad}    {call(src, point, modules)}"]
        if not users:
            out.append("    return")
    elif form == "thread":
        value = hp.default
        for src in users:
            out += [f"    if {ready.format(src.decl.number)}:",
                    f"        {value} = {call(src, point, modules)}"]
        out.append(f"    return {value}")
    elif form == "die":
        out.append("    both = best")
        if users:
            out += ["    if R[R_WITCHES] != 0:", "        n = G[G_NP]",
                    "        sp = G[G_START_PLAYER]", "        for k in range(n):",
                    "            s = (sp + k) % n"]
            for src in users:
                out += [f"            if {ready.format(src.decl.number)} and \\",
                        f"                    {call(src, point, modules)}:",
                        "                both = max(both, P[s, F_REWARD])"]
        out.append("    return both")
    elif form == "called":
        out += called_body(point, hp.default, modules, sources)
    else:
        raise ValueError(f"table form {form!r}, expected one of {', '.join(FORMS)}")
    return "\n".join(out)


def called_body(point: str, default: str | None, modules: dict,
                sources: list[WitchSource] | None = None) -> list[str]:
    """The lines of a ``called`` entry (see ``FORMS``) for hook point ``point``."""
    users = users_of(point, sources)
    value = "called" if default == "False" else default
    out = [f"    {value} = False"] if default == "False" else []
    if users:
        out.append("    if R[R_WITCHES] != 0:")
    for src in users:
        test = CALLED.format(src.decl.number)
        act = call(src, point, modules)
        if default == "False":
            out += [f"        if {test} and {act}:", f"            {value} = True"]
        elif default is None:
            out += [f"        if {test}:", f"            {act}"]
        else:
            out += [f"        if {test}:", f"            {value} = {act}"]
    if default is not None:
        out.append(f"    return {value}")
    elif not users:
        out.append("    return")
    return out


def between_draws_test(name: str, sources: list[WitchSource] | None = None) -> str:
    """The per-chip quick test of the ``between_draws`` hook point: a witch who acts there is in
    play in her group and the seat holds that group's penny, or she visits and the seat has not
    called her (one compare when the witches are not in the game; one term per group that has
    such a witch)."""
    groups = sorted({WITCH_GROUPS_INDEX[src.decl.group]
                     for src in users_of("between_draws", sources)})
    out = ["", "", "@kernel(inline=True)", f"def {name}(P, s, G, R):"]
    if not groups:
        out.append("    return False")
        return "\n".join(out)
    terms = []
    for g in groups:
        w = "G[G_WITCH]" if g == 0 else f"G[G_WITCH + {g}]"
        terms.append(f"(((BETWEEN_DRAWS >> {w}) & 1) != 0 and (P[s, F_PENNY] & {1 << g}) != 0)")
    out += ["    v = G[G_VISIT]", "    return R[R_WITCHES] != 0 and (",
            *(f"        {t}" if i == 0 else f"        or {t}" for i, t in enumerate(terms)),
            "        or (((BETWEEN_DRAWS >> v) & 1) != 0 and P[s, F_VISITED] == 0))"]
    return "\n".join(out)


def between_draws_mask(sources: list[WitchSource] | None = None) -> int:
    """Bit w: witch w acts between draws."""
    return sum(1 << src.decl.number for src in users_of("between_draws", sources))
