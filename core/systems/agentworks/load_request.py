"""What loading an AgentWorks step config takes, as one value: its file and the options that
shape its world (``--step``, ``--registry``, ``--snapshot``, ``--workflow``, ``--origin``,
``--client-home``), passed whole from the CLI's options to ``load_world``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class StepConfigLoad:
    """A step config to load (None: the option was not given)."""

    path: Path
    step: str | None = None
    """The step to answer for (``load_agentworks_subject``); every step when loading a workflow."""
    registry: Path | None = None
    """The registry; None: the one next to the step config."""
    snapshot: Path | None = None
    """A saved MCP discovery snapshot instead of live discovery."""
    timeout: float = 10.0
    """Seconds live MCP discovery may take."""
    workflow: Path | None = None
    """workflow.json; None: the one next to the step config (or one folder up)."""
    origin: str | None = None
    """Product-manifest registries: who starts the turn."""
    client_home: Path | None = None
    """A CLI provider's home, to check the bridge against that CLI's own settings."""

    @classmethod
    def of(cls, path: Path, options: Any) -> StepConfigLoad:
        """From anything with these options as ``get(name)`` (``contract.OpenRequest``)."""
        names = ("step", "registry", "snapshot", "workflow", "origin", "client_home")
        return cls(Path(path), **{name: options.get(name) for name in names})

    def with_step(self, step: str | None) -> StepConfigLoad:
        """The same load for another step."""
        return replace(self, step=step)
