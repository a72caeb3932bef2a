"""Tournament runs through the Python API: formats and their layout, same seed same results (across
runs, thread counts, chunk sizes, and interrupted-and-resumed against straight runs), --until-ci,
and the resume rules."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numba
import pandas as pd
import pytest

from sim.study.reports.schema import ReportError
from sim.study.tournament.plan import (
    DEFAULT_FIELD,
    TournamentConfig,
    TournamentError,
    default_field,
    resolve_plan,
)
from sim.study.tournament.run import RunInterrupted, run_tournament
from strategies.builtin import REGISTRY, StrategySpecError

THREE = ("threshold", "threshold:t=7", "random")
SMALL = dict(first_chunk_games=300, max_chunk_games=900)


def frames_equal(a, b):
    """Every summary table identical, bit for bit."""
    for attr in ("strategies", "pairs", "seats", "bought", "vp_hist", "rounds", "head_to_head"):
        x, y = getattr(a.summary, attr), getattr(b.summary, attr)
        if x is None or y is None:
            assert x is None and y is None, attr
            continue
        pd.testing.assert_frame_equal(x, y, check_exact=True, obj=attr)


# --- plans -------------------------------------------------------------------------------------

def test_rotate_layout():
    plan = resolve_plan(TournamentConfig(strategies=THREE, games=1000))
    assert plan.players == 3 and plan.config.format == "rotate"
    assert plan.tables == [(0, 1, 2)] and plan.games_per_deal == 3
    assert plan.deals == 334 and plan.max_games == 1002  # rounded up to whole deals
    assert plan.chunk_bounds[0] == 0 and plan.chunk_bounds[-1] == plan.deals


def test_rotate_takes_one_spec_per_seat_and_merges_copies():
    with pytest.raises(TournamentError, match="2 strategies for 4 seats; give one per seat"):
        resolve_plan(TournamentConfig(strategies=("threshold", "random"), players=4, games=400))
    plan = resolve_plan(TournamentConfig(strategies=("threshold", "random", "threshold", "random"),
                                         players=4, games=400))
    assert plan.names == ["threshold", "random"]
    assert plan.tables == [(0, 1, 0, 1)]
    res = run_tournament(plan)
    st = res.summary.strategies
    assert st["games"].tolist() == [800, 800]  # two seats each in every game
    assert st["win_share"].sum() == pytest.approx(0.5)  # one win per game over 2 x 2 seat-games


def test_round_robin_layout_and_counts():
    pool = ("threshold", "threshold:t=5", "threshold:t=7", "threshold:t=8", "random")
    plan = resolve_plan(TournamentConfig(strategies=pool, players=3, games=600))
    assert plan.config.format == "round-robin"  # chosen: more strategies than seats
    assert len(plan.tables) == math.comb(5, 3) and plan.games_per_deal == 30
    res = run_tournament(plan)
    st = res.summary.strategies
    # every strategy sits at C(4, 2) = 6 of the 10 tables, 3 rotations each, every deal
    assert st["games"].tolist() == [6 * 3 * res.deals] * 5
    assert res.summary.seats.query("strategy == 'all'")["games"].tolist() == [res.games] * 3


def test_vs_field_layout():
    plan = resolve_plan(TournamentConfig(strategies=("threshold:t=8", "threshold"),
                                         format="vs-field",
                                         games=400))
    assert plan.players == 4 and plan.tables == [(0, 1, 1, 1)]
    res = run_tournament(plan)
    st = res.summary.strategies
    assert st["games"].tolist() == [res.games, 3 * res.games]
    same = resolve_plan(TournamentConfig(strategies=("threshold", "threshold"), format="vs-field"))
    assert same.names == ["threshold (focus)", "threshold"]


def test_default_field():
    field = default_field()
    presets = [n for n in DEFAULT_FIELD if n in REGISTRY]
    assert field == (presets[:4] if len(presets) >= 2 else list(REGISTRY))
    plan = resolve_plan(TournamentConfig())
    assert plan.players == 4 and plan.names == field
    assert plan.config.format == ("rotate" if len(field) <= 4 else "round-robin")


@pytest.mark.parametrize("cfg, fragment", [
    (TournamentConfig(strategies=THREE, games=0), "--games 0"),
    (TournamentConfig(strategies=THREE, seed=-1), "--seed"),
    (TournamentConfig(strategies=THREE, until_ci=0.7), "--until-ci"),
    (TournamentConfig(strategies=THREE, format="swiss"), "--format swiss"),
    (TournamentConfig(strategies=THREE, detail="moves"), "--detail moves"),
    (TournamentConfig(strategies=THREE, format="rotate", players=2), "round-robin"),
    (TournamentConfig(strategies=("threshold", "random"), format="round-robin", players=3),
     "at least 3"),
    (TournamentConfig(strategies=("threshold",), format="vs-field"), "vs-field"),
    (TournamentConfig(strategies=("threshold", "random", "threshold:t=5", "threshold:t=7"),
                      format="vs-field", players=2), "does not fit"),
])
def test_plan_errors(cfg, fragment):
    with pytest.raises(TournamentError) as e:
        resolve_plan(cfg)
    assert fragment in str(e.value)


def test_plan_errors_from_layers_below():
    with pytest.raises(StrategySpecError):
        resolve_plan(TournamentConfig(strategies=("threshold", "nosuch")))
    with pytest.raises(ValueError, match="players"):
        resolve_plan(TournamentConfig(strategies=THREE, players=7))
    with pytest.raises(ValueError):
        resolve_plan(TournamentConfig(strategies=THREE, overrides=("game.rounds=zero",)))


# --- determinism -------------------------------------------------------------------------------

def test_same_seed_same_results_and_seeds_differ():
    cfg = TournamentConfig(strategies=THREE, games=1500, seed=9, **SMALL)
    a, b = run_tournament(cfg), run_tournament(cfg)
    frames_equal(a, b)
    c = run_tournament(replace(cfg, seed=10))
    assert not a.summary.strategies["mean_vp"].equals(c.summary.strategies["mean_vp"])


def test_chunking_does_not_change_results():
    a = run_tournament(TournamentConfig(strategies=THREE, games=1500, first_chunk_games=100,
                                        max_chunk_games=200))
    b = run_tournament(TournamentConfig(strategies=THREE, games=1500, first_chunk_games=5000,
                                        max_chunk_games=5000))
    frames_equal(a, b)


def test_one_vs_two_threads(restore_threads):
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("Numba has only one thread here")
    cfg = TournamentConfig(strategies=THREE, games=2000, detail="rounds", **SMALL)
    numba.set_num_threads(1)
    a = run_tournament(cfg)
    numba.set_num_threads(2)
    b = run_tournament(cfg)
    frames_equal(a, b)


def test_interrupted_and_resumed_equals_straight(tmp_path):
    cfg = TournamentConfig(strategies=THREE, games=3000, detail="rounds", **SMALL)
    straight = run_tournament(cfg, out=tmp_path / "a", plots=False)
    out = tmp_path / "b"
    with pytest.raises(RunInterrupted) as e:
        run_tournament(cfg, out=out, stop_after_chunks=2, plots=False)
    assert e.value.games_done == resolve_plan(cfg).games_after(2)
    left = sorted(p.name for p in out.iterdir())
    assert left == [".games.parquet.partial", ".rounds.parquet.partial", ".run.json.partial"]

    def ctrl_c(info):  # Ctrl-C after chunk 3 is kept
        if info.chunk == 3:
            raise KeyboardInterrupt

    with pytest.raises(RunInterrupted) as e:
        run_tournament(cfg, out=out, resume=True, on_chunk=ctrl_c, plots=False)
    assert e.value.games_done == resolve_plan(cfg).games_after(3)
    resumed = run_tournament(cfg, out=out, resume=True, plots=False)
    frames_equal(straight, resumed)
    for f in ("games.parquet", "rounds.parquet"):
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "a" / f), pd.read_parquet(out / f))
    assert not [p for p in out.iterdir() if p.name.startswith(".")]
    again = run_tournament(cfg, out=out, resume=True)  # already complete: read back
    assert again.games == straight.games
    pd.testing.assert_frame_equal(again.summary.strategies, straight.summary.strategies)


def test_resume_after_an_interrupted_resume(tmp_path):
    cfg = TournamentConfig(strategies=THREE, games=4500, **SMALL)
    straight = run_tournament(cfg)
    out = tmp_path / "r"
    with pytest.raises(RunInterrupted):
        run_tournament(cfg, out=out, stop_after_chunks=3, plots=False)
    # a second interruption straight after the copy: the .resume source is gone, .partial has it
    with pytest.raises(RunInterrupted):
        run_tournament(cfg, out=out, resume=True, stop_after_chunks=1, plots=False)
    # a hard kill during the copy leaves .resume next to a partial copy: .resume wins
    (out / ".games.parquet.partial").rename(out / ".games.parquet.resume")
    (out / ".games.parquet.partial").write_bytes(b"PAR1 half a file")
    resumed = run_tournament(cfg, out=out, resume=True, plots=False)
    frames_equal(straight, resumed)


def test_unreadable_partial_starts_over(tmp_path):
    cfg = TournamentConfig(strategies=THREE, games=900, **SMALL)
    out = tmp_path / "k"
    with pytest.raises(RunInterrupted):
        run_tournament(cfg, out=out, stop_after_chunks=1, plots=False)
    (out / ".games.parquet.partial").write_bytes(b"PAR1 killed before the footer")
    notes = []
    res = run_tournament(cfg, out=out, resume=True, plots=False, note=notes.append)
    assert any("starting over" in n for n in notes)
    frames_equal(run_tournament(cfg), res)


def test_resume_refuses_other_settings(tmp_path):
    cfg = TournamentConfig(strategies=THREE, games=900, **SMALL)
    out = tmp_path / "m"
    with pytest.raises(RunInterrupted):
        run_tournament(cfg, out=out, stop_after_chunks=1, plots=False)
    with pytest.raises(ReportError, match="seed"):
        run_tournament(replace(cfg, seed=2), out=out, resume=True)
    with pytest.raises(ReportError, match="interrupted run"):
        run_tournament(cfg, out=out)
    state = json.loads((out / ".run.json.partial").read_text())
    assert state["settings"]["games"] == 900


# --- until-ci ------------------------------------------------------------------------------------

def test_until_ci_stops_when_narrow():
    cfg = TournamentConfig(strategies=THREE, until_ci=0.03, games=60_000, **SMALL)
    res = run_tournament(cfg)
    assert res.stopped == "until-ci"
    st = res.summary.strategies
    half = (st[["win_share_ci_hi"]].to_numpy().ravel() - st["win_share"].to_numpy(),
            st["win_share"].to_numpy() - st["win_share_ci_lo"].to_numpy())
    assert max(h.max() for h in half) <= 0.03
    plan = resolve_plan(cfg)
    k = plan.chunk_bounds.index(res.deals)
    assert k > 0 and res.games == plan.games_after(k)  # stops at a chunk boundary
    # one chunk fewer would not have been enough
    shorter = run_tournament(replace(cfg, until_ci=None, games=plan.games_after(k - 1)))
    assert shorter.max_halfwidth > 0.03


def test_until_ci_cap_and_resume(tmp_path):
    cfg = TournamentConfig(strategies=THREE, until_ci=0.001, games=1800, **SMALL)
    res = run_tournament(cfg)
    assert res.stopped == "cap" and res.games == 1800 and res.max_halfwidth > 0.001
    cfg = TournamentConfig(strategies=THREE, until_ci=0.025, games=20_000, **SMALL)
    straight = run_tournament(cfg)
    with pytest.raises(RunInterrupted):
        run_tournament(cfg, out=tmp_path / "u", stop_after_chunks=2, plots=False)
    resumed = run_tournament(cfg, out=tmp_path / "u", resume=True, plots=False)
    assert resumed.games == straight.games and resumed.stopped == "until-ci"
    frames_equal(straight, resumed)


def test_round_robin_rounds_detail_resume(tmp_path, monkeypatch):
    import sim.study.tournament.chunks as C

    monkeypatch.setattr(C, "ROUNDS_BATCH_GAMES", 100)  # several blocks per chunk
    pool = ("threshold", "threshold:t=5", "threshold:t=7", "random")
    cfg = TournamentConfig(strategies=pool, players=3, games=1200, detail="rounds",
                           first_chunk_games=200, max_chunk_games=400)
    straight = run_tournament(cfg, out=tmp_path / "a", plots=False)
    with pytest.raises(RunInterrupted):
        run_tournament(cfg, out=tmp_path / "b", stop_after_chunks=2, plots=False)
    resumed = run_tournament(cfg, out=tmp_path / "b", resume=True, plots=False)
    frames_equal(straight, resumed)
    for f in ("games.parquet", "rounds.parquet"):
        a, b = pd.read_parquet(tmp_path / "a" / f), pd.read_parquet(tmp_path / "b" / f)
        pd.testing.assert_frame_equal(a, b)
        assert a["game"].is_monotonic_increasing
    assert len(b) == straight.games * 9 * 3


def test_herb_witches_report_has_the_witches_column_csv_and_summary_section(tmp_path):
    # The witches column was built but dropped by the parquet schema, so witches.csv and the
    # summary's witch section never appeared (issue 23's live defect).
    cfg = TournamentConfig(strategies=("threshold", "expert"), games=200, rules="herb-witches",
                           players=2, **SMALL)
    run_tournament(cfg, out=tmp_path / "hw", plots=False)
    games = pd.read_parquet(tmp_path / "hw" / "games.parquet")
    assert "witches" in games.columns and (games["witches"] != 0).any()
    assert (tmp_path / "hw" / "witches.csv").is_file()
    assert "## Herb witches called" in (tmp_path / "hw" / "summary.md").read_text()
    base = run_tournament(replace(cfg, rules="base"), out=tmp_path / "base", plots=False)
    assert base.games == 200
    assert "witches" not in pd.read_parquet(tmp_path / "base" / "games.parquet").columns
