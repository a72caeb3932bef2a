"""Every place quacks-sim reaches into Numba's or CPython's internals, behind one gate.

The patches only make compiling (or the compiled games) faster; the games are the same without
them (``tests/test_numba_patches.py`` plays the same games with them on and off):

- ``inline-copy``: Numba's inliner copies an inlined body's scope once, not once per block
  (:mod:`sim.kernel.inline_copy` rewrites Numba's ``InlineWorker.inline_ir`` from its source).
- ``roomy-frame``: every compilation runs in one frame with a deep value stack (a code object's
  ``co_stacksize`` raised, :func:`in_roomy_frame`), so CPython 3.11 and 3.12 stop mapping and
  unmapping a frame-stack chunk millions of times per kernel (CPython gh-142183).
- ``per-type``: a call from one kernel function to another resolves on the arguments' types
  without their literal values (the dispatcher's ``get_call_template`` wrapped,
  :func:`compile_per_type`), so a function is compiled once, not once per constant argument.
- ``no-nrt``: kernel functions that allocate nothing are compiled without reference counting
  (Numba's private ``_nrt`` option, :data:`NO_NRT`).
- ``live-map``: Numba's liveness analysis (``numba.core.analysis.compute_live_map``, run by every
  ``PostProcessor`` of the front end) holds its variable sets as the bits of integers
  (:func:`compute_live_map`): the same live map, without copying the set of every variable
  defined upstream into every block, which grows with blocks times variables. Measured on the
  reference machine under load (2026-12-07, ``benchmarks/compile_profile.py --phases
  --game-step`` from an empty cache, two pairs of runs): the game step took 147 and 124 CPU s
  instead of 161 and 159, Numba's front end 63 and 50 s instead of 80 and 78; Numba's own
  function took 52 s of wall time in a cold game step, this one 4 s on the same 8,161 calls (all
  giving the same map).
- ``llvm-inline``: a ``@kernel(llvm_inline=True)`` function is compiled once and LLVM inlines it
  into its callers (Numba's ``forceinline``, set on every kernel function so none inherits it
  from the one being compiled, :func:`llvm_inline_options`); off, Numba inlines its typed IR.
  Used by the round's phases and the brewing path's placement (``sim.kernel.round``,
  ``evaluation``, ``brew``, ``brewing``). Measured before ``live-map`` (2026-12-07, the warmup's
  game step from an empty cache, CPU s from getrusage, runs of the two trees one after the
  other): 159 and 163 CPU s without it, 103 and 118 with it (with ``live-map``, which already
  shortens a big function's front end: 149 without, 133 with, one run each); Numba's front end
  shrinks, LLVM grows (the phases' code is optimised again in each library that links it);
  games per second unchanged (12 paired runs on one thread, median ratio 1.00).

They are on when Numba and llvmlite are the minor versions they were proven on (:data:`PROVEN`,
the versions ``pyproject.toml`` pins) and ``QUACKS_NUMBA_PATCHES`` is not ``off``
(:mod:`sim.patch_switch`); otherwise all of them are off, and one note says so on stderr,
once per process (:data:`OFF` says why). Measured on the reference machine (2 cores, numba
0.68.1, an empty cache, ``QUACKS_NUMBA_PATCHES=off``): compiling the game kernel took 735 s of
CPU instead of 229 s (2026-12-07, under load; with only the inline copy off, 566 s: Numba's
inliner copies the caller's whole scope once per block inlined, numba issue 8989), peaking at
8 GB of memory; and the base game ran at 3,800 instead of 47,000 4-player games/s on one thread
(2026-12-06), nearly all of that from reference counting (everything off but ``no-nrt``:
48,000 games/s). With the switch off the kernels are cached in a folder of their own
(:func:`sim.numba_cache.cache_base`), so neither state loads the other's code.

Always used, whatever the switch (the kernels call slot functions through them and Numba has no
public way to do either): :func:`function_value` builds a first-class function value from two
addresses inside compiled code (the fields of Numba's ``FunctionModel``) and
:func:`entry_points` reads a compiled function's two addresses (its compile result's library
and function descriptor), as ``numba.experimental.function_type`` does for its own.

Not here: the cache locator (:mod:`sim.numba_cache`) is handed to Numba through its
configuration (``NUMBA_CACHE_LOCATOR_CLASSES``, Numba 0.67 or later) and subclasses its
``UserProvidedCacheLocator``; it changes nothing of Numba's, and the cache's freshness rests on
it, so it is never off. The compile notice (:mod:`sim.cli.compiling`) only listens to Numba's
event API (``numba.core.event``, documented in Numba's developer manual).
"""

