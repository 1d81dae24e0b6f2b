"""Hints for a CONFIG that is a file of another kind toolscope reads elsewhere.

A new user hands toolscope whatever file is at hand: an ``mcpServers`` config, a capture, a
``reset_tools`` script. None of them is a config, but each has its own place; the error names it.

Public API::

    document_misfit(target, path, data) -> InputError | None   # a parsed file of another kind
    unparsed_misfit(target, path) -> InputError | None          # a file JSON cannot read as one document
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..inputs.input_files import read_head
from ..model.errors import InputError, Problem
from ..text.shell import shell_join

__all__ = ["document_misfit", "unparsed_misfit"]

_CAPTURE_SCHEMA = "toolscope.capture/"
_HEAD_BYTES = 64 * 1024


def document_misfit(target: str, path: Path, data: Any) -> InputError | None:
    """An ``mcpServers`` config, or a list (a ``reset_tools`` script), named for what it is."""
    if isinstance(data, dict) and isinstance(data.get("mcpServers"), dict):
        return _mcp_servers(target, path)
    if isinstance(data, list):
        return InputError(
            target,
            "is a list, not a config: a reset_tools script?",
            [
                Problem("", "a script is fired at a toolkit with -s/--script:"),
                Problem("", shell_join(["toolscope", "step", "TOOLKIT", "-s", target])),
                Problem("", "CONFIG is a step config, a toolkit spec, a factory or a coding agent's folder"),
            ],
        )
    return None


def _mcp_servers(target: str, path: Path) -> InputError:
    problems = [
        Problem("", "list what its servers expose (this starts them):"),
        Problem("", shell_join(["toolscope", "discover", target])),
        Problem("", "an AgentWorks registry uses it with mcp_config: FILE"),
    ]
    if path.name == ".mcp.json":
        folder = str(path.parent) if str(path.parent) != "." else "."
        problems.insert(
            0,
            Problem(
                "", "Claude Code's view of the project: " + shell_join(["toolscope", "tools", f"claude-code:{folder}"])
            ),
        )
    return InputError(target, "is an mcpServers config (MCP servers), not an agent's config", problems)


def unparsed_misfit(target: str, path: Path) -> InputError | None:
    """A JSON Lines file whose first line is a ``toolscope.capture/1`` record: a capture."""
    try:
        head = read_head(path, _HEAD_BYTES, "config file")
    except InputError:
        return None
    first = head.split(b"\n", 1)[0]
    if _CAPTURE_SCHEMA.encode() not in first:
        return None
    try:
        record = json.loads(first)
    except (ValueError, RecursionError):
        return None
    if not (isinstance(record, dict) and str(record.get("schema", "")).startswith(_CAPTURE_SCHEMA)):
        return None
    return InputError(
        target,
        "is a toolscope capture (what a model received), not a config",
        [
            Problem(
                "",
                "compare it with a config's prediction: "
                + shell_join(["toolscope", "tools", "CONFIG", "--capture", target]),
            ),
            Problem("", "or look through it: " + shell_join(["toolscope", "inspect", "--capture", target])),
        ],
    )
