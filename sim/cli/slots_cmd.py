"""``quacks strategies --slots``: the plugin surface (slot signature, arguments, slots, helpers)
printed from its declaration, ``strategies.slot_docs``."""

from __future__ import annotations

import json
import textwrap

from strategies import slot_docs as D

WIDTH = 100


def _item(label: str, text: str, indent: int) -> list[str]:
    """``label`` then ``text`` wrapped to WIDTH, continuation lines under the text."""
    first = f"  {label:<{indent - 2}}"
    return textwrap.wrap(D.plain(text), WIDTH, initial_indent=first,
                         subsequent_indent=" " * indent) or [first.rstrip()]


def slots_text() -> list[str]:
    """The lines ``quacks strategies --slots`` prints."""
    lines = textwrap.wrap(f"Slot function: {D.SIGNATURE}, passed to register(name, description, "
                          "fallback=..., params=[...], <slot>=f) in a strategy file "
                          "(--strategy-file).", WIDTH)
    lines += ["", "Arguments:"]
    for a in D.ARGUMENTS:
        lines += _item(a.name, a.what, 8)
    lines += ["", "Slots (a, b: what the slot asks; result: what the function returns):"]
    for d in D.SLOTS:
        lines += _item(d.name, f"a, b: {d.ab}", 11)
        lines += _item("", f"result: {d.result}", 11)
    lines += ["", *textwrap.wrap("Helpers (from strategies.helpers_nb import ...; each is inlined "
                                 "where it is called, so it costs what the raw read costs):",
                                 WIDTH)]
    group = None
    for g, sig, doc in D.helper_docs():
        if g != group:
            lines.append(f"  {g}:")
            group = g
        lines += textwrap.wrap(D.plain(f"{sig}: {doc}"), WIDTH, initial_indent="    ",
                               subsequent_indent="        ")
    return lines


def slots_json() -> str:
    """The declaration as JSON (``--slots --json``)."""
    return json.dumps({
        "signature": D.SIGNATURE,
        "arguments": [{"name": a.name, "what": D.plain(a.what)} for a in D.ARGUMENTS],
        "slots": [{"name": d.name, "a_b": D.plain(d.ab), "result": D.plain(d.result)}
                  for d in D.SLOTS],
        "helpers": [{"group": g, "call": sig, "doc": D.plain(doc)}
                    for g, sig, doc in D.helper_docs()],
    })
