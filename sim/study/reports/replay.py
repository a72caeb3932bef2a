"""Replays for ``quacks replay``: one game of a saved tournament report (or of a seed and lineup),
event by event, with what was run shown exactly.

A tournament report (``quacks tournament --out DIR``, or one value's folder of a sweep) keeps in
``games.parquet`` one row per game and seat: ``game, deal, seed, combo, rotation, seat,
strategy, vp, rank, ...``. Game ``g`` of a run is deal ``g // games_per_deal`` played at table
``combo`` (the lineup ``run.json["tables"][combo]``) in seat rotation ``rotation``: seat ``s``
holds the table's strategy ``(s + rotation) % players``. The deal is the kernel's game index:
with the run's seed it fixes every bag draw and die roll. The replay takes the ruleset that
``run.json`` saved (its resolved tables, so overrides and rules files are included even if the
file has changed or gone since), the strategy specs and ``--strategy-file`` files it names, and
plays that deal at that table in that rotation through the same kernel, then checks every
seat's final VP and rank against the report's rows. A user's card plays from its rules file
(``run.json["rules_files"]``: path and code hash), loaded again before the ruleset: a file gone
is refused, a file whose code changed is noted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.rules.ruleset import Ruleset
from sim.study.reports.saved import RUN_FILE, STATE_FILE, SWEEP_STATE

# quacks play's lineup when --strategies is not given (the first N for N players, cycled).
PLAY_LINEUP: tuple[str, ...] = ("threshold", "threshold:t=5", "threshold:t=7", "random")
DEFAULT_PLAYERS = 4


class ReplayError(ValueError):
    """A replay that cannot be made; the message says what would be right."""


def default_specs(players: int | None) -> list[str]:
    """The first ``players`` specs of quacks play's default lineup (cycled past its length)."""
    n = DEFAULT_PLAYERS if players is None else players
    return [PLAY_LINEUP[k % len(PLAY_LINEUP)] for k in range(max(n, 1))]


def ruby_costs(rs: Ruleset) -> dict[str, int]:
    """What spending rubies on a droplet move or a flask refill costs under these rules."""
    return {"droplet": int(rs.game("ruby_cost_droplet")), "flask": int(rs.game("ruby_cost_flask"))}


def check_rotation(rotation: int, players: int) -> None:
    """Raise ReplayError unless 0 <= rotation < players."""
    if not 0 <= rotation < players:
        raise ReplayError(f"--rotation {rotation}: expected 0 to {players - 1} for {players} "
                          "players")


@dataclass
class ReportGame:
    """One game of a report, ready to replay: rules, the table's lineup, seed, deal, rotation,
    and the report's rows of that game."""

    report: Path
    ruleset: Ruleset
    lineup: list  # strategies.builtin.Strategy, in table order (rotation 0)
    lineup_names: list[str]  # the report's strategy names, in table order
    seed: int
    game: int
    deal: int
    combo: int
    rotation: int
    row: int | None  # the games.parquet row asked for (None: all seats of --game)
    seat: int | None
    rows: list[dict]  # the report's rows of the game: row, seat, strategy, vp, rank
    notes: list[str] = field(default_factory=list)

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.lineup)

    def seat_names(self) -> list[str]:
        """The report's strategy name at each seat of this game."""
        n = self.players
        return [self.lineup_names[(s + self.rotation) % n] for s in range(n)]


