"""``toolscope registry check``, rendered: the registry-check document, or per list whether
the registry and the Go source agree and which names one lacks."""

from __future__ import annotations

from typing import Any

from ..output import print_document, print_wrapped, stdout_console


def print_drift_json(report: Any) -> None:
    """The ``registry-check`` document."""
    from ...core.schemas.drift import RegistryCheckEnvelope

    print_document(RegistryCheckEnvelope.of(report))


def print_drift_human(report: Any) -> None:
    """What was compared, each list in sync or drifted (and how), then the verdict."""
    from rich.text import Text

    console = stdout_console()
    print_wrapped(console, Text(""), f"registry {report.registry} · era: {report.era.label}", "dim")
    for item in report.lists:
        _print_list(console, item)
    for line in report.not_found:
        print_wrapped(console, Text("not found in the source: ", style="yellow"), line)
    for line in report.not_compared:
        print_wrapped(console, Text("not compared: ", style="dim"), line, "dim")
    drifted = sum(1 for item in report.lists if item.drifted)
    console.print(
        Text(
            f"drift: {drifted} of {len(report.lists)} lists differ" if drifted else "no drift",
            style="bold red" if drifted else "green",
        )
    )


def _print_list(console: Any, item: Any) -> None:
    """One list: in sync (how many names) or drift, where each side's comes from, what differs."""
    from rich.text import Text

    head = Text(f"{item.fact}: ", style="bold")
    head.append(
        "drift" if item.drifted else f"in sync ({item.compared} name{'' if item.compared == 1 else 's'})",
        style="bold red" if item.drifted else "green",
    )
    console.print(head, soft_wrap=True, crop=False)
    print_wrapped(console, Text("    "), f"source {item.source} · registry {item.registry}", "dim")
    if item.lacks:
        print_wrapped(console, Text("    registry lacks: "), ", ".join(item.lacks))
    if item.stale:
        print_wrapped(console, Text("    registry has, source no longer: "), ", ".join(item.stale))
