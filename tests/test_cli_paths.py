"""Issue 43: path options, input files and the Dask address. A strategy file not named .py, a
folder given for a file, an empty --out, a malformed or silent --scheduler are each one line
``error: ...`` with exit status 2 (and, for the scheduler, before any Client is made: a
malformed address asks nothing of the network, a silent one is given up after the probe's few
seconds); a TOML file that begins with a byte order mark reads as its text says; an output
that cannot be written is named as the user gave it, never by its temporary name, and no
temporary file stays behind; a count option out of range names its own range, not int64's."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from cli_helpers import assert_user_error, invokers, read_only_folder

from sim.cli.main import app

invoke, ok = invokers(app)
BOM = "\ufeff"


# --- 1. a --strategy-file not named .py -------------------------------------------------------

@pytest.mark.parametrize("command", [["play", "--games", 2], ["tournament", "--games", 8]])
def test_a_strategy_file_not_named_py_is_one_line(command, tmp_path):
    f = tmp_path / "mine.txt"
    f.write_text("from strategies.registry import register\n")
    assert_user_error(invoke(*command, "--strategy-file", f), f"--strategy-file {f}",
                      "not a Python file", ".py")


# --- 2. the Dask scheduler's address ----------------------------------------------------------

@pytest.mark.parametrize("address", ["not a url", "tcp://host", "10.0.0.5", "http://h:8786",
                                     "tcp://h:99999", "tcp://h:abc", "tcp://ho st:1",
                                     "inproc://x/1/2", "tcp://:8786"])
def test_a_malformed_scheduler_address_is_refused_at_once(address, tmp_path, monkeypatch):
    """Refused from its form alone: nothing is asked of the network (no probe, no Client)."""
    pytest.importorskip("distributed")
    _no_network(monkeypatch)
    r = invoke("tournament", "--games", 8, "--out", tmp_path / "r", "--backend", "dask",
               "--scheduler", address)
    line = assert_user_error(r, "--scheduler", "not a Dask scheduler address", "HOST:PORT")
    assert repr(address) in line
    assert not (tmp_path / "r").exists()


class NetworkTouched(Exception):
    pass


def _no_network(monkeypatch, *, probe: bool = False) -> None:
    """Make any connection attempt (the probe too unless ``probe``) and any Dask Client raise."""
    import distributed.comm

    def refuse(*a, **k):
        raise NetworkTouched("the network was asked")

    if not probe:
        monkeypatch.setattr(distributed.comm, "connect", refuse)
    monkeypatch.setattr("sim.study.tournament.dask_backend.Client", refuse)
    monkeypatch.setattr("distributed.LocalCluster", refuse)


@pytest.mark.parametrize("address", ["tcp://10.0.0.5:8786", "10.0.0.5:8786", "tls://h:1",
                                     "tcp://[::1]:8786", " localhost:8786 ", "ws://a.b-c:1"])
def test_a_scheduler_address_of_the_right_form_passes_the_check(address):
    pytest.importorskip("distributed")
    from sim.study.tournament.backend import check_scheduler_address

    assert check_scheduler_address(address) == address.strip()


def test_a_scheduler_that_does_not_answer_is_one_line_within_seconds(tmp_path, monkeypatch):
    """Nothing listens: the probe's refused connection is one line, and no Dask Client (which
    would wait CONNECT_TIMEOUT and may hang the exit for twice that) is ever made."""
    pytest.importorskip("distributed")
    _no_network(monkeypatch, probe=True)
    r = invoke("tournament", "--games", 8, "--out", tmp_path / "r", "--backend", "dask",
               "--scheduler", "tcp://127.0.0.1:1")  # nothing listens on port 1
    assert_user_error(r, "--scheduler tcp://127.0.0.1:1", "no Dask scheduler answers")
    assert not (tmp_path / "r").exists()


def test_a_silent_scheduler_is_given_up_after_the_probe(tmp_path, monkeypatch):
    """Something accepts the connection but never speaks: the probe gives up after its
    PROBE_SECONDS (the line says so) and no Dask Client is made."""
    pytest.importorskip("distributed")
    from sim.study.tournament.dask_backend import PROBE_SECONDS

    _no_network(monkeypatch, probe=True)
    with socket.create_server(("127.0.0.1", 0)) as silent:  # listens, never accepts or answers
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        r = invoke("tournament", "--games", 8, "--out", tmp_path / "r", "--backend", "dask",
                   "--scheduler", address)
    assert_user_error(r, f"--scheduler {address}", "no Dask scheduler answers",
                      f"no answer within {PROBE_SECONDS:g} s")
    assert not (tmp_path / "r").exists()


# --- 3. a folder where a file is read ---------------------------------------------------------

@pytest.mark.parametrize("args, option", [
    (["play", "--games", 2, "--rules"], "ruleset"),
    (["balance", "--games", 8, "--parts", "game", "--targets"], "--targets"),
    (["play", "--games", 2, "--strategy-file"], "--strategy-file"),
    (["rules", "show"], "ruleset"),
])
def test_a_folder_given_for_a_file_is_called_a_folder(args, option, tmp_path):
    line = assert_user_error(invoke(*args, tmp_path), option, "a folder, not a file")
    assert "no such file" not in line


# --- 4. a byte order mark before the TOML -----------------------------------------------------

def test_a_ruleset_file_with_a_byte_order_mark_loads(tmp_path):
    f = tmp_path / "bom.toml"
    f.write_text(BOM + 'extends = "base"\n[game]\nrats_from_round = 3\n', encoding="utf-8")
    out = ok("rules", "show", f, "--json").stdout
    assert '"rats_from_round": 3' in out


def test_a_targets_file_with_a_byte_order_mark_loads(tmp_path):
    from sim.study.balance.targets import load_targets

    f = tmp_path / "targets.toml"
    f.write_text(BOM + "seat0_win_share = [0.2, 0.3]\n", encoding="utf-8")
    assert load_targets(f) == {"seat0_win_share": (0.2, 0.3)}


def test_the_shared_toml_reader_drops_only_a_leading_mark(tmp_path):
    from sim.rules.input_files import TOMLDecodeError, load_toml, loads_toml

    assert loads_toml(BOM + "a = 1") == loads_toml("a = 1") == {"a": 1}
    with pytest.raises(TOMLDecodeError):
        loads_toml("a = 1\n" + BOM + "b = 2")
    f = tmp_path / "x.toml"
    f.write_bytes(b"\xef\xbb\xbfa = 1\n")
    assert load_toml(f) == {"a": 1}


# --- 5 and 8. an output that cannot be written: the user's path, no temporary file left -------

@pytest.mark.parametrize("option", ["--csv", "--png"])
def test_an_unwritable_output_file_is_named_as_given(option, tmp_path):
    ro = read_only_folder(tmp_path)
    target = ro / ("x.csv" if option == "--csv" else "x.png")
    try:
        line = assert_user_error(invoke("thresholds", "--n", 10, option, target), str(target))
    finally:
        (tmp_path / "read-only").chmod(0o755)
    assert ".partial" not in line
    assert not [n for n in (tmp_path / "read-only").iterdir()]


def test_atomic_write_names_the_users_path_and_leaves_nothing(tmp_path):
    from sim.study.common.out_probe import atomic_write

    (tmp_path / "x.txt").mkdir()  # the rename onto it fails
    with pytest.raises(OSError) as e:
        atomic_write(tmp_path / "x.txt", lambda t: Path(t).write_text("new"))
    assert e.value.filename == str(tmp_path / "x.txt")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.txt"]

    def half_then_ctrl_c(t):
        Path(t).write_text("half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):  # any error: the temporary file goes
        atomic_write(tmp_path / "y.txt", half_then_ctrl_c)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.txt"]
    atomic_write(tmp_path / "y.txt", lambda t: Path(t).write_text("whole"))
    assert (tmp_path / "y.txt").read_text() == "whole"


def test_no_report_html_partial_is_left_after_an_error(tmp_path):
    out = tmp_path / "rep"
    ok("thresholds", "--n", 10, "--out", out)
    (out / "report.html").unlink()
    (out / "report.html").mkdir()  # the page cannot be renamed into place
    assert_user_error(invoke("report", out), "report.html")
    assert not [n for n in out.iterdir() if n.name.endswith(".partial")]


def test_probe_file_writable_says_what_is_wrong(tmp_path):
    from sim.study.common.out_probe import OutDirError, probe_file_writable

    (tmp_path / "f.csv").write_text("old\n")
    cases = [("", "empty"), (tmp_path, "a folder, not a file"),
             (tmp_path / "f.csv" / "x.csv", "is a file, not a folder"),
             (tmp_path / "no" / "x.csv", "does not exist"),
             (tmp_path / "f.csv", "use --force")]
    for path, words in cases:
        with pytest.raises(OutDirError, match=words):
            probe_file_writable(path, "--csv", force=False)
    probe_file_writable(tmp_path / "f.csv", "--csv", force=True)
    probe_file_writable(tmp_path / "new.csv", "--csv")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.csv"]


# --- 6. an empty path is refused everywhere ---------------------------------------------------

@pytest.mark.parametrize("args", [
    ["balance", "--games", 8, "--parts", "game", "--out"],
    ["sensitivity", "--knob", "game.rats_from_round=1:3", "--games", 8, "--out"],
    ["tournament", "--games", 8, "--out"],
    ["tune", "threshold", "--param", "t=4:8", "--vs", "threshold", "--budget", 400, "--out"],
    ["thresholds", "--n", 10, "--out"],
    ["thresholds", "--n", 10, "--csv"],
    ["experiment", "run", "seat-advantage", "--games", 8, "--out"],
    ["play", "--games", 2, "--rules"],
    ["play", "--games", 2, "--strategy-file"],
    ["report"],
])
def test_an_empty_path_is_refused(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert_user_error(invoke(*args, ""), "'': empty")
    assert list(tmp_path.iterdir()) == []


# --- 7. a count out of range names its own range ----------------------------------------------

@pytest.mark.parametrize("args, expected", [
    (["sensitivity", "--knob", "game.rats_from_round=1:3", "--steps", -3], "--steps -3: expected "
                                                                           "2 to 50"),
    (["compare", "--leader-round", -1], "--leader-round -1: expected 1 to 20"),
    (["design", "--first-rung", -1], "--first-rung -1: expected 2 to"),
    (["design", "--retest-games", -1], "--retest-games -1: expected 1 to"),
    (["design", "--retune-budget", -1], "--retune-budget -1: expected 1 to"),
    (["tournament", "--backend", "dask", "--workers", -1], "--workers -1: expected 1 to 1024"),
    (["thresholds", "--round", -1], "--round -1: expected 0 to 20"),
    (["thresholds", "--n-optimal", -1], "--n-optimal -1: expected 1 to"),
])
def test_a_count_out_of_range_names_its_range(args, expected):
    line = assert_user_error(invoke(*args), expected)
    assert "9223372036854775807" not in line


def test_a_round_file_with_a_byte_order_mark_loads(tmp_path):
    """Round files go through the one TOML reader too: a leading BOM is dropped."""
    from sim.api.round_file import load

    p = tmp_path / "r.toml"
    p.write_bytes("\ufeffplayers = 2\nround = 1\n".encode())
    assert load(p) == {"players": 2, "round": 1}


def test_thresholds_and_tune_replace_only_with_force(tmp_path):
    """An existing --csv and a non-empty --out are refused before any work, and replaced with
    --force (thresholds), as every report command does; tune's --out likewise."""
    from typer.testing import CliRunner

    from sim.cli.app import app

    csv = tmp_path / "t.csv"
    csv.write_text("old\n")
    args = ["thresholds", "--bag", "w1x4,o1", "--white", "3", "--risk", "none", "--csv", str(csv)]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2 and "use --force" in r.output and csv.read_text() == "old\n"
    r = CliRunner().invoke(app, [*args, "--force"])
    assert r.exit_code == 0, r.output
    assert csv.read_text().startswith("rule,kind,")
    full = tmp_path / "full"
    full.mkdir()
    (full / "mine.txt").write_text("x")
    r = CliRunner().invoke(app, ["tune", "threshold", "--param", "t=4:8", "--vs",
                                 "threshold", "--budget", "100", "--out", str(full)])
    assert r.exit_code == 2 and "use --force" in r.output
