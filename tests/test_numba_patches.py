"""The one gate of Numba's and CPython's internals (``sim.kernel.numba_patches``): the patches are
on for the pinned Numba and llvmlite, off with ``QUACKS_NUMBA_PATCHES=off`` or another version
(one note line on stderr, once per process; nothing when on), and the games are the same either
way."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim import numba_cache
from sim.kernel import numba_patches as gate
from sim.patch_switch import SWITCH

ROOT = Path(__file__).resolve().parent.parent
PROVEN_HERE = {"numba": "0.68.1", "llvmlite": "0.50.0"}

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


def test_pyproject_pins_the_proven_minor_versions():
    from packaging.requirements import Requirement

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pins = {r.name: r.specifier for r in map(Requirement, deps)}
    for name, (major, minor) in gate.PROVEN.items():
        assert {str(s) for s in pins[name]} == {f">={major}.{minor}", f"<{major}.{minor + 1}"}
    # and this is what runs here, so the tests below prove the patches on these versions
    assert gate.off_reason(switch="on") is None


@pytest.mark.parametrize("switch, versions, reason", [
    ("", PROVEN_HERE, None),
    ("on", PROVEN_HERE, None),
    (" ON ", PROVEN_HERE, None),
    ("1", PROVEN_HERE, None),
    ("off", PROVEN_HERE, "QUACKS_NUMBA_PATCHES=off"),
    ("Off", PROVEN_HERE, "QUACKS_NUMBA_PATCHES=Off"),
    ("0", PROVEN_HERE, "QUACKS_NUMBA_PATCHES=0"),
    ("maybe", PROVEN_HERE, "QUACKS_NUMBA_PATCHES='maybe' is neither on nor off"),
    ("", {"numba": "0.68.0rc1", "llvmlite": "0.50.2"}, None),
    ("", {"numba": "0.69.0", "llvmlite": "0.50.0"},
     "proven on numba 0.68 and llvmlite 0.50, this is numba 0.69.0"),
    ("", {"numba": "0.67.1", "llvmlite": "0.49.0"},
     "proven on numba 0.68 and llvmlite 0.50, this is numba 0.67.1, llvmlite 0.49.0"),
    ("", {"numba": "0+unknown", "llvmlite": "0.50.0"},
     "proven on numba 0.68 and llvmlite 0.50, this is numba 0+unknown"),
    ("off", {"numba": "0.69.0", "llvmlite": "0.50.0"}, "QUACKS_NUMBA_PATCHES=off"),
])
def test_why_the_patches_are_off(switch, versions, reason):
    assert gate.off_reason(switch=switch, versions=versions) == reason


@pytest.mark.parametrize("switch, folder", [
    (None, "quacks-sim"), ("on", "quacks-sim"), ("off", "quacks-sim-patches-off"),
    ("maybe", "quacks-sim-patches-off"),
])
def test_code_compiled_without_the_patches_is_cached_apart(monkeypatch, tmp_path, switch, folder):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    if switch is None:
        monkeypatch.delenv(SWITCH, raising=False)
    else:
        monkeypatch.setenv(SWITCH, switch)
    assert numba_cache.cache_base() == str(tmp_path / folder)


def test_the_patches_are_on_here():
    from numba.core import analysis, ir_utils
    from numba.core import inline_closurecall as icc

    from sim.kernel import inline_copy
    from sim.kernel.decisions.slot_call import call_slot
    from sim.kernel.game import play_games
    from sim.kernel.potions import potion_histograms

    assert gate.ON and gate.OFF is None
    assert gate.INLINE_COPY and inline_copy.ORIGINAL is not icc.InlineWorker.inline_ir
    assert gate.NO_NRT == {"_nrt": False}
    assert gate.LIVE_MAP and gate.compute_live_map is not gate.LIVE_MAP_ORIGINAL
    assert analysis.compute_live_map is ir_utils.compute_live_map is gate.compute_live_map
    for d in (play_games, potion_histograms):  # a kernel entry point: every patch in place
        assert getattr(d.compile, "__wrapped__", None) is not None
        assert "get_call_template" in vars(d)
    assert "get_call_template" not in vars(call_slot)  # inlined: compiled in every caller


def loops(n, xs):
    """Loops in loops, a while, break, continue and a one-block loop: a CFG with back edges."""
    total = 0
    for i in range(n):
        j = 0
        while j < i:
            j += 1
            if xs[j] > 3:
                continue
            total += xs[j]
            if total > 100:
                break
        k = i
        while k:
            k -= 1
    return total


def live_maps(fn):
    """Numba's live map and the patch's of ``fn``'s IR (Numba's front end, no inlining)."""
    from numba.core import analysis
    from numba.core.compiler import run_frontend

    blocks = run_frontend(fn).blocks
    cfg = analysis.compute_cfg_from_blocks(blocks)
    ud = analysis.compute_use_defs(blocks)
    return (gate.LIVE_MAP_ORIGINAL(cfg, blocks, ud.usemap, ud.defmap),
            gate.compute_live_map(cfg, blocks, ud.usemap, ud.defmap))


@pytest.mark.parametrize("where, name", [
    ("tests.test_numba_patches", "loops"), ("sim.kernel.round", "play_round"),
    ("sim.kernel.brewing", "brew_round"), ("sim.kernel.brew", "chip_actions"),
])
def test_the_live_map_on_bitsets_is_numbas(where, name):
    import importlib

    fn = getattr(importlib.import_module(where), name)
    numbas, ours = live_maps(getattr(fn, "py_func", fn))
    assert len(numbas) > 3 and any(numbas.values())
    assert ours == numbas and list(ours) == list(numbas)  # same sets, blocks in the same order


# in a process with the patches off: Numba as it is, and one note line whatever is imported
OFF_PROBE = """
import json
from numba.core import analysis
from numba.core.registry import CPUDispatcher
from sim.kernel import inline_copy, numba_patches as gate
from sim.kernel.jit import in_roomy_frame, kernel
from sim.kernel.potions import potion_histograms
from strategies import helpers_nb, plugin

