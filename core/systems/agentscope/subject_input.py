"""What both AgentScope subjects (2.x ``subject``, 1.x ``v1.subject``) read the same way.

A toolkit comes from a spec file or from the user's factory; either way the input is named
by the same files, paths and words, whichever AgentScope builds it (``load_built``). Active
groups given by name (``--groups``) drop ``basic`` (always active in both versions) and must
name a registered group (``check_groups``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

from ...inputs.input_files import file_sha256
from ...model.enums import InputKind
from ...model.errors import InputError, Problem
from ...model.subject import resolved_paths
from ...model.verdicts import LoadedInput
from ...text.suggest import close_matches
from .ids import AgentScopeInput

if TYPE_CHECKING:
    from .spec_models import ToolkitSpec


class _Labelled(Protocol):
    label: str


Built = TypeVar("Built", bound=_Labelled)


def without_basic(groups: Sequence[str]) -> list[str]:
    """The groups to activate: 'basic' is always active, so naming it is accepted and ignored."""
    return [g for g in dict.fromkeys(groups) if g != "basic"]


def check_groups(known: Sequence[str], groups: Sequence[str]) -> None:
    """InputError (naming --groups) for names none of the ``known`` groups answers to ('basic' is fine)."""
    problems = []
    for name in without_basic(groups):
        if name not in known:
            close = close_matches(name, list(known), n=2)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            problems.append(Problem(name, f"no such group{hint}; groups: {', '.join(known) or '(none)'}"))
    if problems:
        raise InputError("--groups", "unknown group", problems)


def load_built(
    target: str,
    kind: InputKind,
    build_spec: Callable[[ToolkitSpec, str], Built],
    load_factory: Callable[[str], Built],
    version: str,
) -> tuple[Built, LoadedInput]:
    """The toolkit of a spec file (``build_spec``) or a factory (``load_factory``), and its input
    (``version``: the installed AgentScope's, shown with it)."""
    if kind == AgentScopeInput.TOOLKIT_SPEC:
        from .spec import load_spec

        spec, document = load_spec(target)
        built = build_spec(spec, target)
        files: tuple[tuple[str, str], ...] = ((document.name, document.sha256),)
        paths = resolved_paths(document.path)
        what = "toolkit spec"
    else:
        from .factory import parse_target

        built = load_factory(target)
        where, _ = parse_target(target)
        if where.endswith(".py") and Path(where).is_file():
            files = ((Path(where).name, file_sha256(Path(where), "factory file")),)
            paths = resolved_paths(Path(where))
        else:
            # package.module:function: the module's file is user code read as an input (never
            # listed: the report names the target, and a package's file is machine-dependent).
            module_file = getattr(sys.modules.get(where), "__file__", None)
            files, paths = (), resolved_paths(Path(module_file) if module_file else None)
        what = "toolkit factory"
    loaded = LoadedInput(
        kind=kind,
        label=built.label,
        files=files,
        mode=None,
        extra=(("agentscope", version), ("input", what)),
        paths=paths,
    )
    return built, loaded