from __future__ import annotations

import functools
import re
import sys
import threading
import types as pytypes

import llvmlite
import numba
from numba import types
from numba.core import analysis, ir_utils

from sim.kernel import inline_copy
from sim.patch_switch import switched_off

# the minor versions the patches were proven on (benchmarks/game_checksums.py --check with them
# on, tests/test_numba_patches.py on against off); pyproject.toml pins numba and llvmlite to them
PROVEN = {"numba": (0, 68), "llvmlite": (0, 50)}
PATCHES = ("inline-copy", "roomy-frame", "per-type", "no-nrt", "live-map", "llvm-inline")


def minor(version: str) -> tuple[int, int]:
    """``(0, 68)`` of ``"0.68.1"`` (or ``"0.68.0rc1"``); ``(-1, -1)`` of anything else."""
    m = re.match(r"(\d+)\.(\d+)", version)
    return (int(m.group(1)), int(m.group(2))) if m else (-1, -1)


def installed() -> dict[str, str]:
    """The versions of Numba and llvmlite this process runs."""
    return {"numba": numba.__version__, "llvmlite": llvmlite.__version__}


def off_reason(switch: str | None = None, versions: dict[str, str] | None = None) -> str | None:
    """Why the patches are off (None: they are on): the switch (``$QUACKS_NUMBA_PATCHES`` unless
    given), else a Numba or llvmlite outside :data:`PROVEN` (the installed ones unless given)."""
    reason = switched_off(switch)
    if reason is not None:
        return reason
    versions = installed() if versions is None else versions
    other = [f"{name} {versions[name]}" for name, want in PROVEN.items()
             if minor(versions[name]) != want]
    if other:
        proven = " and ".join(f"{name} {a}.{b}" for name, (a, b) in PROVEN.items())
        return f"proven on {proven}, this is {', '.join(other)}"
    return None


def note(reason: str) -> str:
    """The line that says the patches are off, and why."""
    return (f"note: quacks-sim's Numba patches are off ({reason}): compiling takes longer and "
            f"games run many times slower")


OFF = off_reason()
ON = OFF is None
if OFF is not None:  # once per process: a module runs once
    print(note(OFF), file=sys.stderr, flush=True)

# --- inline-copy: Numba's inliner copied an inlined body's scope once per block (36% of a cold
# game-kernel compile); True when the rewrite is in place
INLINE_COPY = ON and inline_copy.install()

# --- roomy-frame: value-stack slots of the frame a compilation runs in; CPython gives it a chunk
# of its own (2 MiB) and leaves about 1 MiB free after it, deeper than any compile goes
COMPILE_FRAME_SLOTS = 131_000
_INSIDE = threading.local()


def _call(fn, args, kwargs):
    return fn(*args, **kwargs)


_call_roomy = pytypes.FunctionType(_call.__code__.replace(co_stacksize=COMPILE_FRAME_SLOTS),
                                   _call.__globals__, "_call_roomy") if ON else _call


def in_roomy_frame(fn):
    """``fn`` wrapped to run inside one frame with :data:`COMPILE_FRAME_SLOTS` slots of stack (the
    outermost call only; a nested one runs as it is), so the frames below it never cross a
    chunk boundary of the interpreter's frame stack back and forth; ``fn`` itself when the
    patches are off."""
    if not ON:
        return fn

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if getattr(_INSIDE, "on", False):
            return fn(*args, **kwargs)
        _INSIDE.on = True
        try:
            return _call_roomy(fn, args, kwargs)
        finally:
            _INSIDE.on = False

    return wrapper


def compile_in_roomy_frame(dispatcher) -> None:
    """Make every compilation of ``dispatcher`` run in the roomy frame (patches on)."""
    if ON:
        dispatcher.compile = in_roomy_frame(dispatcher.compile)


