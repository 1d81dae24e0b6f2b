"""Which hidden tools need the user: ``!`` for a real problem, ``·`` for one hidden by design.

``!`` means one thing everywhere (CLI, TUI, reports): the tool is registered, a later gate
blocks it, and a config change fixes it (the notify_user incident). Some later gates hide
a registered tool on purpose, and their fix reads "nothing to add": an AgentScope group
that is not active yet (the model turns it on with reset_tools), or a virtual tool that
code-execution mode keeps out of the native list (the model reaches it through the bridge).
Those get the quiet ``·`` and sort after the real problems, so they never sit above them.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

from .enums import RuleCode, SharedStage
from .verdicts import Stage, first_failing

__all__ = ["ALERT_MARK", "BY_DESIGN_CODES", "BY_DESIGN_MARK", "Attention", "attention", "attention_mark"]

ALERT_MARK = "!"
"""Registered, blocked by a later gate, and there is a fix."""
BY_DESIGN_MARK = "·"
"""Registered and hidden by a later gate on purpose (shown dimmed)."""

BY_DESIGN_CODES: frozenset[str] = frozenset({RuleCode.GROUP_INACTIVE, RuleCode.DISCOVERY_VIRTUAL_CUT})
"""Rule codes of a later gate that hides a registered tool by design: nothing in the config is wrong."""


class Attention(IntEnum):
    """How much a tool's answer asks of the user; the value is its sort rank (problems first)."""

    ALERT = 0
    """Registered, then blocked by a later gate with a fix (``!``)."""
    NOT_REGISTERED = 1
    """Hidden at the first stage: not in the pool."""
    UNKNOWN = 2
    """A stage could not be decided (an MCP outage)."""
    BY_DESIGN = 3
    """Registered, then hidden by design (``·``)."""
    NONE = 4
    """Visible: every stage passed."""


def attention(stages: Sequence[Stage]) -> Attention:
    """The attention a row of stages asks for (see ``Attention``)."""
    failing = first_failing(stages)
    if failing is None:
        return Attention.NONE
    if failing.passed is None:
        return Attention.UNKNOWN
    if failing.name == SharedStage.REGISTERED:
        return Attention.NOT_REGISTERED
    return Attention.BY_DESIGN if failing.code in BY_DESIGN_CODES else Attention.ALERT


def attention_mark(level: Attention) -> str:
    """``!``, ``·`` or a space: the one-cell mark in front of a tool's name."""
    return ALERT_MARK if level is Attention.ALERT else BY_DESIGN_MARK if level is Attention.BY_DESIGN else " "
