"""Where a command's subject comes from: the options ``check``, ``tools``, ``explain``, ``report``
and ``inspect`` share, declared once.

A command takes one ``subject_options: SubjectOptions`` parameter and is decorated with
``with_subject_options``: Typer then sees each option of ``OPTIONS`` in that parameter's place
(so ``--help`` lists them there), and the command gets them back as one ``SubjectOptions``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..client_options import ClientOptions
from ..system_options import declarations
from .common import split_groups

if TYPE_CHECKING:
    from ...core.model.subject import Subject
    from ...core.systems.agentworks.step_config import Step
    from ...core.systems.agentworks.subject import AgentWorksSubject

R = TypeVar("R")

OPTIONS: dict[str, Any] = declarations()
"""Each system option's parameter name and Typer declaration, in ``--help`` order (the registry's)."""


@dataclass(frozen=True)
class SubjectOptions:
    """The shared options as given (None: not given)."""

    step: str | None = None
    registry: Path | None = None
    groups: str | None = None
    snapshot: Path | None = None
    workflow: Path | None = None
    origin: str | None = None
    client: ClientOptions = ClientOptions()
    """The coding-agent CLI options (and the AgentWorks link to them)."""
    others: tuple[tuple[str, Any], ...] = ()
    """Options of systems registered beyond the built-in ones, by name (passed to their opener)."""

    @classmethod
    def of(cls, given: dict[str, Any]) -> SubjectOptions:
        """The options as Typer passes them, by parameter name (``OPTIONS``' keys)."""
        client = {f.name: given.pop(f.name) for f in fields(ClientOptions) if f.name in given}
        client["codex_config"] = tuple(client.get("codex_config") or ())
        own = {f.name for f in fields(cls)}
        others = tuple((name, given.pop(name)) for name in list(given) if name not in own)
        return cls(**given, client=ClientOptions(**client), others=others)

    @property
    def named_paths(self) -> tuple[Path | None, ...]:
        """The files these options name (never written over; read for secrets to mask)."""
        return (self.registry, self.snapshot, self.workflow)

    def for_step(self, step: str) -> SubjectOptions:
        """These options with ``--step step`` (the step picker opens the chosen step with them)."""
        return replace(self, step=step)

    def _opened(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "registry": self.registry,
            "groups": split_groups(self.groups),
            "snapshot": self.snapshot,
            "workflow": self.workflow,
            "origin": self.origin,
            "client": self.client,
        }

    def workflow_steps(self, config: str) -> tuple[Step, ...] | None:
        """The steps to choose from when CONFIG has several and no --step picks one, else None."""
        from ..inputs import workflow_steps

        return workflow_steps(config, step=self.step, groups=split_groups(self.groups), client=self.client)

    def open_workflow(
        self, config: str, capture: Path | None = None, one_step: tuple[str, str] | None = None
    ) -> list[AgentWorksSubject] | None:
        """Every step of a step config with several steps when no --step picks one, else None
        (``capture``: a whole workflow with --capture is exit 2, asking for --step; ``one_step``:
        (flag, why) of an option that answers for one step only, likewise)."""
        from ..inputs import open_workflow

        return open_workflow(config, capture=capture, one_step=one_step, **self._opened())

    def open_subject(self, config: str) -> Subject:
        """CONFIG as one subject (one step, one toolkit, one CLI's settings)."""
        from ..inputs import open_subject

        return open_subject(config, **self._opened(), others=dict(self.others))


def with_subject_options(command: Callable[..., R]) -> Callable[..., R]:
    """``command`` with ``subject_options`` spread into the options of ``OPTIONS`` for Typer."""
    signature = inspect.signature(command, eval_str=True)
    parameters: list[inspect.Parameter] = []
    for parameter in signature.parameters.values():
        if parameter.name != "subject_options":
            parameters.append(parameter)
            continue
        parameters += [
            inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None, annotation=declared)
            for name, declared in OPTIONS.items()
        ]

    @functools.wraps(command)
    def call(*args: Any, **kwargs: Any) -> R:
        given = {name: kwargs.pop(name) for name in OPTIONS if name in kwargs}
        return command(*args, subject_options=SubjectOptions.of(given), **kwargs)

    call.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    call.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": signature.return_annotation}
    return call


NO_SUBJECT_OPTIONS = SubjectOptions()
"""None of the shared options given (the default of a command's ``subject_options``)."""
