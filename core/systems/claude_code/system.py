"""Claude Code as the registry lists it (``core.systems.contract``): data only, hooks by name."""

from __future__ import annotations

from ...model.enums import SharedFinding as S
from ..coding_cli.ids import CodingCliFinding as C
from ..contract import Hook, OptionSpec, StageSpec, System
from ..shared_options import DISCOVER, SNAPSHOT
from .ids import ClaudeFinding as K
from .ids import ClaudeInput, ClaudeStage

GROUP = "Claude Code"

SYSTEM = System(
    key="claude_code",
    title="Claude Code",
    summary="claude-code:[DIR]: the MCP servers Claude Code gives a session in DIR (default: the cwd)",
    input_kinds=(ClaudeInput.CLAUDE_CODE,),
    stages=(
        StageSpec(ClaudeStage.SOURCE, "source", "SRC"),
        StageSpec(ClaudeStage.PRECEDENCE, "precedence", "PREC"),
        StageSpec(ClaudeStage.APPROVAL, "approval", "APPR"),
        StageSpec(ClaudeStage.POLICY, "policy", "POL"),
        StageSpec(ClaudeStage.CONNECTION, "connection", "CONN"),
        StageSpec(ClaudeStage.NAMING, "naming", "NAME"),
        StageSpec(ClaudeStage.DENY, "deny", "DENY"),
        StageSpec(ClaudeStage.IN_CONTEXT, "in context", "CTX"),
        StageSpec(ClaudeStage.CALLABLE, "callable", "CALL"),
    ),
    finding_kinds=(
        S.DUPLICATE_NAME,
        S.MCP_OUTAGE,
        S.MCP_NOT_STARTED,
        S.EXPECTATION_FAILED,
        K.UNREAD_SERVERS,
        K.RULE_MATCHES_NOTHING,
        C.UNTRUSTED_IGNORED,
        K.DISABLED_BY_DIALOG,
        K.APPROVAL_DIFFERS,
        K.MANAGED_EXCLUSIVE,
        C.SERVER_BLOCKED,
        C.NAME_COLLISION,
        # AgentWorks steps whose provider is claude-code: these settings block the api-bridge.
        C.BRIDGE_BLOCKED,
    ),
    opener=Hook("toolscope.core.systems.claude_code.subject:open_subject"),
    capture=Hook("toolscope.core.systems.coding_cli.capture_offer:capture_plan"),
    prefix="claude-code:",
    markers=(".mcp.json", ".claude/"),
    options=(
        OptionSpec(
            "home",
            ("--home",),
            "claude-code / opencode: the user's home (~/.claude.json, ~/.claude/; ~/.config/opencode, ~/.opencode). Default: $HOME.",
            type="path",
            group=GROUP,
        ),
        OptionSpec(
            "managed_dir",
            ("--managed-dir",),
            "claude-code / opencode: managed settings folder. Default: /etc/claude-code, /etc/opencode.",
            type="path",
            group=GROUP,
        ),
        OptionSpec(
            "client_args",
            ("--client-args",),
            'claude-code / opencode: the flags the session was started with, e.g. "-p --mcp-config f.json --allowedTools mcp__x"; '
            'opencode: "--agent plan -m local/gpt-5".',
            group=GROUP,
        ),
        SNAPSHOT,
        DISCOVER,
    ),
)
