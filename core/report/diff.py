"""The mode diff of a report: which tools change visibility between the requested modes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model.enums import Verdict
from ..model.verdicts import ToolLabels

if TYPE_CHECKING:  # data imports this module; only the type is needed here
    from .data import ModeSection


@dataclass(frozen=True)
class DiffRow:
    """A tool whose verdict is not the same in every mode."""

    tool: str
    namespace: str
    verdicts: tuple[str, ...]
    """One verdict per mode, in ``ModeDiff.modes`` order; ``absent`` when not evaluated."""


@dataclass(frozen=True)
class ModePair:
    """Visible-set change from one mode to the next."""

    before: str | None
    after: str | None
    gained: tuple[str, ...]
    lost: tuple[str, ...]

    def sentence(self, escape: Callable[[str], str]) -> str:
        """ "From A to B: N gained (…); M lost (…)." with every name through ``escape`` (Markdown, HTML)."""
        from .data import mode_label  # data imports this module

        gained = ", ".join(escape(n) for n in self.gained) or "none"
        lost = ", ".join(escape(n) for n in self.lost) or "none"
        return (
            f"From {escape(mode_label(self.before))} to {escape(mode_label(self.after))}: "
            f"{len(self.gained)} gained ({gained}); {len(self.lost)} lost ({lost})."
        )


@dataclass(frozen=True)
class ModeDiff:
    """How the visible sets differ between the requested modes."""

    modes: tuple[str | None, ...]
    rows: tuple[DiffRow, ...]
    pairs: tuple[ModePair, ...]


def tool_label(tool: ToolLabels) -> str:
    """``namespace:name``, the identity used across modes."""
    return f"{tool.namespace}:{tool.name}" if tool.namespace else tool.name


def mode_diff(sections: Sequence[ModeSection]) -> ModeDiff:
    """Rows for tools whose verdict differs between sections, and gained/lost per mode pair."""
    modes = tuple(s.mode for s in sections)
    per_mode: list[dict[str, str]] = []
    namespaces: dict[str, str] = {}  # every label of any mode, and its namespace
    for section in sections:
        labelled = _labelled_verdicts(section)
        per_mode.append({label: verdict for label, _, verdict in labelled})
        for label, namespace, _ in labelled:
            namespaces.setdefault(label, namespace)
    rows = []
    for label in sorted(namespaces):
        verdicts = tuple(m.get(label, "absent") for m in per_mode)
        if len(set(verdicts)) > 1:
            namespace = namespaces[label]
            rows.append(DiffRow(label[len(namespace) + 1 :] if namespace else label, namespace, verdicts))
    steps = zip(modes, modes[1:], per_mode, per_mode[1:], strict=False)
    pairs = [_mode_pair(before, after, b_map, a_map) for before, after, b_map, a_map in steps]
    return ModeDiff(modes, tuple(rows), tuple(pairs))


def _labelled_verdicts(section: ModeSection) -> list[tuple[str, str, str]]:
    """(label, namespace, verdict) of each tool, in the section's order."""
    # By index into the section's rows: no ToolVerdict is built for the diff.
    entries = section.evaluated.entries
    return [
        (tool_label(entries[index]), entries[index].namespace, verdict)
        for index, verdict in zip(section.order, section.verdicts, strict=True)
    ]


def _mode_pair(before: str | None, after: str | None, b_map: dict[str, str], a_map: dict[str, str]) -> ModePair:
    """The tools visible in ``after`` and not ``before`` (gained), and the other way (lost)."""
    b_vis = {k for k, v in b_map.items() if v == Verdict.VISIBLE}
    a_vis = {k for k, v in a_map.items() if v == Verdict.VISIBLE}
    return ModePair(before, after, tuple(sorted(a_vis - b_vis)), tuple(sorted(b_vis - a_vis)))
