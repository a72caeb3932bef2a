"""Where Numba keeps the compiled kernels, and when a cached kernel is stale.

Numba invalidates a cached function when its own source file changes, but not when a function
it calls in another file does; a stale cache would then run old rules. Here every cached
function of this project is stamped with a hash of its module *and every project module that
module imports* (transitively, read from the import statements, not by importing). An edit to
one rule module therefore recompiles the functions whose modules depend on it and nothing else,
and two checkouts with the same sources share one cache.

What is hashed is a module's *code*, not its text (:func:`code_text`): its syntax tree without
docstrings, comments, formatting or line numbers, and without ``doc=`` keyword arguments (the
meaning of a declared field: documentation, never read by compiled code). Editing a docstring, a
comment or a field's doc therefore recompiles nothing; human texts (event, card, witch and book
texts, help) live in modules no kernel imports. A cached function is also named without its line
number (:meth:`ProjectCacheLocator.get_disambiguator`), so a longer docstring above it does not
move it to a new cache entry. A module's code hash is kept on disk beside the cache, under the
hash of its bytes (:func:`code_hash`), so a start-up parses only the files that changed.

The stamp is also in every cache file's name (``game.play_games-q<stamp>.py311.nbi``): two
checkouts of different sources (git worktrees, branches) sharing one cache keep an entry each
instead of overwriting each other's, and switching back loads instead of compiling. Numba would
overwrite a stale entry in place; here a new stamp makes new files, so each function keeps the
files of its newest :data:`STAMPS_KEPT` stamps and the older ones are deleted when a new stamp
is first compiled (:func:`prune_stamps`): the cache takes at most that many times the disk of
one checkout's.

The locator is handed to Numba through ``NUMBA_CACHE_LOCATOR_CLASSES`` (Numba 0.67 or later),
set by :func:`configure` before Numba is imported; nothing here imports Numba until Numba asks
for a locator, so commands that compile nothing never pay for it.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import os
import pickle
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sim", "strategies")
LOCATOR = "sim.numba_cache.ProjectCacheLocator"
# Numba's own locators stay behind ours, for cached functions outside this project
# in every cache file's name in place of Numba's line number, before the stamp (see
# get_disambiguator)
CACHE_DISAMBIGUATOR = "q"
# the stamps whose files each cached function keeps (two checkouts and a step back or forward)
STAMPS_KEPT = 3
NUMBA_LOCATORS = ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator",
                  "IPythonCacheLocator", "ZipCacheLocator")


# the code hashes of the user's rules files loaded in this process (``--rules-file``): their cards
# are compiled into the hook table, so every kernel compiled with them is cached apart
RULES_FILES: dict[str, str] = {}


# the generated hook tables that compile a user's rules file in: a function whose module depends
# on one of them (``closure``) is cached apart while a rules file is loaded (:func:`cache_folder`)
RULES_TABLES = ("sim/kernel/cards/hooks.py", "sim/kernel/books/hooks.py",
                "sim/kernel/books/gain_hooks.py",
                "sim/kernel/witches/hooks.py", "sim/kernel/witches/potion_hooks.py",
                "sim/kernel/witches/called_hooks.py")


# the generated hook tables that no loaded rules file changes (``RULES_TABLES``' paths): a table
# says so itself when it is generated (:func:`table_as_shipped`); its dependents keep the shared
# cache (:func:`cache_folder`)
TABLES_AS_SHIPPED: set[str] = set()


def table_as_shipped(rel: str) -> None:
    """The generated hook table ``rel`` (one of ``RULES_TABLES``) calls no user's rule: its text
    is the shipped one whatever rules files are loaded, so a function depending on it is cached
    apart only if it depends on another table a rules file changes."""
    if rel not in RULES_TABLES:
        raise ValueError(f"{rel} is no generated hook table ({', '.join(RULES_TABLES)})")
    TABLES_AS_SHIPPED.add(rel)


def add_rules_file(path: str) -> None:
    """A user's rules file is loaded: from now on the functions that depend on a generated hook
    table (``RULES_TABLES``) are cached in a folder of their own (:func:`rules_key`), keyed by
    the code of every rules file loaded (in load order); the others keep the shared cache."""
    raw = Path(path).read_bytes()
    try:
        code = code_text(raw).encode()
    except (SyntaxError, ValueError):
        code = raw
    RULES_FILES[str(Path(path).resolve())] = hashlib.sha256(code).hexdigest()[:32]


def cache_base() -> str:
    """The folder of the on-disk cache: ``$NUMBA_CACHE_DIR/quacks-sim`` when that is set,
    otherwise ``~/.cache/quacks-sim`` (``$XDG_CACHE_HOME`` honoured); ``quacks-sim-patches-off``
    in place of ``quacks-sim`` when ``QUACKS_NUMBA_PATCHES`` turns the Numba patches off (their
    code is far slower: :mod:`sim.patch_switch`). With a user's rules file loaded, the
    functions that depend on it are cached in a folder ``rules-<hash>`` inside it
    (:func:`cache_folder`)."""
    from sim.patch_switch import switched_off

    name = "quacks-sim" if switched_off() is None else "quacks-sim-patches-off"
    env = os.environ.get("NUMBA_CACHE_DIR")
    if env:
        return os.path.join(env, name)
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(home, name)


def rules_key() -> str:
    """``rules-<hash of the code of every rules file loaded>``, "" with none loaded."""
    if not RULES_FILES:
        return ""
    return "rules-" + hashlib.sha256("\n".join(RULES_FILES.values()).encode()).hexdigest()[:16]


def configure() -> str:
    """Hand Numba this project's cache locator; return the cache folder. Cheap: no hashing and
    no Numba import (if Numba is imported already, its config is set directly)."""
    classes = ",".join((LOCATOR, *NUMBA_LOCATORS))
    current = os.environ.get("NUMBA_CACHE_LOCATOR_CLASSES", "")
    if LOCATOR not in current:
        os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = f"{LOCATOR},{current}" if current else classes
    numba = sys.modules.get("numba")
    if numba is not None:
        numba.config.CACHE_LOCATOR_CLASSES = os.environ["NUMBA_CACHE_LOCATOR_CLASSES"]
    return cache_base()


def project_path(py_file: str) -> str | None:
    """``sim/kernel/round.py`` for a source file of this project, else None."""
    try:
        rel = Path(py_file).resolve().relative_to(ROOT)
    except ValueError:
        return None
    return rel.as_posix() if rel.parts and rel.parts[0] in PACKAGES else None


def _module_file(name: str) -> str | None:
    """The project source file of a dotted module name, or None."""
    if name.split(".")[0] not in PACKAGES:
        return None
    base = name.replace(".", "/")
    for rel in (f"{base}.py", f"{base}/__init__.py"):
        if (ROOT / rel).is_file():
            return rel
    return None


# an import statement at the start of a line: "from .x.y import a, b" / "from x import (a,\n b)" /
# "import x.y as z, w"; a regular expression, not ast.parse, because every cached kernel's
# stamp is computed at start-up (a docstring line that looks like an import only adds a
# dependency, which is safe)
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(?P<dots>\.*)(?P<mod>[\w.]*)[ \t]+import[ \t]+"
                     r"(?P<names>\([^)]*\)|[^\n]*)|import[ \t]+(?P<plain>[^\n]*))", re.M)


def _names(text: str) -> list[str]:
    """The imported names of an import list: ``a, b as c`` -> ``["a", "b"]``."""
    out = []
    for line in text.strip("()").splitlines():
        for part in line.split("#", 1)[0].split(","):
            name = part.split(" as ")[0].strip()
            if name:
                out.append(name)
    return out


# a module that imports modules by a computed name (the generated hook table of the cards) names
# them in a comment line: "# numba-cache-depends: sim/kernel/cards/*.py" (a glob from the root)
_DEPENDS = re.compile(r"^# numba-cache-depends: (?P<glob>\S+)[ \t]*$", re.M)


@functools.cache
def imports_of(rel: str) -> tuple[str, ...]:
    """The project source files that ``rel`` imports, module-level or inside functions, and those
    its ``# numba-cache-depends:`` lines name."""
    package = rel.rsplit("/", 1)[0].replace("/", ".")
    found: set[str] = set()
    text = (ROOT / rel).read_text(encoding="utf-8")
    for m in _DEPENDS.finditer(text):
        found.update(p.relative_to(ROOT).as_posix() for p in sorted(ROOT.glob(m.group("glob")))
                     if p.is_file() and p.as_posix() != (ROOT / rel).as_posix())
    for m in _IMPORT.finditer(text):
        if m.group("plain") is not None:
            names = _names(m.group("plain"))
        else:
            mod = m.group("mod")
            level = len(m.group("dots"))
            if level:
                parts = package.split(".")
                mod = ".".join(parts[:len(parts) - level + 1] + ([mod] if mod else []))
            names = [mod]
            if (ROOT / mod.replace(".", "/")).is_dir():  # "from package import module"
                names += [f"{mod}.{a}" for a in _names(m.group("names"))]
        for name in names:
            f = _module_file(name)
            if f is not None and f != rel:
                found.add(f)
    # "from sim.kernel import layout" names both sim/kernel/layout.py and the package: keep the
    # package's __init__ only when nothing more specific was found for it
    return tuple(sorted(f for f in found
                        if not (f.endswith("__init__.py") and any(
                            g != f and g.startswith(f[: -len("__init__.py")]) for g in found))))


