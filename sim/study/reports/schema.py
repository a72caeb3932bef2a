"""The parquet schemas of ``games.parquet`` and ``rounds.parquet`` and the conversions between
numpy columns and arrow tables (strategy names as a dictionary column)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from sim.api.game import result_columns, round_columns


class ReportError(ValueError):
    """A report directory that cannot be used; the message says why and what to do."""


def _arrow(columns: dict[str, str]) -> dict:
    return {name: getattr(pa, type_name)() for name, type_name in columns.items()}


# The record columns come from the kernel's record declarations (sim.kernel.records), in order.
_RESULT_TYPES = _arrow(result_columns())
WITCHES_TYPE = _RESULT_TYPES.pop("witches")  # games.parquet's ``witches`` (sim.study.witch_use)
GAME_TYPES = {
    "game": pa.int64(), "deal": pa.int64(), "seed": pa.int64(), "combo": pa.int16(),
    "rotation": pa.int8(), "seat": pa.int8(), "strategy": pa.dictionary(pa.int16(), pa.string()),
    **_RESULT_TYPES,
}


def game_types(witches: bool) -> dict:
    """The column types of ``games.parquet``: ``GAME_TYPES``, and ``witches`` when the ruleset has
    the herb witches (bits: witches called and in play)."""
    return {**GAME_TYPES, "witches": WITCHES_TYPE} if witches else dict(GAME_TYPES)


ROUND_TYPES = {
    "game": pa.int64(), "deal": pa.int64(), "round": pa.int8(), "seat": pa.int8(),
    "strategy": pa.dictionary(pa.int16(), pa.string()),
    **_arrow(round_columns()),
}


def arrow_schema(types: dict, meta_json: str) -> pa.Schema:
    return pa.schema([pa.field(k, t, nullable=False) for k, t in types.items()],
                     metadata={"quacks": meta_json})


def arrow_table(cols: dict[str, np.ndarray], schema: pa.Schema, names: pa.Array) -> pa.Table:
    arrays = []
    for f in schema:
        if f.name == "strategy":
            arrays.append(pa.DictionaryArray.from_arrays(pa.array(cols["strategy"], pa.int16()),
                                                         names))
        else:
            arrays.append(pa.array(cols[f.name], f.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def numpy_columns(table: pa.Table, names: list[str]) -> dict[str, np.ndarray]:
    out = {}
    for name in table.column_names:
        col = table.column(name)
        if name == "strategy":
            arr = col.combine_chunks() if col.num_chunks != 1 else col.chunk(0)
            dictionary = arr.dictionary.to_pylist()
            try:
                lut = np.array([names.index(x) for x in dictionary], dtype=np.int64)
            except ValueError as e:
                raise ReportError(
                    f"the partial results name a strategy not in this run ({e})") from None
            idx = arr.indices.to_numpy(zero_copy_only=False)
            out[name] = lut[idx] if len(lut) else idx.astype(np.int64)
        else:
            out[name] = col.to_numpy()
    return out
