"""Building a report: ``build_report`` asks a Subject its questions and returns ``ReportData``.

It evaluates each mode, gathers the findings and a checklist per requested tool, adds
provenance, and scrubs every string of secrets (see ``redaction``). Nothing here reads the
clock or the machine's paths unless asked (``timestamp``), so the same inputs give the same
report.
"""

from __future__ import annotations

import platform
from array import array
from collections.abc import Collection, Sequence

from ..model.subject import Subject
from ..model.verdicts import Evaluation, Finding, VerdictList
from ..systems.agentscope.ids import AgentScopeInput
from .data import Environment, FileRef, ModeSection, Provenance, ReportData, shown_name
from .diff import mode_diff, tool_label
from .redaction import Redactor
from .transcript import Transcript


def current_environment(kind: str) -> Environment:
    """Versions of the running software; for toolkits also AgentScope and its reset_tools probe."""
    from .. import __version__

    agentscope_version = None
    reset_tools: tuple[tuple[str, str], ...] = ()
    if kind in (AgentScopeInput.TOOLKIT_SPEC, AgentScopeInput.TOOLKIT_FACTORY):
        from importlib.metadata import PackageNotFoundError, version

        try:
            agentscope_version = version("agentscope")
        except PackageNotFoundError:
            agentscope_version = "not installed"
        reset_tools = probe_reset_tools()
    return Environment(__version__, platform.python_version(), agentscope_version, reset_tools)


def probe_reset_tools() -> tuple[tuple[str, str], ...]:
    """The installed stock reset_tools' behaviour, probed through ``core.systems.agentscope.probe``."""
    from .adapters import probe_facts

    return probe_facts()


def _sorted_section(mode: str | None, evaluation: Evaluation) -> ModeSection:
    """The section of one evaluation: hidden, then unknown, then visible tools, each in the
    subject's own order (stable); verdicts decided once per distinct row of stages."""
    evaluated = VerdictList.of(evaluation.tools)
    return ModeSection(
        mode, evaluation.stage_names, evaluated, array("l", evaluated.order_by_verdict()), evaluation.notes
    )


def _public_names(subject: Subject, sections: Sequence[ModeSection]) -> set[str]:
    # Structural names the report must show as they are: tools, servers/namespaces, modes.
    names = {mode for mode in subject.mode_names if mode} | set(subject.all_tool_names())
    for section in sections:
        if section.mode:
            names.add(section.mode)
        for tool in section.evaluated.entries:
            names.update((tool.name, tool.namespace, tool_label(tool)))
    return names


def build_report(
    subject: Subject,
    modes: Sequence[str | None] = (),
    tools: Sequence[str] = (),
    *,
    transcript: Transcript | None = None,
    extra_files: Sequence[tuple[str, str]] = (),
    environment: Environment | None = None,
    secrets: Sequence[str] = (),
    generated_at: str | None = None,
    leave_out: Collection[Finding] = (),
) -> ReportData:
    """Build the report for these modes (default: the subject's) and these ``--tool`` names.

    ``extra_files`` are (name, sha256) of inputs the subject did not read itself (the
    script); ``secrets`` are values to mask wherever they appear (the rule of
    ``redaction``: secret-looking values only, never inside tool, namespace or mode
    names); ``environment`` defaults to the running software (tests pass a fixed one);
    ``leave_out`` are findings reported elsewhere (a whole workflow's own, reported once).
    """
    resolved = _resolved_modes(subject, modes)
    sections = [_sorted_section(mode, subject.evaluate(mode)) for mode in resolved]
    loaded = subject.loaded
    # The public names only ever spare secrets: without secrets, no need to collect them.
    redactor = Redactor(secrets, public=_public_names(subject, sections) if secrets else ())
    env = environment or current_environment(loaded.kind)
    files = _file_refs(loaded.files, extra_files)
    provenance = _provenance(subject, tuple(resolved), files, env, redactor, generated_at)
    checklists = tuple(subject.checklist(tool, mode) for tool in tools for mode in resolved)
    report = ReportData(
        provenance=provenance,
        sections=tuple(sections),
        findings=tuple(f for f in subject.findings(resolved) if f not in leave_out),
        checklists=checklists,
        diff=mode_diff(sections) if len(sections) >= 2 else None,
        transcript=transcript,
    )
    scrubbed: ReportData = redactor.deep(report)
    return scrubbed


def _resolved_modes(subject: Subject, modes: Sequence[str | None]) -> list[str | None]:
    """Each requested mode (default: the subject's) by its canonical name, once."""
    resolved: list[str | None] = []
    for mode in modes or (subject.default_mode,):
        canonical = subject.resolve_mode(mode)
        if canonical not in resolved:
            resolved.append(canonical)
    return resolved


def _file_refs(loaded: Sequence[tuple[str, str]], extra_files: Sequence[tuple[str, str]]) -> tuple[FileRef, ...]:
    """The files the subject read, then the other inputs (the script) it did not, by shown name."""
    files = [FileRef(shown_name(name), digest) for name, digest in loaded]
    files += [FileRef(shown_name(name), digest) for name, digest in extra_files if (name, digest) not in loaded]
    return tuple(files)


def _provenance(
    subject: Subject,
    modes: tuple[str | None, ...],
    files: tuple[FileRef, ...],
    environment: Environment,
    redactor: Redactor,
    generated_at: str | None,
) -> Provenance:
    """What was loaded and how, the input's own facts scrubbed of secrets."""
    loaded = subject.loaded
    return Provenance(
        kind=loaded.kind,
        label=loaded.label,
        files=files,
        step=loaded.step,
        registry=shown_name(loaded.registry) if loaded.registry else None,
        modes=modes,
        default_mode=subject.default_mode,
        facts=tuple(redactor.pair(k, v) for k, v in loaded.extra),
        environment=environment,
        generated_at=generated_at,
        era=loaded.era,
    )