@kernel
def add_one(x):
    return x + 1

def plain(d):
    return {"compile": "compile" in vars(d), "call template": "get_call_template" in vars(d),
            "_nrt": "_nrt" in d.targetoptions}

print(json.dumps({"on": gate.ON, "inline copy": [gate.INLINE_COPY, inline_copy.ORIGINAL is None],
                  "roomy": in_roomy_frame(plain) is plain,
                  "live map": [gate.LIVE_MAP,
                               analysis.compute_live_map is gate.LIVE_MAP_ORIGINAL],
                  "kernel": plain(potion_histograms), "helper": plain(helpers_nb.white_total),
                  "new": plain(add_one), "runs": add_one(41)}))
"""


def run_python(script: Path, code: str, **env) -> subprocess.CompletedProcess:
    """``code`` run as the file ``script`` (a cached function needs a file) without the switch
    unless given, its compiled functions in ``script``'s folder."""
    script.write_text(code)
    full = {k: v for k, v in os.environ.items() if k != SWITCH}
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=ROOT,
                          env={**full, "NUMBA_CACHE_DIR": str(script.parent), **env}, timeout=600)


def test_off_leaves_numba_as_it_is_and_says_so_once(tmp_path):
    r = run_python(tmp_path / "probe.py", OFF_PROBE, QUACKS_NUMBA_PATCHES="off")
    assert r.returncode == 0, r.stderr
    plain = {"compile": False, "call template": False, "_nrt": False}
    assert json.loads(r.stdout) == {"on": False, "inline copy": [False, True], "roomy": True,
                                    "live map": [False, True], "kernel": plain, "helper": plain,
                                    "new": plain, "runs": 42}
    assert r.stderr.splitlines() == [gate.note("QUACKS_NUMBA_PATCHES=off")]
    assert (tmp_path / "quacks-sim-patches-off").is_dir()  # where its kernels would be cached


def test_on_says_nothing(tmp_path):
    r = run_python(tmp_path / "probe.py", "import sim.kernel.jit, strategies.plugin\n"
                   "import sim.kernel.numba_patches as g\nprint(g.ON)\n")
    assert (r.returncode, r.stdout, r.stderr) == (0, "True\n", "")