def _read_run(p: Path) -> dict:
    if not p.exists():
        raise ReplayError(f"{p}: no such report folder")
    if not p.is_dir():
        raise ReplayError(f"{p}: not a folder; give a report folder (the --out of quacks "
                          "tournament)")
    f = p / RUN_FILE
    if not f.is_file():
        if (p / STATE_FILE).is_file() or (p / SWEEP_STATE).is_file():
            raise ReplayError(f"{p}: the run there is not finished; resume it with --resume first")
        raise ReplayError(f"{p}: no run.json; is this a quacks tournament report folder?")
    try:
        run = json.loads(f.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ReplayError(f"{f}: cannot be read ({e})") from None
    if run.get("kind") == "sweep":
        subs = list(run.get("subdirs", []))
        sub = ", ".join(subs[:3]) + (", ..." if len(subs) > 3 else "")
        raise ReplayError(f"{p}: a sweep folder; replay a game of one value's report in it"
                          + (f" ({sub})" if subs else ""))
    for key in ("settings", "ruleset", "strategy_specs", "tables"):
        if key not in run:
            raise ReplayError(f"{f}: no '{key}'; is this a quacks tournament report?")
    return run


def preload_rules_files(path: str | Path) -> None:
    """Load the rules files a report's run loaded, before anything imports the kernel (``quacks
    replay`` calls it first: the kernel's hook tables are generated with them); a report that
    cannot be read is left to :func:`load_report_game` to refuse."""
    p = Path(path)
    try:
        run = json.loads((p / RUN_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if isinstance(run, dict):
        load_run_rules_files(run, p, [])


def load_run_rules_files(run: dict, p: Path, notes: list[str]) -> None:
    """Load the user's rules files the run loaded (``run.json["rules_files"]``), before its
    ruleset names their cards; a file gone or no longer loading is a ReplayError, a file whose
    code changed a note."""
    from sim.rules.card_files import RulesFileError
    from sim.rules.card_numbers import add_card_file, loaded_rules_files

    for entry in run.get("rules_files") or []:
        f = entry.get("path", "") if isinstance(entry, dict) else ""
        if not Path(f).is_file():
            raise ReplayError(f"--rules-file {f}: the run loaded it, but it is gone; restore it "
                              "to replay this report")
        try:
            add_card_file(f)
        except RulesFileError as e:
            raise ReplayError(f"{p / 'run.json'}: rules file: {e}") from None
        now = {x["path"]: x["code"] for x in loaded_rules_files()}
        if entry.get("code") and now.get(str(Path(f).resolve())) != entry["code"]:
            notes.append(f"{f} has changed since the run; the replay may differ")


def _ruleset(run: dict, p: Path) -> Ruleset:
    from sim.rules.ruleset import RulesetError, ruleset_from_data

    saved = run["ruleset"]
    overrides = run["settings"].get("overrides") or []
    try:
        rs = ruleset_from_data(saved["data"], f"{p / 'run.json'} (ruleset)", overrides)
    except (RulesetError, KeyError, TypeError) as e:
        raise ReplayError(f"{p / 'run.json'}: the saved ruleset cannot be used ({e})") from None
    rs.check_implemented()
    return rs


def _lineups(run: dict, p: Path, notes: list[str]) -> dict[str, object]:
    """Parse every strategy of the run (after loading its strategy files), keyed by report name."""
    from sim.study.reports.files import dumps, sha256_of
    from sim.study.tournament.plan import load_strategy_files
    from strategies.builtin import parse_strategy

    files = list(run["settings"].get("strategy_files") or [])
    for f in files:
        if not Path(f).is_file():
            raise ReplayError(f"--strategy-file {f}: the run loaded it, but it is gone; "
                              "restore it to replay this report")
    load_strategy_files(tuple(files))
    for entry in run.get("strategy_files") or []:
        if entry.get("sha256") and sha256_of(entry["path"]) != entry["sha256"]:
            notes.append(f"{entry['path']} has changed since the run; the replay may differ")
    out = {}
    for s in run["strategy_specs"]:
        st = parse_strategy(s["spec"])
        if "params" in s and json.loads(dumps(st.values)) != json.loads(dumps(s["params"])):
            notes.append(f"{s['name']}: its parameters differ from the run's (the strategy "
                         "changed since); the replay may differ")
        out[s["name"]] = st
    return out


def load_report_game(path: str | Path, *, game: int | None = None, seat: int | None = None,
                     row: int | None = None) -> ReportGame:
    """The game at ``row`` of the report's games.parquet, or its game ``game`` (``seat``
    picks one of its rows); raise ReplayError with one clear line."""
    import pyarrow.parquet as pq

    from sim.study.reports.files import GAMES_FILE

    p = Path(path)
    if (row is None) == (game is None):
        raise ReplayError("replay of a report: give --row N, or --game G (with --seat S)")
    if row is not None and seat is not None:
        raise ReplayError("--seat goes with --game; --row already names one seat's row")
    if row is not None and row < 0:
        raise ReplayError(f"--row {row}: expected 0 or more")
    if game is not None and game < 0:
        raise ReplayError(f"--game {game}: expected 0 or more")
    run = _read_run(p)
    gf = p / GAMES_FILE
    if not gf.is_file():
        raise ReplayError(f"{p}: no {GAMES_FILE}; the report's game records are needed to replay")
    games_col = pq.read_table(gf, columns=["game"]).column("game").to_numpy()
    nrows = len(games_col)
    if row is not None:
        if row >= nrows:
            raise ReplayError(f"--row {row}: {gf} has {nrows:,} rows (0 to {nrows - 1:,})")
        game = int(games_col[row])
    idx = np.nonzero(games_col == game)[0]
    if not len(idx):
        top = int(games_col.max()) if nrows else -1
        raise ReplayError(f"--game {game}: the report has games 0 to {top:,}")
    t = pq.read_table(gf, filters=[("game", "==", int(game))]).to_pandas()
    t["strategy"] = t["strategy"].astype(str)
    t = t.reset_index(drop=True)
    if len(t) != len(idx):
        raise ReplayError(f"{gf}: game {game} has {len(idx)} rows but {len(t)} were read")
    t["row"] = idx
    players = len(t)
    if seat is not None and not 0 <= seat < players:
        raise ReplayError(f"--seat {seat}: game {game} has seats 0 to {players - 1}")
    first = t.iloc[0]
    deal, combo, rotation, seed = (int(first[k]) for k in ("deal", "combo", "rotation", "seed"))
    if t[["deal", "combo", "rotation", "seed"]].nunique().max() != 1:
        raise ReplayError(f"{gf}: the rows of game {game} disagree on deal, table, rotation or "
                          "seed")
    notes: list[str] = []
    load_run_rules_files(run, p, notes)
    rs = _ruleset(run, p)
    saved_hash = run["ruleset"].get("hash")
    if saved_hash and saved_hash != rs.hash:
        notes.append("the saved ruleset's hash does not match its tables; the replay may differ")
    strategies = _lineups(run, p, notes)
    tables = run["tables"]
    if not 0 <= combo < len(tables):
        raise ReplayError(f"{gf}: game {game} names table {combo}, but run.json has {len(tables)}")
    names = [str(x) for x in tables[combo]]
    if len(names) != players:
        raise ReplayError(f"{gf}: game {game} has {players} rows, but its table seats {len(names)}")
    missing = [nm for nm in names if nm not in strategies]
    if missing:
        raise ReplayError(f"{p / 'run.json'}: table {combo} names {missing[0]!r}, not in "
                          "strategy_specs")
    rows = [{"row": int(r["row"]), "seat": int(r["seat"]), "strategy": r["strategy"],
             "vp": int(r["vp"]), "rank": int(r["rank"])} for r in t.to_dict(orient="records")]
    rows.sort(key=lambda r: r["seat"])
    if row is not None:
        seat = next(r["seat"] for r in rows if r["row"] == row)
    rg = ReportGame(p, rs, [strategies[nm] for nm in names], names, seed, int(game), deal, combo,
                    rotation, row, seat, rows, notes)
    check_rotation(rotation, players)
    for r, nm in zip(rows, rg.seat_names()):
        if r["strategy"] != nm:
            notes.append(f"seat {r['seat']}: the report's row says {r['strategy']}, the table "
                         f"and rotation say {nm}")
    return rg


def replay_report_game(rg: ReportGame) -> dict:
    """Replay a report's game; a JSON-ready dict with the events, every seat's final VP and rank
    beside the report's, and ``matches`` (True when they all agree)."""
    from sim.api.columns import final_rank, final_vp
    from sim.api.events import event_dict
    from sim.api.game import replay as replay_game

    E, out = replay_game(rg.ruleset, rg.lineup, seed=rg.seed, game=rg.deal, rotation=rg.rotation)
    names = rg.seat_names()
    vp, rank = final_vp(out), final_rank(out)
    final = [{"seat": s, "strategy": names[s], "vp": int(vp[s]), "rank": int(rank[s])}
             for s in range(rg.players)]
    matches = all(f["vp"] == r["vp"] and f["rank"] == r["rank"] for f, r in zip(final, rg.rows))
    return {
        "report": str(rg.report), "row": rg.row, "game": rg.game, "seat": rg.seat,
        "deal": rg.deal, "table": rg.combo, "rotation": rg.rotation, "seed": rg.seed,
        "rules": rg.ruleset.name, "overrides": list(rg.ruleset.overrides),
        "table_lineup": rg.lineup_names, "seats": names,
        "events": [event_dict(r) for r in E],
        "final": final, "report_rows": rg.rows, "matches": matches,
        "notes": list(rg.notes),
    }


def report_header(res: dict) -> list[str]:
    """The lines above a report replay's events."""
    from sim.rules.ruleset import rules_label

    which = (f"row {res['row']} (game {res['game']}, seat {res['seat']})" if res["row"] is not None
             else f"game {res['game']}" + (
                 f", seat {res['seat']}" if res["seat"] is not None else ""))
    lines = [f"{res['report']}: {which} = deal {res['deal']} at table {res['table']} "
             f"({', '.join(res['table_lineup'])}), rotation {res['rotation']}; seed {res['seed']}, "
             f"rules {rules_label(res['rules'], res['overrides'])}"]
    lines += [f"  seat {s}: {nm}" for s, nm in enumerate(res["seats"])]
    return lines


def report_footer(res: dict) -> list[str]:
    """The lines below a report replay's events: replay vs report, seat by seat."""
    lines = []
    for f, r in zip(res["final"], res["report_rows"]):
        mark = "" if (f["vp"], f["rank"]) == (r["vp"], r["rank"]) else "  <- DIFFERS"
        here = "  (the row asked for)" if res["seat"] == f["seat"] else ""
        lines.append(f"  seat {f['seat']} {f['strategy']}: replay {f['vp']} VP rank {f['rank']}; "
                     f"report row {r['row']}: {r['vp']} VP rank {r['rank']}{mark}{here}")
    verdict = ("the replay matches the report" if res["matches"] else
               "the replay DIFFERS from the report (the code, a strategy or its file changed since "
               "the run)")
    return ["Check against games.parquet:", *lines, verdict]
