"""The System contract: everything toolscope knows about one modelled system, declared as data.

A system (AgentWorks, AgentScope 2.x and 1.x, Claude Code, Codex, …) is one package under
``core/systems/`` whose ``system.py`` builds one ``System``; ``core.systems.registry`` lists them.
The front ends (CLI, TUI), the reports, the JSON Schemas and the capture comparison read the
registry and never name a system.

A ``System`` is cheap to import: plain data, and its behaviour as ``Hook``s, ``"module:attr"``
strings resolved on first use, so ``toolscope --help`` and an AgentWorks run never import
AgentScope (tests/test_import_hygiene.py).

Declared per system:

- how it is recognised: ``input_kinds`` (what CONFIG turns out to be), ``prefix`` (``codex:``:
  CONFIG names a folder of that system), ``markers`` (files or folders in a plain folder that
  say the system's files are there: ``.codex/``), and ``sniff`` (a file's top-level keys);
- ``stages`` (id, title, short column header) and ``finding_kinds``;
- ``options``: each CLI option it takes, with its help group (``OptionSpec``: data the CLI
  turns into Typer options);
- ``opener``: how it opens a subject from an ``OpenRequest``;
- ``capture``: how a capture is compared with its prediction (a ``CaptureHook``: returns a
  ``CapturePlan`` of predictions, a ``NameRule`` and optionally offer checks).

The subject's checklist and fixes are the subject's own (``Subject.checklist``, ``Subject.findings``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from ..capture.observed import ObservedCapture
    from ..model.errors import InputError
    from ..model.prediction import NameRule, OfferCheck, Prediction
    from ..model.subject import Subject

__all__ = [
    "CapturePlan",
    "Hook",
    "OpenRequest",
    "OptionSpec",
    "StageSpec",
    "System",
]


@dataclass(frozen=True)
class StageSpec:
    """One gate of the system's pipeline."""

    id: str
    """The stage id written in JSON (``Stage.name``): ``allow_listed``."""
    title: str
    """How tables and reports name it: ``allow-listed``."""
    header: str
    """The short column header when titles leave too little room: ``ALLOW``."""


OptionType = Literal["str", "path", "str_list", "bool"]


@dataclass(frozen=True)
class OptionSpec:
    """One command-line option a system takes: data the CLI turns into a Typer option."""

    name: str
    """The parameter name (``codex_home``): the key in ``OpenRequest.options``."""
    flags: tuple[str, ...]
    """``("--config", "-c")``: the long flag first."""
    help: str
    type: OptionType = "str"
    """``str_list``: repeatable (each use adds one value)."""
    default: Any = None
    group: str = ""
    """The help panel it is listed under (``Codex``); the system's title when empty."""

    @property
    def flag(self) -> str:
        """The long flag (``--codex-home``)."""
        return self.flags[0]


@dataclass(frozen=True)
class Hook:
    """A function named ``"package.module:attr"``, imported on first use (keeps the registry cheap)."""

    target: str

    def resolve(self) -> Callable[..., Any]:
        """The function (ImportError / AttributeError when the name is wrong: a declaration bug)."""
        module_name, _, attr = self.target.partition(":")
        function: Callable[..., Any] = getattr(importlib.import_module(module_name), attr)
        return function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)


@dataclass(frozen=True)
class OpenRequest:
    """What the user gave, for a system's opener: CONFIG and the options, by name (None: not given)."""

    target: str
    """CONFIG as given (``codex:proj``, ``step_config.json``, ``pkg.mod:factory``)."""
    kind: str
    """The input kind it was recognised as (one of the system's ``input_kinds``)."""
    path: Path
    """The file or folder CONFIG names (a prefix removed; ``.`` for a bare prefix)."""
    options: Mapping[str, Any] = field(default_factory=dict)

    def get(self, name: str) -> Any:
        """An option's value (None, or the declared default, when not given)."""
        return self.options.get(name)


@dataclass(frozen=True)
class CapturePlan:
    """A system's side of a capture comparison: what it predicts each request carries, and how."""

    predictions: Sequence[Prediction]
    """One per captured request, in order."""
    rule: NameRule
    known: frozenset[str]
    """Every name the subject knows (a received name outside it is foreign)."""
    notes: Sequence[str] = ()
    lane: str | None = None
    """Which lane ``predictions`` are (toolkits: ``stock``; the others in ``Prediction.lanes``)."""
    offers: Sequence[OfferCheck | None] = ()
    """Per request, the system's own account beyond the names (the coding-agent CLIs)."""
    received: Sequence[Sequence[str]] = ()
    """Per request, the received names to compare when the system compares only some (the CLIs' MCP tools)."""
    session: Any = None
    """Toolkits: the StepSession whose turns are the replayed activation calls."""
    cause: str | None = None
    """The likely cause of a disagreement the system can name from the capture itself (a session flag
    missing from the input), said instead of "a layer toolscope does not model, or a bug"."""


class CaptureHook(Protocol):
    """``(subject, capture, mode) -> CapturePlan``; None: a subject the system does not predict
    for (then the generic comparison: the visible tools, names unchanged)."""

    def __call__(self, subject: Subject, capture: ObservedCapture, mode: str | None) -> CapturePlan | None: ...


@dataclass(frozen=True)
class System:
    """One modelled system, as the registry lists it."""

    key: str
    """A stable identifier (``claude_code``); also the system's help group id."""
    title: str
    """As users name it: ``Claude Code``."""
    summary: str
    """One line for the top-level help: what CONFIG is for this system."""
    input_kinds: tuple[str, ...]
    """``LoadedInput.kind`` values its subjects carry (the first is the one a prefix or marker gives)."""
    stages: tuple[StageSpec, ...]
    """In pipeline order."""
    finding_kinds: tuple[str, ...]
    """The ``Finding.kind`` values it emits beyond the shared ones (``core.model.enums.FindingKind``)."""
    opener: Hook
    """``(OpenRequest) -> Subject``."""
    capture: Hook | None = None
    """A ``CaptureHook``; None: the visible tools, names unchanged, the rule marked undocumented."""
    prefix: str | None = None
    """``codex:``: CONFIG ``codex:DIR`` names a folder of this system."""
    markers: tuple[str, ...] = ()
    """Names in a plain folder that say its files are there (a trailing ``/``: a folder)."""
    sniff_target: Callable[[str, Path], str | None] | None = None
    """CONFIG that names no file (``package.module:function``) → an input kind, or None. Must be cheap."""
    sniff_document: Callable[[Mapping[str, Any]], str | None] | None = None
    """A config file's top-level object → an input kind, or None (``{"steps": …}`` → step_config). Cheap."""
    document_hint: str = ""
    """What ``sniff_document`` looks for, for the error when no system recognises a file."""
    misfit: Callable[[str, Path, Any], InputError | None] | None = None
    """A file no system recognised, that this one can name (a registry given as CONFIG): the
    InputError to raise, or None. Usually a ``Hook`` (imported only then)."""
    options: tuple[OptionSpec, ...] = ()
    notes: tuple[str, ...] = ()
    """Anything a maintainer should know (how it shares inputs with another system)."""

    @property
    def stage_ids(self) -> tuple[str, ...]:
        """The stage ids in pipeline order."""
        return tuple(stage.id for stage in self.stages)

    def seen_in(self, folder: Path) -> tuple[str, ...]:
        """The markers present in ``folder`` (empty: none of its files are there)."""
        found = []
        for marker in self.markers:
            path = folder / marker.rstrip("/")
            if path.is_dir() if marker.endswith("/") else path.is_file():
                found.append(marker)
        return tuple(found)
