"""AgentScope 2.x as the registry lists it (``core.systems.contract``): data only, hooks by name.

A toolkit spec or factory is opened by whichever AgentScope is installed: the opener gives a
1.x subject when 1.x is installed (``subject.load_toolkit_subject``), so AgentScope 1.x
(``v1/system.py``) shares these input kinds and this opener.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ...model.enums import SharedFinding as S
from ..contract import Hook, OptionSpec, StageSpec, System
from .ids import AgentScopeFinding as K
from .ids import AgentScopeInput, AgentScopeStage

GROUP = "AgentScope"

_FACTORY = re.compile(r"^(?P<target>[\w.]+|.+\.py):(?P<attr>[A-Za-z_][\w.]*)$")


def sniff_target(target: str, path: Path) -> str | None:
    """``package.module:function`` / ``file.py:function`` (a CONFIG that is no file) → toolkit_factory;
    a ``.py`` file without ``:function`` is exit 2 naming its candidate functions."""
    if not path.exists() and _FACTORY.match(target):
        return AgentScopeInput.TOOLKIT_FACTORY
    if path.suffix == ".py" and path.is_file():
        from .factory_hint import factory_needs_function

        raise factory_needs_function(target, path)
    return None


def sniff_document(data: Mapping[str, Any]) -> str | None:
    """A spec has ``groups`` (or says ``kind: toolkit``)."""
    return AgentScopeInput.TOOLKIT_SPEC if "groups" in data or data.get("kind") == "toolkit" else None


GROUPS = OptionSpec(
    "groups",
    ("--groups",),
    "Toolkits: the active groups, comma-separated (replaces the spec's; basic is always active).",
    group=GROUP,
)

SYSTEM = System(
    key="agentscope",
    title="AgentScope 2.x",
    summary="an AgentScope toolkit: a spec (YAML/JSON with groups) or a factory (package.module:function)",
    input_kinds=(AgentScopeInput.TOOLKIT_SPEC, AgentScopeInput.TOOLKIT_FACTORY),
    stages=(
        StageSpec(AgentScopeStage.REGISTERED, "registered", "REG"),
        StageSpec(AgentScopeStage.VISIBLE, "offered", "OFFER"),  # the model is sent its schema (#22)
        StageSpec(AgentScopeStage.CALLABLE, "callable", "CALL"),
    ),
    finding_kinds=(
        S.DUPLICATE_NAME,
        S.MCP_OUTAGE,
        S.EXPECTATION_FAILED,
        K.UNKNOWN_ACTIVE_GROUP,
        K.NEVER_CALLABLE,
        K.EMPTY_GROUP,
        K.GROUP_WITHOUT_DESCRIPTION,
    ),
    opener=Hook("toolscope.core.systems.agentscope.subject:open_subject"),
    capture=Hook("toolscope.core.systems.agentscope.capture_replay:capture_plan"),
    options=(GROUPS,),
    sniff_target=sniff_target,
    sniff_document=sniff_document,
    document_hint="an AgentScope toolkit spec (an object with 'groups'), or a toolkit factory "
    "'package.module:function' / 'path/to/file.py:function'",
)
