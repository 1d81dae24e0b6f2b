"""An AgentScope toolkit (spec or the user's factory) as a ``Subject``.

Modes are AgentScope's permission modes (``default``, ``accept_edits``, ``explore``,
``bypass``, ``dont_ask``); ``-`` and case are normalised (``accept-edits``). Stages:
``AGENTSCOPE_STAGES`` (see ``stages.py``). Findings: ``findings.py``.

Active groups given by name (``--groups``, ``set_active_groups``) replace the initial
state's; ``basic`` is accepted there and ignored, since AgentScope keeps it always active
(it is never put in ``activated_groups``). Unknown names are an InputError naming --groups.

Public API::

    load_toolkit_subject(target, kind: "toolkit_spec" | "toolkit_factory", groups=None)
        -> ToolkitSubject, or ToolkitSubjectV1 when AgentScope 1.x is installed
    ToolkitSubject: Subject protocol + .built (BuiltToolkit), .toolkit, .state,
        .rows(mode, active_groups=None) -> list[ToolRow], .evaluate(mode, active_groups=None),
        .group_names() -> tuple[str, ...],
        .active_groups() -> tuple[str, ...], .set_active_groups(groups) -> None,
        .session(steps=()) -> StepSession, .mcp_outages() -> list[(group, client, error)]
    The stock meta tool's probed behaviour: ``probe.probe_stock_reset_tools()``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...model.enums import InputKind
from ...model.errors import unknown_mode_error
from ...model.verdicts import (
    Checklist,
    Evaluation,
    Finding,
    LoadedInput,
)
from .aio import run_sync
from .ids import AGENTSCOPE_STAGES
from .spec import BuiltToolkit
from .stages import (
    MODES,
    Collected,
    ToolRow,
    acollect,
    aevaluate_tools,
    outage_verdicts,
)
from .subject_input import check_groups, load_built, without_basic

if TYPE_CHECKING:
    from ..contract import OpenRequest
    from .session import StepSession
    from .v1.subject import ToolkitSubjectV1


class ToolkitSubject:
    """A real Toolkit plus its initial AgentState, answering the Subject questions."""

    config_findings: tuple[Finding, ...] = ()
    """None: toolkit specs are toolscope's own format, unknown keys are refused at load, not reported."""

    def __init__(self, built: BuiltToolkit, loaded: LoadedInput) -> None:
        """Wrap a built toolkit; verdicts are computed lazily and cached per mode."""
        self.built = built
        self.loaded = loaded
        self._collected: Collected | None = None
        self._rows: dict[tuple[Any, ...], list[ToolRow]] = {}
        self._rows_groups: list[Any] = []  # the toolkit's groups when self._rows was computed

    # -- Subject protocol -----------------------------------------------------
    @property
    def toolkit(self) -> Any:
        """The real ``agentscope.tool.Toolkit``."""
        return self.built.toolkit

    @property
    def state(self) -> Any:
        """The initial ``AgentState`` (active groups, permission rules)."""
        return self.built.state

    @property
    def mode_names(self) -> tuple[str, ...]:
        """AgentScope's permission modes."""
        return MODES

    @property
    def default_mode(self) -> str | None:
        """The permission mode of the initial state."""
        return self.state.permission_context.mode.value

    def resolve_mode(self, mode: str | None) -> str | None:
        """Normalise ``accept-edits``/case; InputError naming --mode for an unknown mode."""
        if mode is None:
            return self.default_mode
        canonical = mode.strip().lower().replace("-", "_")
        if canonical not in MODES:
            raise unknown_mode_error("permission mode", mode, MODES, near=canonical)
        return canonical

    def rows(self, mode: str | None, active_groups: Sequence[str] | None = None) -> list[ToolRow]:
        """Every tool's verdict and permission decision in this mode (cached).

        ``active_groups`` evaluates another activation state (e.g. a lane of the activation
        view after a turn) without touching the initial state; None means the initial one.
        """
        mode = self.resolve_mode(mode) or "default"
        groups = None if active_groups is None else tuple(without_basic(active_groups))
        # A script can register groups on the shared toolkit: rows of another group list are
        # dropped. Compared by identity with the list kept (an id() of a freed group can recur).
        current = list(self.toolkit.tool_groups)
        if not _same_objects(current, self._rows_groups):
            self._rows.clear()
            self._rows_groups = current
        key = (mode, groups)
        if key not in self._rows:
            self._rows[key] = run_sync(self._arows(mode, groups))
        return self._rows[key]

    async def _arows(self, mode: str, groups: tuple[str, ...] | None) -> list[ToolRow]:
        """Collect the tools once per group list (MCP clients asked live), then evaluate in this mode."""
        if self._collected is None or not _same_objects(self._collected.groups, self.toolkit.tool_groups):
            self._collected = await acollect(self.toolkit)
        state = self.state
        if groups is not None:
            state = self.state.model_copy(deep=True)
            state.tool_context.activated_groups[:] = list(groups)
        return await aevaluate_tools(self.toolkit, state, mode, self.built.origins, self._collected)

    def evaluate(self, mode: str | None, active_groups: Sequence[str] | None = None) -> Evaluation:
        """Every tool's three stages in this mode, plus MCP outage rows and notes.

        ``active_groups`` replaces the initial state's active groups for this evaluation
        only (see ``rows``).
        """
        mode = self.resolve_mode(mode) or "default"
        rows = self.rows(mode, active_groups)
        active = self.active_groups() if active_groups is None else tuple(without_basic(active_groups))
        notes = [
            f"active groups: {json.dumps(list(active))} (basic is always active)",
            f"permission mode: {mode}",
        ]
        outages = outage_verdicts(self._collected, active) if self._collected else []
        notes += [v.stages[0].rule for v in outages]
        return Evaluation(
            loaded=replace(self.loaded, mode=mode),
            stage_names=AGENTSCOPE_STAGES,
            tools=(*(r.verdict for r in rows), *outages),
            notes=tuple(notes),
        )

    def all_tool_names(self) -> tuple[str, ...]:
        """Registered tool names (reset_tools included), each once, in group order."""
        return tuple(dict.fromkeys(r.entry.name for r in self.rows(None)))

    def group_names(self) -> tuple[str, ...]:
        """Registered non-basic groups, in order."""
        return tuple(g.name for g in self.toolkit.tool_groups if g.name != "basic")

    def active_groups(self) -> tuple[str, ...]:
        """The initial state's activated_groups."""
        return tuple(self.state.tool_context.activated_groups)

    def set_active_groups(self, groups: Sequence[str]) -> None:
        """Replace the initial active groups (validated) and drop cached verdicts."""
        _validate_groups(self.built, list(groups))
        self.state.tool_context.activated_groups[:] = without_basic(groups)
        self._rows.clear()

    def follow_active_groups(self, groups: Sequence[str]) -> None:
        """Take a running agent's real active groups (not validated: AgentScope ignores
        names it doesn't know, e.g. a misspelled group 2.0.6 stored) and drop cached verdicts."""
        self.state.tool_context.activated_groups[:] = without_basic(groups)
        self._rows.clear()

    def session(self, steps: Sequence[Any] = ()) -> StepSession:
        """A step-through session over this toolkit (lanes start from this state)."""
        from .session import StepSession

        return StepSession(self.built, steps)

    # -- checklist --------------------------------------------------------------
    def checklist(self, tool: str, mode: str | None, active_groups: Sequence[str] | None = None) -> Checklist:
        """Why ``tool`` (or ``group:tool``) passes or fails each stage, and the fix (``active_groups``: see ``rows``)."""
        from .checklist import toolkit_checklist

        return toolkit_checklist(self, tool, mode, active_groups)

    # -- findings ---------------------------------------------------------------
    def findings(self, modes: Sequence[str | None]) -> list[Finding]:
        """Problems worth a warning (see ``findings.py``); several modes add never_callable."""
        from .findings import toolkit_findings

        return toolkit_findings(self, modes)

    def mcp_outages(self) -> list[tuple[str, str, str]]:
        """(group, client, error) for every MCP client whose list_tools failed."""
        self.rows(None)  # collects the tools (and the outages) once
        return list(self._collected.mcp_outages) if self._collected else []


