"""Step-through on AgentScope 1.x: the same ``reset_equipped_tools`` calls, stock and guarded.

1.x keeps activation on the Toolkit, so each lane's state is a ``state_dict()``
(``{"active_groups": [...]}``): before a lane's call the toolkit is loaded with it
(``load_state_dict``), after the call it is read back, and between calls the toolkit
holds its own start flags again. Two lanes, one Toolkit, no shared activation — unlike two
agents built on one Toolkit, which share it.

Every call goes through the real ``toolkit.call_tool_function(ToolUseBlock)``. A 1.x
``ToolUseBlock.input`` is a dict: raw script text is parsed the way 1.x's model wrappers do
(``json_repair``; anything that is not an object becomes ``{}``), and ``LaneTurn.args``
keeps what reached the meta tool. 1.x has no error state: every stock reply is a success to
the agent loop (``accepted``), whatever the text says; the guarded lane is accepted when
the guard's plan is.

The guarded lane's guard is a toolkit middleware (``guard.py``), registered once and
switched off for the stock lane; below 1.0.16 toolscope runs the same guard before the
stock call (``guard_note`` says so).

Public API: like ``..session.StepSession`` (``lanes``, ``history``, ``cursor``, ``at_end``,
``script_position``, ``next_step()``, ``known_groups()``, ``active_groups(lane)``,
``acall``/``aforward``/``back``/``reset``/``arun_all``/``avisible`` and their sync forms,
``to_json()``) plus ``guard_note`` and ``SHARED_TOOLKIT_NOTE``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ....text.clip import clip
from ..planner import ActivationPlan
from ..script import CallStep, RegisterGroupStep, Step
from ..stepping import SessionRunner, Side
from ..turns import LANES, Lane, LaneTurn, Turn, estimate_tokens
from .build import META, BuiltToolkitV1, make_spec_function, v1_api
from .guard import GroupGuardV1, can_install, guard_unavailable_note

SHARED_TOOLKIT_NOTE = (
    "each lane loads its own state_dict into the Toolkit before its call; two agents built on one "
    "Toolkit share one activation instead"
)


def input_of(step: CallStep) -> dict[str, Any]:
    """The dict 1.x's model wrappers would put in ``ToolUseBlock.input`` for this step."""
    if step.args is not None:
        return dict(step.args)
    try:
        value = json.loads(step.raw)
    except ValueError:
        try:
            from json_repair import repair_json  # what 1.x's _json_loads_with_repair uses

            value = json.loads(repair_json(step.raw, stream_stable=True))
        except Exception:  # 1.x returns {} when the repair fails too
            value = {}
    return value if isinstance(value, dict) else {}


def describe(step: Step) -> str:
    """The step as one line, named with 1.x's meta tool."""
    if isinstance(step, CallStep):
        return step.label or f"{META} {step.raw}"
    return step.describe()


