"""``toolscope capture [-- COMMAND …]``: a local model endpoint that records every request's tool list."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from ...core.model.errors import EXIT_CAPTURE_INCOMPLETE, EXIT_INTERRUPTED, InputError
from ...core.text.counts import counted
from ..help_format import ToolscopeCommand
from ..output import handle_errors

_LOOPBACK = ("127.0.0.1", "::1", "localhost")


def _interrupted_before_start() -> typer.Exit:
    """Ctrl+C before anything listened (options still being read, the server modules loading:
    most of the start-up): said, rather than ending in silence as if nothing had been asked."""
    typer.echo("toolscope capture: interrupted before it started; nothing was recorded", err=True)
    return typer.Exit(EXIT_INTERRUPTED)


class CaptureCommand(ToolscopeCommand):
    """``capture``'s command: a Ctrl+C while its options are read (Typer converts some through
    pydantic, imported then) is said too; Typer would exit 130 without a word."""

    def make_context(self, *args, **kwargs):  # noqa: ANN002, ANN003, ANN201 - Click's signature
        try:
            return super().make_context(*args, **kwargs)
        except KeyboardInterrupt:
            raise _interrupted_before_start() from None


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
    otlp: Annotated[
        str | None,
        typer.Option(
            "--otlp",
            metavar="URL|FILE",
            help="At the end, also write every recorded request as an OpenTelemetry GenAI span (gen_ai.tool.definitions): "
            "to FILE in OTLP JSON, or POSTed to an OTLP/HTTP endpoint (http://…; /v1/traces added without a path).",
        ),
    ] = None,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-origin",
            metavar="ORIGIN",
            help="Answer this web page's requests (http://host:port); other pages' are refused and recorded.",
        ),
    ] = None,
) -> None:
    """Serve the OpenAI (Chat Completions, Responses), Anthropic (Messages) and Gemini
    (generateContent) APIs on 127.0.0.1 and write one JSON line per model request: the tools it carried in order
    (size, token estimate, deferred), tool_choice, the system prompt's size and the tool
    calls of the reply. No message text unless --keep-messages; never a key or a header.

    With -- COMMAND: run it with OPENAI_BASE_URL, OPENAI_API_BASE, ANTHROPIC_BASE_URL and
    GOOGLE_GEMINI_BASE_URL pointing here, and exit with its status. Without: serve until Ctrl+C. Exit 2 for bad
    input (a replies file, an option, a port in use). A request a web page sent (it carries
    an Origin) is refused unless --allow-origin names that page.
    """
    writer = None
    try:
        from ...core.capture.replies import ReplyScript, load_replies

        _check_options(replies, upstream, port)
        origins = _allowed_origins(allow_origin)
        script = ReplyScript(load_replies(replies)) if replies is not None else ReplyScript()
        target = _output_path(output, force, replies)
        _check_otlp(otlp, target, force, replies)
        # The server modules (starlette, uvicorn) only once the input is known to be good.
        from ...core.capture.app import CaptureSettings
        from ...core.capture.server import CaptureServer

        writer = _open_writer(target)
        settings = CaptureSettings(
            writer=writer, script=script, upstream=upstream, keep_messages=keep_messages, allowed_origins=origins
        )
        server = _listen(CaptureServer, settings, host, port)
    except KeyboardInterrupt:
        # Once serving starts, _serve writes the summary instead.
        if writer is not None:
            writer.close()
        raise _interrupted_before_start() from None
    if host not in _LOOPBACK:
        typer.echo(f"warning: listening on {host}: reachable from other machines", err=True)
    status = _serve(server, command or [], target, upstream is not None)
    typer.echo(f"toolscope capture: {_summary(writer)} in {target}", err=True)
    exported = otlp is None or _export_otlp(target, otlp)
    raise typer.Exit(EXIT_CAPTURE_INCOMPLETE if writer.lost or not exported else status)


def _check_otlp(otlp: str | None, target: Path, force: bool, replies: Path | None) -> None:
    """``--otlp FILE`` is checked like ``-o`` before anything runs (never an input, never the capture itself)."""
    from ...core.capture.otlp_export import is_otlp_url
    from ...core.outputs.output_file import STDOUT, check_output

    if otlp is None or is_otlp_url(otlp):
        return
    if otlp == STDOUT or Path(otlp).resolve() == target.resolve():
        raise InputError("--otlp", "give a file of its own (not - and not the capture file) or an http:// URL")
    checked = check_output(otlp, force=force, inputs=[replies] if replies else [], what="the OTLP export")
    if checked is not None and checked.kind == "link":
        checked.path.unlink()


def _export_otlp(target: Path, otlp: str) -> bool:
    """Write the capture's requests as GenAI spans; False (said on stderr) when the endpoint failed."""
    from ...core import __version__
    from ...core.capture.otlp_export import OtlpExportError, export_document, write_export
    from ...core.capture.reader import read_capture

    try:
        document = export_document(read_capture(target).records, __version__)
        spans = len(document["resourceSpans"][0]["scopeSpans"][0]["spans"])
        where = write_export(document, otlp)
    except (OtlpExportError, OSError, InputError) as exc:
        message = exc.render() if isinstance(exc, InputError) else str(exc)
        typer.echo(f"toolscope capture: the OTLP export failed: {message}", err=True)
        return False
    typer.echo(f"toolscope capture: {counted(spans, 'span')} exported to {where}", err=True)
    return True


