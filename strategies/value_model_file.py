"""A value model as a file and as the rows a seat's parameters carry.

A model is, for every round r, a linear prediction of the final margin (own VP minus the best
other's at the end) from the position after round r (``value_layout.FEATURES``) and a logistic
that turns the predicted margin into a chance of winning. It is written as JSON (features by
name, so a file says what it means) and read back to the same numbers.

``resolve`` picks a seat's model: a file given as ``model=PATH``, or the shipped model for the
ruleset and player count (``strategies/models/RULES-Np.json``), or the nearest shipped one with a
one-line note.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.kernel.decisions.net_layout import (
    MAX_HIDDEN,
    N_B2,
    N_HIDDEN,
    N_NET_IN,
    N_OUT_MEAN,
    N_OUT_SCALE,
    NET_B1,
    NET_BASE,
    NET_INPUTS,
    NET_ROWS,
    NET_W1,
    NET_W2,
)
from sim.kernel.decisions.slots import PARAM_WIDTH
from sim.kernel.decisions.value_layout import (
    FEATURE_NAMES,
    H_ROUNDS,
    M_A,
    M_B,
    M_W,
    M_W0,
    MODEL_ROUNDS,
    MODEL_ROWS,
    N_FEATURES,
)

FORMAT = "quacks-value-model"
VERSION = 1
SHIPPED = Path(__file__).resolve().parent / "models"
SHIPPED_RULES = ("base", "herb-witches")


class ModelFileError(ValueError):
    """A model file that cannot be read; the message names the file and what is wrong."""


@dataclass
class ValueModel:
    """Per round: logistic intercept ``a`` and slope ``b``, margin intercept ``w0`` and the
    weights of ``FEATURE_NAMES`` (``weights[r - 1]``)."""

    rules: str
    players: int
    a: np.ndarray  # (rounds,)
    b: np.ndarray
    w0: np.ndarray
    weights: np.ndarray  # (rounds, N_FEATURES)
    training: dict = field(default_factory=dict)
    # master's parameters for the game this model is for (``k=v,k=v``; quacks train --master):
    # a master seat playing with the model takes them unless its spec gives them itself
    settings: str = ""
    net: ValueNet | None = None  # the learned value of the whole bag (quacks train --value net)

    @property
    def rounds(self) -> int:
        """Rounds the model has rows for."""
        return len(self.a)

    def rows(self) -> np.ndarray:
        """The model as the ``MODEL_ROWS`` x ``PARAM_WIDTH`` block a seat's parameters carry
        after its slots (``value_layout``)."""
        if self.rounds > MODEL_ROUNDS:
            raise ModelFileError(f"a model has at most {MODEL_ROUNDS} rounds; got {self.rounds}")
        block = np.zeros((MODEL_ROWS, PARAM_WIDTH), dtype=np.float64)
        block[0, H_ROUNDS] = self.rounds
        for r in range(1, self.rounds + 1):
            block[r, M_A] = self.a[r - 1]
            block[r, M_B] = self.b[r - 1]
            block[r, M_W0] = self.w0[r - 1]
            block[r, M_W:M_W + N_FEATURES] = self.weights[r - 1]
        if self.net is None:
            return block
        return np.vstack([block, self.net.rows()])

    def margin(self, r: int, x: np.ndarray) -> np.ndarray:
        """Predicted final margin of positions ``x`` (n x N_FEATURES) after round r."""
        return self.w0[r - 1] + np.asarray(x, dtype=np.float64) @ self.weights[r - 1]

    def win_chance(self, r: int, x: np.ndarray) -> np.ndarray:
        """Chance of winning of positions ``x`` after round r."""
        z = self.a[r - 1] + self.b[r - 1] * self.margin(r, x)
        return 1.0 / (1.0 + np.exp(-z))

    def as_json(self) -> dict:
        """The model as a JSON-ready dict."""
        return {
            "format": FORMAT, "version": VERSION, "rules": self.rules, "players": self.players,
            "features": list(FEATURE_NAMES),
            "rounds": [{"round": r + 1, "a": float(self.a[r]), "b": float(self.b[r]),
                        "w0": float(self.w0[r]),
                        "weights": {n: float(v) for n, v in zip(FEATURE_NAMES, self.weights[r])}}
                       for r in range(self.rounds)],
            "training": self.training,
            "settings": self.settings,
            **({"net": self.net.as_json()} if self.net is not None else {}),
        }

    def save(self, path: str | Path) -> None:
        """Write the model file (to a temporary name first, then renamed: never half-written)."""
        write_atomic(Path(path), json.dumps(self.as_json(), indent=1) + "\n")


@dataclass
class ValueNet:
    """The value net (``net_layout``): VP still to come from a position, one hidden layer of
    rectified units over the raw inputs ``NET_INPUTS`` (their standardisation folded in)."""

    w1: np.ndarray  # (N_NET_IN, hidden)
    b1: np.ndarray  # (hidden,)
    w2: np.ndarray  # (hidden,)
    b2: float
    out_mean: float
    out_scale: float

    @property
    def hidden(self) -> int:
        return len(self.b1)

    def rows(self) -> np.ndarray:
        """The net as the ``NET_ROWS`` x ``PARAM_WIDTH`` block after the model's rows."""
        block = np.zeros((NET_ROWS, PARAM_WIDTH), dtype=np.float64)
        h = self.hidden
        block[0, N_HIDDEN] = h
        block[0, N_OUT_MEAN] = self.out_mean
        block[0, N_OUT_SCALE] = self.out_scale
        block[0, N_B2] = self.b2
        block[NET_W1 - NET_BASE:NET_W1 - NET_BASE + N_NET_IN, :h] = self.w1
        block[NET_B1 - NET_BASE, :h] = self.b1
        block[NET_W2 - NET_BASE, :h] = self.w2
        return block

    def predict(self, x: np.ndarray) -> np.ndarray:
        """VP still to come of positions ``x`` (n x N_NET_IN), as the kernel computes it."""
        z = np.maximum(np.asarray(x, dtype=np.float64) @ self.w1 + self.b1, 0.0)
        return self.out_mean + self.out_scale * (z @ self.w2 + self.b2)

    def as_json(self) -> dict:
        return {"inputs": list(NET_INPUTS), "hidden": self.hidden,
                "w1": {n: [float(v) for v in row] for n, row in zip(NET_INPUTS, self.w1)},
                "b1": [float(v) for v in self.b1], "w2": [float(v) for v in self.w2],
                "b2": float(self.b2), "out_mean": float(self.out_mean),
                "out_scale": float(self.out_scale)}

    @classmethod
    def from_json(cls, d: dict) -> ValueNet:
        h = int(d["hidden"])
        if not 1 <= h <= MAX_HIDDEN:
            raise ValueError(f"net: hidden units {h}: expected 1 to {MAX_HIDDEN}")
        unknown = set(d["w1"]) - set(NET_INPUTS)
        if unknown:
            raise ValueError(f"net: unknown inputs {', '.join(sorted(unknown))}")
        w1 = np.array([[float(v) for v in d["w1"].get(n, [0.0] * h)] for n in NET_INPUTS])
        b1 = np.array([float(v) for v in d["b1"]])
        w2 = np.array([float(v) for v in d["w2"]])
        if w1.shape != (N_NET_IN, h) or b1.shape != (h,) or w2.shape != (h,):
            raise ValueError(f"net: every weight list must have {h} entries")
        net = cls(w1, b1, w2, float(d["b2"]), float(d["out_mean"]), float(d["out_scale"]))
        if not (net.out_scale > 0 and all(np.all(np.isfinite(a)) for a in (w1, b1, w2))
                and np.isfinite([net.b2, net.out_mean, net.out_scale]).all()):
            raise ValueError("net: a weight is not a finite number (or out_scale <= 0)")
        return net


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


