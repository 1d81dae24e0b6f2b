"""scripts/mutation_check.py stays runnable: each mutant's text is where it says, exactly once,
and each names tests that exist (running the mutants is the script's job, not the suite's)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def test_every_mutant_applies_to_the_current_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("mutation_check", REPO / "scripts" / "mutation_check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    assert len(module.MUTANTS) >= 10
    for mutant in module.MUTANTS:
        assert (REPO / mutant.path).read_text(encoding="utf-8").count(mutant.original) == 1, mutant.name
        assert mutant.original != mutant.mutated and all((REPO / test).is_file() for test in mutant.tests)
