"""Codex as the registry lists it (``core.systems.contract``): data only, hooks by name."""

from __future__ import annotations

from ...model.enums import SharedFinding as S
from ..coding_cli.ids import CodingCliFinding as C
from ..coding_cli.options import CLIENT_ARGS
from ..contract import Hook, OptionSpec, StageSpec, System
from ..shared_options import DISCOVER, SNAPSHOT
from .ids import CodexFinding as K
from .ids import CodexInput, CodexStage

GROUP = "Codex"

SYSTEM = System(
    key="codex",
    title="Codex",
    summary="codex:[DIR]: the MCP servers Codex gives a session in DIR (default: the cwd)",
    input_kinds=(CodexInput.CODEX,),
    stages=(
        StageSpec(CodexStage.LAYER, "layer", "LAYER"),
        StageSpec(CodexStage.REQUIREMENTS, "requirements", "REQ"),
        StageSpec(CodexStage.ENABLED, "enabled", "ENAB"),
        StageSpec(CodexStage.CONNECTION, "connection", "CONN"),
        StageSpec(CodexStage.TOOL_FILTER, "tool filter", "FILT"),
        StageSpec(CodexStage.NAMING, "naming", "NAME"),
        StageSpec(CodexStage.IN_CONTEXT, "in context", "CTX"),
        StageSpec(CodexStage.APPROVAL_POLICY, "approval", "APPR"),
    ),
    finding_kinds=(
        S.DUPLICATE_NAME,
        S.MCP_OUTAGE,
        S.MCP_NOT_STARTED,
        S.EXPECTATION_FAILED,
        C.UNTRUSTED_IGNORED,
        C.SERVER_BLOCKED,
        C.NAME_COLLISION,
        C.SLOW_SERVER,
        # AgentWorks steps whose provider is codex-cli: these settings block the api-bridge.
        C.BRIDGE_BLOCKED,
        K.TOOL_FILTER_MATCHES_NOTHING,
        K.REQUIRED_SERVER_FAILED,
        K.CONFIG_REFUSED,
        K.ENV_NOT_PASSED,
    ),
    opener=Hook("toolscope.core.systems.codex.subject:open_subject"),
    capture=Hook("toolscope.core.systems.codex.capture:capture_plan"),
    prefix="codex:",
    markers=(".codex/",),
    options=(
        OptionSpec(
            "codex_home",
            ("--codex-home",),
            "codex: CODEX_HOME (config.toml). Default: $CODEX_HOME or ~/.codex.",
            type="path",
            group=GROUP,
        ),
        OptionSpec(
            "codex_system_dir",
            ("--codex-system-dir",),
            "codex: the system folder. Default: /etc/codex.",
            type="path",
            group=GROUP,
        ),
        OptionSpec(
            "codex_config",
            ("--codex-override", "-c"),
            "Codex's own -c KEY=VALUE: one setting overridden for the session, as `codex -c` takes it "
            "(VALUE parsed as TOML); repeatable. Not a file.",
            type="str_list",
            group=GROUP,
        ),
        CLIENT_ARGS,
        SNAPSHOT,
        DISCOVER,
    ),
)
