"""The parquet schemas of ``games.parquet`` and ``rounds.parquet`` and the conversions between
numpy columns and arrow tables (strategy names as a dictionary column)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from sim.study.tournament.statistics import BOUGHT_COLUMNS, ROUND_METRIC_NAMES


class ReportError(ValueError):
    """A report directory that cannot be used; the message says why and what to do."""


GAME_TYPES = {
    "game": pa.int64(), "deal": pa.int64(), "seed": pa.int64(), "combo": pa.int16(),
    "rotation": pa.int8(), "seat": pa.int8(), "strategy": pa.dictionary(pa.int16(), pa.string()),
    "vp": pa.int16(), "rank": pa.int8(), "win_share": pa.float64(), "explosions": pa.int8(),
    "rubies": pa.int16(), "droplet": pa.int16(), "final_position": pa.int16(), "chips": pa.int16(),
    "illegal": pa.int8(), **{b: pa.int8() for b in BOUGHT_COLUMNS},
}
WITCHES_TYPE = pa.int32()  # games.parquet's ``witches`` column (sim.study.reports.witch_use), with the witches


def game_types(witches: bool) -> dict:
    """The column types of ``games.parquet``: ``GAME_TYPES``, and ``witches`` when the ruleset has
    the herb witches (bits: witches called and in play)."""
    return {**GAME_TYPES, "witches": WITCHES_TYPE} if witches else dict(GAME_TYPES)


ROUND_TYPES = {
    "game": pa.int64(), "deal": pa.int64(), "round": pa.int8(), "seat": pa.int8(),
    "strategy": pa.dictionary(pa.int16(), pa.string()),
    **{m: pa.int16() for m in ROUND_METRIC_NAMES},
    "card": pa.int8(),  # the round's fortune-teller card number (sim.rules.cards; 0 none)
}


def arrow_schema(types: dict, meta_json: str) -> pa.Schema:
    return pa.schema([pa.field(k, t, nullable=False) for k, t in types.items()],
                     metadata={"quacks": meta_json})


def arrow_table(cols: dict[str, np.ndarray], schema: pa.Schema, names: pa.Array) -> pa.Table:
    arrays = []
    for f in schema:
        if f.name == "strategy":
            arrays.append(pa.DictionaryArray.from_arrays(pa.array(cols["strategy"], pa.int16()), names))
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
                raise ReportError(f"the partial results name a strategy not in this run ({e})") from None
            idx = arr.indices.to_numpy(zero_copy_only=False)
            out[name] = lut[idx] if len(lut) else idx.astype(np.int64)
        else:
            out[name] = col.to_numpy()
    return out