_LOADED: dict[tuple, ValueModel] = {}  # (path, mtime, size) -> the model read from it


def load_model(path: str | Path) -> ValueModel:
    """Read a model file written by :meth:`ValueModel.save` (``quacks train``). A file read
    before and unchanged since (same modification time and size) is not read again: a run
    plays many batches with the same model."""
    p = Path(path)
    try:
        st = p.stat()
    except OSError:
        st = None
    key = (str(p.resolve()), st.st_mtime_ns, st.st_size) if st is not None else None
    if key in _LOADED:
        return _LOADED[key]
    model = _read_model(p, path)
    if key is not None:
        for a in (model.a, model.b, model.w0, model.weights,
                  *((model.net.w1, model.net.b1, model.net.w2) if model.net else ())):
            a.flags.writeable = False  # shared by every later load of the file
        _LOADED[key] = model
    return model


def _read_model(p: Path, path: str | Path) -> ValueModel:
    try:
        d = json.loads(p.read_text())
    except FileNotFoundError:
        raise ModelFileError(f"model file {path}: no such file") from None
    except (OSError, json.JSONDecodeError) as e:
        raise ModelFileError(f"model file {path}: not a readable JSON file ({e})") from None
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise ModelFileError(f"model file {path}: not a value model (no \"format\": \"{FORMAT}\")")
    if d.get("version") != VERSION:
        raise ModelFileError(f"model file {path}: version {d.get('version')}; this quacks reads "
                             f"version {VERSION}")
    try:
        rows = sorted(d["rounds"], key=lambda row: row["round"])
        if [row["round"] for row in rows] != list(range(1, len(rows) + 1)) or not rows:
            raise ValueError("rounds must be numbered 1, 2, ...")
        unknown = set().union(*(row["weights"] for row in rows)) - set(FEATURE_NAMES)
        if unknown:
            raise ValueError(f"unknown features {', '.join(sorted(unknown))}")
        weights = np.array([[float(row["weights"].get(n, 0.0)) for n in FEATURE_NAMES]
                            for row in rows])
        model = ValueModel(str(d["rules"]), int(d["players"]),
                           np.array([float(row["a"]) for row in rows]),
                           np.array([float(row["b"]) for row in rows]),
                           np.array([float(row["w0"]) for row in rows]), weights,
                           dict(d.get("training", {})), str(d.get("settings", "")),
                           ValueNet.from_json(d["net"]) if "net" in d else None)
    except (KeyError, TypeError, ValueError) as e:
        raise ModelFileError(f"model file {path}: {e}") from None
    wrong = settings_error(model.settings)
    if wrong:
        raise ModelFileError(f"model file {path}: settings: {wrong}")
    if model.rounds > MODEL_ROUNDS:
        raise ModelFileError(f"model file {path}: at most {MODEL_ROUNDS} rounds")
    if not (np.all(np.isfinite(weights)) and np.all(np.isfinite(model.a))
            and np.all(np.isfinite(model.b)) and np.all(np.isfinite(model.w0))):
        raise ModelFileError(f"model file {path}: a weight is not a finite number")
    return model


