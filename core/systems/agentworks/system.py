"""AgentWorks as the registry lists it (``core.systems.contract``): data only, hooks by name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...model.enums import SharedFinding as S
from ..contract import Hook, OptionSpec, StageSpec, System
from ..shared_options import SNAPSHOT
from .ids import AgentWorksFinding as K
from .ids import AgentWorksInput, AgentWorksStage

GROUP = "AgentWorks"


def sniff_document(data: Mapping[str, Any]) -> str | None:
    """A step config has ``steps`` or ``agent_configs`` (or is one step: not told by its keys)."""
    return AgentWorksInput.STEP_CONFIG if "steps" in data or "agent_configs" in data else None


STAGES = (
    StageSpec(AgentWorksStage.REGISTERED, "registered", "REG"),
    StageSpec(AgentWorksStage.ALLOW_LISTED, "allow-listed", "ALLOW"),
    StageSpec(AgentWorksStage.DISCOVERABLE, "discoverable", "DISC"),
    StageSpec(AgentWorksStage.CALLABLE, "callable", "CALL"),
)

OPTIONS = (
    OptionSpec("step", ("--step",), "Step id, when the config has several steps.", group=GROUP),
    OptionSpec(
        "registry",
        ("--registry", "-r"),
        "Registry file (the tool universe). Default: toolscope.registry.yaml/.yml/.json next to the config.",
        type="path",
        group=GROUP,
    ),
    SNAPSHOT,
    OptionSpec(
        "workflow",
        ("--workflow",),
        "AgentWorks workflow.json. Default: workflow.json next to the step config, or one folder up "
        "for planning/step_config.json.",
        type="path",
        group=GROUP,
    ),
    OptionSpec(
        "origin",
        ("--origin",),
        "Product-manifest registries: who starts the turn (interactive, scheduled, pulse, child, bot, "
        "notification, external_builder), or external: a token-backed caller of the external API.",
        group=GROUP,
    ),
    OptionSpec(
        "client_home",
        ("--client-home",),
        "Step configs with provider claude-code / codex-cli: also check the bridge against that CLI's "
        "own settings in this home.",
        type="path",
        group=GROUP,
    ),
)

SYSTEM = System(
    key="agentworks",
    title="AgentWorks",
    summary="an AgentWorks step config (step_config.json), with its registry",
    input_kinds=(AgentWorksInput.STEP_CONFIG,),
    stages=STAGES,
    finding_kinds=(
        S.DUPLICATE_NAME,
        S.MCP_OUTAGE,
        S.EXPECTATION_FAILED,
        K.ALLOW_LISTED_UNREGISTERED,
        K.REGISTERED_NOT_ALLOW_LISTED,
        K.DEAD_RULE,
        K.BARE_ENTRY,
        K.WHITESPACE_ENTRY,
        K.UNKNOWN_CATEGORY,
        K.SERVER_NOT_SELECTED,
        K.NO_SERVERS_MIXED,
        S.MCP_DRIFT,
        K.ENABLED_FILTERED_OUT,
        K.APP_REWRITE,
        S.UNKNOWN_KEY,
        K.MIXED_ERA,
        K.PRODUCT_MANIFEST,
        K.WORKFLOW_MANIFEST,
        K.WORKFLOW_OVERRIDE,
        K.RETIRED_TOOL,
    ),
    opener=Hook("toolscope.core.systems.agentworks.subject:open_subject"),
    capture=Hook("toolscope.core.systems.agentworks.capture:capture_plan"),
    sniff_document=sniff_document,
    document_hint="an AgentWorks step config (an object with 'steps' or 'agent_configs')",
    misfit=Hook("toolscope.core.systems.agentworks.misfit:registry_as_config"),
    options=OPTIONS,
    notes=("bridge_blocked (coding_cli.bridge) is declared by the CLIs whose settings it reads.",),
)
