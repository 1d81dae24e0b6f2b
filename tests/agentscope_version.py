"""The installed AgentScope's release, for tests whose expectation depends on it."""

from __future__ import annotations

from toolscope.core.systems.agentscope.version import parse_version


def agentscope_version() -> tuple[int, ...]:
    """The installed AgentScope's first three release numbers, e.g. (2, 0, 6)."""
    import agentscope

    return parse_version(agentscope.__version__)[:3]
