"""``quacks-questions``: the Python API of ``import sim``, one entry per function that
``sim.questions.FUNCTIONS`` declares (``sim.potion``, ``sim.load_rules``, ...), documented by
autodoc from its docstring; a function added there appears here at the next build."""

from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import Directive
from docutils.statemachine import StringList


class QuacksQuestions(Directive):
    """Emits an ``autofunction`` (MyST syntax) for every function of ``sim.questions``."""

    def run(self):
        from sim.questions import FUNCTIONS

        lines = []
        for name, module in FUNCTIONS.items():
            lines += [f"```{{autofunction}} sim.questions.{module}.{name}", "```", ""]
        holder = nodes.container()
        self.state.nested_parse(StringList(lines, source="sim.questions"), self.content_offset,
                                holder)
        return list(holder.children)


def setup(app):
    app.add_directive("quacks-questions", QuacksQuestions)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
