"""Text both design reports share: markdown tables with their number columns right-aligned,
and a strength as printed."""

from __future__ import annotations

from sim.study.balance.report import number


def md(header: list[str], rows: list[list[str]]) -> str:
    """A markdown table; a column whose every cell is a number (or n/a) is right-aligned."""
    from sim.study.reports.markdown import md_table

    def numeric(cell: str) -> bool:
        return bool(cell) and (cell[0].isdigit() or cell[0] in "+-<" or cell.startswith("n/a"))

    right = [bool(rows) and all(numeric(r[i]) for r in rows) for i in range(len(header))]
    return md_table(header, rows, right)


def strength_text(x: float) -> str:
    """A strength to one decimal (``inf`` for a difference the same on every deal)."""
    return "inf" if x == float("inf") else number(x, 1)


def p_text(p: float) -> str:
    """A p-value as printed: three significant digits, ``<0.0001`` below that."""
    if p is None or p != p:
        return "n/a"
    return "<0.0001" if p < 1e-4 else f"{p:.3g}"