def shipped_path(rules: str, players: int) -> Path:
    """Where the shipped model for a ruleset family and player count is."""
    return SHIPPED / f"{rules}-{players}p.json"


def shipped_models() -> list[tuple[str, int]]:
    """(rules, players) of every shipped model."""
    out = []
    for p in sorted(SHIPPED.glob("*-*p.json")):
        rules, _, n = p.stem.rpartition("-")
        out.append((rules, int(n[:-1])))
    return out


def rules_family(ruleset) -> str:
    """``herb-witches`` for a ruleset with the witches, else ``base``."""
    witches = ruleset.data.get("witches", {})
    on = witches.get("enabled", False) if isinstance(witches, dict) else False
    return "herb-witches" if on or ruleset.name == "herb-witches" else "base"


def model_rules(ruleset) -> str:
    """The ruleset a model trained on ``ruleset`` names (its ``rules``): the family (base or
    herb-witches) for those two, with or without ``--set``, else the ruleset's own name."""
    return rules_family(ruleset) if ruleset.name in SHIPPED_RULES else ruleset.name


def trained_rules(model: ValueModel) -> str:
    """The ruleset a model file says it was trained for: its ``rules`` with the ``--set``
    overrides of its training (``base + game.rounds=7``)."""
    from sim.rules.ruleset import rules_label

    given = model.training.get("overrides")
    return rules_label(model.rules, [str(o) for o in given] if isinstance(given, list) else ())


