"""The reason a user reads when a server's tools could not be listed: what really happened.

Each cause gets its own words, and an exit code is reported only when it is the server's
own: after we close the connection the SDK stops the server itself (stdin closed, then
SIGTERM, which shows as -15), and we SIGKILL a server at its deadline (-9). Those codes
say what *we* did, so they are never quoted as a crash.
"""

from __future__ import annotations

import os
import signal

from .config import ServerConfig
from .eras import modern_only_reason
from .protocol_errors import ProtocolViolation, first_problem
from .watched_streams import Observed

HANDSHAKE = {"start", "initialize", "server/discover"}


def leaf(exc: BaseException) -> BaseException:
    """The first real exception inside (nested) exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def phase_of(seen: Observed) -> str:
    """What discovery was waiting for: the last request sent, or the process to start."""
    return seen.method or "start"


def exited(code: int) -> str:
    """How a process ended, in words: a clean exit, an exit code, or the signal that killed it."""
    if code == 0:
        return "exited cleanly (code 0)"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"was killed by {name} (signal {-code})"
    return f"exited with code {code}"


def exit_reason(code: int | None, phase: str, tail: str) -> str:
    """The reason for a server process that went away before its tools were listed."""
    suffix = f" (stderr: {tail})" if tail else ""
    how = exited(code) if code is not None else "closed the connection"
    if phase in HANDSHAKE:
        answering = "initialize" if phase == "start" else phase
        return f"failed to start: process {how} before answering {answering}{suffix}"
    return f"crashed: process {how} during {phase}{suffix}"


def kept_running_reason(phase: str, tail: str) -> str:
    suffix = f" (stderr: {tail})" if tail else ""
    return f"{phase} failed: the server closed its stdout but kept running, so it can never answer{suffix}"


def stray_reason(phase: str, seen: Observed, tail: str) -> str:
    suffix = f" (stderr: {tail})" if tail else ""
    ids = ", ".join(seen.stray_ids[:3])
    sent = ", ".join(sorted(seen.sent_ids)[:3])
    return (
        f"{phase} failed: the server answered request id {ids}, which no request had "
        f"(ids sent: {sent or 'none'}), and never answered ours{suffix}"
    )


def classify(exc: BaseException, seen: Observed, exit_code: int | None, server: ServerConfig, tail: str) -> str:
    """Turn the exception that ended an attempt into the reason users read."""
    found = leaf(exc)
    # What the server said, before how its process ended: after a bad answer we close the
    # session ourselves, and the server then exits 0 — which is not a crash.
    said = _what_the_server_said(found, phase_of(seen), server, tail)
    if said is not None:
        return said
    return _how_it_ended(found, seen, exit_code, server, tail)


def _what_the_server_said(found: BaseException, phase: str, server: ServerConfig, tail: str) -> str | None:
    """A bad or refusing answer, or a process that never started; None when the server said nothing."""
    from pydantic import ValidationError

    suffix = f" (stderr: {tail})" if tail else ""
    if isinstance(found, ProtocolViolation):
        return f"{phase} failed: {found}{suffix}"
    if isinstance(found, ValidationError):
        return f"{phase} failed: the server's answer is not valid MCP ({first_problem(found)}){suffix}"
    if isinstance(found, OSError) and phase == "start":
        return _start_failure(found, server)
    if not isinstance(found, _mcp_error_type()):
        return None
    modern = modern_only_reason(found)
    if modern is not None:
        return f"{phase} failed: {modern}"
    # The session closing under us is no answer: how the process ended says more.
    return None if _session_closed(found) else f"{phase} failed: {found}"


def _how_it_ended(found: BaseException, seen: Observed, exit_code: int | None, server: ServerConfig, tail: str) -> str:
    """The process kept running, exited, or the connection failed."""
    phase = phase_of(seen)
    if seen.running_at_close:
        return kept_running_reason(phase, tail)
    if _session_closed(found) or exit_code is not None:
        return exit_reason(exit_code, phase, tail)
    if server.effective_protocol != "stdio" and phase in HANDSHAKE:
        return f"failed to connect: {type(found).__name__}: {found}"
    suffix = f" (stderr: {tail})" if tail else ""
    return f"{phase} failed: {type(found).__name__}: {found}{suffix}"


def _session_closed(found: BaseException) -> bool:
    """The SDK's error for a connection that closed, not an error the server answered with."""
    return isinstance(found, _mcp_error_type()) and "closed" in str(found).lower()


def _mcp_error_type() -> type[Exception]:
    """The SDK's error for a JSON-RPC error answer (renamed in mcp 2)."""
    try:
        from mcp.shared.exceptions import MCPError
    except ImportError:  # pragma: no cover - mcp < 2 (the AgentScope 2.0.6 and 1.x lanes)
        from mcp.shared.exceptions import McpError as MCPError  # type: ignore[attr-defined,no-redef]
    return MCPError


def _start_failure(found: OSError, server: ServerConfig) -> str:
    """Why the process (stdio) or the connection (HTTP) could not start."""
    if server.directory and not os.path.isdir(server.directory):
        return f"failed to start: working directory {server.directory!r} does not exist"
    what = found.strerror or str(found)
    if server.effective_protocol == "stdio":
        return f"failed to start: {what}: {server.command!r}"
    return f"failed to connect: {what}"


def describe_timeout(timeout: float, phase: str, tail: str) -> str:
    waiting = "the process to start" if phase == "start" else phase
    return f"timed out after {timeout:g}s waiting for {waiting}" + (f" (stderr: {tail})" if tail else "")