def _summary(writer) -> str:  # noqa: ANN001 - a closed CaptureWriter
    if not writer.lost:
        return f"{counted(writer.written, 'request')} recorded"
    return (
        f"{counted(writer.written, 'request')} recorded, {writer.lost:,} answered but NOT recorded"
        f" ({writer.lost_reason or 'unknown reason'})"
    )


def _check_options(replies: Path | None, upstream: str | None, port: int) -> None:
    from ...core.capture.upstream_url import parse_upstream, shown_url

    if replies is not None and upstream is not None:
        raise InputError("--replies", "cannot be used with --upstream (the upstream answers in proxy mode)")
    if upstream is not None:
        try:
            parse_upstream(upstream)
        except ValueError:  # shown without its userinfo and query values: they may be credentials
            raise InputError("--upstream", f"{shown_url(upstream)!r} is not an http:// or https:// URL") from None
    if not 0 <= port <= 65535:
        raise InputError("--port", f"{port} is not a port number (0-65535; 0: a free port)")


def _allowed_origins(values: list[str] | None) -> tuple[str, ...]:
    from ...core.capture.browser_guard import normal_origin

    values = values or []
    if len(values) > 100:
        raise InputError("--allow-origin", "more than 100 origins")
    origins = []
    for value in values:
        origin = normal_origin(value)
        if origin is None:
            raise InputError(
                "--allow-origin", f"{value[:200]!r} is not an origin (http://host:port, as a browser sends it)"
            )
        origins.append(origin)
    return tuple(origins)


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


def _listen(server_class, settings, host: str, port: int):  # noqa: ANN001, ANN202 - CaptureServer, its settings
    """The server bound to ``host:port`` (not yet serving); the writer closed when it cannot be."""
    try:
        return server_class(settings, host=host, port=port)
    except OSError as exc:
        settings.writer.close()
        raise InputError(
            f"--port {port}" if port else f"--host {host}", f"cannot listen there: {exc.strerror or exc}"
        ) from None


def _open_writer(path: Path):  # a CaptureWriter
    from ...core.capture.writer import CaptureWriter

    try:
        return CaptureWriter(path)
    except OSError as exc:
        raise InputError(str(path), f"cannot write the capture there: {exc.strerror or exc}") from None


def _serve(server, command: list[str], target: Path, proxy: bool) -> int:  # noqa: ANN001 - a CaptureServer
    """Start, serve until the command ends or Ctrl+C, stop; the exit status."""
    try:
        server.start()
        return _run(server, command, target, proxy)
    except KeyboardInterrupt:
        # Ctrl+C before the wait began (while starting, or printing the exports): still the summary
        # and 130, as during the wait (a CI run sent it right after the first line and got neither)
        return EXIT_INTERRUPTED
    finally:
        server.stop()


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
        # Stopped by Ctrl+C, as serve is: the shell's status for an interrupted command.
        return EXIT_INTERRUPTED
