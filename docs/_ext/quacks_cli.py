"""``quacks-cli``: the command-line reference, generated from the Typer app itself.

sphinx-click cannot read it: Typer 0.26 and later build their commands on a copy of click of
their own (``typer._click``), which is not ``click.Command``. This directive walks the command
that Typer builds (``typer.main.get_command(app)``), tidied as ``quacks --help`` shows it
(``sim.cli.help_text.tidy_command``), and writes one section per command: its help, its usage
line, and a table of its arguments and options, each as ``--help`` labels it, with its help text
and default (click's own help record, so the page says what ``--help`` says).
"""

from __future__ import annotations

from docnodes import paras, section, slug, table
from docutils import nodes
from docutils.parsers.rst import Directive


def root_command():
    """The click command Typer builds from ``sim.cli.app.app``, tidied as ``--help`` shows it."""
    import typer

    from sim.cli.app import app
    from sim.cli.help_text import tidy_command

    cmd = typer.main.get_command(app)
    tidy_command(cmd)
    return cmd


def walk(cmd, path: tuple[str, ...] = ("quacks",), parent=None):
    """``(path, command, context)`` for ``cmd`` and every sub-command, depth first, in the order
    ``quacks --help`` lists them."""
    ctx = cmd.context_class(cmd, info_name=path[-1], parent=parent)
    yield path, cmd, ctx
    for name, sub in getattr(cmd, "commands", {}).items():
        if not getattr(sub, "hidden", False):
            yield from walk(sub, (*path, name), ctx)


def _param_rows(cmd, ctx) -> list[list]:
    """One row per argument and option (``--help`` included): its label, help and default,
    from click's own help record (the text ``--help`` shows)."""
    rows = []
    help_option = cmd.get_help_option(ctx)
    for p in [*cmd.params, *([help_option] if help_option is not None else [])]:
        record = None if getattr(p, "hidden", False) else p.get_help_record(ctx)
        if record is None:
            continue
        opts, help_text = record
        help_text, _, extra = help_text.partition("  [")
        notes, default = [], ""
        for part in extra.rstrip("]").split("; ") if extra else ():
            if part.startswith("default: "):
                default = part[len("default: "):]
            else:
                notes.append(part)
        if notes:
            help_text = f"{help_text} [{'; '.join(notes)}]"
        rows.append([nodes.literal(opts, opts), paras(help_text) or "", default])
    return rows


class QuacksCli(Directive):
    """Every command of ``quacks``, one section each (ids ``quacks``, ``quacks-tournament``,
    ``quacks-rules-show``, ...)."""

    has_content = False

    def run(self):
        out = []
        for path, cmd, ctx in walk(root_command()):
            title = " ".join(path)
            sec = section(title, slug(title))
            sec.extend(paras(cmd.help or ""))
            usage = cmd.get_usage(ctx).strip()
            sec += nodes.literal_block(usage, usage, language="text")
            rows = _param_rows(cmd, ctx)
            if rows:
                sec += table(["argument / option", "what it does", "default"], rows,
                             widths=[3, 8, 2], classes=("cli-options",))
            subs = [name for name, c in getattr(cmd, "commands", {}).items() if not c.hidden]
            if subs:
                sec += paras("Commands: " + ", ".join(f"`{' '.join((*path, s))}`" for s in subs)
                             + ".")[0]
            out.append(sec)
        return out


def setup(app):
    app.add_directive("quacks-cli", QuacksCli)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
