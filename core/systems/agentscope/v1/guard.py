"""The activation guard on AgentScope 1.x: a ``Toolkit.register_middleware`` (1.0.16+).

1.x's ``reset_equipped_tools`` clears every group *before* it validates: a misspelled name
leaves everything off while the reply claims it was activated, and a non-boolean clears
everything and answers "Invalid arguments". 1.x has no error state (``ToolResponse`` has no
state field), so a refusal can only be text. The guard plans the call with the shared
pure planner (``..planner``) and, when it refuses, answers the plan's summary **without
calling the next handler**: the stock method never runs, every flag stays as it was.

Only a toolkit-wide middleware sees the call early enough: ``postprocess_func`` runs after
the reset, and an agent's ``pre_acting`` hook can only rewrite arguments. Registered with
the public ``register_middleware`` it is appended, i.e. it runs after the user's own
middlewares (a logger or a DENY the user registered still sees and decides every call).
``Toolkit.register_middleware`` first appeared in 1.0.16 (PR #1232): below that,
``GUARD_UNAVAILABLE`` says the guard cannot be installed.

Public API::

    GroupGuardV1(built, observer=None, enabled=True)   # .middleware(kwargs, next_handler)
    can_install(toolkit) -> bool
    install_guard_v1(built, observer=None) -> GroupGuardV1      # GuardUnavailable below 1.0.16
    guard_unavailable_note(version) -> str
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from typing import Any

from ..planner import ActivationPlan, diff_groups, diff_text, plan_activation
from .build import META, BuiltToolkitV1, v1_api


class GuardUnavailable(RuntimeError):
    """The installed 1.x Toolkit has no register_middleware (before 1.0.16)."""


def can_install(toolkit: Any) -> bool:
    """``Toolkit.register_middleware`` exists (AgentScope 1.0.16+)."""
    return callable(getattr(toolkit, "register_middleware", None))


def guard_unavailable_note(version: str) -> str:
    """What the guarded lane is on a 1.x without middleware."""
    return (
        f"agentscope {version} has no Toolkit.register_middleware (added in 1.0.16): the guard cannot be "
        "installed in an agent there; the guarded lane shows what it would do, run by toolscope before the stock call"
    )


class GroupGuardV1:
    """Plan every ``reset_equipped_tools`` call; refuse (text only) or delegate and annotate."""

    def __init__(
        self,
        built: BuiltToolkitV1,
        observer: Callable[[ActivationPlan], None] | None = None,
        enabled: bool = True,
    ) -> None:
        self.built = built
        self.observer = observer
        self.enabled = enabled
        """False lets every call through untouched (a step session turns it on only for its
        guarded lane's call, so a session's guard left on a toolkit is inert)."""
        self.last_plan: ActivationPlan | None = None

    def plan(self, requested: dict[str, Any]) -> ActivationPlan:
        """Plan against the toolkit's live groups (later ones included) and its flags now."""
        plan = plan_activation(
            requested, known_groups=list(self.built.toolkit.groups), before=self.built.active(), meta_tool=META
        )
        self.last_plan = plan
        if self.observer is not None:
            self.observer(plan)
        return plan

    async def middleware(self, kwargs: dict[str, Any], next_handler: Callable[..., Any]) -> AsyncGenerator[Any, None]:
        """The ``register_middleware`` signature: ``kwargs == {"tool_call": ToolUseBlock}``."""
        call = kwargs.get("tool_call") or {}
        if not self.enabled or call.get("name") != META or META not in self.built.toolkit.tools:
            async for response in await next_handler(**kwargs):
                yield response
            return
        async for response in self.run(dict(call.get("input") or {}), lambda: next_handler(**kwargs)):
            yield response

    async def run(self, requested: dict[str, Any], delegate: Callable[[], Any]) -> AsyncGenerator[Any, None]:
        """Refuse without delegating, or delegate and add the diff that really happened."""
        TextBlock = v1_api("agentscope.message", "TextBlock")
        ToolResponse = v1_api("agentscope.tool", "ToolResponse")

        before = self.built.active()
        plan = self.plan(requested)
        if not plan.accepted:
            yield ToolResponse(
                content=[TextBlock(type="text", text=plan.summary())], metadata={"toolscope_guard": plan.to_json()}
            )
            return  # never delegate: the stock method's first statement clears every group
        last = None
        async for response in await delegate():
            last = response
            yield response
        activated, deactivated, kept = diff_groups(before, self.built.active())
        content = list(last.content) if last is not None else []
        content.append(TextBlock(type="text", text="\n[guard] " + diff_text(activated, deactivated, kept)))
        yield ToolResponse(content=content, metadata={"toolscope_guard": plan.to_json()})


def install_guard_v1(built: BuiltToolkitV1, observer: Callable[[ActivationPlan], None] | None = None) -> GroupGuardV1:
    """Register the guard as the toolkit's last middleware; GuardUnavailable before 1.0.16."""
    if not can_install(built.toolkit):
        raise GuardUnavailable("Toolkit.register_middleware needs AgentScope 1.0.16 or later")
    guard = GroupGuardV1(built, observer)
    built.toolkit.register_middleware(guard.middleware)
    return guard
