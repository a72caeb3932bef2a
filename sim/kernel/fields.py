"""Declared tables: an ordered list of fields, from which every offset is computed.

A :class:`Table` walks its fields and gives each the next free offset, so a layout is written once
(name, width, meaning) and its ``F_*`` / ``G_*`` / ``RD_*`` ... constants are derived. Modules
export them with ``globals().update(table.constants())``: they stay plain module-level ``int``
globals, which Numba freezes as compile-time constants. Pure Python (no Numba), so the api and the
reports can read a declaration without the kernel.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass


@dataclass(frozen=True)
class Field:
    """One field of a table: ``width`` consecutive int64 entries; the rest is given by keyword
    (``doc=``, the field's meaning, is documentation the Numba cache's stamp ignores:
    ``sim.numba_cache.code_text``).

    For a record (a kernel output read by the reports), ``columns`` are the report columns the
    field becomes and ``arrow`` their type name (``pyarrow`` type function, e.g. ``"int16"``);
    ``internal`` marks a field no report column comes from. ``reset`` says when the kernel zeroes
    it, whoever writes it: ``"potion"`` as every potion starts (``sim.kernel.bag.empty_pot``),
    ``"single"`` as a single potion starts (``quacks potion``: a rule keeps it across rounds).
    A field with an empty name is spare room: unused entries kept so that the offsets after it do
    not move.
    """

    name: str
    width: int = 1
    _: KW_ONLY
    doc: str = ""
    columns: tuple[str, ...] = ()
    arrow: str = ""
    internal: bool = False
    reset: str = ""


def spare(width: int) -> Field:
    """Unused entries (a gap left in a layout so that the later offsets keep their values)."""
    return Field("", width, doc="spare", internal=True)


class Table:
    """Fields laid out one after another; ``prefix + NAME`` is the exported offset constant.

    ``array_prefix`` (default ``prefix``) names the fields wider than one entry; ``width_name`` is
    the constant holding the table's total width.
    """

    def __init__(self, prefix: str, fields: list[Field], width_name: str,
                 array_prefix: str | None = None):
        self.prefix = prefix
        self.array_prefix = prefix if array_prefix is None else array_prefix
        self.fields = tuple(fields)
        self.width_name = width_name
        self.offsets: dict[str, int] = {}
        at = 0
        for f in self.fields:
            if f.width < 1:
                raise ValueError(f"field {f.name!r}: width {f.width} < 1")
            if f.name:
                if f.name in self.offsets:
                    raise ValueError(f"field {f.name!r} declared twice")
                self.offsets[f.name] = at
            at += f.width
        self.width = at

    def named(self) -> list[Field]:
        """The named fields, in order (spare room left out)."""
        return [f for f in self.fields if f.name]

    def field(self, name: str) -> Field:
        """The field called ``name``."""
        return next(f for f in self.fields if f.name == name)

    def const_name(self, f: Field) -> str:
        """The exported constant of field ``f`` (``F_SCORE``, ``BAGCNT``, ``RD_BAG`` ...)."""
        return (self.prefix if f.width == 1 else self.array_prefix) + f.name.upper()

    def constants(self) -> dict[str, int]:
        """Every field's offset under its constant name, and the total width."""
        out = {self.const_name(f): self.offsets[f.name] for f in self.named()}
        out[self.width_name] = self.width
        return out

    def layout(self) -> list[tuple[str, int, int]]:
        """``(name, offset, width)`` of every named field, in order."""
        return [(f.name, self.offsets[f.name], f.width) for f in self.named()]

    def reset_entries(self, when: str) -> list[int]:
        """The offset of every entry of the fields zeroed ``when`` (``Field.reset``), in order."""
        return [self.offsets[f.name] + j for f in self.named() if f.reset == when
                for j in range(f.width)]

    def column_types(self) -> dict[str, str]:
        """The report columns of the fields not marked internal, in order, with their arrow type
        names (a column two fields make, like ``win / nwin``, once)."""
        out: dict[str, str] = {}
        for f in self.named():
            if f.internal:
                continue
            for c in f.columns:
                if out.setdefault(c, f.arrow) != f.arrow:
                    raise ValueError(f"column {c!r} declared with two types")
        return out


def numbered(names: list[str], start: int = 1) -> dict[str, int]:
    """Consecutive codes for a list of constant names, from ``start``."""
    return {n: i for i, n in enumerate(names, start=start)}
