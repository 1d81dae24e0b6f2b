"""AgentWorks' ``workflow.json``: the workflow-level layer over every step (reference ``agentworks-today.md`` §3).

* ``capabilities.selected_servers`` / ``selected_tools``: the workflow's servers, which the
  app's rewrite of a step's lists is measured against (``selection_rewrite``).
* ``execution_defaults.enabled_custom_tools``: applied *after* the step's own config
  (``ApplyStepConfigFromFile`` → ``ReadStepOverrides`` → ``MergeAgentConfigFields``), so a
  non-empty list replaces every step's own list.
* ``execution_defaults.workshop_mode``: "workshop" or "run" (retired names normalise to one).

Found next to the step config, or one folder up for AgentWorks' ``planning/step_config.json``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...inputs.input_files import checked_path, read_text
from ...inputs.positions import Path_, json_positions, place
from ...inputs.strict_json import parse_json
from ...model.errors import InputError, Problem
from ...model.verdicts import Finding
from ...text.clip import clip
from .ids import AgentWorksFinding

WORKFLOW_FILE = "workflow.json"
MODE_SHOWN_CHARS = 200
"""The most characters of an unknown workshop_mode a finding shows (the file may hold megabytes)."""
WORKSHOP_MODES = {
    "workshop": "workshop",
    "builder": "workshop",
    "optimizer": "workshop",
    "reporting": "workshop",
    "eval": "workshop",
    "output": "workshop",
    "run": "run",
    "ask": "run",
    "debugger": "run",
    "runner": "run",
}
"""``execution_defaults.workshop_mode`` values and the mode each normalises to."""
PRECEDENCE = (
    "step_config.go ApplyStepConfigFromFile applies workflow.json execution_defaults after the step, highest priority"
)


@dataclass(frozen=True)
class WorkflowManifest:
    """The parts of workflow.json that decide tools, with where each one is written."""

    name: str
    path: Path
    sha256: str
    servers: tuple[str, ...] | None
    """``capabilities.selected_servers``; None when the key is absent."""
    selected_tools: tuple[str, ...]
    enabled_custom_tools: tuple[str, ...]
    workshop_mode: str | None
    findings: tuple[Finding, ...] = ()
    positions: Mapping[Path_, tuple[int, int]] = field(default_factory=dict)

    def where(self, *path: str | int) -> str:
        """``workflow.json: capabilities.selected_servers[1] (line 3, column 9)``."""
        return f"{self.name}: {place(self.positions, path)}"


def find_workflow(step_config: Path, given: Path | None) -> Path | None:
    """``--workflow``, else workflow.json next to the step config, else one folder up when the
    step config sits in ``planning/`` (AgentWorks' layout); None when there is none."""
    if given is not None:
        if checked_path(given, "workflow manifest") is None:
            raise InputError(str(given), "no such workflow file", [Problem("--workflow", "expected a workflow.json")])
        return given
    folder = step_config.parent
    candidates = [folder / WORKFLOW_FILE]
    if folder.name == "planning":
        candidates.append(folder.parent / WORKFLOW_FILE)
    # Anything there is the workflow.json (a folder, a pipe or a link loop is then read's error, exit 2):
    # never skipped without a word.
    return next((c for c in candidates if checked_path(c, "workflow manifest") is not None), None)


def _expect(ok: bool, source: str, positions: Mapping[Path_, tuple[int, int]], path: Path_, expected: str) -> None:
    if not ok:
        raise InputError(source, "not a workflow.json AgentWorks can read", [Problem(place(positions, path), expected)])


def _strings(
    data: Any, key: str, parent: Path_, source: str, positions: Mapping[Path_, tuple[int, int]]
) -> tuple[str, ...] | None:
    if key not in data or data[key] is None:
        return None
    value = data[key]
    path = (*parent, key)
    _expect(isinstance(value, list), source, positions, path, "expected a list of names (text)")
    for index, item in enumerate(value):
        _expect(isinstance(item, str), source, positions, (*path, index), "expected a name (text)")
    return tuple(value)


def load_workflow_manifest(path: Path) -> WorkflowManifest:
    """Read a workflow.json; wrong shapes are InputErrors with line and column, AgentWorks' refusals findings."""
    text, digest = read_text(path, "workflow manifest")
    source = str(path)
    data = parse_json(text, source)
    positions = json_positions(text)
    _expect(
        isinstance(data, dict), source, positions, (), "expected an object with capabilities and execution_defaults"
    )
    # null is an absent section to Go's encoding/json; any other non-object (even [] or "") fails to load.
    capabilities = {} if data.get("capabilities") is None else data["capabilities"]
    _expect(isinstance(capabilities, dict), source, positions, ("capabilities",), "expected an object")
    defaults = {} if data.get("execution_defaults") is None else data["execution_defaults"]
    _expect(isinstance(defaults, dict), source, positions, ("execution_defaults",), "expected an object")
    servers = _strings(capabilities, "selected_servers", ("capabilities",), source, positions)
    tools = _strings(capabilities, "selected_tools", ("capabilities",), source, positions) or ()
    enabled = _strings(defaults, "enabled_custom_tools", ("execution_defaults",), source, positions) or ()
    mode = defaults.get("workshop_mode")
    _expect(
        mode is None or isinstance(mode, str),
        source,
        positions,
        ("execution_defaults", "workshop_mode"),
        'expected "workshop" or "run"',
    )
    manifest = WorkflowManifest(path.name, path, digest, servers, tools, enabled, mode, (), positions)
    return WorkflowManifest(**{**manifest.__dict__, "findings": tuple(_server_findings(manifest))})


def _server_findings(manifest: WorkflowManifest) -> list[Finding]:
    """The save-time refusals of workflow_manifest.go for selected_servers, and an unknown workshop_mode."""
    out: list[Finding] = []
    seen: dict[str, str] = {}
    for index, server in enumerate(manifest.servers or ()):
        where = manifest.where("capabilities", "selected_servers", index)
        if not server.strip():
            out.append(
                Finding(
                    AgentWorksFinding.WORKFLOW_MANIFEST, "an empty server name is refused", entry=server, source=where
                )
            )
            continue
        key = server.replace("_", "-")
        first = seen.get(key)
        if first is not None and first != server:
            out.append(
                Finding(
                    AgentWorksFinding.WORKFLOW_MANIFEST,
                    f"duplicate capabilities.selected_servers entries {first!r} and {server!r} resolve to the same "
                    "MCP server (AgentWorks refuses to save the workflow)",
                    entry=server,
                    source=where,
                )
            )
        seen.setdefault(key, server)
    mode = manifest.workshop_mode
    if mode is not None and mode.strip().lower() not in WORKSHOP_MODES:
        out.append(
            Finding(
                AgentWorksFinding.WORKFLOW_MANIFEST,
                f"execution_defaults.workshop_mode {clip(mode, MODE_SHOWN_CHARS)!r} is not a workshop mode "
                "(workshop, run, or a retired name)",
                entry=clip(mode, MODE_SHOWN_CHARS),
                source=manifest.where("execution_defaults", "workshop_mode"),
            )
        )
    return out
