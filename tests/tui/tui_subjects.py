"""A small, real Subject for widget tests: registration and per-mode allow lists by hand
(a table of tools made into the shared ``hand_subject.HandSubject``).

Used until (and beside) the real engines; the Pilot and snapshot tests of the final views
use the real samples under ``sample_configs/``.
"""

from __future__ import annotations

from hand_subject import HandSubject

from toolscope.core.model.enums import SharedStage, ToolKind
from toolscope.core.model.verdicts import LoadedInput, Stage, ToolVerdict
from toolscope.core.systems.agentworks.ids import AgentWorksInput, AgentWorksStage

# (namespace, name, kind, registered, modes allowing it)
TOOLS = [
    ("human_tools", "notify_user", "custom", True, {"build"}),
    ("human_tools", "human_feedback", "custom", True, {"build", "run"}),
    ("workspace", "read_file", "custom", True, {"build", "run"}),
    ("workspace", "write_file", "custom", True, {"build"}),
    ("github", "create_issue", "mcp", False, {"build", "run"}),
    ("github", "list_issues", "mcp", True, {"build", "run"}),
    ("virtual", "get_api_spec", "virtual", True, {"build", "run"}),
]
SOURCE = "hand/step_config.json"


def table_subject(tools: list[tuple[str, str, str, bool, set[str]]] | None = None) -> HandSubject:
    """A step config's subject with modes build and run over the table above."""
    loaded = LoadedInput(
        kind=AgentWorksInput.STEP_CONFIG,
        label=SOURCE,
        files=((SOURCE, "0" * 64),),
        step="main",
        registry="hand/toolscope.registry.yaml",
    )
    table = tools if tools is not None else TOOLS
    return HandSubject(loaded, {mode: [_verdict(entry, mode) for entry in table] for mode in ("build", "run")})


def _verdict(entry: tuple[str, str, str, bool, set[str]], mode: str) -> ToolVerdict:
    namespace, name, kind, registered, modes = entry
    stages = [
        Stage(
            SharedStage.REGISTERED,
            registered,
            "filter.wildcard" if registered else "filter.not_selected",
            f"{namespace}:* in selected_tools ({SOURCE})"
            if registered
            else f"{namespace} is not in selected_tools ({SOURCE})",
            f"{namespace}:*" if registered else None,
            SOURCE,
        ),
        Stage(
            AgentWorksStage.ALLOW_LISTED,
            mode in modes,
            "mode.listed" if mode in modes else "mode.not_listed",
            f"{name} is {'in' if mode in modes else 'not in'} the {mode} allow list (modes.py)",
            name if mode in modes else None,
            "modes.py",
        ),
        Stage(AgentWorksStage.DISCOVERABLE, True, "discovery.ok", "listed by discovery"),
        Stage(SharedStage.CALLABLE, True, "exec.ok", "no execution gate"),
    ]
    return ToolVerdict(name, namespace, ToolKind(kind), tuple(stages), description=f"The {name} tool.")
