"""Gemini CLI as the registry lists it (``core.systems.contract``): data only, hooks by name."""

from __future__ import annotations

from ...model.enums import SharedFinding as S
from ..coding_cli.ids import CodingCliFinding as C
from ..contract import Hook, OptionSpec, StageSpec, System
from ..shared_options import DISCOVER, SNAPSHOT
from .ids import GeminiFinding as K
from .ids import GeminiInput, GeminiStage

GROUP = "Gemini CLI"

SYSTEM = System(
    key="gemini_cli",
    title="Gemini CLI",
    summary="gemini-cli:[DIR]: the MCP tools Gemini CLI sends the model in a session in DIR (default: the cwd)",
    input_kinds=(GeminiInput.GEMINI_CLI,),
    stages=(
        StageSpec(GeminiStage.SETTINGS, "settings", "SET"),
        StageSpec(GeminiStage.FOLDER_TRUST, "folder trust", "TRUST"),
        StageSpec(GeminiStage.SERVER_GATE, "mcp.allowed", "GATE"),
        StageSpec(GeminiStage.CONNECTION, "connection", "CONN"),
        StageSpec(GeminiStage.SERVER_FILTER, "includeTools", "INCL"),
        StageSpec(GeminiStage.NAMING, "naming", "NAME"),
        StageSpec(GeminiStage.TOOLS_EXCLUDE, "tools.exclude", "EXCL"),
        StageSpec(GeminiStage.POLICY, "policy", "POL"),
        StageSpec(GeminiStage.CALLABLE, "callable", "CALL"),
    ),
    finding_kinds=(
        K.CORE_HIDES_MCP,
        K.FOLDER_UNTRUSTED,
        K.HEADLESS_UNALLOWED,
        K.WILDCARD_MISSES,
        K.POLICY_LOSES,
        K.FILTER_MATCHES_NOTHING,
        K.TOO_MANY_TOOLS,
        K.CLAUDE_STYLE_NAME,
        K.SETTINGS_WARNING,
        S.MCP_OUTAGE,
        S.MCP_NOT_STARTED,
        S.EXPECTATION_FAILED,
        C.SERVER_BLOCKED,
        C.NAME_COLLISION,
    ),
    opener=Hook("toolscope.core.systems.gemini_cli.subject:open_subject"),
    capture=Hook("toolscope.core.systems.gemini_cli.capture:capture_plan"),
    prefix="gemini-cli:",
    markers=(".gemini/",),
    options=(
        OptionSpec(
            "home",
            ("--home",),
            "claude-code / gemini-cli: the user's home (~/.claude.json, ~/.gemini/). Default: $HOME.",
            type="path",
            group=GROUP,
        ),
        OptionSpec(
            "gemini_system_dir",
            ("--gemini-system-dir",),
            "gemini-cli: the system folder (settings.json, system-defaults.json, policies/). Default: /etc/gemini-cli.",
            type="path",
            group=GROUP,
        ),
        OptionSpec(
            "client_args",
            ("--client-args",),
            'gemini-cli: the flags the session was started with, e.g. "-p hi -m gemini-2.5-flash --approval-mode yolo".',
            group=GROUP,
        ),
        SNAPSHOT,
        DISCOVER,
    ),
)
