"""GroupActivationGuard: a ``ToolMiddlewareBase`` that plans a ``reset_tools`` call before
AgentScope applies it (seed ``000_…``).

- filters the injected ``_agent_state`` out of the arguments and plans the call with
  :func:`toolscope.core.systems.agentscope.planner.plan_activation`;
- refused: yields one ERROR chunk with the plan's summary and returns **without calling
  next_handler**, so the stock tool never runs and the state is untouched;
- accepted: delegates, then annotates the result with the diff that actually happened
  (an extra text chunk, plus ``metadata["toolscope_guard"]``).

Known groups are read through a callable on every call, so a group registered after the
guard was installed is known (``install_guard`` passes ``toolkit.tool_groups`` itself).

Public API::

    GroupActivationGuard(known_groups: Callable[[], Iterable[str]],
                         observer: Callable[[ActivationPlan], None] | None = None)
    build_guarded_meta_tool(toolkit, guard) -> RegisteredTool
    install_guard(toolkit, observer=None) -> GroupActivationGuard

AgentScope is imported when this module is imported (the class must subclass
``ToolMiddlewareBase``); import this module lazily.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable, Iterable
from typing import Any

from agentscope.message import TextBlock, ToolResultState
from agentscope.tool import RegisteredTool, ResetTools, ToolChunk, ToolMiddlewareBase

from .call_notes import STATE_KWARG  # the keyword AgentScope injects the live AgentState under
from .planner import (
    ActivationPlan,
    diff_groups,
    diff_text,
    plan_activation,
)


class GroupActivationGuard(ToolMiddlewareBase):
    """Validate group names and boolean values before ``reset_tools`` runs."""

    def __init__(
        self,
        known_groups: Callable[[], Iterable[str]],
        observer: Callable[[ActivationPlan], None] | None = None,
    ) -> None:
        super().__init__()
        self._known_groups = known_groups
        self.observer = observer
        """Called with every plan (the step-through session records them)."""
        self.last_plan: ActivationPlan | None = None
        self.last_input: dict[str, Any] | None = None
        """The arguments of the last call as the guard received them (after ``call_tool``'s parsing)."""

    # AgentScope's stub declares a coroutine returning a generator; the toolkit calls it as an
    # async generator (``async for``), which is what this is.
    async def on_tool_call(  # type: ignore[override]
        self,
        tool: Any,
        input_kwargs: dict[str, Any],
        next_handler: Callable[..., AsyncGenerator[ToolChunk, None]],
    ) -> AsyncGenerator[ToolChunk, None]:
        """Plan the call; refuse it (one ERROR chunk, stock tool not run) or run it and report the diff."""
        state = input_kwargs.get(STATE_KWARG)
        requested = {k: v for k, v in input_kwargs.items() if k != STATE_KWARG}
        self.last_input = dict(requested)
        before = tuple(state.tool_context.activated_groups) if state is not None else ()
        plan = plan_activation(requested, known_groups=self._known_groups(), before=before)
        self.last_plan = plan
        if self.observer is not None:
            self.observer(plan)

        if not plan.accepted:
            yield ToolChunk(
                content=[TextBlock(type="text", text=plan.summary())],
                state=ToolResultState.ERROR,
                metadata={"toolscope_guard": plan.to_json()},
            )
            return  # never delegate: the stock tool's first statement may be clear()

        failed = False
        async for chunk in next_handler(**input_kwargs):
            if chunk.state == ToolResultState.ERROR:
                failed = True
            yield chunk
        if failed or state is None:
            return
        # Report what actually happened, not what was planned: they agree unless the
        # stock tool changed its contract, and then the truth is what matters.
        actual = tuple(state.tool_context.activated_groups)
        activated, deactivated, kept = diff_groups(before, actual)
        yield ToolChunk(
            content=[TextBlock(type="text", text="\n[guard] " + diff_text(activated, deactivated, kept))],
            state=ToolResultState.SUCCESS,
            metadata={"toolscope_guard": plan.to_json()},
        )


def known_group_reader(toolkit: Any) -> Callable[[], tuple[str, ...]]:
    """A callable reading the toolkit's live group list (later groups included)."""
    groups = toolkit.tool_groups  # the same list object the toolkit mutates

    def read() -> tuple[str, ...]:
        return tuple(g.name for g in groups if g.name != "basic")

    return read


class _GuardedMetaTool(ResetTools):
    """``reset_tools`` with the guard outside and the toolkit's own meta tool inside.

    The inner tool is called through its public ``__call__``, so the middlewares a user put
    on it (a DENY, a logger) still run, inside the guard: the guard wraps the user's chain
    instead of replacing it. Schema (from ``groups``) and permission follow the inner tool.
    """

    def __init__(self, inner: Any, toolkit: Any, guard: GroupActivationGuard) -> None:
        super().__init__(
            groups=toolkit.tool_groups,
            response_template=toolkit.meta_tool_response_template,
            middlewares=[guard],
        )
        self._inner = inner

    async def check_permissions(self, tool_input: dict[str, Any], context: Any) -> Any:
        """The inner tool decides (stock: always allowed)."""
        return await self._inner.check_permissions(tool_input, context)

    async def call(self, **kwargs: Any) -> AsyncGenerator[ToolChunk, None]:  # type: ignore[override]
        """Run the inner tool with its own middleware chain; pass its chunks on."""
        result = await self._inner(**kwargs)
        if hasattr(result, "__aiter__"):
            async for chunk in result:
                yield chunk
        else:
            yield result


def build_guarded_meta_tool(toolkit: Any, guard: GroupActivationGuard) -> Any:
    """A ``reset_tools`` with the guard around the toolkit's current meta tool.

    ``groups=toolkit.tool_groups`` is load-bearing: ResetTools re-reads that list for its
    schema on every access, so passing a copy would freeze the schema. The current meta
    tool (``toolkit.builtin_meta_tool.tool``: stock, or the user's own with middlewares)
    runs inside the guard.
    """
    return RegisteredTool(tool=_GuardedMetaTool(toolkit.builtin_meta_tool.tool, toolkit, guard))


def install_guard(toolkit: Any, observer: Callable[[ActivationPlan], None] | None = None) -> GroupActivationGuard:
    """Replace the toolkit's meta tool with a guarded one; returns the guard."""
    guard = GroupActivationGuard(known_group_reader(toolkit), observer=observer)
    toolkit.builtin_meta_tool = build_guarded_meta_tool(toolkit, guard)
    return guard
