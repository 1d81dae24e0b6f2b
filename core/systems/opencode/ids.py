"""OpenCode's own words: its stages (in the binary's order), finding kinds, input kind."""

from __future__ import annotations

from enum import StrEnum


class OpenCodeStage(StrEnum):
    """The gates of an OpenCode tool, in order."""

    CONFIG = "config"
    """The merged config is valid and a layer defines the server (or the tool is built in)."""
    ENABLED = "enabled"
    """The server's ``enabled`` key."""
    CONNECTION = "connection"
    """The server started and listed its tools within its ``timeout``."""
    NAMING = "naming"
    """The model-facing name ``<server>_<tool>`` (sanitised; collisions keep one)."""
    PERMISSION = "permission"
    """The agent's ordered rules (``tools`` maps, ``permission``): the last match decides."""
    IN_CONTEXT = "in_context"
    """In the request's tools in full, or only inside code mode's ``execute``."""
    CALLABLE = "callable"
    """A call runs under the rules in ``opencode run`` (``ask`` auto-rejects)."""


class OpenCodeFinding(StrEnum):
    """What an OpenCode ``check`` finding is about."""

    CONFIG_INVALID = "config_invalid"
    """The binary refuses the merged config (exit 1): no request, no tool at all."""
    RULE_MATCHES_NOTHING = "rule_matches_nothing"
    """A ``tools`` / ``permission`` key that matches no tool's name."""
    DENY_KEEPS_SCHEMA = "deny_keeps_schema"
    """A deny that only refuses calls: the schema is still sent."""
    NAME_TOO_LONG = "name_too_long"
    """A tool name over 64 characters: an OpenAI-style provider rejects the whole request."""
    SLOW_SERVER = "slow_server"
    """A server that did not list its tools within its ``timeout``."""
    AGENT_FALLBACK = "agent_fallback"
    """``--agent`` names a subagent or no agent: the run uses the default agent."""


class OpenCodeInput(StrEnum):
    """``opencode:DIR``."""

    OPENCODE = "opencode"


OPENCODE_STAGES: tuple[OpenCodeStage, ...] = tuple(OpenCodeStage)
