"""Where a report comes from, declared once: :class:`Provenance` is saved in every report's
manifest (the ``provenance`` key of ``run.json``, ``tune.json``, ``experiment.json``) and
rendered from there in both formats, ``report.md`` (:meth:`Provenance.markdown`) and
``report.html`` (:meth:`Provenance.rows`, read back by ``sim.study.reports.page``).

- ``command``: the ``quacks ...`` command that reproduces the run: ``quacks`` whatever the
  path of the executable, and a file the user named by a relative path named by that path
  (:func:`relative_command`);
- ``given``: the command line as it was typed (the program as ``quacks``, never its path);
- ``seed``; ``rules``: each ruleset played (as ``base + key=value ...``) and its hash
  (``Ruleset.hash``, SHA-256 of the resolved rules);
- ``versions``: quacks-sim, Python, numpy and numba (``PROVENANCE_PACKAGES``);
- ``commit``: the git commit of the project's checkout when it runs from one: a short hash,
  with ``+changes`` when tracked files differ from it (files git does not track do not count);
  None (and no line) when the project is not a git checkout (an installed copy).
"""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

PROVENANCE_KEY = "provenance"  # the manifest key
PROVENANCE_PACKAGES = ("quacks-sim", "python", "numpy", "numba")
DIRTY = "+changes"
GIT_TIMEOUT = 10  # seconds: git answers at once, but a report never waits long for it


@dataclass(frozen=True)
class Provenance:
    """What reproduces a report and what made it (see the module)."""

    command: str
    given: str | None = None
    seed: int | None = None
    rules: tuple[tuple[str, str], ...] = ()  # (ruleset, its hash)
    versions: tuple[tuple[str, str], ...] = ()
    commit: str | None = None

    def to_json(self) -> dict:
        return {"command": self.command, "given": self.given, "seed": self.seed,
                "rules": [{"rules": r, "hash": h} for r, h in self.rules],
                "versions": dict(self.versions), "commit": self.commit}

    @classmethod
    def from_json(cls, d) -> Provenance | None:
        """The provenance saved in a manifest (None when ``d`` is not one)."""
        if not isinstance(d, dict) or not isinstance(d.get("command"), str):
            return None
        rules = tuple((str(r.get("rules")), str(r.get("hash"))) for r in d.get("rules") or []
                      if isinstance(r, dict))
        versions = d.get("versions") if isinstance(d.get("versions"), dict) else {}
        seed = d.get("seed") if isinstance(d.get("seed"), int) else None
        given = d.get("given") if isinstance(d.get("given"), str) else None
        commit = d.get("commit") if isinstance(d.get("commit"), str) else None
        return cls(d["command"], given, seed, rules,
                   tuple((str(k), str(v)) for k, v in versions.items()), commit)

    def rows(self) -> list[tuple[str, str]]:
        """(label, text) of everything but the commands, in the order both formats show."""
        out = []
        if self.seed is not None:
            out.append(("seed", str(self.seed)))
        if self.rules:
            out.append(("ruleset hash" if len(self.rules) == 1 else "ruleset hashes",
                        "; ".join(f"{r}: {h}" for r, h in self.rules)))
        out.append(("versions", self.version_text()))
        if self.commit:
            out.append(("git commit", self.commit))
        return out

    def version_text(self) -> str:
        return ", ".join(f"{k} {v}" for k, v in self.versions)

    def markdown(self) -> str:
        """The ``## Reproduce`` section of a ``report.md``."""
        out = ["## Reproduce", "", "Reproduce with:", "", f"    {self.command}", ""]
        if self.given and self.given != self.command:
            out += ["Command as given:", "", f"    {self.given}", ""]
        out += [f"- {label}: {text}" for label, text in self.rows()]
        return "\n".join([*out, ""])


def make_provenance(command: str, *, argv: Sequence[str] | None = None,
                    given: str | None = None, seed: int | None = None,
                    rules: Iterable[tuple[str, str]] = ()) -> Provenance:
    """The provenance of a run now: ``command`` (``quacks ...``) with the user's relative paths
    put back from ``argv`` (the command line, ``sys.argv``), the command as given (``given``,
    else from ``argv``), the seed, the rulesets and their hashes, the versions and the commit."""
    return Provenance(relative_command(command, argv),
                      given if given is not None else typed_command(argv), seed,
                      tuple((str(r), str(h)) for r, h in rules), versions(), git_commit())


def versions() -> tuple[tuple[str, str], ...]:
    """The versions of ``PROVENANCE_PACKAGES``."""
    from sim.study.reports.files import package_versions

    v = package_versions()
    return tuple((p, v.get(p, "unknown")) for p in PROVENANCE_PACKAGES)


def typed_command(argv: Sequence[str] | None) -> str | None:
    """The command line as it was typed, from ``sys.argv``: the program as ``quacks`` when it
    was the ``quacks`` script, ``python -m PACKAGE`` for a package's ``__main__.py``, else the
    program's name (never the path of an executable)."""
    if not argv or not isinstance(argv, (list, tuple)):
        return None
    args = [str(a) for a in argv]
    prog = Path(args[0])
    if prog.name == "__main__.py":
        args[:1] = ["python", "-m", ".".join(prog.parent.parts[-2:])]
    else:
        args[0] = prog.name
    return shlex.join(args)


def relative_command(command: str, argv: Sequence[str] | None = None,
                     cwd: str | Path | None = None) -> str:
    """``command`` as ``quacks ...``, each absolute path in it that the command line ``argv``
    gave relative to ``cwd`` (default: the working folder) written as it was given."""
    parts = shlex.split(command)
    if not parts:
        return command
    parts[0] = "quacks"
    here = Path(cwd) if cwd is not None else Path.cwd()
    given: dict[str, str] = {}
    for a in (str(x) for x in (argv or [])[1:]):
        if a.startswith("-"):  # --option=PATH
            a = a.partition("=")[2]
        if a and not os.path.isabs(a):
            for full in (os.path.normpath(here / a), str((here / a).resolve())):
                given.setdefault(full, a)
    for i, p in enumerate(parts[1:], 1):
        if os.path.isabs(p):
            parts[i] = given.get(os.path.normpath(p), given.get(str(Path(p).resolve()), p))
    return shlex.join(parts)


def project_root() -> Path:
    """The folder that holds the ``sim`` package (a checkout's top folder)."""
    from sim.numba_cache import ROOT

    return ROOT


def git_commit(root: str | Path | None = None) -> str | None:
    """The short hash of the commit checked out in ``root`` (default: the project's folder),
    with ``+changes`` when a tracked file differs from it; None when ``root`` is not the top
    of a git checkout or git cannot say."""
    top = Path(root) if root is not None else project_root()
    if not (top / ".git").exists():
        return None

    def git(*args: str) -> str | None:
        try:  # --no-optional-locks: never take the index lock another git command may want
            r = subprocess.run(["git", "--no-optional-locks", "-C", str(top), *args],
                               capture_output=True, text=True, timeout=GIT_TIMEOUT,
                               stdin=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError):
            return None
        return r.stdout if r.returncode == 0 else None

    head = git("rev-parse", "--short", "HEAD")
    if not head or not head.strip():
        return None
    changes = git("status", "--porcelain", "--untracked-files=no")
    return head.strip() + (DIRTY if changes is None or changes.strip() else "")
