"""An AgentScope 1.x toolkit (spec or the user's factory) as a ``Subject``.

The same questions as the 2.x ``ToolkitSubject`` (``..subject``), answered from a 1.x
Toolkit: active groups are the Toolkit's own flags; there are no permission modes (any
``--mode`` is an InputError naming it), and the stages are registered and visible
(``stages.py``; ``CALLABLE_NOTE`` in every evaluation's notes).

Public API::

    load_toolkit_subject_v1(target, kind, groups=None) -> ToolkitSubjectV1
    ToolkitSubjectV1: the Subject protocol + .built, .toolkit, .rows(mode, groups),
        .group_names(), .active_groups(), .set_active_groups(), .follow_active_groups(),
        .session(steps) -> StepSessionV1, .mcp_outages() -> []
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ....model.enums import InputKind
from ....model.errors import InputError, Problem
from ....model.verdicts import Checklist, Evaluation, Finding, LoadedInput
from ..stages import ToolRow
from ..subject_input import check_groups, load_built, without_basic
from .build import BuiltToolkitV1
from .stages import AGENTSCOPE1_STAGES, CALLABLE_NOTE, evaluate

if TYPE_CHECKING:
    from .session import StepSessionV1

SHARED_NOTE = "activation lives on the Toolkit: agents built on this one Toolkit share their active groups"


class ToolkitSubjectV1:
    """A real 1.x Toolkit and the groups it starts with, answering the Subject questions."""

    config_findings: tuple[Finding, ...] = ()
    mode_names: tuple[str, ...] = ()
    """AgentScope 1.x has no permission modes."""
    default_mode: str | None = None
    major = 1

    def __init__(self, built: BuiltToolkitV1, loaded: LoadedInput) -> None:
        """Wrap a built 1.x toolkit; rows are cached per activation."""
        self.built = built
        self.loaded = loaded
        self._rows: dict[tuple[Any, ...], list[ToolRow]] = {}

    @property
    def _groups(self) -> tuple[str, ...]:
        """The start groups live on the built toolkit, so a session replay starts there too."""
        return self.built.initial_groups

    @property
    def toolkit(self) -> Any:
        """The real 1.x ``agentscope.tool.Toolkit``."""
        return self.built.toolkit

    @property
    def state(self) -> Any:
        """1.x has no agent state object: the Toolkit's ``state_dict()`` at the start."""
        return {"active_groups": list(self._groups)}

    def resolve_mode(self, mode: str | None) -> str | None:
        """None; any mode is an InputError naming --mode (1.x has no permission engine)."""
        if mode is None:
            return None
        raise InputError(
            "--mode",
            f"AgentScope 1.x has no permission modes ('{mode}' given)",
            [Problem("", "permission modes (default, explore, …) are AgentScope 2.x; drop --mode on 1.x")],
        )

    def rows(self, mode: str | None, active_groups: Sequence[str] | None = None) -> list[ToolRow]:
        """Every tool's stages for the start groups or ``active_groups`` (cached)."""
        self.resolve_mode(mode)
        groups = self._groups if active_groups is None else tuple(without_basic(active_groups))
        key = (groups, tuple(self.toolkit.groups), tuple(self.toolkit.tools))
        if key not in self._rows:
            self._rows[key] = evaluate(self.built, groups)
        return self._rows[key]

    def evaluate(self, mode: str | None, active_groups: Sequence[str] | None = None) -> Evaluation:
        """Registered and visible for every tool, with the notes a 1.x user needs."""
        rows = self.rows(mode, active_groups)
        active = self._groups if active_groups is None else tuple(without_basic(active_groups))
        notes = [
            f"active groups: {json.dumps(list(active))} (toolkit.groups[...].active; basic is always active)",
            CALLABLE_NOTE,
            SHARED_NOTE,
            *self.built.notes,
        ]
        return Evaluation(
            loaded=replace(self.loaded, mode=None),
            stage_names=AGENTSCOPE1_STAGES,
            tools=tuple(r.verdict for r in rows),
            notes=tuple(notes),
        )

    def all_tool_names(self) -> tuple[str, ...]:
        """Registered tool names (the meta tool when registered), in registration order."""
        return tuple(self.toolkit.tools)

    def group_names(self) -> tuple[str, ...]:
        """The Toolkit's groups (``basic`` is implicit and not among them)."""
        return tuple(self.toolkit.groups)

    def active_groups(self) -> tuple[str, ...]:
        """The groups active at the start."""
        return self._groups

    def set_active_groups(self, groups: Sequence[str]) -> None:
        """Replace the start groups (validated) and drop cached rows."""
        check_groups(self.group_names(), groups)
        self.built.initial_groups = tuple(without_basic(groups))
        self._rows.clear()

    def follow_active_groups(self, groups: Sequence[str]) -> None:
        """Take groups seen elsewhere (not validated: 1.x ignores names it doesn't know)."""
        self.built.initial_groups = tuple(g for g in without_basic(groups) if g in self.toolkit.groups)
        self._rows.clear()

    def session(self, steps: Sequence[Any] = ()) -> StepSessionV1:
        """A step-through session: stock and guarded lanes from the start groups."""
        from .session import StepSessionV1

        return StepSessionV1(self.built, steps, start=self._groups)

    def checklist(self, tool: str, mode: str | None, active_groups: Sequence[str] | None = None) -> Checklist:
        """Why ``tool`` is or is not offered, and the fix."""
        from .explain import toolkit_checklist_v1

        self.resolve_mode(mode)
        return toolkit_checklist_v1(self, tool, active_groups)

    def findings(self, modes: Sequence[str | None]) -> list[Finding]:
        """Findings 1.x makes possible (``explain.toolkit_findings_v1``)."""
        from .explain import toolkit_findings_v1

        for mode in modes:
            self.resolve_mode(mode)
        return toolkit_findings_v1(self)

    def mcp_outages(self) -> list[tuple[str, str, str]]:
        """None: 1.x lists an MCP client's tools once, when it is registered."""
        return []


def load_toolkit_subject_v1(target: str, kind: InputKind, groups: list[str] | None = None) -> ToolkitSubjectV1:
    """Build a spec or call a factory on the installed AgentScope 1.x."""
    from ..factory import run_factory
    from ..version import installed_version
    from .build import build_spec_toolkit, check_factory_result

    def load_factory(target: str) -> BuiltToolkitV1:
        return check_factory_result(run_factory(target), target)

    built, loaded = load_built(target, kind, build_spec_toolkit, load_factory, installed_version() or "unknown")
    subject = ToolkitSubjectV1(built, loaded)
    if groups is not None:
        subject.set_active_groups(groups)
    return subject