# --- per-type
def compile_per_type(dispatcher) -> None:
    """Make calls from other compiled functions to ``dispatcher`` resolve on the arguments'
    types without their literal values, so one compilation serves every constant (patches on;
    off, Numba specialises such a call on each constant, as its ``njit`` does)."""
    if not ON:
        return
    resolve = dispatcher.get_call_template

    def get_call_template(args, kws):
        return resolve(tuple(types.unliteral(a) for a in args),
                       {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template


# --- no-nrt: the options of a function that allocates nothing (Numba's private ``_nrt``)
NO_NRT: dict = {"_nrt": False} if ON else {}


# --- live-map: Numba's liveness analysis on integer bitsets
def compute_live_map(cfg, blocks, var_use_map, var_def_map):
    """Numba's ``compute_live_map`` (the variables live at the entry of each block) computed as
    Numba computes it, pass for pass in the same order to the same fixed point, with each set of
    variable names held as the bits of an integer: a union of two big sets is then one integer
    operation, not a copy of every name. Returns the same ``{block: set of names}``."""
    index: dict[str, int] = {}

    def bits(names) -> int:
        b = 0
        for name in names:
            b |= 1 << index.setdefault(name, len(index))
        return b

    use = {k: bits(v) for k, v in var_use_map.items()}
    defs = {k: bits(v) for k, v in var_def_map.items()}
    topo_order = cfg.topo_order()
    succ = {o: [s for s, _ in cfg.successors(o)] for o in topo_order}
    pred = {o: [p for p, _ in cfg.predecessors(o)] for o in topo_order}

    reach: dict = {}  # the variables defined or used on some path to a block's entry
    changed = True
    while changed:
        changed = False
        for o in topo_order:
            old = reach.get(o)
            r = reach[o] = (old or 0) | defs[o] | use[o]
            changed |= r != old
            for s in succ[o]:
                old = reach.get(s)
                new = reach[s] = (old or 0) | r
                changed |= new != old

    live = {o: use[o] for o in blocks.keys()}
    changed = True
    while changed:
        changed = False
        for o in reversed(topo_order):
            for p in pred[o]:
                # live[o] read per predecessor: Numba's set grows in place on a self-loop
                new = live[p] | (live[o] & reach.get(p, 0) & ~defs[p])
                changed |= new != live[p]
                live[p] = new

    names = list(index)

    def members(b: int) -> set[str]:
        digits = bin(b)
        top = len(digits) - 1
        out, i = set(), digits.find("1", 2)
        while i != -1:
            out.add(names[top - i])
            i = digits.find("1", i + 1)
        return out

    return {o: members(b) for o, b in live.items()}


LIVE_MAP_ORIGINAL = analysis.compute_live_map


def install_live_map() -> bool:
    """Put :func:`compute_live_map` in place of Numba's in every module that calls it (patches
    on); True when in place. ``ir_utils`` and ``parfors.parfor`` import it by name from
    ``analysis``: the parfor module, when imported later, takes this one."""
    if not ON:
        return False
    for module in (analysis, ir_utils, sys.modules.get("numba.parfors.parfor")):
        if getattr(module, "compute_live_map", None) is LIVE_MAP_ORIGINAL:
            module.compute_live_map = compute_live_map
    return True


LIVE_MAP = install_live_map()


# --- llvm-inline: a function compiled once and inlined by LLVM into each caller (Numba's
# ``forceinline``, LLVM's ``alwaysinline``). Numba's CPU target takes the option but documents it
# only for CUDA, and a function compiled while another is being compiled inherits the compiling
# one's value unless it sets its own: every kernel function sets it, so which functions LLVM
# inlines never depends on the order they were first compiled in
def llvm_inline_options(llvm_inline: bool) -> dict:
    """The options of a kernel function LLVM inlines into its callers (``llvm_inline``) or not;
    patches off: Numba inlines its typed IR instead (``inline="always"``), as it did before."""
    if not ON:
        return {"inline": "always"} if llvm_inline else {}
    return {"forceinline": llvm_inline}


# --- always used: calling a compiled slot function through its two addresses
def function_value(context, builder, fn_type, jit_address, c_address):
    """Inside an intrinsic's codegen: a first-class function value of ``fn_type`` (a
    ``types.FunctionType``) whose calls go to ``jit_address`` (Numba's calling convention) and
    ``c_address`` (its C wrapper), both LLVM integers; laid out as Numba's ``FunctionModel``."""
    from llvmlite import ir
    from numba.core import cgutils

    fn = cgutils.create_struct_proxy(fn_type)(context, builder)
    pointer = ir.IntType(8).as_pointer()
    fn.jit_addr = builder.inttoptr(jit_address, pointer)
    fn.c_addr = builder.inttoptr(c_address, pointer)
    fn.py_addr = cgutils.get_null_value(pointer)
    return fn._getvalue()


def entry_points(dispatcher, signature) -> tuple[int, int]:
    """The entry point (Numba's calling convention) and the C wrapper of ``dispatcher`` compiled
    for ``signature``."""
    result = dispatcher.overloads[signature.args]
    library = result.library
    return (library.get_pointer_to_function(result.fndesc.llvm_func_name),
            library.get_pointer_to_function(result.fndesc.llvm_cfunc_wrapper_name))
