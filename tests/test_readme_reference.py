"""The docs' finding kinds (docs/json.md) and step-config fields (docs/agentworks.md) are checked against the code that produces and reads them."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _table_keys(marker: str) -> list[str]:
    page = {"finding-kinds": "json.md", "step-fields": "agentworks.md"}[marker]
    text = (REPO / "docs" / page).read_text("utf-8")
    block = text.split(f"<!-- {marker}:start -->")[1].split(f"<!-- {marker}:end -->")[0]
    return re.findall(r"^\| `([^`]+)` \|", block, flags=re.MULTILINE)


def test_every_finding_kind_the_code_reports_is_documented_and_no_other():
    from toolscope.core.systems.registry import finding_kinds

    kinds = set(finding_kinds())
    # Findings are built from the enum, never from a bare string the enum could miss.
    for path in [*(REPO / "core").rglob("*.py"), *(REPO / "cli").rglob("*.py")]:
        assert not re.findall(r'Finding\(\s*"([a-z_]+)"', path.read_text("utf-8")), path
    documented = _table_keys("finding-kinds")
    assert len(documented) == len(set(documented))
    assert set(documented) == kinds


def test_documented_step_fields_are_the_ones_the_model_reads():
    from toolscope.core.systems.agentworks.step_config import AgentConfigs, ExecutionLLM, Step
    from toolscope.core.systems.agentworks.step_keys import AGENT_CONFIGS_KEYS, EXECUTION_LLM_KEYS, STEP_KEYS

    read = {f"steps[].{name}" for name in _names(Step) if name != "agent_configs"}
    read |= {f"agent_configs.{name}" for name in _names(AgentConfigs) if name not in ("execution_llm", "extra")}
    read |= {f"agent_configs.execution_llm.{name}" for name in _names(ExecutionLLM)}
    documented = _table_keys("step-fields")
    assert set(documented) == read
    # and every one is a real AgentWorks key (reference §2.6), so none of them is ever an unknown_key
    for field in documented:
        parts = field.split(".")
        known = {"steps[]": STEP_KEYS, "agent_configs": AGENT_CONFIGS_KEYS, "execution_llm": EXECUTION_LLM_KEYS}
        assert parts[-1] in known[parts[-2]], field


def _names(model: type) -> list[str]:
    """Field names of a record type (named tuple, dataclass or pydantic model)."""
    import dataclasses

    if hasattr(model, "_fields"):
        return list(model._fields)
    if dataclasses.is_dataclass(model):
        return [f.name for f in dataclasses.fields(model)]
    return list(model.model_fields)


def test_every_docs_page_is_in_the_navigation():
    """A page left out of mkdocs.yml's nav builds, but nobody finds it (docs/systems/opencode.md was)."""
    nav = (REPO / "mkdocs.yml").read_text("utf-8").split("\nnav:\n")[1].split("\nvalidation:")[0]
    listed = set(re.findall(r":\s*(\S+\.md)\s*$", nav, flags=re.MULTILINE))
    pages = {path.relative_to(REPO / "docs").as_posix() for path in (REPO / "docs").rglob("*.md")}
    assert pages - listed == set(), "pages missing from mkdocs.yml's nav"
    assert listed - pages == set(), "nav entries with no page"
