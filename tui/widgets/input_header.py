"""The header: what was loaded (kind, file, step, registry), the mode, and versions."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import PurePath

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from ...core.mcp.results import STALE_KEY
from ...core.model.opt_in import NOT_STARTED_KEY
from ...core.model.verdicts import Finding, LoadedInput
from ...core.text.counts import counted
from ...core.text.safe_text import inert

KIND_TITLE = {
    "step_config": "AgentWorks step config",
    "toolkit_spec": "AgentScope toolkit spec",
    "toolkit_factory": "AgentScope toolkit factory",
}


_WARNINGS = ((STALE_KEY, "MCP listing stale"), (NOT_STARTED_KEY, "MCP not started"))
"""``extra`` keys shown first on the second line, so a narrow terminal never cuts them: the tools
below may be out of date, or unknown until the user opts in to starting their servers."""


def _warnings(text: Text, extra: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Append the warnings among ``extra`` to ``text``; the rest of ``extra``."""
    for key, title in _WARNINGS:
        found = [value for k, value in extra if k == key]
        if found:
            text.append(f"⚠ {title}: {inert(found[0], single_line=True)}", style="bold yellow")
            text.append("  ")
    keys = {key for key, _ in _WARNINGS}
    return [(key, value) for key, value in extra if key not in keys]


def header_text(
    loaded: LoadedInput, mode: str | None, *, deterministic: bool, findings: Sequence[Finding] = ()
) -> Text:
    """Two lines: the mode and the input; then the era (AgentWorks), files and versions.

    The mode comes first so a narrow terminal never cuts it off; each line ends with an
    ellipsis when it does not fit (``no_wrap`` + ``overflow="ellipsis"``).
    ``deterministic`` (snapshots, README images) shows file names without directories
    and leaves versions out, so the picture does not depend on the machine.
    """
    text = Text(no_wrap=True, overflow="ellipsis")
    _append_mode_and_input(text, loaded, mode, deterministic)
    text.append("\n")
    _append_details(text, loaded, deterministic)
    text.rstrip()
    if findings:
        # The configuration's own mistakes (unknown keys) come before any answer, here too.
        text.append("\n")
        _append_first_finding(text, findings)
    return text


def _append_field(text: Text, label: str, value: str, style: str | None = None) -> None:
    """``label value`` (the label dim), then the gap before the next field."""
    text.append(label, style="dim")
    text.append(inert(value, single_line=True), style=style)
    text.append("  ")


def _kind_title(kind: str) -> str:
    """The input's kind as users name it: ``AgentWorks step config``, ``Claude Code`` (the system's
    title), never a raw id such as ``claude_code``."""
    if kind in KIND_TITLE:
        return KIND_TITLE[kind]
    from ...core.systems.registry import system_of_kind

    try:
        return system_of_kind(kind).title
    except KeyError:
        return kind


def _append_mode_and_input(text: Text, loaded: LoadedInput, mode: str | None, deterministic: bool) -> None:
    text.append("mode ", style="dim")
    text.append(f" {inert(mode, single_line=True)} " if mode else "(none)", style="bold reverse")
    text.append("  ")
    label = inert(loaded.label, single_line=True)
    title = _kind_title(loaded.kind)
    # The label usually names the system already ("Claude Code project app"): once is enough.
    if not label.startswith(("AgentWorks", "AgentScope", title)):
        text.append(title + "  ", style="bold")
    text.append(label, style="bold cyan")
    # Step and registry are shown only when the label does not already say them.
    if loaded.step and loaded.step not in loaded.label:
        text.append("  step ", style="dim")
        text.append(inert(loaded.step, single_line=True))
    if loaded.registry and PurePath(loaded.registry).name not in loaded.label:
        text.append("  registry ", style="dim")
        registry = PurePath(loaded.registry).name if deterministic else loaded.registry
        text.append(inert(registry, single_line=True))


def _append_details(text: Text, loaded: LoadedInput, deterministic: bool) -> None:
    """The second line: the warnings (a stale MCP listing, servers not started), the era, the files,
    the input's facts and the versions."""
    facts = _warnings(text, list(loaded.extra))
    if loaded.era:
        # AgentWorks: which era of layer 2 the answers are true for. Early on the second line (after
        # the warnings only), so 80 columns show it: the first line may be cut.
        _append_field(text, "era ", loaded.era.replace("_", "-"), style="bold")
    if loaded.files:
        files = [PurePath(name).name if deterministic else name for name, _sha in loaded.files]
        _append_field(text, "files ", ", ".join(files))
    _append_facts(text, facts, deterministic)
    if not deterministic:
        _append_versions(text, names_agentscope=any(key.lower() == "agentscope" for key, _ in facts))


def _append_facts(text: Text, facts: list[tuple[str, str]], deterministic: bool) -> None:
    """The input's own facts; ``deterministic`` leaves versions out."""
    for key, value in facts:
        is_version = "version" in key.lower() or key.lower() == "agentscope"
        if not (deterministic and is_version):
            _append_field(text, f"{inert(key, single_line=True)} ", value)


def _append_versions(text: Text, *, names_agentscope: bool) -> None:
    from ...core import __version__

    text.append("toolscope ", style="dim")
    text.append(__version__)
    if not names_agentscope:
        # Toolkits already name the AgentScope they were loaded with (in ``extra``).
        from ...core.systems.agentscope.version import installed_version

        agentscope = installed_version()
        text.append("  AgentScope ", style="dim")
        text.append(agentscope or "not installed")


def _append_first_finding(text: Text, findings: Sequence[Finding]) -> None:
    first = findings[0]
    text.append(f"⚠ {counted(len(findings), 'config finding')}: ", style="bold yellow")
    text.append(f"{inert(first.kind, single_line=True)} ", style="yellow")
    # Shortest useful form first (a narrow terminal cuts the end): the key, the likely
    # one, then where it is; `toolscope check` prints the whole message.
    hint = re.search(r"did you mean [^?]+\?", first.message)
    if first.entry:
        text.append(inert(json.dumps(first.entry, ensure_ascii=False), single_line=True) + " ")
    if hint:
        text.append(inert(hint.group(), single_line=True) + " ", style="bold")
    elif not first.entry:
        text.append(inert(first.message.split(";")[0], single_line=True) + " ")
    if first.source:
        text.append(inert(first.source, single_line=True), style="dim")


class InputHeader(Static):
    """Shows ``header_text`` for one input; ``mode`` is bound to the screen's."""

    DEFAULT_CSS = """
    InputHeader { height: 2; background: $panel; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    mode: reactive[str | None] = reactive(None, init=False)
    """The mode the verdicts are computed in."""

    def __init__(
        self, loaded: LoadedInput, deterministic: bool, findings: Sequence[Finding] = (), *, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.loaded = loaded
        self.deterministic = deterministic
        self.findings = tuple(findings)
        # A third line names the configuration findings, if any.
        self.styles.height = 3 if findings else 2

    def watch_mode(self) -> None:
        """Redraw for the new mode."""
        self.update(header_text(self.loaded, self.mode, deterministic=self.deterministic, findings=self.findings))
