"""Codex as the registry lists it (``core.systems.contract``): data only, hooks by name."""

from __future__ import annotations

from ...model.enums import FindingKind as K
from ...model.enums import InputKind, StageId
from ..contract import Hook, OptionSpec, StageSpec, System
from ..shared_options import SNAPSHOT

GROUP = "Codex"

SYSTEM = System(
    key="codex",
    title="Codex",
    summary="codex:[DIR]: the MCP servers Codex gives a session in DIR (default: the cwd)",
    input_kinds=(InputKind.CODEX,),
    stages=(
        StageSpec(StageId.LAYER, "layer", "LAYER"),
        StageSpec(StageId.REQUIREMENTS, "requirements", "REQ"),
        StageSpec(StageId.ENABLED, "enabled", "ENAB"),
        StageSpec(StageId.CONNECTION, "connection", "CONN"),
        StageSpec(StageId.TOOL_FILTER, "tool filter", "FILT"),
        StageSpec(StageId.NAMING, "naming", "NAME"),
        StageSpec(StageId.IN_CONTEXT, "in context", "CTX"),
        StageSpec(StageId.APPROVAL_POLICY, "approval", "APPR"),
    ),
    finding_kinds=(
        K.DUPLICATE_NAME,
        K.MCP_OUTAGE,
        K.EXPECTATION_FAILED,
        K.UNTRUSTED_IGNORED,
        K.SERVER_BLOCKED,
        K.NAME_COLLISION,
        # AgentWorks steps whose provider is codex-cli: these settings block the api-bridge.
        K.BRIDGE_BLOCKED,
        K.TOOL_FILTER_MATCHES_NOTHING,
    ),
    opener=Hook("toolscope.core.systems.codex.subject:open_subject"),
    capture=Hook("toolscope.core.systems.coding_cli.capture_offer:capture_plan"),
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
        SNAPSHOT,
    ),
)
