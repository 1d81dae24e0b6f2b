"""What kind of input CONFIG is, told from its name and its top-level keys without importing
anything heavy, and what to say when it is none that toolscope knows (a registry given in its
place, a ``.py`` without ``:function``)."""

from __future__ import annotations

import re
from pathlib import Path

from ..core.inputs.documents import load_document
from ..core.model.enums import InputKind
from ..core.model.errors import InputError, Problem

_FACTORY = re.compile(r"^(?P<target>[\w.]+|.+\.py):(?P<attr>[A-Za-z_][\w.]*)$")
CLI_PREFIXES = {"claude-code:": InputKind.CLAUDE_CODE, "codex:": InputKind.CODEX}


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