def _validate_groups(built: BuiltToolkit, groups: list[str]) -> None:
    """InputError (naming --groups) for names no registered group answers to ('basic' is fine)."""
    check_groups([g.name for g in built.toolkit.tool_groups if g.name != "basic"], groups)


def load_toolkit_subject(
    target: str,
    kind: InputKind,
    groups: list[str] | None = None,
) -> ToolkitSubject | ToolkitSubjectV1:
    """Load a spec file or call a factory; ``groups`` replaces the initial active groups.

    The installed AgentScope's major version decides the model (``version.py``): 1.x gets a
    ``ToolkitSubjectV1`` (``v1/subject.py``); an unsupported version is an InputError.
    """
    from .version import agentscope_major

    if agentscope_major() == 1:
        from .v1.subject import load_toolkit_subject_v1

        return load_toolkit_subject_v1(target, kind, groups)
    import agentscope

    from .factory import load_factory
    from .spec import build_toolkit

    version = getattr(agentscope, "__version__", "unknown")
    built, loaded = load_built(target, kind, build_toolkit, load_factory, version)
    if groups is not None:
        _validate_groups(built, groups)
        built.state.tool_context.activated_groups[:] = without_basic(groups)
    return ToolkitSubject(built, loaded)


def _same_objects(a: Sequence[Any], b: Sequence[Any]) -> bool:
    """The same objects in the same order (identity, not equality)."""
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


def open_subject(request: OpenRequest) -> ToolkitSubject | ToolkitSubjectV1:
    """The registry's opener: a toolkit spec or factory (``groups``: the comma-separated active groups)."""
    groups = request.get("groups")
    if isinstance(groups, str):
        groups = [g.strip() for g in groups.split(",") if g.strip()]
    return load_toolkit_subject(request.target, kind=InputKind(request.kind), groups=groups)
