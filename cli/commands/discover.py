"""``toolscope discover MCP_CONFIG``: connect to every MCP server, list its tools, report outages."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any

import typer

from ...core.model.errors import EXIT_NEGATIVE, EXIT_OK, InputError
from ...core.model.presentation import MARK
from ...core.text.counts import counted
from ..output import handle_errors, print_document, print_wrapped, stdout_console
from ..styles import STAGE_STYLE
from .common import JsonOpt


@handle_errors
def discover_command(
    mcp_config: Annotated[
        Path, typer.Argument(help='MCP config ({"mcpServers": …}); NAME_user.json next to it overrides entries.')
    ],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write a snapshot (JSON) for offline use with --snapshot.")
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace an existing snapshot file (never an input file).")
    ] = False,
    timeout: Annotated[
        str,
        typer.Option("--timeout", metavar="SECONDS", help="Seconds each server gets to start and list its tools."),
    ] = "10",
    as_json: JsonOpt = False,
) -> None:
    """Connect to every configured MCP server in parallel and list its tools.

    Exit 0 when every server connected, 1 when some failed, 2 for bad input. The snapshot
    (-o) is written atomically; an existing file is replaced only with --force, and an
    input file (the config or its _user.json) never.
    """
    from ...core.mcp.config import load_config
    from ...core.mcp.discovery import discover_sync
    from ...core.mcp.snapshot import snapshot_document, write_snapshot
    from ...core.outputs.output_file import STDOUT, check_output

    seconds = _parse_timeout(timeout)
    config = load_config(mcp_config)
    _warn_unknown_keys(config.input_paths[0] if config.input_paths else None)
    if output is not None:
        if str(output) == STDOUT:
            raise InputError("--output", "a snapshot is written to a file; use --json to print it")
        # Checked before connecting, so a wrong -o costs nothing; checked again when writing
        # (the file may have appeared while the servers were starting).
        check_output(str(output), force=force, inputs=config.input_paths, what="the snapshot")
    result = discover_sync(config, seconds, on_result=_progress(len(config.servers)))
    if output is not None:
        check_output(str(output), force=force, inputs=config.input_paths, what="the snapshot")
        write_snapshot(result, output, protect=config.input_paths, force=force)
    if as_json:
        print_document(snapshot_document(result))
    else:
        _print_human(result, output)
    raise typer.Exit(EXIT_OK if result.all_ok else EXIT_NEGATIVE)


def _warn_unknown_keys(path) -> None:  # noqa: ANN001 - a Path or None
    """Keys AgentWorks does not read (e.g. a misspelled "arg"), on stderr so --json stays clean."""
    if path is None:
        return
    from ...core.mcp.config import unknown_key_findings
    from ..output import print_findings, stderr_console

    print_findings(unknown_key_findings(path), stderr_console())


def _progress(total: int):  # a callback, or None
    """A line per server on stderr as it finishes, with its time: only when stderr is a
    terminal (a person waiting); nothing extra when piped or captured."""
    import sys

    if not (hasattr(sys.stderr, "isatty") and sys.stderr.isatty()) or total == 0:
        return None
    from rich.text import Text

    from ...core.text.safe_text import inert
    from ..output import stderr_console

    console = stderr_console()
    console.print(Text(f"connecting to {counted(total, 'MCP server')}…", style="dim"))
    done = 0

    def report(server) -> None:  # ServerResult
        nonlocal done
        done += 1
        line = Text(f"  [{done}/{total}] ", style="dim")
        line.append(inert(server.name, single_line=True), style="bold")
        if server.ok:
            line.append(f"  {MARK[True]} {len(server.tools)} tools in {server.elapsed:.2f}s", style=STAGE_STYLE[True])
        else:
            line.append(f"  {MARK[False]} failed after {server.elapsed:.2f}s", style="red")
        console.print(line, soft_wrap=True, crop=False)

    return report


def _print_human(result, output: Path | None) -> None:  # DiscoveryResult, imported lazily
    from rich.text import Text

    from ..layout import Column, layout_table
    from ..output import print_lines, print_wrapped

    console = stdout_console()
    source = result.source
    head = f"{source.config_file}"
    if source.user_config_file:
        head += f" (+ {source.user_config_file})"
    ok = sum(1 for s in result.servers if s.ok)
    print_wrapped(
        console, Text(""), f"{head}: {ok}/{len(result.servers)} servers connected in {result.elapsed:.2f}s", "bold"
    )
    for note in source.notes:
        print_wrapped(console, Text(""), note, "dim")
    # One line per server (kubectl style), then its tools or its error below it,
    # wrapped at word boundaries: a server's error is the answer, never shortened.
    columns = [Column("SERVER"), Column("STATUS"), Column("TIME", "right"), Column("TOOLS", "right")]
    layout = layout_table(columns, [_server_row(server) for server in result.servers], console.width)
    print_lines(console, layout.lines[:1])
    for server, line in zip(result.servers, layout.lines[1:], strict=True):
        print_lines(console, [line])
        _print_server_detail(console, server)
    for dup in result.duplicates:
        print_wrapped(
            console,
            Text(""),
            f"duplicate tool {dup.tool!r}: kept from {dup.kept_server!r}, dropped from {dup.dropped_server!r}",
            "yellow",
        )
    if output is not None:
        print_wrapped(console, Text(""), f"snapshot written to {output}", "dim")


def _server_row(server: Any) -> list[Any]:
    """SERVER, STATUS, TIME, TOOLS of one server."""
    from ...core.text.safe_text import inert
    from ..layout import Cell

    status = (
        Cell(f"{MARK[True]} connected", STAGE_STYLE[True])
        if server.ok
        else Cell(f"{MARK[False]} failed", STAGE_STYLE[False])
    )
    name = Cell(inert(server.name, single_line=True), "bold")
    return [name, status, Cell(f"{server.elapsed:.2f}s"), Cell(str(len(server.tools)))]


def _print_server_detail(console: Any, server: Any) -> None:
    """Below a server's row: its tools (the first 8) and when it last spoke, or its error whole."""
    from rich.text import Text

    from ...core.text.safe_text import inert

    if not server.ok:
        print_wrapped(console, Text("    "), server.error or "", "red")
        return
    shown = ", ".join(server.tools[:8]) + (f", … (+{len(server.tools) - 8})" if len(server.tools) > 8 else "")
    print_wrapped(console, Text("    "), shown or "(no tools advertised)", "dim" if server.tools else "yellow")
    if (spoke := server.freshness()) is not None:
        print_wrapped(console, Text("    "), inert(spoke, single_line=True), "dim")


def _parse_timeout(text: str) -> float:
    """``--timeout`` as seconds: a finite positive number, else bad input in the project's words."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        raise InputError("--timeout", f"expected a positive number of seconds, like 10 or 2.5 (got {text!r})")
    return seconds
