"""How every ``quacks X --help`` reads: one place that tidies a command's help before Typer renders
it.

Typer (rich markup) keeps the single line breaks of a docstring after its first paragraph, so a
docstring wrapped at 100 columns shows breaks in mid-sentence; and it labels a flag ``<bool>`` and
a repeatable option ``<list[str]>``. :func:`tidy_command` joins the lines of every paragraph
(keeping paragraph breaks, list items and ``\\b`` blocks), gives flags no type label and a
repeatable option the label of one value (``<str>``; its help says "repeatable").
"""

from __future__ import annotations

import inspect
import re

_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s")


def join_lines(text: str | None) -> str | None:
    """``text`` with the single line breaks inside each paragraph replaced by spaces. Paragraphs
    (blank-line separated) stay apart, a line that starts a list item (``- ``, ``* ``, ``1. ``)
    keeps its break, and a paragraph starting with ``\\b`` (click's "keep as is") is left alone.
    Anything after a form feed (click's "hide from help") is kept untouched."""
    if not text:
        return text
    shown, ff, hidden = inspect.cleandoc(text).partition("\f")
    paragraphs = []
    for para in shown.split("\n\n"):
        if para.startswith("\b"):
            paragraphs.append(para)
            continue
        lines = [ln.strip() for ln in para.split("\n") if ln.strip()]
        merged: list[str] = []
        for ln in lines:
            if merged and not _LIST_ITEM.match(ln):
                merged[-1] = f"{merged[-1]} {ln}"
            else:
                merged.append(ln)
        paragraphs.append("\n".join(merged))
    return "\n\n".join(p for p in paragraphs if p) + (ff + hidden if ff else "")


def _type_label(param) -> str | None:
    """The metavar to show for ``param``: "" for a flag, ``<T>`` for a repeatable option of T,
    None to keep Typer's own label."""
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return ""
    desc = getattr(param, "type_descriptor", None)
    if getattr(param, "multiple", False) and desc is not None and desc.is_list \
            and not desc.is_choice:
        inner = param.bare_type()  # "list[str]"
        m = re.fullmatch(r"list\[(\w+)\]", inner)
        return f"<{m.group(1) if m else 'value'}>"
    return None


def tidy_params(params) -> None:
    """Set the help label of each option in ``params`` (see :func:`_type_label`)."""
    for p in params:
        if getattr(p, "param_type_name", "") != "option" or p.metavar is not None:
            continue
        label = _type_label(p)
        if label is not None:
            p.metavar = label


def plain_flag(opt) -> None:
    """Give the flag ``opt`` (``--help``) a plain bool when it is not given (False, not None):
    Typer then takes the value as it is instead of checking it through pydantic, whose import
    costs a tenth of a second of every ``quacks COMMAND --help``."""
    if getattr(opt, "_quacks_plain_flag", False):
        return
    process = opt.process_value

    def process_value(ctx, value):
        return process(ctx, bool(value) if value is None else value)

    opt.process_value = process_value
    opt._quacks_plain_flag = True


def tidy_command(cmd) -> None:
    """Tidy ``cmd`` (and, for a group, every sub-command) once: its help and short help with
    their lines joined, its options' labels, and its ``--help`` flag without ``<bool>``."""
    if cmd is None or getattr(cmd, "_quacks_help_tidy", False):
        return
    cmd._quacks_help_tidy = True
    cmd.help = join_lines(cmd.help)
    if getattr(cmd, "short_help", None):
        cmd.short_help = join_lines(cmd.short_help)
    tidy_params(getattr(cmd, "params", ()))
    own_help_option = cmd.get_help_option

    def get_help_option(ctx):
        opt = own_help_option(ctx)
        if opt is not None:
            tidy_params([opt])
            plain_flag(opt)
        return opt

    cmd.get_help_option = get_help_option
    for sub in getattr(cmd, "commands", {}).values():
        tidy_command(sub)
