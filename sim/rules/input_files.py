"""Reading the files a user names: why a path is not a readable file, in a few words, and the one
TOML reader every input file goes through (rulesets, balance targets, experiment files, round
files).

A TOML file saved by a Windows editor may begin with a UTF-8 byte order mark, which the TOML
grammar does not allow; :func:`load_toml` drops it, so such a file reads as its text says.
Light to import: the standard library only.
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

TOMLDecodeError = tomllib.TOMLDecodeError
BOM = "\ufeff"


def not_a_file(path: str | Path) -> str | None:
    """Why ``path`` cannot be read as a file ("no such file", "a folder, not a file", ...), or
    None when it names an existing file."""
    text = str(path)
    if not text.strip():
        return "empty"
    p = Path(text)
    if p.is_file():
        return None
    return "a folder, not a file" if p.is_dir() else "no such file"


def loads_toml(text: str) -> dict:
    """``tomllib.loads`` of a file's text, a leading byte order mark dropped."""
    return tomllib.loads(text[1:] if text.startswith(BOM) else text)


def load_toml(path: str | Path) -> dict:
    """The TOML file ``path`` (UTF-8, with or without a byte order mark). Raises what reading
    and parsing raise: OSError, UnicodeDecodeError, :data:`TOMLDecodeError`."""
    return loads_toml(Path(path).read_text(encoding="utf-8"))
