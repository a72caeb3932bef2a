"""The ``rules`` command: ``register(app)`` adds it to a Typer app.

``quacks rules`` lists the built-in rulesets, the ingredient books of every set, the 24
fortune-teller cards, the twelve herb witches and the variants (with whether the kernel
implements each yet);
``quacks rules show NAME [--set section.key=value ...]`` prints one resolved ruleset as TOML.
``--json`` on either prints one JSON object. A bad name or ``--set`` is one line ``error: ...``
on stderr with exit status 2.
"""

import json
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from sim.cli.common import QuacksGroup, RulesFileOpt, fail

# The rules (and NumPy with them) are imported inside the functions below, not at module level,
# so quacks --help starts at once.

SetOpt = Annotated[list[str] | None, typer.Option(
    "--set", help="Override one ruleset value: section.key=value (repeatable).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")]
WIDTH = 100  # the listing is laid out for a 100-column terminal


def ruleset_entries() -> list[dict]:
    """Every built-in ruleset: name, description, and whether the kernel can play it yet."""
    from sim.rules.ruleset import RulesetError, builtin_names, load_ruleset

    found = []
    for name in builtin_names():
        try:
            rs = load_ruleset(name)
        except RulesetError as e:
            found.append({"name": name, "description": f"(does not load: {e})",
                          "status": "invalid"})
            continue
        try:
            rs.check_implemented()
            status = "available"
        except RulesetError:
            status = "not yet implemented"
        found.append({"name": name, "description": rs.data.get("description", ""),
                      "status": status})
    return found


def listing() -> dict:
    """What ``quacks rules --json`` prints."""
    from sim.rules.books import books
    from sim.rules.cards import CARDS
    from sim.rules.variants import VARIANTS
    from sim.rules.witches import WITCHES

    return {"rulesets": ruleset_entries(), "books": [b.as_json() for b in books()],
            "cards": [c.as_json() for c in CARDS], "witches": [w.as_json() for w in WITCHES],
            "variants": [v.as_json() for v in VARIANTS]}


def show_json(rs) -> dict:
    """What ``quacks rules show NAME --json`` prints: the resolved tables, except that ``witches``
    lists every known witch (id, group, phase, text, and ``in_play``: fixed, random, never or
    off, from the deal's pools, ``sim.rules.witch_deal``) and the ruleset's own ``[witches]``
    table is under ``witch_settings``."""
    from sim.rules.witch_deal import deal_pools
    from sim.rules.witches import WITCHES

    data = {k: v for k, v in rs.data.items() if k != "witches"}
    settings = rs.data["witches"]
    pools = deal_pools(settings)
    witches = []
    for w in WITCHES:
        if not settings["enabled"]:
            in_play = "off"
        elif w.id in settings["fixed"]:
            in_play = "fixed"
        elif w.id in pools[w.group]:  # a rules file's witch joins it with witches.extra
            in_play = "random"
        else:
            in_play = "never"
        witches.append({**w.as_json(), "in_play": in_play})
    return {**data, "witches": witches, "witch_settings": settings, "name": rs.name,
            "source": rs.source, "overrides": list(rs.overrides), "hash": rs.hash}


# ---------------------------------------------------------------------------------------------
# A resolved ruleset as TOML text (it reads back to the same tables)

def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"no TOML form for {v!r}")


def _toml_key_value(key: str, v, width: int = 96) -> list[str]:
    """``key = value``; a long list is wrapped over lines of at most ``width`` characters."""
    one = f"{key} = {_toml_value(v)}"
    if len(one) <= width or not isinstance(v, list):
        return [one]
    lines, line = [f"{key} = ["], "   "
    for x in v:
        item = f" {_toml_value(x)},"
        if len(line) + len(item) > width:
            lines.append(line)
            line = "   "
        line += item
    return [*lines, line, "]"]


def toml_text(data: dict, prefix: str = "") -> list[str]:
    """Lines of TOML for nested tables: a table's plain keys first, then its sub-tables."""
    lines = []
    for k, v in data.items():
        if not isinstance(v, dict):
            lines.extend(_toml_key_value(k, v))
    for k, v in data.items():
        if isinstance(v, dict):
            name = f"{prefix}{k}"
            plain = any(not isinstance(x, dict) for x in v.values())
            lines.extend(["", f"[{name}]"] if plain or not v else [])
            lines.extend(toml_text(v, f"{name}."))
    return lines


# ---------------------------------------------------------------------------------------------
# The listing's tables

