"""How a server's wrong answers are told apart from crashes and timeouts during discovery."""

from __future__ import annotations

from typing import Any

from ..text.safe_text import inert

QUOTED_CHARS = 80
"""How much of an unparsable line a reason quotes."""


class ProtocolViolation(Exception):
    """The server answered, but not as MCP says (a pagination loop, unparsable output)."""


def first_problem(exc: Any) -> str:
    """The first problem of a pydantic ValidationError as ``where: what`` (and how many more)."""
    errors = exc.errors(include_url=False)
    if not errors:
        return str(exc)
    first = errors[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or "result"
    more = f"; {len(errors) - 1} more" if len(errors) > 1 else ""
    return f"{where}: {first.get('msg', 'invalid')}{more}"


def quoted(text: str) -> str:
    """A line from a server, shortened and made inert, in double quotes."""
    cut = text[:QUOTED_CHARS] + ("…" if len(text) > QUOTED_CHARS else "")
    return '"' + inert(cut, single_line=True).replace('"', '\\"') + '"'


def describe_bad_line(exc: Exception) -> tuple[str, str | None]:
    """What an unparsable stdout line was, and the line itself when it is worth quoting,
    from the exception the SDK passed on for it."""
    errors: list[dict[str, Any]] = []
    if hasattr(exc, "errors"):
        try:
            errors = exc.errors(include_url=False)
        except Exception:  # noqa: BLE001 - not a pydantic error after all: described from its text
            errors = []
    first = errors[0] if errors else {}
    message = str(first.get("msg", exc))
    line = first.get("input") if isinstance(first.get("input"), str) else None
    if "\ufffd" in (line if line is not None else str(exc)):
        return "bytes that are not UTF-8", None
    if "recursion limit" in message:
        return "a message nested too deeply to read (past the JSON parser's depth limit)", None
    if first.get("type") == "json_invalid" or "Invalid JSON" in message:
        return "a line that is not JSON", line
    return "a line that is JSON but not a JSON-RPC message", line


def bad_output_reason(phase: str, items: list[Exception], tail: str) -> str:
    """The failure reason for a server whose stdout held lines that are not JSON-RPC.

    The last noted line is the one that matters: earlier ones (a banner) were skipped, and
    the server then failed to answer. The line is quoted inert (escapes shown, not acted on)."""
    what, line = describe_bad_line(items[-1])
    quote = f": {quoted(line)}" if line is not None else ""
    suffix = f" (stderr: {tail})" if tail else ""
    return f"{phase} failed: the server wrote {what} on stdout{quote}{suffix}"
