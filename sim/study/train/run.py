"""``quacks train``: fit ``master``'s value model by self-play, iteration by iteration.

Iteration 0 plays the field (``expert`` in every seat) and fits a first model to its positions.
Every later iteration seats ``master`` with the model of the iteration before (exploring: a
random legal purchase with chance ``explore``) in every other seat, the field in the rest, and
fits the model again to all seats' positions. Game k of iteration i is game ``i * GAME_STRIDE +
k`` of the run seed with the lineup rotated by k, so the same settings give the same games and
the same model file.

Each iteration's model is written to the run's folder (``OUT.train/iter-K.json``) with the
settings, so a stopped run resumes at the first iteration it did not finish.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from sim.study.common.out_probe import OutDirError, probe_writable
from sim.study.train.features import Positions, positions
from sim.study.train.fit import VALUE_KINDS, fit_model
from sim.study.train.limits import MAX_GAMES, MAX_ITERATIONS
from strategies.value_model_file import ValueModel, load_model, model_rules, write_atomic

GAME_STRIDE = 10_000_000  # iteration i plays games i * GAME_STRIDE + k
PIECE = 2_000  # games per batch (progress, memory)
SETTINGS_FILE = "settings.json"  # in the run's folder: the settings a resume must match
# a run's files (and temps)
KEPT = re.compile(r"\.?(iter-\d+\.json|settings\.json|log\.jsonl|ladder\.png)(\..+)?")


class TrainError(ValueError):
    """Settings that cannot be trained, or a run folder that does not match them."""


@dataclass(frozen=True)
class TrainSettings:
    """What a training run plays; the run's folder keeps them (``settings.json``)."""

    rules: str = "base"
    overrides: tuple[str, ...] = ()
    players: int = 4
    games: int = 20_000
    iterations: int = 3
    seed: int = 1
    explore: float = 0.05
    field: str = "expert"
    value: str = "gap"  # fit.VALUE_KINDS
    master: str = ""  # master's parameters in the games and in the model file (k=v,k=v)

    def as_json(self) -> dict:
        d = asdict(self)
        d["overrides"] = list(self.overrides)
        return d


def run_folder(out: Path) -> Path:
    """The folder beside the model file that keeps a run's settings and iterations."""
    return out.parent / f"{out.name}.train"


def lineup_specs(settings: TrainSettings, iteration: int, previous: Path | None) -> list[str]:
    """The seats of an iteration: the field, and from iteration 1 ``master`` with the previous
    model in every other seat."""
    specs = [settings.field] * settings.players
    if iteration > 0 and previous is not None:
        own = f"{settings.master}," if settings.master else ""
        master = f"master:{own}model={previous}" + (
            "" if settings.value == "gap" else
            f",leaf=model,buy_by=model,explore={settings.explore:g}")
        specs = [master if s % 2 == 0 else settings.field for s in range(settings.players)]
    return specs


def play_positions(settings: TrainSettings, specs: list[str], iteration: int,
                   progress: Callable[[int, int, int], None] | None = None,
                   backend=None) -> Positions:
    """Play an iteration's games (on ``backend``, local by default; pieces of ``PIECE`` games)
    and return every seat's positions; ``progress(iteration, games done, games)`` after each
    piece, as a run's progress is called."""
    from sim.rules.ruleset import load_ruleset
    from sim.study.tournament.local import LOCAL
    from strategies.builtin import parse_strategy
    from strategies.registry import slot_table

    rs = load_ruleset(settings.rules, list(settings.overrides))
    for s in specs:
        parse_strategy(s)
    slot_table()
    n = settings.players
    pieces = []
    for lo in range(0, settings.games, PIECE):
        idx = np.arange(lo, min(lo + PIECE, settings.games), dtype=np.int64)
        pieces.append((iteration * GAME_STRIDE + idx, idx % n))
    parts, done = [], 0
    for (games, _), (data, bad) in zip(pieces, (backend or LOCAL).map_batches(
            rs, specs, settings.seed, pieces, batch_positions)):
        if bad:
            raise TrainError(f"iteration {iteration}: {bad} illegal decisions in games "
                             f"{games[0]}..{games[-1]}")
        parts.append(data)
        done += len(games)
        if progress is not None:
            progress(iteration, done, settings.games)
    return Positions(*(np.concatenate([getattr(p, f) for p in parts])
                       for f in ("x", "round", "margin", "win", "game", "togo", "gaps_after")))


def batch_positions(res) -> tuple[Positions, int]:
    """A played batch's positions and its count of illegal decisions (run where it was played:
    only the positions travel back from a Dask worker)."""
    return (positions(res.rounds, res.out, res.games),
            int((res.out[:, :, _err_column()] != 0).sum()))


def _err_column() -> int:
    from sim.api.game import result_fields

    return next(lo for name, lo, _ in result_fields() if name == "err")


def check_settings(settings: TrainSettings) -> None:
    """Refuse settings that cannot be trained, with one line saying why."""
    from sim.api.game import check_players, uses_value_model
    from sim.rules.ruleset import load_ruleset
    from strategies.builtin import parse_strategy
    from strategies.value_model_file import settings_error

    for flag, value, top in (("--games", settings.games, MAX_GAMES),
                             ("--iterations", settings.iterations, MAX_ITERATIONS)):
        if not 1 <= value <= top:
            raise TrainError(f"{flag} {value}: expected 1 to {top}")
    if not 0.0 <= settings.explore <= 1.0:
        raise TrainError(f"--explore {settings.explore:g}: expected 0 to 1")
    if settings.value not in VALUE_KINDS:
        raise TrainError(f"--value {settings.value}: expected one of {', '.join(VALUE_KINDS)}")
    rs = load_ruleset(settings.rules, list(settings.overrides))
    check_players(rs, settings.players)
    if rs.game("teams"):
        raise TrainError("teams share a cauldron; the value model is for players of their own")
    wrong = settings_error(settings.master)
    if wrong:
        raise TrainError(f"--master: {wrong}")
    field = parse_strategy(settings.field)
    if uses_value_model(field):  # a master field would need a model to start with
        raise TrainError("--field: give a strategy without a value model (e.g. expert)")


