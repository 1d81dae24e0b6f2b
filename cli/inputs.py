"""Open what the user gave as a ``Subject`` (or every step of a workflow), refusing the options
that do not apply to its kind (which kind it is: ``input_kind``).

``CONFIG`` may be an AgentWorks step config (``{"steps": [...]}`` or one step), an
AgentScope toolkit spec (YAML/JSON with ``groups``), a toolkit factory
(``package.module:function`` or ``path/to/file.py:function``), or a coding-agent CLI's
project: ``claude-code:[PROJECT_DIR]`` or ``codex:[PROJECT_DIR]`` (default: the cwd).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..core.model.errors import InputError, Problem
from ..core.model.subject import Subject
from ..core.systems.agentworks.ids import AgentWorksInput
from ..core.systems.agentworks.load_request import StepConfigLoad
from ..core.systems.contract import OpenRequest, System
from .client_options import ClientOptions
from .input_kind import detect_kind, recognise

if TYPE_CHECKING:
    from ..core.systems.agentworks.step_config import Step
    from ..core.systems.agentworks.subject import AgentWorksSubject


def workflow_steps(
    target: str, *, step: str | None, groups: list[str] | None, client: ClientOptions
) -> tuple[Step, ...] | None:
    """The steps of a step config with several steps, when no --step picks one (None otherwise),
    after refusing the options no step config takes. The whole-workflow answers and the TUI's
    step picker start here."""
    if step is not None or detect_kind(target) != AgentWorksInput.STEP_CONFIG:
        return None
    from ..core.systems.agentworks.step_config import steps_to_choose

    steps = steps_to_choose(Path(target))
    if not steps:
        return None
    from ..core.systems.registry import system_of_kind

    refuse_foreign(system_of_kind(AgentWorksInput.STEP_CONFIG), {"groups": groups, **client.given_values()})
    return steps


def open_workflow(
    target: str,
    *,
    step: str | None,
    registry: Path | None = None,
    groups: list[str] | None = None,
    snapshot: Path | None = None,
    workflow: Path | None = None,
    origin: str | None = None,
    client: ClientOptions | None = None,
    capture: Path | None = None,
    one_step: tuple[str, str] | None = None,
) -> list[AgentWorksSubject] | None:
    """Every step of a step config with several steps, when no --step picks one; None otherwise
    (then ``open_subject`` answers for one step or one toolkit).

    ``one_step`` is (flag, why) for an option that answers for one step only (``--format svg``):
    with it, a config with several steps and no ``--step`` is exit 2 before anything is loaded."""
    client = client or ClientOptions()
    steps = workflow_steps(target, step=step, groups=groups, client=client)
    if steps is None:
        return None
    ids = [Problem("", "step ids: " + ", ".join(s.id for s in steps))]
    if one_step is not None:
        raise InputError(one_step[0], f"{one_step[1]}: give --step ID", ids)
    if capture is not None:
        # A capture records one agent's requests, and one step is one agent: comparing it with
        # every step would report every other step as a disagreement.
        raise InputError(
            "--capture", "compares one step's prediction with what its model received: give --step ID", ids
        )
    from ..core.systems.agentworks.subject import load_workflow_subjects

    return load_workflow_subjects(
        StepConfigLoad(
            Path(target),
            registry=registry,
            snapshot=snapshot,
            workflow=workflow,
            origin=origin,
            client_home=client.client_home,
        )
    )


def open_subject(
    target: str,
    *,
    step: str | None = None,
    registry: Path | None = None,
    groups: list[str] | None = None,
    snapshot: Path | None = None,
    workflow: Path | None = None,
    origin: str | None = None,
    client: ClientOptions | None = None,
    others: dict[str, object] | None = None,
) -> Subject:
    """Load CONFIG as a Subject through its system's opener; options that don't apply to its kind are
    rejected (``others``: the options of systems registered beyond the built-in ones)."""
    client = client or ClientOptions()
    found = recognise(target)
    given: dict[str, object] = {"step": step, "registry": registry, "groups": groups, "snapshot": snapshot}
    given |= {"workflow": workflow}
    given |= {"origin": origin, **client.given_values(), **(others or {})}
    refuse_foreign(found.system, given)
    return found.system.opener(OpenRequest(target, found.kind, found.path, given))  # type: ignore[no-any-return]


def refuse_foreign(system: System, given: dict[str, object]) -> None:
    """Exit 2 on the first option given that ``system`` does not declare, naming the systems
    that do (``--step: is an AgentWorks option, and CONFIG is a Codex input``)."""
    declared = {option.name for option in system.options}
    for name, value in given.items():
        if value is not None and value != () and name not in declared:
            raise _foreign(name, system)


def _foreign(name: str, system: System) -> InputError:
    """The error for option ``name`` given with an input of ``system``, which does not declare it."""
    from ..core.systems.registry import systems

    owners = [s for s in systems() if any(o.name == name for o in s.options)]
    flag = next((o.flag for s in owners for o in s.options if o.name == name), "--" + name.replace("_", "-"))
    whose = " / ".join(s.title + (f" ({s.prefix}DIR)" if s.prefix else "") for s in owners) or "no modelled system's"
    title = system.title
    return InputError(flag, f"is {_article(whose)} {whose} option, and CONFIG is {_article(title)} {title} input")


def _article(word: str) -> str:
    return "an" if word[:1] in "AEIOU" else "a"