@functools.cache
def closure(rel: str) -> tuple[str, ...]:
    """``rel`` and every project source file it imports, transitively."""
    seen = {rel}
    todo = [rel]
    while todo:
        for dep in imports_of(todo.pop()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return tuple(sorted(seen))


# the keyword argument that documents a declared value (``Field(..., doc="...")``): not code
DOC_KEYWORD = "doc"
# an event's declaration (``event(...)``, sim.rules.event_declare): its text is documentation too
EVENT_CALL, EVENT_TEXT_KEYWORD = "event", "text"
# in the memo's key: a new Python may dump a tree differently, a new normaliser hashes otherwise
CODE_HASH_VERSION = f"code-2/{sys.version_info[0]}.{sys.version_info[1]}"
CODE_HASHES_FILE = "code-hashes.json"
CODE_HASHES_KEPT = 4000  # entries the memo keeps (the oldest half goes when it is full)


def _is_docstring(node: ast.stmt) -> bool:
    return (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str))


class _DropTexts(ast.NodeTransformer):
    """Removes what cannot change compiled code: docstrings, ``doc=`` keyword arguments and an
    event declaration's ``text=`` (``event(..., text=...)``)."""

    def generic_visit(self, node):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                and body and _is_docstring(body[0])):
            node.body = body[1:] or [ast.Pass()]
        if isinstance(node, ast.Call):
            dropped = (DOC_KEYWORD, EVENT_TEXT_KEYWORD) if _is_event_call(node) else (DOC_KEYWORD,)
            node.keywords = [k for k in node.keywords if k.arg not in dropped]
        return super().generic_visit(node)