def check_out(out: str | Path, *, resume: bool = False, force: bool = False) -> None:
    """Refuse, before any game, an ``--out`` the model file cannot be written to or whose run
    folder (``OUT.train``) cannot be made, with one line naming the path. An existing model file
    needs ``force`` (or ``resume``: the run kept in the folder writes it again); a kept run needs
    ``resume`` (continue) or ``force`` (start over). Leaves the disk as it was."""
    if resume and force:
        raise TrainError("--resume continues the run kept in OUT.train and --force starts it "
                         "over: give one")
    if not str(out).strip():
        raise TrainError("--out: give the model file to write, e.g. --out model.json")
    p = Path(out)
    folder = run_folder(p)
    if p.is_dir():
        raise TrainError(f"--out {p}: is a directory; give a file, e.g. --out {p / 'model.json'}")
    if p.exists() and not p.is_file():
        raise TrainError(f"--out {p}: exists and is not a regular file")
    if folder.exists() and not folder.is_dir():
        raise TrainError(f"--out {p}: its run folder {folder} exists and is not a directory")
    kept = (folder / SETTINGS_FILE).is_file()
    if resume and not kept:
        raise TrainError(f"nothing to resume in {folder}")
    if not (resume or force) and folder.exists():
        raise TrainError(f"--out {p}: {folder} holds a training run; add --resume to continue it "
                         "or --force to start over" if kept else
                         f"--out {p}: {folder} exists; use --force to start a run there")
    if not (resume or force) and p.exists():
        raise TrainError(f"--out {p}: the file exists; use --force to overwrite it")
    try:
        probe_writable(folder, flag=f"--out {p}: the run folder")
    except OutDirError as e:
        raise TrainError(str(e)) from None


def check_run(settings: TrainSettings, out: str | Path, *, resume: bool = False,
              force: bool = False) -> None:
    """Everything a run is checked for before its first game: the settings
    (:func:`check_settings`), ``out`` (:func:`check_out`) and, to resume, that the kept run was
    started with the same settings."""
    check_settings(settings)
    check_out(out, resume=resume, force=force)
    saved = run_folder(Path(out)) / SETTINGS_FILE
    if resume and json.loads(saved.read_text()) != settings.as_json():
        raise TrainError(f"{saved.parent} was started with other settings ({saved}); give the "
                         "same ones to resume, or --force to start over")


def clear_run(folder: Path) -> None:
    """Remove the files a run keeps in its folder (``--force`` starts over); others stay."""
    if folder.is_dir():
        for f in folder.iterdir():
            if KEPT.fullmatch(f.name) and f.is_file():
                f.unlink()


def train(settings: TrainSettings, out: Path, *, resume: bool = False, force: bool = False,
          progress: Callable[[int, int, int], None] | None = None,
          say: Callable[[str], None] | None = None, backend=None) -> ValueModel:
    """Run (or resume) a training run and write the final model to ``out``.

    ``progress(iteration, games_done, games_total)`` is called after each batch; ``say`` gets a
    line per finished iteration; ``backend`` (an entered ``make_backend``) plays the games
    (local by default; the same model either way). ``out`` and its run folder are checked
    first (:func:`check_run`); ``force`` overwrites ``out`` and starts a kept run over."""
    from sim.rules.ruleset import load_ruleset

    check_run(settings, out, resume=resume, force=force)
    folder = run_folder(out)
    saved = folder / SETTINGS_FILE
    if force:
        clear_run(folder)
    folder.mkdir(parents=True, exist_ok=True)
    write_atomic(saved, json.dumps(settings.as_json(), indent=1) + "\n")
    rs = load_ruleset(settings.rules, list(settings.overrides))
    family = model_rules(rs)
    if settings.value == "net":
        from sim.study.train.cycles import train_net

        return train_net(settings, out, family, folder,
                         {"lineup_specs": lineup_specs, "play_positions": play_positions,
                          "GAME_STRIDE": GAME_STRIDE}, progress, say, backend)
    previous: Path | None = None
    model: ValueModel | None = None
    for it in range(settings.iterations):
        path = folder / f"iter-{it}.json"
        if path.exists():
            model = load_model(path)
            previous = path
            if say:
                say(f"iteration {it}: done before ({path})")
            continue
        specs = lineup_specs(settings, it, previous)
        t0 = time.perf_counter()
        data = play_positions(settings, specs, it, progress, backend)
        shown = [x.replace(str(previous), f"iter-{it - 1}.json") if previous else x for x in specs]
        meta = {**settings.as_json(), "iteration": it, "lineup": shown,
                "positions": int(len(data.round))}
        model = fit_model(data, family, settings.players, meta, kind=settings.value)
        model.settings = settings.master
        model.save(path)
        previous = path
        if say:
            say(f"iteration {it}: {settings.games:,} games ({', '.join(shown)}) in "
                f"{time.perf_counter() - t0:.0f} s; {len(data.round):,} positions")
    assert model is not None
    model.save(out)
    return model
