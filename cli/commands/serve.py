"""``toolscope serve CONFIG``: the interactive app in a web browser (textual-serve).

Each page that opens runs its own ``toolscope inspect`` with the same arguments, so the
browser shows exactly what the terminal does. The config is loaded once before the server
starts: bad input is exit 2 here, not a blank page.
"""

from __future__ import annotations

import shlex
import signal
import sys
from pathlib import Path
from typing import Annotated

import typer

from ...core.model.errors import EXIT_INTERRUPTED, InputError
from ..input_kind import config_help
from ..output import handle_errors
from .common import DiscoverOpt, ModeOpt, RegistryOpt, StepOpt

LOOPBACK = ("127.0.0.1", "::1", "localhost")
MAX_SESSIONS = 4
"""Pages that may run an app at once by default: each is a ``toolscope inspect`` process."""


@handle_errors
def serve_command(
    config: Annotated[str, typer.Argument(help=config_help())],
    mode: ModeOpt = None,
    step: StepOpt = None,
    registry: RegistryOpt = None,
    tool: Annotated[str | None, typer.Option("--tool", "-t", help="Open the checklist on this tool.")] = None,
    script: Annotated[
        Path | None,
        typer.Option("--script", "-s", help="Toolkits: a reset_tools script to load into the activation view."),
    ] = None,
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (anything but 127.0.0.1 / ::1 is reachable by others).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", "-p", help="Port to listen on; 0 picks a free one.", min=0)] = 8000,
    discover: DiscoverOpt = False,
    max_sessions: Annotated[
        int,
        typer.Option("--max-sessions", help="Pages that may run the app at once (each is one process).", min=1),
    ] = MAX_SESSIONS,
) -> None:
    """Serve the interactive app to a web browser: each page runs the app (Ctrl+C stops the server)."""
    from ..inputs import open_subject
    from ..output import plain, stderr_console, stdout_console

    # Loaded once here so that a typo is exit 2 in the terminal, not a page that closes at once.
    subject = open_subject(config, step=step, registry=registry, discover=discover)
    subject.resolve_mode(mode)
    if script is not None:
        from ...core.systems.agentscope.script import load_script, script_for_config

        script = script_for_config(script, config)
        load_script(script)
    args = [sys.executable, "-m", "toolscope", "inspect", config]
    for flag, value in (("--mode", mode), ("--step", step), ("--registry", registry), ("--tool", tool)):
        if value is not None:
            args += [flag, str(value)]
    if script is not None:
        args += ["--script", str(script.resolve())]
    if discover:
        args.append("--discover")

    from ..web_server import ToolscopeWebServer, listening_socket

    try:
        sock = listening_socket(host, port)
    except OSError as exc:
        raise InputError(f"--host {host} --port {port}", f"cannot listen there: {exc.strerror or exc}") from None
    if host not in LOOPBACK:
        stderr_console().print(
            plain(f"warning: listening on {host}: anyone who can reach it can run toolscope on this machine")
        )
    console = stdout_console()

    def announce(url: str) -> None:
        console.print(plain(f"toolscope serve: open {url} in a browser (Ctrl+C stops the server)"))
        console.file.flush()

    # textual-serve runs the command through a shell: exec makes the app the shell's own process.
    server = ToolscopeWebServer(
        "exec " + shlex.join(args),
        sock,
        title=f"toolscope {Path(config).name}",
        announce=announce,
        max_sessions=max_sessions,
    )
    server.serve()
    if server.stopped_by is None:
        return
    console.print(plain("toolscope serve: stopped"))
    if server.stopped_by == signal.SIGINT:
        raise typer.Exit(EXIT_INTERRUPTED)  # Ctrl+C: 130, as for every command (docs/commands.md)
    from .. import signals

    signals.note_received(server.stopped_by)  # SIGTERM, SIGHUP: the process ends by it, after its cleanups