class StepSessionV1(SessionRunner):
    """One 1.x Toolkit, two lanes of ``state_dict``s, the script and the turn history."""

    lanes = LANES
    meta_tool = META
    stock_reply_shown = True
    guard_description = (
        "the guard as a Toolkit middleware on reset_equipped_tools: validates names and booleans before 1.x "
        "clears every group; a refusal changes nothing (its reply is text: 1.x has no error state)"
    )

    def __init__(self, built: BuiltToolkitV1, steps: Sequence[Step] = (), start: Sequence[str] | None = None) -> None:
        """Lanes start from ``start`` (default: the toolkit's start groups)."""
        from ..version import installed_version

        self.built = built
        self.toolkit = built.toolkit
        self._start_history(steps)
        self.start = tuple(built.initial_groups if start is None else start)
        self.states: dict[str, tuple[str, ...]] = {lane: self.start for lane in LANES}
        self._plans: list[ActivationPlan] = []
        self.guard = GroupGuardV1(built, observer=self._plans.append, enabled=False)
        self.guard_installed = can_install(self.toolkit)
        self.guard_note = None if self.guard_installed else guard_unavailable_note(installed_version() or "1.x")
        if self.guard_installed:
            self.toolkit.register_middleware(self.guard.middleware)
        else:
            self.guard_description = self.guard_note or ""
        self.notes: tuple[str, ...] = (SHARED_TOOLKIT_NOTE,)
        for _ in self._registrations(set(self.toolkit.groups) | {"basic"}):
            pass  # refuses a name already taken (1.x builds the group when the step runs)

    # -- queries -------------------------------------------------------------
    def describe_step(self, step: Step) -> str:
        return describe(step)

    def known_groups(self) -> tuple[str, ...]:
        """The Toolkit's groups now (script registrations included)."""
        return tuple(self.toolkit.groups)

    def active_groups(self, lane: str) -> tuple[str, ...]:
        """The lane's active groups now."""
        return self.states[lane]

    async def avisible(self, lane: str) -> tuple[tuple[str, ...], int]:
        """Tool names the model is offered in this lane now, and their token estimate."""
        from .stages import offered

        schemas = offered(self.built, self.states[lane])
        return tuple(s["function"]["name"] for s in schemas), estimate_tokens(schemas)

    # -- running -------------------------------------------------------------
    async def _call_lane(self, lane: Lane, step: CallStep) -> LaneTurn:
        args = input_of(step)
        before = self.states[lane]
        self._plans.clear()
        last, after = await self._run_meta(lane, args, before)
        self.states[lane] = after
        text = "".join(b.get("text", "") for b in (last.content if last else []) if b.get("type") == "text")
        plan = self._plans[-1] if lane == "guarded" and self._plans else None
        names, tokens = await self.avisible(lane)
        return LaneTurn(
            lane=lane,
            call=step.raw,
            args=args,
            accepted=plan.accepted if plan is not None else True,
            response_state="success",  # 1.x has no error state: every reply is a success to the agent
            response_text=clip(text),
            groups_before=before,
            groups_after=after,
            visible_tools=names,
            token_estimate=tokens,
            plan=plan,
            state_before={"active_groups": list(before)},
            state_after={"active_groups": list(after)},
        )

    async def _run_meta(self, lane: Lane, args: Any, before: tuple[str, ...]) -> tuple[Any, tuple[str, ...]]:
        """Call the meta tool on the shared Toolkit set to the lane's groups (the guarded lane through
        the guard); returns the last streamed response and the groups after, and puts the Toolkit's
        own groups back."""
        ToolUseBlock = v1_api("agentscope.message", "ToolUseBlock")

        home = self.built.active()
        self.built.set_groups(before)
        self.guard.enabled = lane == "guarded"
        block = ToolUseBlock(type="tool_use", id=f"{lane}-{self.cursor + 1}", name=META, input=args)
        last = None
        try:
            if lane == "guarded" and not self.guard_installed and META in self.toolkit.tools:
                stream = self.guard.run(args, lambda: self.toolkit.call_tool_function(block))
            else:
                stream = await self.toolkit.call_tool_function(block)
            async for response in stream:
                last = response  # accumulated: the last one is the whole reply
            after = self.built.active()
        finally:
            self.guard.enabled = False
            self.built.set_groups(home)
        return last, after

    def _register(self, step: RegisterGroupStep) -> None:
        group = step.group
        self.toolkit.create_tool_group(group.name, group.description or "", active=False, notes=group.instructions)
        for tool in group.tools:
            self.toolkit.register_tool_function(
                make_spec_function(tool),
                group_name=group.name,
                json_schema={
                    "type": "function",
                    "function": {
                        "name": tool.name,
                        "description": tool.description or tool.name,
                        "parameters": tool.input_schema(),
                    },
                },
            )

    def _register_group(self, step: RegisterGroupStep, script_index: int | None) -> RegisterGroupStep:
        self._register(step)
        return step  # 1.x's undo needs only the name; redo registers the step again

    def _lane_state(self, lane_turn: LaneTurn, side: Side) -> tuple[str, ...]:
        return lane_turn.groups_before if side == "before" else lane_turn.groups_after

    def _apply_registration(self, turn: Turn, side: Side) -> None:
        name = turn.group_name or ""
        if side == "before":
            for tool in [n for n, t in self.toolkit.tools.items() if t.group == name]:
                self.toolkit.remove_tool_function(tool)
            self.toolkit.groups.pop(name, None)
        elif name not in self.toolkit.groups:
            self._register(turn.group)