def _table(console: Console, title: str, columns: list[tuple[str, dict]],
           rows: list[list[str]]) -> None:
    console.print(title, style="bold", markup=False)
    t = Table(show_header=True, header_style="bold", show_lines=True)
    for col, opts in columns:
        t.add_column(col, **opts)
    for row in rows:
        t.add_row(*(Text(cell) for cell in row))
    console.print(t)


def print_listing(console: Console, data: dict) -> None:
    _table(console, "rulesets (quacks rules show NAME)",
           [("name", {"no_wrap": True}), ("status", {}), ("description", {"ratio": 1})],
           [[r["name"], r["status"], r["description"]] for r in data["rulesets"]])
    book_rows = []
    for b in data["books"]:
        text = (f"({b['side']}) " if b["side"] else "") + b["text"]
        if b["choices"]:
            text += "\nchoice: " + "; ".join(b["choices"])
        book_rows.append([b["colour"], str(b["set"] or "all"),
                          "/".join(map(str, b["prices"].values())),
                          b["timing"], "yes" if b["implemented"] else "no", text])
    _table(console, "ingredient books (prices in coins for the 1/2/4-chip; kernel: effects built)",
           [("colour", {"no_wrap": True}), ("set", {"justify": "right"}),
            ("prices", {"no_wrap": True}),
            ("timing", {"max_width": 11}), ("kernel", {}), ("effect", {"ratio": 1})],
           book_rows)
    _table(console,
           "fortune-teller cards (purple: once before the round; blue: a rule for the round)",
           [("#", {"justify": "right"}), ("id / name", {"no_wrap": True}), ("timing", {}),
            ("effect", {"ratio": 1})],
           [[str(c["number"]), f"{c['id']}\n{c['name']}", c["timing"], c["text"]]
            for c in data["cards"]])
    _table(console,
           "herb witches (herb-witches ruleset: one of each group in play; each called once "
                    "a game for that group's penny; a penny kept scores 2 VP)",
           [("#", {"justify": "right"}), ("id", {"no_wrap": True}), ("group", {}),
            ("phase", {"max_width": 18}),
            ("effect", {"ratio": 1})],
           [[str(w["number"]), w["id"], w["group"], w["phase"], w["text"]]
            for w in data["witches"]])
    variant_rows = []
    for v in data["variants"]:
        text = v["text"]
        if v.get("glasses"):
            text += "\nglasses: " + ", ".join(f"{g['glass']}: {g['bonus']}" for g in v["glasses"])
        variant_rows.append([v["id"], v["setting"], v["status"], text])
    _table(console,
           "variants (turned on by their setting, with --set or in a ruleset file, once available)",
           [("id", {"no_wrap": True}), ("setting", {"max_width": 18}),
            ("status", {"max_width": 11}),
            ("text", {"ratio": 1})],
           variant_rows)


def register(app: typer.Typer) -> None:
    """Add the ``rules`` command group to a Typer app."""
    rules_app = typer.Typer(cls=QuacksGroup, add_completion=False, invoke_without_command=True,
                            no_args_is_help=False, pretty_exceptions_enable=False)

    def console() -> Console:
        return Console(highlight=False, width=None if sys.stdout.isatty() else WIDTH)

    @rules_app.callback()
    def rules(ctx: typer.Context, json_: JsonOpt = False,
              rules_file: RulesFileOpt = None) -> None:
        """List the rulesets, ingredient books, fortune-teller cards, herb witches and variants (or:
        show NAME)."""
        if ctx.invoked_subcommand is not None:
            return
        from sim.rules.ruleset import RulesetError

        try:
            data = listing()
        except (RulesetError, ValueError) as e:
            fail(str(e))
        if json_:
            typer.echo(json.dumps(data))
            return
        print_listing(console(), data)

    @rules_app.command()
    def show(
        name: Annotated[str, typer.Argument(help="Built-in ruleset name or a TOML file.")],
        set_: SetOpt = None,
        json_: JsonOpt = False,
        rules_file: RulesFileOpt = None,
    ) -> None:
        """Print one resolved ruleset (after `extends` and every --set) as TOML."""
        from sim.rules.ruleset import RulesetError, load_ruleset

        try:
            rs = load_ruleset(name, set_ or [])
        except (RulesetError, ValueError) as e:
            fail(str(e))
        if json_:
            typer.echo(json.dumps(show_json(rs)))
            return
        typer.echo(f"# ruleset {rs.source}; sha256 {rs.hash[:12]}")
        typer.echo("\n".join(toml_text(rs.data)))

    app.add_typer(rules_app, name="rules")
