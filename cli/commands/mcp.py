"""``toolscope mcp [CONFIG]``: toolscope's answers served to the agent itself, as an MCP server over stdio.

Claude Code adds it with ``claude mcp add toolscope -- toolscope mcp claude-code:.``; the agent
can then ask ``why_not(tool)`` about its own configuration (see ``mcp_server`` and ``mcp_answers``).
"""

from __future__ import annotations

from typing import Annotated

import typer

from ..output import handle_errors
from .common import ModeOpt
from .subject_options import NO_SUBJECT_OPTIONS, SubjectOptions, with_subject_options


@handle_errors
@with_subject_options
def mcp_command(
    config: Annotated[
        str | None,
        typer.Argument(
            help="Step config, toolkit spec, module:function, claude-code:DIR or codex:DIR. "
            "Default: the agent whose files are in the working directory."
        ),
    ] = None,
    mode: ModeOpt = None,
    subject_options: SubjectOptions = NO_SUBJECT_OPTIONS,
) -> None:
    """Serve why_not(tool), tools() and check() to an agent: an MCP server on stdin/stdout.

    The answers are explain's, tools' and check's words for CONFIG, read again at every call.
    Read-only; it starts no configured MCP server unless --discover is given. It ends when
    stdin closes, on Ctrl+C or SIGTERM.
    """
    from .mcp_answers import served_from
    from .mcp_server import serve

    serve(served_from(config, mode, subject_options))