def mismatch_note(value: str, model: ValueModel, ruleset, players: int) -> str | None:
    """The one-line note for a model file given as ``model=value`` that was trained for another
    ruleset (by what the file stores: its ruleset name and ``--set`` overrides) or player count
    than the game's; None when it matches."""
    from sim.rules.ruleset import rules_label

    game = rules_label(model_rules(ruleset), ruleset.overrides)
    trained = trained_rules(model)
    if trained == game and model.players == players:
        return None
    if trained == game:
        return f"master: model {value} was trained for {model.players} players; playing {players}"
    if model.players == players:
        return f"master: model {value} was trained for {trained}; playing {game}"
    return (f"master: model {value} was trained for {trained}, {model.players} players; "
            f"playing {game}, {players} players")


def resolve(value: str, ruleset, players: int) -> tuple[ValueModel, str | None]:
    """The model a ``master`` seat plays with (``model=value``), and a one-line note when it is
    not one trained for exactly this ruleset and player count (None otherwise)."""
    if value != "auto":
        model = load_model(value)
        return model, mismatch_note(value, model, ruleset, players)
    family = rules_family(ruleset)
    exact = ruleset.name == family and not ruleset.overrides
    have = shipped_models()
    if not have:
        raise ModelFileError("master: no shipped value model found; train one with quacks train")
    same = [n for r, n in have if r == family]
    if same:
        n = min(same, key=lambda k: (abs(k - players), -k))
        rules = family
    else:
        rules, n = min(have, key=lambda rn: (abs(rn[1] - players), rn[0] != "base"))
    model = load_model(shipped_path(rules, n))
    if exact and rules == family and n == players:
        return model, None
    return model, (f"master: no model trained for {ruleset.display}, {players} players; using "
                   f"the shipped {rules} {n}-player model (train one with quacks train)")


def _key(item: str) -> str:
    return item.partition("=")[0].strip()


def settings_keys(spec_params: str) -> set[str]:
    """The parameter names of ``k=v,k=v`` (a chip list's commas kept in its value)."""
    from strategies.builtin import split_params

    return {_key(item) for item in split_params(spec_params)}


def settings_error(settings: str) -> str | None:
    """Why ``settings`` (``k=v,k=v``) cannot be master's settings of a model, or None: each must
    be a parameter of master with a valid value, and none may name the model."""
    from strategies.builtin import StrategySpecError, parse_strategy

    if not settings:
        return None
    if "model" in settings_keys(settings):
        return "they may not name the model (it is the file itself)"
    try:
        parse_strategy(f"master:{settings}")
    except StrategySpecError as e:
        return str(e)
    return None


def with_settings(st, settings: str):
    """Strategy ``st`` with a model's ``settings`` under the parameters its own spec gives (those
    win); ``st`` itself when the settings change nothing. The spec shown stays the seat's own."""
    from dataclasses import replace

    from strategies.builtin import parse_strategy, split_params

    if not settings:
        return st
    own = split_params(st.spec.partition(":")[2])
    given = {_key(item) for item in own}
    extra = [item for item in split_params(settings) if _key(item) not in given]
    if not extra:
        return st
    return replace(parse_strategy(f"{st.name}:" + ",".join(extra + own)), spec=st.spec)