def checksums(tmp_path: Path, name: str, **env) -> dict[str, str]:
    """The game checksums of ``benchmarks/game_checksums.py`` (40 games per configuration) in a
    process of its own."""
    out = tmp_path / f"{name}.json"
    full = {k: v for k, v in os.environ.items() if k != SWITCH}
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "game_checksums.py"),
                        "--games", "40", "--part", "games", "--json", str(out)],
                       capture_output=True, text=True, cwd=ROOT, env={**full, **env},
                       timeout=3600)
    assert r.returncode == 0, r.stderr
    return {"checksums": json.loads(out.read_text())["checksums"], "stderr": r.stderr}


@pytest.mark.slow
def test_the_same_games_with_the_patches_off(tmp_path):
    """Every game configuration of the golden checksums, compiled with the patches and without
    them, gives the same game records. Compiles the game kernel without the patches (about 4 min
    of CPU) in a temporary cache folder, so the shared cache is left as it was."""
    on = checksums(tmp_path, "on")
    off_cache = tmp_path / "cache-patches-off"
    off = checksums(tmp_path, "off", QUACKS_NUMBA_PATCHES="off", NUMBA_CACHE_DIR=str(off_cache))
    assert on["stderr"].count("Numba patches") == 0
    assert off["stderr"].count(gate.note("QUACKS_NUMBA_PATCHES=off")) == 1
    # compiled there, in the folder of code without the patches
    assert any((off_cache / "quacks-sim-patches-off").rglob("game.play_games-*.nbi"))
    assert len(on["checksums"]) >= 14
    assert off["checksums"] == on["checksums"]


# a phase compiled once and inlined by LLVM into each of its two call sites, next to a helper
# compiled by the same caller before it that must not inherit the phase's forceinline
LLVM_INLINE_PROBE = """
import json, re
import numpy as np
from sim.kernel.jit import kernel

@kernel
def helper(a, i):
    return a[i] * 3

@kernel(llvm_inline=True)
def phase(a, k):
    for j in range(a.shape[0]):
        a[j] = (a[j] * 7 + k) % 1009
        if a[j] > 500:
            a[j] -= helper(a, 0)
    return a[k % a.shape[0]]

@kernel
def caller(a):
    return phase(a, 1) + phase(a, 2)

def llvm(d):
    sig = d.signatures[0]
    return {"ir": d.inspect_llvm(sig), "name": d.overloads[sig].fndesc.mangled_name}

value = int(caller(np.arange(6)))
print(json.dumps({"value": value, "caller": llvm(caller), "helper": llvm(helper),
                  "phase": llvm(phase) if phase.signatures else None}))
"""


def defined_attributes(ir: str, name: str) -> str:
    """The attribute group text of function ``name``'s definition in the LLVM IR ``ir``."""
    header = next(line for line in ir.splitlines() if line.startswith("define") and
                  f"@{name}(" in line)
    groups = dict(re.findall(r"^attributes (#\d+) = \{(.*)\}$", ir, re.M))
    return " ".join(groups.get(g, "") for g in re.findall(r"#\d+", header.split(")")[-1]))


@pytest.mark.parametrize("switch", ["on", "off"])
def test_llvm_inline_is_compiled_once_and_inlined_by_llvm(tmp_path, switch):
    r = run_python(tmp_path / "probe.py", LLVM_INLINE_PROBE, QUACKS_NUMBA_PATCHES=switch)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    a = np.arange(6)  # the same in Python
    total = 0
    for k in (1, 2):
        for j in range(6):
            a[j] = (a[j] * 7 + k) % 1009
            if a[j] > 500:
                a[j] -= a[0] * 3
        total += int(a[k % 6])
    assert got["value"] == total
    calls = set(re.findall(r"call [^@\n]*@(\S+?)\(", got["caller"]["ir"]))
    if switch == "on":  # compiled once as a function of its own, which LLVM inlines, and only it
        phase = got["phase"]
        assert phase["name"] not in calls
        assert "alwaysinline" in defined_attributes(phase["ir"], phase["name"])
        helper = got["helper"]
        assert "alwaysinline" not in defined_attributes(helper["ir"], helper["name"])
    else:  # Numba inlines its typed IR: never compiled on its own
        assert got["phase"] is None
