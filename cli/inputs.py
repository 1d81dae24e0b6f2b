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

from ..core.model.enums import InputKind
from ..core.model.errors import InputError, Problem
from ..core.model.subject import Subject
from .client_options import CLAUDE_ONLY, CLI_ONLY, CODEX_ONLY, ClientOptions
from .input_kind import cli_target, detect_kind

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
    if step is not None or detect_kind(target) != InputKind.STEP_CONFIG:
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
    discover: bool = False,
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
        discover=_discover(discover, snapshot),
    )


def _discover(discover: bool, snapshot: Path | None) -> bool:
    """``--discover``, refused beside ``--snapshot`` (the one lists tools by running the servers, the
    other from a saved listing)."""
    if discover and snapshot is not None:
        raise InputError(
            "--discover", "starts the servers to list their tools; --snapshot reads a saved listing: give one"
        )
    return discover


def open_subject(
    target: str,
    *,
    step: str | None = None,
    registry: Path | None = None,
    groups: list[str] | None = None,
    snapshot: Path | None = None,
    discover: bool = False,
    workflow: Path | None = None,
    origin: str | None = None,
    client: ClientOptions | None = None,
) -> Subject:
    """Load CONFIG as a Subject; options that don't apply to its kind are rejected."""
    client = client or ClientOptions()
    kind = detect_kind(target)
    if kind in (InputKind.CLAUDE_CODE, InputKind.CODEX):
        other_kinds = {"--step": step, "--registry": registry, "--groups": groups, "--workflow": workflow}
        other_kinds |= {"--origin": origin, "--client-home": client.client_home}
        refuse_given(other_kinds.items(), f"does not apply to {target.partition(':')[0]}: inputs")
        return _open_cli(target, kind, client, snapshot, _discover(discover, snapshot))
    client.refuse(CLI_ONLY)
    if kind == InputKind.STEP_CONFIG:
        refuse_given([("--groups", groups)], "applies to AgentScope toolkits, not step configs")
        from ..core.systems.agentworks.subject import load_agentworks_subject

        return load_agentworks_subject(
            Path(target),
            step=step,
            registry=registry,
            snapshot=snapshot,
            workflow=workflow,
            origin=origin,
            client_home=client.client_home,
            discover=_discover(discover, snapshot),
        )
    refuse_given(
        [("--client-home", client.client_home)],
        "applies to AgentWorks step configs whose provider is claude-code or codex-cli",
    )
    refuse_given(
        [("--workflow", workflow), ("--origin", origin), ("--step", step), ("--registry", registry)],
        "applies to AgentWorks step configs, not toolkits",
    )
    refuse_given(
        [("--snapshot", snapshot), ("--discover", discover or None)],
        "applies to AgentWorks step configs whose registry has mcp_config, not toolkits",
    )
    from ..core.systems.agentscope.subject import load_toolkit_subject

    return load_toolkit_subject(target, kind=kind, groups=groups)


def _open_cli(
    target: str,
    kind: InputKind,
    client: ClientOptions,
    snapshot: Path | None,
    discover: bool,
) -> Subject:
    """``claude-code:DIR`` or ``codex:DIR``; the other CLI's options are rejected."""
    found = cli_target(target)
    assert found is not None
    directory = found[1]
    if kind == InputKind.CLAUDE_CODE:
        client.refuse(CODEX_ONLY, "applies to codex:DIR, not claude-code:DIR")
        from ..core.systems.claude_code.subject import load_claude_code_subject

        return load_claude_code_subject(
            directory,
            home=client.home,
            managed_dir=client.managed_dir,
            client_args=client.client_args,
            snapshot=snapshot,
            discover=discover,
        )
    client.refuse(CLAUDE_ONLY, "applies to claude-code:DIR, not codex:DIR")
    from ..core.systems.codex.subject import load_codex_subject

    return load_codex_subject(
        directory,
        codex_home=client.codex_home,
        system_dir=client.codex_system_dir,
        overrides=client.codex_config,
        snapshot=snapshot,
        discover=discover,
    )
