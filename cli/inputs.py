"""Decide what the user gave us and open it as a ``Subject``.

``CONFIG`` may be an AgentWorks step config (``{"steps": [...]}`` or one step), an
AgentScope toolkit spec (YAML/JSON with ``groups``), or a toolkit factory
(``package.module:function`` or ``path/to/file.py:function``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.inputs.documents import load_document
from ..core.model.enums import InputKind
from ..core.model.errors import InputError, Problem
from ..core.model.subject import Subject

if TYPE_CHECKING:
    from ..core.agentworks.subject import AgentWorksSubject

_FACTORY = re.compile(r"^(?P<target>[\w.]+|.+\.py):(?P<attr>[A-Za-z_][\w.]*)$")


def detect_kind(target: str) -> InputKind:
    """Classify the CONFIG argument without importing anything heavy."""
    path = Path(target)
    if not path.exists() and _FACTORY.match(target):
        return InputKind.TOOLKIT_FACTORY
    if path.suffix == ".py" and path.is_file():
        raise _factory_needs_function(target, path)
    document = load_document(path, "config file")
    data = document.data
    if isinstance(data, dict):
        if "steps" in data or "agent_configs" in data:
            return InputKind.STEP_CONFIG
        if "groups" in data or data.get("kind") == "toolkit":
            return InputKind.TOOLKIT_SPEC
    raise InputError(
        target,
        "not a config toolscope knows",
        [
            Problem(
                "",
                "expected an AgentWorks step config (an object with 'steps' or 'agent_configs'), "
                "an AgentScope toolkit spec (an object with 'groups'), or a toolkit factory "
                "'package.module:function' / 'path/to/file.py:function'",
            )
        ],
    )


def _factory_needs_function(target: str, path: Path) -> InputError:
    """A ``.py`` given without ``:function``: name the file's candidate factories (parsed, never run)."""
    import ast

    from ..core.inputs.input_files import read_text

    text, _ = read_text(path, "Python file")
    try:
        tree = ast.parse(text, filename=str(path))
    except SyntaxError as exc:
        return InputError(
            target, "a toolkit factory needs :function", [Problem(f"line {exc.lineno}", "not valid Python")]
        )
    defined = [
        node
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_")
    ]
    # A factory is called without arguments: prefer functions that can be.
    callable_bare = [
        n.name
        for n in defined
        if len(n.args.posonlyargs) + len(n.args.args) <= len(n.args.defaults)
        and all(d is not None for d in n.args.kw_defaults)
    ]
    functions = callable_bare or [n.name for n in defined]
    hint = (
        "candidate functions: " + ", ".join(f"{target}:{name}" for name in functions)
        if functions
        else "the file defines no public top-level function"
    )
    return InputError(
        target,
        "a .py file is a toolkit factory and needs :function (path/to/file.py:function)",
        [Problem("", hint)],
    )


def open_workflow(
    target: str,
    *,
    step: str | None,
    registry: Path | None = None,
    groups: list[str] | None = None,
    snapshot: Path | None = None,
    workflow: Path | None = None,
    origin: str | None = None,
) -> list[AgentWorksSubject] | None:
    """Every step of a step config with several steps, when no --step picks one; None otherwise
    (then ``open_subject`` answers for one step or one toolkit)."""
    if step is not None or detect_kind(target) != InputKind.STEP_CONFIG:
        return None
    from ..core.agentworks.step_config import steps_to_choose

    if not steps_to_choose(Path(target)):
        return None
    if groups is not None:
        raise InputError("--groups", "applies to AgentScope toolkits, not step configs")
    from ..core.agentworks.subject import load_workflow_subjects

    return load_workflow_subjects(Path(target), registry=registry, snapshot=snapshot, workflow=workflow, origin=origin)


def open_subject(
    target: str,
    *,
    step: str | None = None,
    registry: Path | None = None,
    groups: list[str] | None = None,
    snapshot: Path | None = None,
    workflow: Path | None = None,
    origin: str | None = None,
) -> Subject:
    """Load CONFIG as a Subject; options that don't apply to its kind are rejected."""
    kind = detect_kind(target)
    if kind == InputKind.STEP_CONFIG:
        if groups is not None:
            raise InputError("--groups", "applies to AgentScope toolkits, not step configs")
        from ..core.agentworks.subject import load_agentworks_subject

        return load_agentworks_subject(
            Path(target), step=step, registry=registry, snapshot=snapshot, workflow=workflow, origin=origin
        )
    if workflow is not None:
        raise InputError("--workflow", "applies to AgentWorks step configs, not toolkits")
    if origin is not None:
        raise InputError("--origin", "applies to AgentWorks step configs, not toolkits")
    if step is not None:
        raise InputError("--step", "applies to AgentWorks step configs, not toolkits")
    if registry is not None:
        raise InputError("--registry", "applies to AgentWorks step configs, not toolkits")
    if snapshot is not None:
        raise InputError("--snapshot", "applies to AgentWorks step configs whose registry has mcp_config, not toolkits")
    from ..core.agentscope.subject import load_toolkit_subject

    return load_toolkit_subject(target, kind=kind, groups=groups)
