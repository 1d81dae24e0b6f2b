"""Step-through scripts: what to send to ``reset_tools``, turn by turn.

A script is a JSON or YAML **list**. Each item is one step:

- an **object** — the arguments of one ``reset_tools`` call, sent as ``json.dumps(obj)``:
  ``{"web_search": true, "scraping": true}``;
- a **string** — raw argument text, sent exactly as written (invalid JSON, misspelled
  names and non-booleans are what users want to try): ``'{"web_serch": true'``;
- ``{"call": {"tool": "reset_tools", "args": {...}}}`` or
  ``{"call": {"tool": "reset_tools", "raw": "..."}}`` — the explicit form, with an
  optional ``"label"``. Only ``reset_tools`` can be called: a script steps through
  activation calls, other tools are for the model to call once their group is active;
- ``{"register_group": {"name": ..., "description": ..., "instructions": ..., "tools": [...]}}``
  — registers a new group on the toolkit (same fields as a group of a toolkit spec, see
  ``spec.py``). Both lanes share the toolkit, so both see it; the guard reads the live
  group list and knows it without being reinstalled.

An object is a step kind only when it has exactly one key, ``call`` or
``register_group``, whose value is an object; anything else is reset_tools arguments.

Public API::

    load_script(path) -> list[Step]
    resolve_script_path(path, config_dir=None) -> Path   # cwd first, then the config's folder
    parse_script(data, source) -> list[Step]
    CallStep(raw: str, args: dict | None, label: str | None)
    RegisterGroupStep(group: GroupSpec, source: str | None = None, position: int | None = None)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ...inputs.documents import load_document
from ...inputs.validation_errors import validate_model
from ...model.errors import InputError, Problem
from .spec import GroupSpec

META_TOOL = "reset_tools"
STEP_KINDS = ("call", "register_group")


@dataclass(frozen=True)
class CallStep:
    """One reset_tools call: the raw text sent, and the object it came from (if any)."""

    raw: str
    args: dict[str, Any] | None = None
    label: str | None = None

    def describe(self) -> str:
        """One line for tables and the timeline: the label, or the raw call."""
        return self.label or f"reset_tools {self.raw}"


@dataclass(frozen=True)
class RegisterGroupStep:
    """Register a new tool group on the shared toolkit."""

    group: GroupSpec
    source: str | None = None
    """The script file it came from (named in errors); None for an ad-hoc step."""
    position: int | None = None
    """Its index in the script's list (``[0]`` is the first item)."""

    def describe(self) -> str:
        """One line: the group's name and its tools."""
        tools = ", ".join(t.name for t in self.group.tools) or "no tools"
        return f"register group {self.group.name} ({tools})"


Step = CallStep | RegisterGroupStep


class _CallModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tool: str = META_TOOL
    args: dict[str, Any] | None = None
    raw: str | None = None
    label: str | None = Field(default=None)


def call_step(value: Any, label: str | None = None) -> CallStep:
    """A CallStep from an args object or raw text."""
    if isinstance(value, str):
        return CallStep(raw=value, args=None, label=label)
    return CallStep(raw=json.dumps(value, ensure_ascii=False), args=dict(value), label=label)


def parse_script(data: Any, source: str) -> list[Step]:
    """Validate a loaded script document into steps; InputError names the item."""
    if not isinstance(data, list):
        got = type(data).__name__ if data is not None else "nothing"
        raise InputError(
            source,
            "a script must be a list of steps",
            [
                Problem(
                    "(top level)",
                    f"got {'an object' if isinstance(data, dict) else got}; expected a list whose items are objects (reset_tools arguments) or strings (raw argument text)",
                )
            ],
        )
    if not data:
        raise InputError(source, "the script has no steps", [Problem("(top level)", "expected at least one step")])
    return [_script_step(item, index, source) for index, item in enumerate(data)]


def _script_step(item: Any, index: int, source: str) -> Step:
    """One item: raw argument text, an arguments object, or a ``{"call": …}`` / ``{"register_group": …}`` step."""
    where = f"[{index}]"
    if isinstance(item, str):
        return call_step(item)
    if not isinstance(item, dict):
        raise InputError(
            source,
            "invalid script step",
            [
                Problem(
                    where,
                    f'got {json.dumps(item, default=str)}; expected an object (reset_tools arguments), a string (raw argument text), or a step such as {{"register_group": {{...}}}}',
                )
            ],
        )
    kind = next(iter(item)) if len(item) == 1 else None
    if kind not in STEP_KINDS or not isinstance(item[kind], dict):
        return call_step(item)  # reset_tools arguments
    if kind == "register_group":
        group = validate_model(GroupSpec, item[kind], source, "register_group step", prefix=f"{where}.register_group")
        return RegisterGroupStep(group, source=source, position=index)
    return _explicit_call(item[kind], where, source)


def _explicit_call(value: dict[str, Any], where: str, source: str) -> CallStep:
    """A ``{"call": {tool, args | raw, label}}`` step: reset_tools only, with exactly one of args and raw."""
    call = validate_model(_CallModel, value, source, "call step", prefix=f"{where}.call")
    if call.tool not in (META_TOOL, "reset_equipped_tools"):  # 2.x, 1.x
        raise InputError(
            source,
            "a script can only call reset_tools",
            [
                Problem(
                    f"{where}.call.tool",
                    f"'{call.tool}' is not reset_tools; a script steps through activation calls (tools in a group become callable once reset_tools activates it)",
                )
            ],
        )
    if (call.args is None) == (call.raw is None):
        raise InputError(
            source,
            "invalid call step",
            [Problem(f"{where}.call", "give exactly one of 'args' (an object) or 'raw' (text)")],
        )
    return call_step(call.args if call.args is not None else call.raw, call.label)


def load_script(path: Path | str) -> list[Step]:
    """Read and validate a JSON or YAML script file."""
    document = load_document(Path(path), "script")
    return parse_script(document.data, str(path))


def script_for_config(path: Path, config: str | None) -> Path:
    """``resolve_script_path`` for a script given with CONFIG on the command line (every command
    and the TUI's ``l`` find ``-s typo.json`` the same way: here, else beside the config)."""
    folder = Path(config).parent if config is not None and Path(config).is_file() else None
    found = resolve_script_path(path, folder)
    if found.exists() or folder is None or found.is_absolute():
        return found
    from ...inputs.input_files import missing_path_problems

    near = missing_path_problems(found) or missing_path_problems(folder / found)
    raise InputError(str(path), "no such script", [Problem("", f"looked in . and in {folder}"), *near])


def resolve_script_path(path: Path | str, config_dir: Path | str | None = None) -> Path:
    """The script file ``path`` names: from the current folder, else from the config's folder.

    Scripts usually sit next to the toolkit they step through, so ``typo.json`` typed while
    ``sample_configs/agentscope/toolkit.yaml`` is open finds the file there. When neither
    exists, the path is returned as given, so the error names what the user typed.
    """
    given = Path(path).expanduser()
    if given.exists() or given.is_absolute() or config_dir is None:
        return given
    beside = Path(config_dir) / given
    return beside if beside.exists() else given
