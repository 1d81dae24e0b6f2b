"""``toolscope capture [-- COMMAND …]``: a local model endpoint that records every request's tool list."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from ...core.model.errors import EXIT_CAPTURE_INCOMPLETE, EXIT_OK, InputError
from ..output import handle_errors

_LOOPBACK = ("127.0.0.1", "::1", "localhost")


@handle_errors
def capture_command(
    command: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[COMMAND [ARGS]...]",
            help="After --: run this with the base-URL variables set, then exit with its status.",
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help="The capture file (JSON Lines); default toolscope-capture-DATE-TIME.jsonl."
        ),
    ] = None,
    replies: Annotated[
        Path | None,
        typer.Option(
            "--replies",
            metavar="FILE",
            help='Scripted replies (JSON/YAML list of {"text"} or {"tool_calls"}); then "ok".',
        ),
    ] = None,
    upstream: Annotated[
        str | None,
        typer.Option("--upstream", metavar="URL", help="Forward every request to this provider and record both sides."),
    ] = None,
    port: Annotated[int, typer.Option("--port", help="Port to listen on (default: a free one).")] = 0,
    host: Annotated[str, typer.Option("--host", help="Address to listen on (loopback unless given).")] = "127.0.0.1",
    keep_messages: Annotated[
        bool, typer.Option("--keep-messages", help="Also record the system prompt, the messages and the reply text.")
    ] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing capture file (never an input).")] = False,
) -> None:
    """Serve the OpenAI (Chat Completions, Responses) and Anthropic (Messages) APIs on
    127.0.0.1 and write one JSON line per model request: the tools it carried in order
    (size, token estimate, deferred), tool_choice, the system prompt's size and the tool
    calls of the reply. No message text unless --keep-messages; never a key or a header.

    With -- COMMAND: run it with OPENAI_BASE_URL, OPENAI_API_BASE and ANTHROPIC_BASE_URL
    pointing here, and exit with its status. Without: serve until Ctrl+C. Exit 2 for bad
    input (a replies file, an option, a port in use).
    """
    from ...core.capture.replies import ReplyScript, load_replies

    if replies is not None and upstream is not None:
        raise InputError("--replies", "cannot be used with --upstream (the upstream answers in proxy mode)")
    if upstream is not None and not upstream.startswith(("http://", "https://")):
        raise InputError("--upstream", f"{upstream!r} is not an http:// or https:// URL")
    if not 0 <= port <= 65535:
        raise InputError("--port", f"{port} is not a port number (0-65535; 0: a free port)")
    script = ReplyScript(load_replies(replies)) if replies is not None else ReplyScript()
    target = _output_path(output, force, replies)
    # The server modules (starlette, uvicorn) only once the input is known to be good.
    from ...core.capture.app import CaptureSettings
    from ...core.capture.server import CaptureServer

    writer = _open_writer(target)
    settings = CaptureSettings(writer=writer, script=script, upstream=upstream, keep_messages=keep_messages)
    try:
        server = CaptureServer(settings, host=host, port=port)
    except OSError as exc:
        writer.close()
        raise InputError(
            f"--port {port}" if port else f"--host {host}", f"cannot listen there: {exc.strerror or exc}"
        ) from None
    if host not in _LOOPBACK:
        typer.echo(f"warning: listening on {host}: reachable from other machines", err=True)
    try:
        server.start()
        status = _run(server, command or [], target, upstream is not None)
    finally:
        server.stop()
    typer.echo(f"toolscope capture: {_summary(writer)} in {target}", err=True)
    raise typer.Exit(EXIT_CAPTURE_INCOMPLETE if writer.lost else status)


def _summary(writer) -> str:  # noqa: ANN001 - a closed CaptureWriter
    if not writer.lost:
        return f"{writer.written} request(s) recorded"
    return (
        f"{writer.written} request(s) recorded, {writer.lost} answered but NOT recorded"
        f" ({writer.lost_reason or 'unknown reason'})"
    )


def _output_path(output: Path | None, force: bool, replies: Path | None) -> Path:
    from ...core.outputs.output_file import STDOUT, check_output

    if output is None:
        output = Path(f"toolscope-capture-{time.strftime('%Y%m%d-%H%M%S')}.jsonl")
    if str(output) == STDOUT:
        raise InputError("--output", "the capture is written to a file (follow it live with tail -f)")
    target = check_output(str(output), force=force, inputs=[replies] if replies else [], what="the capture")
    if target is not None and target.kind == "link":
        target.path.unlink()  # --force replaces the link itself, never the file it points to
    return output


def _open_writer(path: Path):  # a CaptureWriter
    from ...core.capture.writer import CaptureWriter

    try:
        return CaptureWriter(path)
    except OSError as exc:
        raise InputError(str(path), f"cannot write the capture there: {exc.strerror or exc}") from None


def _run(server, command: list[str], target: Path, proxy: bool) -> int:  # noqa: ANN001 - a CaptureServer
    from ...core.capture.command import client_environment, run_command
    from .. import signals

    env = client_environment(server.url, upstream=proxy)
    if command:
        return run_command(command, env, received=signals.received)
    out = sys.stdout
    print(f"toolscope capture: listening on {server.url}, recording to {target}", file=out)
    print("Point a client here (Ctrl+C stops):", file=out)
    for key, value in env.items():
        print(f"  export {key}={value}", file=out)
    print(f"  follow the capture: tail -f {target}", file=out, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return EXIT_OK
