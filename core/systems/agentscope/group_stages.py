"""The registered and visible stages of a tool in a group: one decision for AgentScope 2.x and 1.x.

Both versions decide visibility alike: a tool of an always-on group is visible (and must be
among the offered schemas), a tool of an active group is visible (the same cross-check), any
other tool is hidden until the meta tool activates its group. What differs is where the
activation lives and what it is called: 2.x reads ``state.tool_context.activated_groups`` and
``get_tool_schemas``, 1.x reads ``toolkit.groups[g].active`` and ``get_json_schemas()``, and
1.x's meta tool may not be registered at all. A ``GroupWords`` subclass per version
(``stages.Words2x``, ``v1.stages.Words1x``) holds those differences; the texts it produces
are the stages' reasons, so they are what goldens and snapshots show.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model.enums import RuleCode
from ...model.verdicts import Stage
from .ids import AgentScopeStage

if TYPE_CHECKING:
    from .stages import ToolEntry


class GroupWords:
    """How one AgentScope version names what the visible stage reads (overridden per version)."""

    schemas = ""
    """The toolkit call that lists what the model is offered."""
    missing_hint = ""
    """Added when an always-on tool is not offered (a guess at why)."""
    always_on_source = ""
    always_on_missing_source = ""

    def always_on(self, entry: ToolEntry) -> str | None:
        """The rule that makes ``entry`` visible whatever is active; None: it depends on its group."""
        return "group 'basic' is always active" if entry.group == "basic" else None

    def state(self, group: str, active: tuple[str, ...], on: bool) -> tuple[str, str]:
        """The activation as the reason shows it in parentheses, and the stage's source."""
        raise NotImplementedError

    def how(self, group: str, active: tuple[str, ...], armed: bool) -> str:
        """What would make ``group`` active (``armed``: the model can call the meta tool)."""
        raise NotImplementedError


def member_stage(entry: ToolEntry, via: str, source: str | None) -> Stage:
    """Registered: ``entry`` is a member of its group (``via`` says how it got there)."""
    where = f"group '{entry.group}'" if entry.group != "basic" else "the basic group"
    return Stage(
        AgentScopeStage.REGISTERED,
        True,
        "group.member",
        f"registered in {where}{via}",
        entry=entry.group,
        source=source,
    )


def visible_stage(
    entry: ToolEntry, active: tuple[str, ...], offered: set[str], armed: bool, words: GroupWords
) -> Stage:
    """Visible: ``entry``'s group is always on or active (and the tool offered), in ``words``."""
    rule = words.always_on(entry)
    if rule is not None:
        if entry.name not in offered:
            # e.g. a later tool of the same name in an active group overwrote it
            return Stage(
                AgentScopeStage.VISIBLE,
                None,
                "schema.missing",
                f"{rule}, but {words.schemas} does not list it{words.missing_hint}",
                entry="basic",
                source=words.always_on_missing_source,
            )
        return Stage(AgentScopeStage.VISIBLE, True, "group.basic", rule, entry="basic", source=words.always_on_source)
    group = entry.group
    on = group in active
    shown, source = words.state(group, active, on)
    if not on:
        return Stage(
            AgentScopeStage.VISIBLE,
            False,
            RuleCode.GROUP_INACTIVE,
            f"group '{group}' is not active ({shown}); {words.how(group, active, armed)}",
            entry=group,
            source=source,
        )
    if entry.name not in offered:
        return Stage(
            AgentScopeStage.VISIBLE,
            None,
            "schema.missing",
            f"group '{group}' is active but {words.schemas} does not list '{entry.name}'",
            entry=group,
            source=source,
        )
    return Stage(
        AgentScopeStage.VISIBLE,
        True,
        "group.active",
        f"group '{group}' is active ({shown})",
        entry=group,
        source=source,
    )
