"""Decide what the user gave us and open it as a ``Subject``.

``CONFIG`` may be an AgentWorks step config (``{"steps": [...]}`` or one step), an
AgentScope toolkit spec (YAML/JSON with ``groups``), a toolkit factory
(``package.module:function`` or ``path/to/file.py:function``), or a coding-agent CLI's
project: ``claude-code:[PROJECT_DIR]`` or ``codex:[PROJECT_DIR]`` (default: the cwd).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.inputs.documents import load_document
from ..core.model.enums import InputKind
from ..core.model.errors import InputError, Problem
from ..core.model.subject import Subject

if TYPE_CHECKING:
    from ..core.agentworks.subject import AgentWorksSubject

_FACTORY = re.compile(r"^(?P<target>[\w.]+|.+\.py):(?P<attr>[A-Za-z_][\w.]*)$")
CLI_PREFIXES = {"claude-code:": InputKind.CLAUDE_CODE, "codex:": InputKind.CODEX}


@dataclass(frozen=True)
class ClientOptions:
    """The options of the coding-agent CLI inputs (and of the AgentWorks link to them)."""

    home: Path | None = None
    managed_dir: Path | None = None
    client_args: str | None = None
    codex_home: Path | None = None
    codex_system_dir: Path | None = None
    codex_config: tuple[str, ...] = ()
    client_home: Path | None = None

    def given(self, *names: str) -> list[str]:
        """The option flags among ``names`` (attribute names) that were given."""
        return [
            "--" + n.replace("_", "-") if n != "codex_config" else "-c"
            for n in names
            if getattr(self, n) not in (None, ())
        ]


def cli_target(target: str) -> tuple[InputKind, Path] | None:
    """``claude-code:DIR`` / ``codex:DIR`` → (kind, DIR); None for every other CONFIG."""
    for prefix, kind in CLI_PREFIXES.items():
        if target.startswith(prefix):
            return kind, Path(target[len(prefix) :] or ".")
    return None


def detect_kind(target: str) -> InputKind:
    """Classify the CONFIG argument without importing anything heavy."""
    found = cli_target(target)
    if found is not None:
        return found[0]
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
        if REGISTRY_KEYS & data.keys():
            raise _registry_as_config(target, path)
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


REGISTRY_KEYS = frozenset({"modes", "custom_tools", "mcp_servers", "mcp_config", "virtual_tools", "system_categories"})
"""Top-level keys only a registry has (docs: "The registry format")."""


def _registry_as_config(target: str, path: Path) -> InputError:
    """A registry given where CONFIG goes: say what it is, and name the step configs beside it."""
    from itertools import islice

    beside = []
    for candidate in sorted(islice(path.parent.glob("*.json"), 50)):
        try:
            data = load_document(candidate, "config file").data
        except InputError:
            continue
        if isinstance(data, dict) and ("steps" in data or "agent_configs" in data):
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
    client: ClientOptions | None = None,
) -> Subject:
    """Load CONFIG as a Subject; options that don't apply to its kind are rejected."""
    client = client or ClientOptions()
    kind = detect_kind(target)
    if kind in (InputKind.CLAUDE_CODE, InputKind.CODEX):
        return _open_cli(target, kind, client, step=step, registry=registry, groups=groups, snapshot=snapshot)
    for flag in client.given("home", "managed_dir", "client_args", "codex_home", "codex_system_dir", "codex_config"):
        raise InputError(flag, "applies to claude-code:DIR / codex:DIR inputs")
    if kind != InputKind.STEP_CONFIG and client.client_home is not None:
        raise InputError(
            "--client-home", "applies to AgentWorks step configs whose provider is claude-code or codex-cli"
        )
    if kind == InputKind.STEP_CONFIG:
        if groups is not None:
            raise InputError("--groups", "applies to AgentScope toolkits, not step configs")
        from ..core.agentworks.subject import load_agentworks_subject

        return load_agentworks_subject(
            Path(target),
            step=step,
            registry=registry,
            snapshot=snapshot,
            workflow=workflow,
            origin=origin,
            client_home=client.client_home,
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


def _open_cli(
    target: str,
    kind: InputKind,
    client: ClientOptions,
    *,
    step: str | None,
    registry: Path | None,
    groups: list[str] | None,
    snapshot: Path | None,
) -> Subject:
    """``claude-code:DIR`` or ``codex:DIR``; options of the other kinds are rejected."""
    found = cli_target(target)
    assert found is not None
    directory = found[1]
    for flag, value in (
        ("--step", step),
        ("--registry", registry),
        ("--groups", groups),
        ("--client-home", client.client_home),
    ):
        if value is not None:
            raise InputError(flag, f"does not apply to {target.partition(':')[0]}: inputs")
    if kind == InputKind.CLAUDE_CODE:
        for flag in client.given("codex_home", "codex_system_dir", "codex_config"):
            raise InputError(flag, "applies to codex:DIR, not claude-code:DIR")
        from ..core.clis.claude_code.subject import load_claude_code_subject

        return load_claude_code_subject(
            directory,
            home=client.home,
            managed_dir=client.managed_dir,
            client_args=client.client_args,
            snapshot=snapshot,
        )
    for flag in client.given("home", "managed_dir", "client_args"):
        raise InputError(flag, "applies to claude-code:DIR, not codex:DIR")
    from ..core.clis.codex.subject import load_codex_subject

    return load_codex_subject(
        directory,
        codex_home=client.codex_home,
        system_dir=client.codex_system_dir,
        overrides=client.codex_config,
        snapshot=snapshot,
    )
