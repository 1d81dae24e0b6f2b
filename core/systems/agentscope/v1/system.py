"""AgentScope 1.x as the registry lists it (``core.systems.contract``).

It shares AgentScope 2.x's input kinds, opener and capture comparison (``..system``): the
installed major version decides which model a toolkit gets.
"""

from __future__ import annotations

from ....model.enums import SharedFinding as S
from ...contract import StageSpec, System
from ..ids import AgentScopeFinding as K
from ..ids import AgentScopeStage
from ..system import GROUPS
from ..system import SYSTEM as AGENTSCOPE2

SYSTEM = System(
    key="agentscope1",
    title="AgentScope 1.x",
    summary="the same toolkits when AgentScope 1.x is installed (groups on the Toolkit, reset_equipped_tools)",
    input_kinds=AGENTSCOPE2.input_kinds,
    stages=(
        StageSpec(AgentScopeStage.REGISTERED, "registered", "REG"),
        StageSpec(AgentScopeStage.VISIBLE, "offered", "OFFER"),
    ),
    finding_kinds=(
        S.DUPLICATE_NAME,
        S.MCP_OUTAGE,
        S.EXPECTATION_FAILED,
        K.META_TOOL_MISSING,
        K.UNKNOWN_GROUP_ACTIVATED,
    ),
    opener=AGENTSCOPE2.opener,
    capture=AGENTSCOPE2.capture,
    options=(GROUPS,),
    notes=("Opened through AgentScope 2.x's opener: the installed AgentScope decides.",),
)
