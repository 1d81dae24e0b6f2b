"""Claude Code as the registry lists it (``core.systems.contract``): data only, hooks by name."""

from __future__ import annotations

from ...model.enums import SharedFinding as S
from ..coding_cli.ids import CodingCliFinding as C
from ..coding_cli.options import CLIENT_ARGS
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
        C.SLOW_SERVER,
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
        CLIENT_ARGS,
        SNAPSHOT,
        DISCOVER,
    ),
)
