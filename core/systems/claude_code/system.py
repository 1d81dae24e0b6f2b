"""Claude Code as the registry lists it (``core.systems.contract``): data only, hooks by name."""

from __future__ import annotations

from ...model.enums import FindingKind as K
from ...model.enums import InputKind, StageId
from ..contract import Hook, OptionSpec, StageSpec, System
from ..shared_options import SNAPSHOT

GROUP = "Claude Code"

SYSTEM = System(
    key="claude_code",
    title="Claude Code",
    summary="claude-code:[DIR]: the MCP servers Claude Code gives a session in DIR (default: the cwd)",
    input_kinds=(InputKind.CLAUDE_CODE,),
    stages=(
        StageSpec(StageId.SOURCE, "source", "SRC"),
        StageSpec(StageId.PRECEDENCE, "precedence", "PREC"),
        StageSpec(StageId.APPROVAL, "approval", "APPR"),
        StageSpec(StageId.POLICY, "policy", "POL"),
        StageSpec(StageId.CONNECTION, "connection", "CONN"),
        StageSpec(StageId.NAMING, "naming", "NAME"),
        StageSpec(StageId.DENY, "deny", "DENY"),
        StageSpec(StageId.IN_CONTEXT, "in context", "CTX"),
        StageSpec(StageId.CALLABLE, "callable", "CALL"),
    ),
    finding_kinds=(
        K.DUPLICATE_NAME,
        K.MCP_OUTAGE,
        K.EXPECTATION_FAILED,
        K.UNREAD_SERVERS,
        K.RULE_MATCHES_NOTHING,
        K.UNTRUSTED_IGNORED,
        K.DISABLED_BY_DIALOG,
        K.APPROVAL_DIFFERS,
        K.MANAGED_EXCLUSIVE,
        K.SERVER_BLOCKED,
        K.NAME_COLLISION,
        # AgentWorks steps whose provider is claude-code: these settings block the api-bridge.
        K.BRIDGE_BLOCKED,
    ),
    opener=Hook("toolscope.core.systems.claude_code.subject:open_subject"),
    capture=Hook("toolscope.core.systems.coding_cli.capture_offer:capture_plan"),
    prefix="claude-code:",
    markers=(".mcp.json", ".claude/"),
    options=(
        OptionSpec(
            "home",
            ("--home",),
            "claude-code: the user's home (~/.claude.json, ~/.claude/). Default: $HOME.",
            type="path",
            group=GROUP,
        ),
        OptionSpec(
            "managed_dir",
            ("--managed-dir",),
            "claude-code: managed settings folder. Default: /etc/claude-code.",
            type="path",
            group=GROUP,
        ),
        OptionSpec(
            "client_args",
            ("--client-args",),
            'claude-code: the flags the session was started with, e.g. "-p --mcp-config f.json --allowedTools mcp__x".',
            group=GROUP,
        ),
        SNAPSHOT,
    ),
)
