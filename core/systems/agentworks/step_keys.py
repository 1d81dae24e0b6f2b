"""Every key AgentWorks' step format has had, and findings for the ones it does not know.

The sets are the JSON tags of the app's ``AgentConfigs`` struct (``planning_agent.go``)
at three commits of coding-agent-loop (reference §2.6): a key in none of them is unknown
to AgentWorks, and Go's ``encoding/json`` drops it without a word, so the step runs as
if it were absent. Keys the struct really had (in any era) stay silent even when
toolscope does not read them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...model.enums import Severity, SharedFinding
from ...model.verdicts import Finding
from ...text.suggest import did_you_mean
from .step_config import LoadedStep

_HEAD = (
    "execution_llm execution_llm_reason execution_tier execution_tier_reason execution_max_turns learning_objective "
    "learnings_access lock_learnings lock_learnings_reason lock_code selected_servers selected_tools "
    "enabled_custom_tools use_code_execution_mode enabled_skills additional_read_paths knowledgebase_access "
    "knowledgebase_contribution disable_parallel_tool_execution coding_agent_tmux_lifecycle successful_runs "
    "declared_execution_mode declared_execution_mode_reason description_reviewed review_notes"
)
_42579DBA = (
    "enable_context_offloading db_access todo_task_orchestrator_tier disable_tier_optimization "
    "learn_code_max_fix_iterations global_skill_objective"
)
_7F547B8E = (
    "validation_llm learning_llm conditional_llm validation_max_turns learning_max_turns "
    "orchestration_max_iterations disable_validation llm_validation_mode disable_learning "
    "learning_after_loop_iteration learning_detail_level enabled_custom_tool_categories use_tool_search_mode "
    "pre_discovered_tools enable_prerequisite_detection prerequisite_rules keep_learning_full disable_temp_llm"
)

AGENT_CONFIGS_KEYS = frozenset(f"{_HEAD} {_42579DBA} {_7F547B8E}".split())
"""``agent_configs`` keys in any era (CAL HEAD ``ba1174ab``, ``42579dba``, ``7f547b8e``)."""
EXECUTION_LLM_KEYS = frozenset({"published_llm_id", "provider", "model_id", "options", "fallbacks"})
"""``AgentLLMConfig`` keys in any era."""
STEP_KEYS = frozenset({"id", "title", "agent_configs", "validation_schema"})
"""Keys of a step object."""
ROOT_KEYS = frozenset({"steps"})
"""Keys of the file's top level."""

# What the four tool fields toolscope reads do when a misspelling leaves them unset.
_ABSENT_EFFECT = {
    "selected_servers": "selected_servers stays empty: no server filtering comes from this step's list",
    "selected_tools": "selected_tools stays empty: no tool-level selection comes from this step's list",
    "enabled_custom_tools": "enabled_custom_tools stays empty: the app's defaults decide the custom tools",
    "use_code_execution_mode": "use_code_execution_mode stays false (unless the provider forces it)",
    "execution_llm": "execution_llm stays unset: no provider is known, so code-execution mode is not forced",
    "provider": "the provider stays unset: code-execution mode is not forced by it",
}


def unknown_key_findings(step: LoadedStep) -> list[Finding]:
    """``unknown_key`` findings for the file's top level and the selected step."""
    data = step.document.data
    name = step.file_name
    out: list[Finding] = []
    if step.index is not None and isinstance(data, dict):
        out += _check(data, ROOT_KEYS, "", name)
        steps = data.get("steps")
        raw_step = steps[step.index] if isinstance(steps, list) and step.index < len(steps) else None
        base = f"steps[{step.index}]"
    else:
        raw_step = data
        base = ""
    if not isinstance(raw_step, dict):
        return out
    out += _check(raw_step, STEP_KEYS, base, name)
    configs = raw_step.get("agent_configs")
    if isinstance(configs, dict):
        where = f"{base}.agent_configs" if base else "agent_configs"
        out += _check(configs, AGENT_CONFIGS_KEYS, where, name)
        llm = configs.get("execution_llm")
        if isinstance(llm, dict):
            out += _check(llm, EXECUTION_LLM_KEYS, f"{where}.execution_llm", name)
    return out


def _check(obj: Mapping[str, Any], known: frozenset[str], where: str, file_name: str) -> list[Finding]:
    out = []
    for key in obj:
        if key in known:
            continue
        location = f"{where}.{key}" if where else key
        out.append(
            Finding(
                SharedFinding.UNKNOWN_KEY,
                _message(key, known, where, obj),
                entry=key,
                source=f"{file_name}: {location}",
                severity=Severity.WARNING,
            )
        )
    return out


def _message(key: str, known: frozenset[str], where: str, obj: Mapping[str, Any]) -> str:
    parent = where.rsplit(".", 1)[-1] if where else "the top level"
    if parent.startswith("steps["):
        parent = "a step"
    text = f'"{key}" is not a key AgentWorks reads in {parent}'
    suggestion: str | None = None
    if parent == "agent_configs" and key in EXECUTION_LLM_KEYS:
        suggestion = f"execution_llm.{key}"
    else:
        close = did_you_mean(key, known, limit=1)
        suggestion = close[0] if close else None
    if suggestion:
        text += f" (did you mean {suggestion}?)"
    text += "; Go's encoding/json drops it, so the step runs as if it were absent"
    effect = _ABSENT_EFFECT.get(suggestion.rsplit(".", 1)[-1]) if suggestion else None
    if effect and suggestion and _present(obj, suggestion):
        effect = f"the step's own {suggestion} is used instead"
    if effect:
        text += f" ({effect})"
    return text


def _present(obj: Mapping[str, Any], dotted: str) -> bool:
    """Whether ``a.b`` is set in ``obj`` (the correctly spelled or placed key)."""
    head, _, rest = dotted.partition(".")
    if head not in obj:
        return False
    return not rest or (isinstance(obj[head], Mapping) and rest in obj[head])