def _is_event_call(node: ast.Call) -> bool:
    """Whether a call is an event's declaration: ``event(...)`` or ``<module>.event(...)``."""
    f = node.func
    return (f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute)
            else "") == EVENT_CALL


def code_text(source: bytes | str) -> str:
    """A module's code as the stamp sees it: its syntax tree without docstrings, ``doc=``
    keyword arguments and events' ``text=``, dumped without positions (so comments, formatting
    and line numbers do not count either)."""
    return ast.dump(_DropTexts().visit(ast.parse(source)), include_attributes=False)


@functools.cache
def _code_hash_memo() -> dict[str, str]:
    try:
        with open(os.path.join(cache_base(), CODE_HASHES_FILE), encoding="utf-8") as f:
            memo = json.load(f)
        return memo if isinstance(memo, dict) else {}
    except (OSError, ValueError):
        return {}


def _save_code_hashes(memo: dict[str, str]) -> None:
    """Write the memo (a temporary file renamed over it; a failure only costs a parse later)."""
    if len(memo) > CODE_HASHES_KEPT:
        for key in list(memo)[: len(memo) // 2]:
            del memo[key]
    try:
        os.makedirs(cache_base(), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=cache_base(), prefix=".code-hashes-")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(memo, f)
        os.replace(tmp, os.path.join(cache_base(), CODE_HASHES_FILE))
    except OSError:
        pass


@functools.cache
def code_hash(rel: str) -> str:
    """Hash of :func:`code_text` of the project file ``rel``, read from the on-disk memo when a
    file with the same bytes was hashed before."""
    raw = (ROOT / rel).read_bytes()
    key = hashlib.sha256(CODE_HASH_VERSION.encode() + b"\0" + raw).hexdigest()[:32]
    memo = _code_hash_memo()
    if key not in memo:
        try:
            code = code_text(raw).encode()
        except (SyntaxError, ValueError):  # not Python we can parse: its bytes are its code
            code = raw
        memo[key] = hashlib.sha256(code).hexdigest()[:32]
        _save_code_hashes(memo)
    return memo[key]


@functools.cache
def module_stamp(rel: str) -> str:
    """Hash of the code (:func:`code_hash`) of ``rel`` and of every project module it depends on:
    the freshness stamp of every cached function defined in ``rel``."""
    h = hashlib.sha256()
    for dep in closure(rel):
        h.update(dep.encode())
        h.update(code_hash(dep).encode())
    return h.hexdigest()[:16]


def loaded_rules_file(py_file: str) -> str | None:
    """The absolute path of a user's rules file loaded in this process (``RULES_FILES``), else
    None. Its functions are stamped like a project module's (:func:`module_stamp`: its code and
    every project module it imports), so a kernel edit recompiles the rules files that call it
    (Numba's own locator stamps only the file itself), and cached in a folder of their own."""
    path = str(Path(py_file).resolve())
    return Path(path).as_posix() if path in RULES_FILES else None


def cache_folder(rel: str) -> str:
    """The cache folder of the functions defined in ``rel`` (one per source folder); with a
    rules file loaded, inside :func:`rules_key`'s folder for a module that depends on a
    generated hook table (its code holds the user's rules), so only those are compiled again.
    A rules file's own functions (``rel`` an absolute path): ``rules-files/<hash of its path>``."""
    if Path(rel).is_absolute():
        name = hashlib.sha256(rel.encode()).hexdigest()[:16]
        return os.path.join(cache_base(), "rules-files", name)
    folder = rel.rsplit("/", 1)[0].replace("/", ".")
    key = rules_key()
    if key and any(t in closure(rel) for t in RULES_TABLES if t not in TABLES_AS_SHIPPED):
        return os.path.join(cache_base(), key, folder)
    return os.path.join(cache_base(), folder)


def kernel_source_hash() -> str:
    """One hash of every module the game kernel depends on (Dask workers compare it with the
    client's, so both play the same rules)."""
    return module_stamp("sim/kernel/game.py")


def disambiguator(rel: str) -> str:
    """The part of a cache file's name after the function's: ``q<stamp of rel>``."""
    return f"{CACHE_DISAMBIGUATOR}{module_stamp(rel)}"


def prune_stamps(folder: str, function: str, keep: str) -> list[str]:
    """Delete the cache files of ``function`` (``module.qualname`` as Numba names its files) in
    ``folder`` under stamps other than ``keep`` beyond the newest ``STAMPS_KEPT - 1`` (by their
    index's time); return the names deleted. Files of the unstamped names before stamps were in
    them (``-q.py311``) count as one stamp. A file gone already, or held by another process,
    is left (a reader that finds an entry gone compiles it)."""
    prefix = f"{function}-{CACHE_DISAMBIGUATOR}"
    try:
        names = [e.name for e in os.scandir(folder) if e.name.startswith(prefix)]
    except OSError:
        return []
    stamps: dict[str, float] = {}
    for name in names:
        stamp = name[len(prefix):].split(".", 1)[0]
        if name.endswith(".nbi") and stamp != keep:
            try:
                stamps[stamp] = os.path.getmtime(os.path.join(folder, name))
            except OSError:
                pass
    old = sorted(stamps, key=stamps.get, reverse=True)[max(STAMPS_KEPT - 1, 0):]
    gone = [n for n in names if n[len(prefix):].split(".", 1)[0] in old]
    for name in gone:
        try:
            os.remove(os.path.join(folder, name))
        except OSError:
            pass
    return gone


def is_cached(entry: str) -> bool:
    """True when the on-disk cache holds an up-to-date compiled ``entry``
    (``path/module.function`` relative to the project root, e.g. ``"sim/kernel/game.play_games"``),
    so calling it loads instead of compiling."""
    path, func = entry.rsplit(".", 1)
    rel = f"{path}.py"
    if not (ROOT / rel).is_file():
        return False
    stem = Path(rel).stem
    stamp = module_stamp(rel)
    for index in Path(cache_folder(rel)).glob(f"{stem}.{func}-{disambiguator(rel)}.*.nbi"):
        try:
            with open(index, "rb") as f:
                pickle.load(f)  # Numba's version
                saved, overloads = pickle.loads(f.read())
        except Exception:  # a file being written, or from another Numba
            continue
        if saved == stamp and overloads:
            return True
    return False


def _locator_class():
    """Build the locator class on first use (it subclasses Numba's, so Numba is imported then)."""
    # Numba's public locator for a user-given folder; every method that decides where and how
    # fresh is overridden below
    from numba.core.caching import UserProvidedCacheLocator

    class ProjectCacheLocator(UserProvidedCacheLocator):
        """Numba cache locator for this project's functions: one folder per source folder under
        :func:`cache_base`, stamped by :func:`module_stamp`."""

        def __init__(self, py_func, rel: str):
            self._rel = rel

        def get_cache_path(self):
            return cache_folder(self._rel)

        def get_source_stamp(self):
            return module_stamp(self._rel)

        def get_disambiguator(self):
            # not the line number: a docstring edit above the function must not move it to a
            # new cache entry (Numba's index key already holds the function's bytecode); the
            # stamp: another checkout's sources keep their own entry
            return disambiguator(self._rel)

        @classmethod
        def from_function(cls, py_func, py_file):
            rel = project_path(py_file) or loaded_rules_file(py_file)
            if rel is None:
                return None
            self = cls(py_func, rel)
            try:
                self.ensure_cache_path()
            except OSError:
                return None
            # Numba's name for the function's files (_CacheImpl.get_filename_base)
            function = f"{Path(py_file).stem}.{py_func.__qualname__}".replace("<", "").replace(
                ">", "")
            folder = self.get_cache_path()
            index = (f"{function}-{disambiguator(rel)}.py{sys.version_info[0]}"
                     f"{sys.version_info[1]}{getattr(sys, 'abiflags', '')}.nbi")
            if not os.path.exists(os.path.join(folder, index)):  # a new stamp: to be compiled
                prune_stamps(folder, function, module_stamp(rel))
            return self

    return ProjectCacheLocator


def __getattr__(name: str):
    if name == "ProjectCacheLocator":
        cls = _locator_class()
        globals()[name] = cls
        return cls
    raise AttributeError(name)
