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
from ...core.model.verdicts import Finding, LoadedInput
from ...core.text.safe_text import inert

KIND_TITLE = {
    "step_config": "AgentWorks step config",
    "toolkit_spec": "AgentScope toolkit spec",
    "toolkit_factory": "AgentScope toolkit factory",
}


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
    text.append("mode ", style="dim")
    text.append(f" {inert(mode, single_line=True)} " if mode else "(none)", style="bold reverse")
    text.append("  ")
    label = inert(loaded.label, single_line=True)
    if not label.startswith(("AgentWorks", "AgentScope")):
        text.append(KIND_TITLE.get(loaded.kind, loaded.kind) + "  ", style="bold")
    text.append(label, style="bold cyan")
    # Step and registry are shown only when the label does not already say them.
    if loaded.step and loaded.step not in loaded.label:
        text.append("  step ", style="dim")
        text.append(inert(loaded.step, single_line=True))
    if loaded.registry and PurePath(loaded.registry).name not in loaded.label:
        text.append("  registry ", style="dim")
        registry = PurePath(loaded.registry).name if deterministic else loaded.registry
        text.append(inert(registry, single_line=True))
    text.append("\n")
    extra = list(loaded.extra)
    stale = [value for key, value in extra if key == STALE_KEY]
    if stale:
        # First on the line, so a narrow terminal never cuts it: the tools below may be out of date.
        text.append(f"⚠ MCP listing stale: {inert(stale[0], single_line=True)}", style="bold yellow")
        text.append("  ")
        extra = [(key, value) for key, value in extra if key != STALE_KEY]
    if loaded.era:
        # AgentWorks: which era of layer 2 the answers are true for. Early on the second line (after
        # a stale-listing warning only), so 80 columns show it: the first line may be cut.
        text.append("era ", style="dim")
        text.append(inert(loaded.era.replace("_", "-"), single_line=True), style="bold")
        text.append("  ")
    files = [PurePath(name).name if deterministic else name for name, _sha in loaded.files]
    if files:
        text.append("files ", style="dim")
        text.append(inert(", ".join(files), single_line=True))
        text.append("  ")
    has_agentscope = False
    for key, value in extra:
        is_version = "version" in key.lower() or key.lower() == "agentscope"
        has_agentscope = has_agentscope or key.lower() == "agentscope"
        if deterministic and is_version:
            continue
        text.append(f"{inert(key, single_line=True)} ", style="dim")
        text.append(inert(value, single_line=True))
        text.append("  ")
    if not deterministic:
        from ...core import __version__

        text.append("toolscope ", style="dim")
        text.append(__version__)
        if not has_agentscope:
            # Toolkits already name the AgentScope they were loaded with (in ``extra``).
            from ...core.systems.agentscope.version import installed_version

            agentscope = installed_version()
            text.append("  AgentScope ", style="dim")
            text.append(agentscope or "not installed")
    text.rstrip()
    if findings:
        # The configuration's own mistakes (unknown keys) come before any answer, here too.
        first = findings[0]
        text.append("\n")
        text.append(f"⚠ {len(findings)} config finding{'s' if len(findings) > 1 else ''}: ", style="bold yellow")
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
    return text


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
