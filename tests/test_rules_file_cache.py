"""A user's rules file is cached like a project module: its compiled hooks are stamped with its
code and every project module it imports (``sim.numba_cache.module_stamp``), so a kernel edit
(here: a witch's question answered by ``sim/kernel/decisions/witch.py``) recompiles them. Numba's
own locator, used before for a file outside the project, stamped the rules file alone: a kernel
function it calls stayed compiled into its cached hook as it was (pumpkin purse kept calling the
``witch_answer`` from before ``witch_off`` could name her)."""

from __future__ import annotations

import shutil

from sim import numba_cache as nc

EXAMPLE = nc.ROOT / "experiments" / "rules" / "pumpkin_purse.py"


def _loaded(monkeypatch, path) -> str:
    monkeypatch.setitem(nc.RULES_FILES, str(path.resolve()), "code")
    return str(path)


def test_a_loaded_rules_file_gets_the_projects_locator_and_stamp(monkeypatch, tmp_path):
    copy = tmp_path / "pumpkin_purse.py"
    shutil.copy(EXAMPLE, copy)
    assert nc.loaded_rules_file(str(copy)) is None  # not loaded: Numba's own locators
    path = _loaded(monkeypatch, copy)
    rel = nc.loaded_rules_file(path)
    assert rel == copy.resolve().as_posix()
    assert "sim/kernel/decisions/witch.py" in nc.closure(rel)  # witch_answer's module
    locator = nc.ProjectCacheLocator.from_function(lambda: None, path)
    assert locator is not None and locator.get_source_stamp() == nc.module_stamp(rel)
    assert locator.get_cache_path().startswith(nc.cache_base())


def test_its_stamp_changes_with_a_project_module_it_imports(monkeypatch, tmp_path):
    copy = tmp_path / "pumpkin_purse.py"
    shutil.copy(EXAMPLE, copy)
    rel = nc.loaded_rules_file(_loaded(monkeypatch, copy))
    before = nc.module_stamp(rel)
    witch = "sim/kernel/decisions/witch.py"
    original = nc.code_hash
    monkeypatch.setattr(nc, "code_hash", lambda r: "edited" if r == witch else original(r))
    nc.module_stamp.cache_clear()
    try:
        assert nc.module_stamp(rel) != before
    finally:
        monkeypatch.undo()
        nc.module_stamp.cache_clear()
