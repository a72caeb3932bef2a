"""The notebooks in notebooks/ execute from top to bottom (nbclient) on small game counts, so they
never rot: each runs its experiment into a temporary folder and draws its plots. They, and the
analyst tutorial of the site, use only the Python API: ``import sim`` and the functions
``sim.questions`` declares (issue 44), never the modules under it."""

import ast
import re
import sys
from pathlib import Path

import pytest
from experiment_checks import NOTEBOOK_GAMES, check_report_folder, notebook_experiments

from sim.study.experiments.file import find_experiment, load_experiment

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
TUTORIAL = ROOT / "docs" / "tutorials" / "stop-thresholds-notebook.md"
INTERNAL = ("sim", "strategies")  # packages a notebook may reach only as `import sim`


def api_misuse(code: str) -> list[str]:
    """What ``code`` (a cell; IPython's % and ! lines left out) uses of the project besides
    ``import sim`` and ``sim.<function>`` of the declared API."""
    from sim.questions import FUNCTIONS

    lines = [ln for ln in code.split("\n") if not ln.lstrip().startswith(("%", "!"))]
    tree = ast.parse("\n".join(lines))
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            bad += [f"import {a.name}" for a in node.names
                    if a.name.split(".")[0] in INTERNAL and a.name != "sim"
                    or (a.name == "sim" and a.asname not in (None, "sim"))]
        elif isinstance(node, ast.ImportFrom):
            if (node.module or "").split(".")[0] in INTERNAL:
                bad.append(f"from {node.module} import ...")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id == "sim" and node.attr not in FUNCTIONS:
            bad.append(f"sim.{node.attr}")
    return bad


def notebook_code(path: Path) -> list[str]:
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.read(path, as_version=4)
    return [c.source for c in nb.cells if c.cell_type == "code"]


def tutorial_code() -> list[str]:
    """The python blocks of the analyst tutorial (the notebook cells it shows)."""
    text = TUTORIAL.read_text(encoding="utf-8")
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.S | re.M)


def test_the_notebooks_are_all_there():
    names = {p.stem for p in NOTEBOOKS}
    assert {"stop-thresholds", "variant-balance", "balance-report"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_uses_only_the_python_api(path):
    cells = notebook_code(path)
    assert any(re.search(r"^import sim$", c, flags=re.M) for c in cells), "no import sim"
    bad = [b for c in cells for b in api_misuse(c)]
    assert not bad, f"{path.name} reaches past the API: {bad}"


def test_the_analyst_tutorial_uses_only_the_python_api():
    blocks = tutorial_code()
    assert blocks and any("import sim" in b for b in blocks)
    bad = [b for block in blocks for b in api_misuse(block)]
    assert not bad, f"{TUTORIAL.name} reaches past the API: {bad}"


@pytest.mark.parametrize("code, expected", [
    ("import sim\nsim.thresholds(bag='start')", []),
    ("%matplotlib inline\nimport sim\nr = sim.experiment('catch-up')", []),
    ("from sim.study.thresholds.compute import compute_thresholds", ["from sim.study"]),
    ("from sim.rules.ruleset import load_ruleset", ["from sim.rules"]),
    ("import sim.api.potion as pot", ["import sim.api.potion"]),
    ("from strategies.builtin import parse_strategy", ["from strategies"]),
    ("import sim\nsim.api.potion.sample()", ["sim.api"]),
    ("import sim as s", ["import sim"]),
])
def test_the_api_check_sees_what_reaches_past_it(code, expected):
    found = api_misuse(code)
    assert len(found) == len(expected)
    assert all(f.startswith(e) for f, e in zip(found, expected)), found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_executes(path, tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("QUACKS_NB_GAMES", str(NOTEBOOK_GAMES))
    monkeypatch.setenv("QUACKS_NB_REPORT_DIR", str(tmp_path))
    nb = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(nb, timeout=900, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors, [e.get("evalue") for e in errors]
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if "image/png" in o.get("data", {})]
    assert images, "the notebook drew no plot"
    assert list(tmp_path.glob("*/report.*")), "the notebook wrote no report"
    # the shipped experiment it ran is checked here, not run again by test_experiments.py
    for name in [e for e, nb in notebook_experiments().items() if nb == path.stem]:
        folders = [j.parent for j in tmp_path.glob("*/experiment.json")]
        assert len(folders) == 1, folders
        check_report_folder(load_experiment(find_experiment(name)), folders[0])


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
