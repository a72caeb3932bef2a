"""The notebooks in notebooks/ execute from top to bottom (nbclient) on small game counts, so they
never rot: each runs its experiment into a temporary folder and draws its plots."""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


def test_the_notebooks_are_all_there():
    names = {p.stem for p in NOTEBOOKS}
    assert {"stop-thresholds", "variant-balance", "balance-report"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_executes(path, tmp_path, monkeypatch):
    monkeypatch.setenv("QUACKS_NB_GAMES", "120")
    monkeypatch.setenv("QUACKS_NB_REPORT_DIR", str(tmp_path))
    nb = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(nb, timeout=900, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if "image/png" in o.get("data", {})]
    assert images, "the notebook drew no plot"
    assert list(tmp_path.glob("*/report.md")), "the notebook wrote no report"
