"""Experiment files: a complete study declared in TOML, read and checked here.

An experiment file has one ``[experiment]`` table (title, description, seed, default games per
part, ruleset and overrides for every part) and one or more ``[[part]]`` tables, each a study of
one ``kind`` (see ``PART_KEYS``). Every key is checked: an unknown or missing key, or a value of
the wrong type, is an :class:`ExperimentFileError` that names the file, the part and the key.

    [experiment]
    title = "Stop thresholds"
    seed = 1
    games = 20000

    [[part]]
    kind = "thresholds"
    name = "starting-bag"
    bag = "start"
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from sim.api.limits import int_range
from sim.study.design.experiment_part import DESIGN_PART_KEYS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

EXPERIMENT_KEYS = {  # key: (type, required, default)
    "title": (str, True, None),
    "description": (str, False, ""),
    "seed": (int, False, 1),
    "games": (int, False, 20_000),
    "rules": (str, False, "base"),
    "set": (list, False, []),
    "players": (int, False, 4),
    "csv": (bool, False, False),  # every table as CSV too, next to its parquet file
}

_COMMON = {"kind": (str, True, None), "name": (str, True, None), "title": (str, False, ""),
           "note": (str, False, ""), "games": (int, False, None), "set": (list, False, []),
           "players": (int, False, None)}

PART_KEYS: dict[str, dict] = {
    # the stop curve of one or more bags (quacks thresholds)
    "thresholds": {"bags": (list, True, None), "white": (str, False, ""), "risk": (str, False, ""),
                   "potions": (int, False, 200_000), "optimal_potions": (int, False, None),
                   "coin_value": (float, False, None),
                   "ruby_value": (float, False, None)},
    # one strategy at each value of a parameter against a field (quacks sweep)
    "sweep": {"strategy": (str, True, None), "param": (str, True, None),
              "vs": (list, True, None)},
    # a field of strategies (quacks tournament)
    "tournament": {"strategies": (list, True, None), "format": (str, False, None)},
    # the same field under several rulesets (quacks compare)
    "compare": {"strategies": (list, True, None), "variants": (list, True, None)},
    # a strategy that favours each chip, at its price moved by each delta
    "ingredient": {"chips": (list, True, None), "favour": (str, True, None),
                   "vs": (list, True, None), "price_deltas": (list, False, [0])},
    # win share by score gap after round k, under each variant
    "catchup": {"strategies": (list, True, None), "after_rounds": (list, True, None),
                "variants": (list, False, []), "gap_bins": (list, False, None)},
    # win share by seat at each player count
    "seats": {"strategy": (str, True, None), "player_counts": (list, True, None)},
    # a ruleset's balance (quacks balance); targets: a targets file, relative to this file
    "balance": {"field": (list, False, None), "strong": (str, False, None),
                "weak": (list, False, None), "measure": (list, False, None),
                "targets": (str, False, None)},
    # rule values that bring figures into target bands (quacks design)
    "design": DESIGN_PART_KEYS,
}
PART_KINDS = tuple(PART_KEYS)
VARIANT_KEYS = {"label": (str, True, None), "set": (list, False, []), "rules": (str, False, None)}
BAG_KEYS = {"label": (str, True, None), "bag": (str, True, None), "start": (int, False, 0),
            "flask": (int, False, None), "round": (int, False, 0), "card": (str, False, None)}


class ExperimentFileError(ValueError):
    """A malformed experiment file; the message names the file and the key."""


# integer keys held to the command line's rule for the option of the same meaning (README:
# seeds 0 to 2^63 - 1, games 1 to 10^9, potions 1 to 10^12, players 1 to 5, ...)
INT_RULES = {"seed": "seed", "games": "games", "players": "players", "potions": "n",
             "optimal_potions": "n", "start": "start", "flask": "flask", "round": "round"}


def check_int_ranges(table: dict, where: str) -> None:
    """Every integer key of a checked table within the command line's range for it
    (ExperimentFileError ``x.toml: [experiment]: games = 0: expected 1 to 1000000000``)."""
    for key, option in INT_RULES.items():
        v = table.get(key)
        if v is None or isinstance(v, bool) or not isinstance(v, int):
            continue
        lo, hi, why = int_range(option) if option != "round" else (0, 20, "")
        if not lo <= v <= hi:
            note = f" ({why})" if why and v > hi else ""
            raise ExperimentFileError(f"{where}: {key} = {v}: expected {lo} to {hi}{note}")


@dataclass
class Experiment:
    """A checked experiment file: its settings and its parts (dicts with every key filled)."""

    path: Path
    name: str
    title: str
    description: str
    seed: int
    games: int
    rules: str
    overrides: list[str]
    players: int
    parts: list[dict] = field(default_factory=list)
    csv: bool = False

    def to_json(self) -> dict:
        """The resolved experiment, as saved in the report."""
        return {"file": str(self.path), "name": self.name, "title": self.title,
                "description": self.description, "seed": self.seed, "games": self.games,
                "rules": self.rules, "set": self.overrides, "players": self.players,
                "csv": self.csv, "parts": self.parts}


def _type_name(t) -> str:
    return {str: "a string", int: "an integer", float: "a number", list: "a list",
            dict: "a table", bool: "true or false"}[t]


def _check_table(table: dict, spec: dict, where: str) -> dict:
    """Every key of ``table`` known and typed as ``spec`` says; defaults filled in."""
    unknown = sorted(set(table) - set(spec))
    if unknown:
        raise ExperimentFileError(f"{where}: unknown key '{unknown[0]}'; known keys: "
                                  f"{', '.join(sorted(spec))}")
    out = {}
    for key, (typ, required, default) in spec.items():
        if key not in table:
            if required:
                raise ExperimentFileError(f"{where}: missing key '{key}' ({_type_name(typ)})")
            out[key] = list(default) if isinstance(default, list) else default
            continue
        v = table[key]
        ok = isinstance(v, typ) and not (typ is int and isinstance(v, bool))
        if typ is float and isinstance(v, int) and not isinstance(v, bool):
            v, ok = float(v), True
        if not ok:
            raise ExperimentFileError(f"{where}: key '{key}' must be {_type_name(typ)}, "
                                      f"not {v!r}")
        out[key] = v
    return out


def _check_strings(values: list, where: str, key: str) -> None:
    if not values or not all(isinstance(v, str) and v.strip() for v in values):
        raise ExperimentFileError(f"{where}: key '{key}' must be a non-empty list of strings")


def _check_part(raw: dict, i: int, where_file: str) -> dict:
    kind = raw.get("kind")
    where = f"{where_file}: part {i + 1}"
    if not isinstance(kind, str) or kind not in PART_KEYS:
        raise ExperimentFileError(f"{where}: key 'kind' must be one of {', '.join(PART_KINDS)}"
                                  f" (got {kind!r})")
    where = f"{where} ({kind})"
    part = _check_table(raw, {**_COMMON, **PART_KEYS[kind]}, where)
    if not part["name"].replace("-", "").replace("_", "").isalnum():
        raise ExperimentFileError(f"{where}: key 'name' must be letters, digits, - or _ "
                                  f"(it names the part's folder): {part['name']!r}")
    where = f"{where_file}: part '{part['name']}' ({kind})"
    check_int_ranges(part, where)
    for key in ("vs", "strategies", "chips"):
        if key in PART_KEYS[kind]:
            _check_strings(part[key], where, key)
    for key in ("field", "weak", "measure"):  # optional lists of strings
        if key in PART_KEYS[kind] and part[key] is not None:
            _check_strings(part[key], where, key)
    if kind == "balance" and part["targets"] is not None:
        t = Path(part["targets"])
        part["targets"] = str(t if t.is_absolute() else Path(where_file).parent / t)
    for key in ("after_rounds", "player_counts", "price_deltas"):
        if key in part and not all(isinstance(v, int) and not isinstance(v, bool)
                                   for v in part[key]):
            raise ExperimentFileError(f"{where}: key '{key}' must be a list of integers")
        twice = [v for i, v in enumerate(part.get(key) or []) if v in part[key][:i]]
        if twice:  # each value is played once: a repeat would play (and count) it again
            raise ExperimentFileError(f"{where}: {key} = {part[key]}: {twice[0]} is given twice; "
                                      "give each value once")
    if kind == "thresholds":
        if not part["bags"]:
            raise ExperimentFileError(f"{where}: key 'bags' must list at least one bag")
        part["bags"] = [_check_sub(b, BAG_KEYS, f"{where}: bags[{j}]")
                        for j, b in enumerate(part["bags"])]
        for j, b in enumerate(part["bags"]):
            check_int_ranges(b, f"{where}: bags[{j}]")
    if kind in ("compare", "catchup"):
        part["variants"] = [_check_sub(v, VARIANT_KEYS, f"{where}: variants[{j}]")
                            for j, v in enumerate(part["variants"])]
        if kind == "compare" and len(part["variants"]) < 2:
            raise ExperimentFileError(f"{where}: key 'variants' needs at least two rulesets")
    return part


def _check_sub(v, spec: dict, where: str) -> dict:
    if not isinstance(v, dict):
        raise ExperimentFileError(f"{where}: must be a table ({{ label = ..., ... }})")
    return _check_table(v, spec, where)


def load_experiment(path: str | Path) -> Experiment:
    """Read and check an experiment file (``ExperimentFileError`` on any problem)."""
    p = Path(path)
    if not p.is_file():
        raise ExperimentFileError(f"experiment file not found: {p}")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ExperimentFileError(f"{p}: not valid TOML: {e}") from None
    unknown = sorted(set(data) - {"experiment", "part"})
    if unknown:
        raise ExperimentFileError(f"{p}: unknown table '{unknown[0]}'; an experiment file has "
                                  "[experiment] and [[part]] tables")
    if not isinstance(data.get("experiment"), dict):
        raise ExperimentFileError(f"{p}: missing table [experiment]")
    head = _check_table(data["experiment"], EXPERIMENT_KEYS, f"{p}: [experiment]")
    check_int_ranges(head, f"{p}: [experiment]")
    parts_raw = data.get("part")
    if not isinstance(parts_raw, list) or not parts_raw:
        raise ExperimentFileError(f"{p}: no [[part]] table: an experiment needs at least one part")
    parts = [_check_part(r, i, str(p)) for i, r in enumerate(parts_raw)]
    names = [q["name"] for q in parts]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ExperimentFileError(
            f"{p}: two parts are named '{dup[0]}' (key 'name' must be unique)")
    return Experiment(p, p.stem, head["title"], head["description"], head["seed"], head["games"],
                      head["rules"], [str(s) for s in head["set"]], head["players"], parts,
                      head["csv"])


SHIPPED_PACKAGE = "experiments"  # the top-level folder experiments/, shipped as package data


def shipped_dir() -> Path | None:
    """The folder of the experiments that ship with the project: the package ``experiments``,
    found with importlib.resources (so an installed copy finds its own files, from any folder);
    None when that package is not installed."""
    try:
        root = resources.files(SHIPPED_PACKAGE)
    except (ModuleNotFoundError, TypeError):  # not installed, or a module of that name
        return None
    return root if isinstance(root, Path) else None  # not a namespace or zipped folder


def shipped_experiments() -> list[Path]:
    """The shipped experiment files, by name (none when the package is missing)."""
    d = shipped_dir()
    return sorted(d.glob("*.toml")) if d is not None else []


def no_shipped_reason() -> str:
    """Why :func:`shipped_experiments` found nothing, as one line for the user."""
    d = shipped_dir()
    where = f"no experiment file in {d}" if d is not None else \
        f"the package '{SHIPPED_PACKAGE}' is not installed"
    return f"no shipped experiments found ({where}); reinstall quacks-sim (pip install .)"


def find_experiment(name_or_path: str) -> Path:
    """A file path as given, or the shipped experiment of that name."""
    p = Path(name_or_path)
    if p.is_file():
        return p
    d = shipped_dir()
    q = d / f"{name_or_path}.toml" if d is not None else p
    if q.is_file():
        return q
    return p
