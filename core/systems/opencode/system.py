"""OpenCode as the registry lists it (``core.systems.contract``): data only, hooks by name."""

from __future__ import annotations

from ...model.enums import SharedFinding as S
from ..coding_cli.options import CLIENT_ARGS
from ..contract import Hook, OptionSpec, StageSpec, System
from ..shared_options import DISCOVER, SNAPSHOT
from .ids import OpenCodeFinding as K
from .ids import OpenCodeInput
from .ids import OpenCodeStage as T

GROUP = "OpenCode"

SYSTEM = System(
    key="opencode",
    title="OpenCode",
    summary="opencode:[DIR]: the tools an OpenCode agent gets in a session in DIR (default: the cwd)",
    input_kinds=(OpenCodeInput.OPENCODE,),
    stages=(
        StageSpec(T.CONFIG, "config", "CONF"),
        StageSpec(T.ENABLED, "enabled", "ENAB"),
        StageSpec(T.CONNECTION, "connection", "CONN"),
        StageSpec(T.NAMING, "naming", "NAME"),
        StageSpec(T.PERMISSION, "permission", "PERM"),
        StageSpec(T.IN_CONTEXT, "in context", "CTX"),
        StageSpec(T.CALLABLE, "callable", "CALL"),
    ),
    finding_kinds=(
        S.DUPLICATE_NAME,
        S.MCP_OUTAGE,
        S.MCP_NOT_STARTED,
        S.EXPECTATION_FAILED,
        K.CONFIG_INVALID,
        K.RULE_MATCHES_NOTHING,
        K.DENY_KEEPS_SCHEMA,
        K.NAME_TOO_LONG,
        K.SLOW_SERVER,
        K.AGENT_FALLBACK,
    ),
    opener=Hook("toolscope.core.systems.opencode.subject:open_subject"),
    capture=Hook("toolscope.core.systems.opencode.capture:capture_plan"),
    prefix="opencode:",
    markers=("opencode.json", "opencode.jsonc", ".opencode/"),
    options=(
        # --home, --client-args and --managed-dir are Claude Code's options too (one flag each):
        # the registry lists the first declaration; OpenCode reads the same values.
        OptionSpec(
            "home", ("--home",), "claude-code / opencode: the user's home. Default: $HOME.", type="path", group=GROUP
        ),
        OptionSpec(
            "managed_dir",
            ("--managed-dir",),
            "managed settings folder (claude-code: /etc/claude-code; opencode: /etc/opencode).",
            type="path",
            group=GROUP,
        ),
        CLIENT_ARGS,
        SNAPSHOT,
        DISCOVER,
    ),
)
