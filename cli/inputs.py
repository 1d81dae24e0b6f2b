"""Open what the user gave as a ``Subject`` (or every step of a workflow), refusing the options
that do not apply to its kind (which kind it is: ``input_kind``).

``CONFIG`` may be an AgentWorks step config (``{"steps": [...]}`` or one step), an
AgentScope toolkit spec (YAML/JSON with ``groups``), a toolkit factory
(``package.module:function`` or ``path/to/file.py:function``), or a coding-agent CLI's
project: ``claude-code:[PROJECT_DIR]`` or ``codex:[PROJECT_DIR]`` (default: the cwd).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.model.errors import InputError, Problem
from ..core.model.subject import Subject
from ..core.systems.agentscope.ids import AgentScopeInput
from ..core.systems.agentworks.ids import AgentWorksInput
from ..core.systems.claude_code.ids import ClaudeInput
from ..core.systems.codex.ids import CodexInput
from ..core.systems.contract import OpenRequest, System
from .client_options import CLAUDE_ONLY, CLI_ONLY, CODEX_ONLY, ClientOptions
from .input_kind import Recognised, detect_kind, recognise

if TYPE_CHECKING:
    from ..core.systems.agentworks.step_config import Step
    from ..core.systems.agentworks.subject import AgentWorksSubject


def refuse_given(options: Iterable[tuple[str, object]], why: str) -> None:
    """Exit 2 on the first (flag, value) given (not None); ``why`` says where it applies."""
    for flag, value in options:
        if value is not None:
            raise InputError(flag, why)


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
    refuse_given([("--groups", groups)], "applies to AgentScope toolkits, not step configs")
    client.refuse(CLI_ONLY)
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
        Path(target),
        registry=registry,
        snapshot=snapshot,
        workflow=workflow,
        origin=origin,
        client_home=client.client_home,
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
) -> Subject:
    """Load CONFIG as a Subject through its system's opener; options that don't apply to its kind are rejected."""
    client = client or ClientOptions()
    found = recognise(target)
    given = {"step": step, "registry": registry, "groups": groups, "snapshot": snapshot, "workflow": workflow}
    given |= {"origin": origin, **{name: getattr(client, name) for name in _CLIENT_FIELDS}}
    _refuse_builtin(found, given, client)
    _refuse_foreign(found.system, given)
    return found.system.opener(OpenRequest(target, found.kind, found.path, given))  # type: ignore[no-any-return]


_CLIENT_FIELDS = ("home", "managed_dir", "client_args", "codex_home", "codex_system_dir", "codex_config", "client_home")


def _refuse_builtin(found: Recognised, given: dict[str, object], client: ClientOptions) -> None:
    """The built-in inputs' own refusals, each saying where the option applies."""
    kind = found.kind
    if kind in (ClaudeInput.CLAUDE_CODE, CodexInput.CODEX):
        other_kinds = {f"--{n.replace('_', '-')}": given[n] for n in ("step", "registry", "groups", "workflow")}
        other_kinds |= {"--origin": given["origin"], "--client-home": client.client_home}
        refuse_given(other_kinds.items(), f"does not apply to {found.system.prefix} inputs")
        if kind == ClaudeInput.CLAUDE_CODE:
            client.refuse(CODEX_ONLY, "applies to codex:DIR, not claude-code:DIR")
        else:
            client.refuse(CLAUDE_ONLY, "applies to claude-code:DIR, not codex:DIR")
        return
    if kind not in (AgentWorksInput.STEP_CONFIG, AgentScopeInput.TOOLKIT_SPEC, AgentScopeInput.TOOLKIT_FACTORY):
        return
    client.refuse(CLI_ONLY)
    if kind == AgentWorksInput.STEP_CONFIG:
        refuse_given([("--groups", given["groups"])], "applies to AgentScope toolkits, not step configs")
        return
    refuse_given(
        [("--client-home", client.client_home)],
        "applies to AgentWorks step configs whose provider is claude-code or codex-cli",
    )
    refuse_given(
        [(f"--{n}", given[n]) for n in ("workflow", "origin", "step", "registry")],
        "applies to AgentWorks step configs, not toolkits",
    )
    refuse_given(
        [("--snapshot", given["snapshot"])],
        "applies to AgentWorks step configs whose registry has mcp_config, not toolkits",
    )


def _refuse_foreign(system: System, given: dict[str, object]) -> None:
    """Any option given that ``system`` does not declare: exit 2 naming the systems it belongs to."""
    from ..core.systems.registry import systems

    declared = {option.name for option in system.options}
    for name, value in given.items():
        if value in (None, ()) or name in declared:
            continue
        owners = [s.title for s in systems() if any(o.name == name for o in s.options)]
        flag = next((o.flag for s in systems() for o in s.options if o.name == name), "--" + name.replace("_", "-"))
        raise InputError(flag, f"applies to {' / '.join(owners) or 'no system'} inputs, not {system.title}")
