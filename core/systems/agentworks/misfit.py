"""A file given as CONFIG that is no step config but that AgentWorks can name: its registry."""

from __future__ import annotations

from itertools import islice
from pathlib import Path
from typing import Any

from ...inputs.documents import load_document
from ...model.errors import InputError, Problem

REGISTRY_KEYS = frozenset({"modes", "custom_tools", "mcp_servers", "mcp_config", "virtual_tools", "system_categories"})
"""Top-level keys only a registry has (docs: "The registry format")."""
MAX_BESIDE = 50
"""Files beside it read at most, looking for the step config it answers for."""


def registry_as_config(target: str, path: Path, data: Any) -> InputError | None:
    """A registry given where CONFIG goes: say what it is, and name the step configs beside it."""
    if not isinstance(data, dict) or not REGISTRY_KEYS & data.keys():
        return None
    beside = []
    for candidate in sorted(islice(path.parent.glob("*.json"), MAX_BESIDE)):
        try:
            other = load_document(candidate, "config file").data
        except InputError:
            continue
        if isinstance(other, dict) and ("steps" in other or "agent_configs" in other):
            beside.append(candidate)
    problems = [
        Problem("", "a registry describes the tool universe; CONFIG is the step config whose tools it answers for")
    ]
    found_beside = path.name in ("toolscope.registry.yaml", "toolscope.registry.yml", "toolscope.registry.json")
    if beside:
        how = "the registry beside it is found" if found_beside else f"with --registry {target}"
        problems.append(Problem("", f"did you mean {beside[0]}? ({how})"))
    else:
        problems.append(Problem("", "give the step config, with --registry " + target))
    return InputError(target, "is a toolscope registry, not a config", problems)
