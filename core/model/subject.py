"""What every loaded input offers the front ends (CLI, TUI, reports).

An AgentWorks step config and an AgentScope toolkit answer the same questions with
different stages; the front ends only talk to this protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

from .verdicts import Checklist, Evaluation, Finding, LoadedInput


def resolved_paths(*paths: Path | None) -> tuple[Path, ...]:
    """``LoadedInput.paths`` for these files: resolved (links followed), each once, in order."""
    out: dict[Path, None] = {}
    for path in paths:
        if path is None:
            continue
        try:
            out.setdefault(Path(path).resolve(), None)
        except (OSError, RuntimeError):  # a link loop: the path as given still names the input
            out.setdefault(Path(path).absolute(), None)
    return tuple(out)


class Subject(Protocol):
    """A loaded configuration whose tools can be evaluated in a mode."""

    loaded: LoadedInput
    config_findings: tuple[Finding, ...]
    """Mistakes in the configuration itself (unknown keys, misplaced fields), shown before any answer."""

    @property
    def mode_names(self) -> tuple[str, ...]:
        """The modes the user can pick (workshop modes or permission modes)."""
        ...

    @property
    def default_mode(self) -> str | None:
        """The mode used when none is given."""
        ...

    def resolve_mode(self, mode: str | None) -> str | None:
        """Canonical mode name; raises InputError listing the modes for an unknown one."""
        ...

    def evaluate(self, mode: str | None) -> Evaluation:
        """Every tool's verdict in this mode."""
        ...

    def checklist(self, tool: str, mode: str | None) -> Checklist:
        """The checklist walkthrough for one tool name (did-you-mean when unknown)."""
        ...

    def findings(self, modes: Sequence[str | None]) -> list[Finding]:
        """Invariant checks over the configuration, for these modes."""
        ...

    def all_tool_names(self) -> tuple[str, ...]:
        """Every tool name in the universe (for completion and did-you-mean)."""
        ...


@runtime_checkable
class FollowsActiveGroups(Protocol):
    """A subject whose active groups can follow a running agent (AgentScope toolkits; ``inspect --follow``)."""

    def active_groups(self) -> tuple[str, ...]:
        """The groups active now."""
        ...

    def follow_active_groups(self, groups: Sequence[str]) -> None:
        """Take the agent's real active groups; later evaluations use them."""
        ...


# Optional capabilities: a front end asks ``isinstance(subject, Capability)`` (each is
# runtime-checkable) instead of probing attributes, and the type checker sees what it uses.


@runtime_checkable
class ChecksDrift(Protocol):
    """A subject whose MCP tools can be compared with a saved snapshot (``check --drift-from``)."""

    def drift_findings(self, snapshot: Path) -> list[Finding]:
        """``mcp_drift`` findings: tools added, removed or renamed since the snapshot."""
        ...


@runtime_checkable
class EvaluatesActiveGroups(FollowsActiveGroups, Protocol):
    """A subject whose groups can be switched on and off: each answer in any activation state
    (AgentScope toolkits; the systems' own capabilities build on it: ``agentscope.capability``)."""

    def group_names(self) -> tuple[str, ...]:
        """Registered non-basic groups, in order."""
        ...

    def evaluate(self, mode: str | None, active_groups: Sequence[str] | None = None) -> Evaluation:
        """``Subject.evaluate`` in another activation state (e.g. a lane after a turn); None: the initial one."""
        ...

    def checklist(self, tool: str, mode: str | None, active_groups: Sequence[str] | None = None) -> Checklist:
        """``Subject.checklist`` in another activation state (see ``evaluate``)."""
        ...
