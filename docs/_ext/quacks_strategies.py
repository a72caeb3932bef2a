"""``quacks-strategies`` and ``quacks-slots``: the strategy reference, generated from the
registry (``strategies.builtin.REGISTRY``, what ``quacks strategies`` lists) and from the plugin
surface's declaration (``strategies.slot_docs``, what ``quacks strategies --slots`` prints).

``quacks-strategies`` writes one section per registered built-in strategy (kind, description,
idea, and a table of its own parameters: type, default, range, help) after a table of the
parameters every complete player shares (a parameter with the same definition, default included,
in every strategy that has it and in at least half of them)."""

from __future__ import annotations

from docnodes import para, paras, section, table
from docutils import nodes
from docutils.parsers.rst import Directive


def _registry():
    from strategies.builtin import PRESETS, REGISTRY

    return REGISTRY, PRESETS


def _default(p) -> str:
    d = p.as_json()["default"]
    if p.kind == "chips":
        return ">".join(d)
    if isinstance(d, list):
        return "/".join(str(x) for x in d)
    return p.text(d) if p.kind == "witches" else str(d)


def _range(p) -> str:
    j = p.as_json()
    if j["choices"]:
        return " | ".join(j["choices"])
    if j["min"] is None and j["max"] is None:
        return ""
    return f"{j['min']} to {j['max']}"


def _param_table(params) -> nodes.table:
    rows = [[f"`{p.name}`", p.kind, f"`{_default(p)}`", _range(p), p.help] for p in params]
    return table(["parameter", "type", "default", "range", "what it sets"], rows,
                 [2, 1, 2, 2, 8], ("quacks-ref",))


def common_params(registry) -> list:
    """The parameters shared alike (same name, type, default, range and help) by every strategy
    that has one of that name, and had by at least half of them, in the order of first use."""
    seen: dict[str, list] = {}
    for d in registry.values():
        for p in d.params:
            seen.setdefault(p.name, []).append(p)
    half = len(registry) / 2
    return [ps[0] for ps in seen.values()
            if len(ps) >= half and all(p == ps[0] for p in ps)]


def kind(d, presets) -> str:
    """As ``quacks strategies`` says it: ``preset``, ``rule`` or ``user``."""
    return "user" if d.source != "built-in" else ("preset" if d.name in presets else "rule")


class QuacksStrategies(Directive):
    """The built-in strategies and their parameters (see the module docstring)."""

    def run(self):
        registry, presets = _registry()
        common = common_params(registry)
        names = {p.name for p in common}
        shared = section("Parameters every complete player takes", "common-parameters")
        shared += para("Each of these has the same definition and default in every strategy "
                       "that takes it (the strategies below say which take them).")
        shared += _param_table(common)
        out = [shared]
        for d in registry.values():
            if d.source != "built-in":
                continue
            sec = section(d.name, f"strategy-{d.name}")
            sec += para(f"{kind(d, presets)}: {d.description}")
            if d.idea:
                sec += para(f"Idea: {d.idea}")
            own = [p for p in d.params if p.name not in names]
            takes = [p for p in d.params if p.name in names]
            if own:
                sec += _param_table(own)
            if takes:
                sec += para(f"Also takes the {len(takes)} common parameters"
                            + (" (all of them)." if len(takes) == len(common) else
                               ": " + ", ".join(f"`{p.name}`" for p in takes) + "."))
            out.append(sec)
        return out


class QuacksSlots(Directive):
    """What a strategy file may define: the signature, its arguments, the slots, the helpers."""

    def run(self):
        from strategies import slot_docs as D

        out = [para(f"Every slot function has the signature `{D.SIGNATURE}`.")]
        out.append(table(["argument", "what it is"],
                         [[f"`{a.name}`", a.what] for a in D.ARGUMENTS], [1, 8],
                         ("quacks-ref",)))
        out.append(table(["slot", "a, b", "return"],
                         [[f"`{s.name}`", s.ab, s.result] for s in D.SLOTS], [1, 5, 5],
                         ("quacks-ref",)))
        rows = [[group, f"`{sig}`", paras(doc)] for group, sig, doc in D.helper_docs()]
        out.append(table(["group", "helper", "what it returns or does"], rows, [2, 4, 8],
                         ("quacks-ref",)))
        return out


def setup(app):
    app.add_directive("quacks-strategies", QuacksStrategies)
    app.add_directive("quacks-slots", QuacksSlots)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
