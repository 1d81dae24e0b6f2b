"""``--expect visible:NAME`` / ``--expect hidden:NAME``: assertions for CI."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .enums import SharedFinding
from .errors import InputError, Problem
from .subject import Subject
from .verdicts import Finding


@dataclass(frozen=True)
class Expectation:
    """A tool that must be visible (or hidden) in every checked mode."""

    want: Literal["visible", "hidden"]
    tool: str


def parse_expectation(text: str) -> Expectation:
    """Parse ``visible:NAME`` or ``hidden:NAME``."""
    want, sep, tool = text.partition(":")
    if not sep or want not in ("visible", "hidden") or not tool:
        raise InputError("--expect", "expected visible:NAME or hidden:NAME", [Problem("", f"got {text!r}")])
    return Expectation(want, tool)  # type: ignore[arg-type]


def check_expectations(
    subject: Subject,
    modes: Sequence[str | None],
    expectations: Sequence[Expectation],
    titles: Mapping[str, str] | None = None,
) -> list[Finding]:
    """One finding per expectation that fails in a mode (an unknown name fails too). ``titles``:
    stage id → the title tables print (``allow_listed`` → ``allow-listed``); the id without it."""
    findings: list[Finding] = []
    for mode in modes:
        if not expectations:
            break
        evaluation = subject.evaluate(mode)
        for expectation in expectations:
            matches = evaluation.find(expectation.tool)
            where = f" in mode {mode!r}" if mode else ""
            if not matches:
                # The same candidates `explain` offers for this name.
                close = subject.checklist(expectation.tool, mode).did_you_mean
                hint = f" (did you mean {', '.join(close)}?)" if close else ""
                findings.append(
                    Finding(
                        SharedFinding.EXPECTATION_FAILED,
                        f"expected {expectation.tool!r} to be {expectation.want}{where}, but no tool has that name{hint}",
                        tool=expectation.tool,
                    )
                )
                continue
            for tool in matches:
                if tool.verdict == expectation.want:
                    continue
                failing = tool.first_failing
                because = f": {(titles or {}).get(failing.name, failing.name)}: {failing.rule}" if failing else ""
                findings.append(
                    Finding(
                        SharedFinding.EXPECTATION_FAILED,
                        f"expected {tool.namespace}:{tool.name} to be {expectation.want}{where}, "
                        f"but it is {tool.verdict}{because}",
                        tool=tool.name,
                    )
                )
    return findings
