"""``toolscope filter``: ask AgentWorks' ToolFilter directly, without a step config or registry.

    toolscope filter -t github:create_issue -s github github:create_issue github:list_issues
    toolscope filter -t tavily:* --server tavily --server gmail --json

Each query is ``package:tool`` (split on the first ':'); ``--server NAME`` asks
ShouldIncludeServer instead. Exit 0 when every query is included, 1 when one is not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from toolscope.app import app
from toolscope.core.errors import EXIT_NEGATIVE, InputError
from toolscope.output import handle_errors, plain, print_document, stdout_console

if TYPE_CHECKING:
    from toolscope.core.agentworks.filter_decisions import FilterDecision


@app.command("filter")
@handle_errors
def filter_command(
    queries: Annotated[list[str] | None, typer.Argument(help="package:tool queries for ShouldIncludeTool.")] = None,
    selected_tools: Annotated[
        list[str] | None, typer.Option("--selected-tools", "-t", help="A selected_tools entry (repeatable).")
    ] = None,
    selected_servers: Annotated[
        list[str] | None, typer.Option("--selected-servers", "-s", help="A selected_servers entry (repeatable).")
    ] = None,
    servers: Annotated[
        list[str] | None, typer.Option("--server", help="Ask ShouldIncludeServer for this name (repeatable).")
    ] = None,
    virtual: Annotated[bool, typer.Option("--virtual", help="The queried tools are virtual tools.")] = False,
    system_categories: Annotated[
        list[str] | None,
        typer.Option("--system-category", help="System category bases (repeatable); default: mcpagent HEAD's list."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Evaluate ShouldIncludeTool / ShouldIncludeServer for the given selected_tools and selected_servers."""
    from toolscope.core.agentworks.tool_filter import DEFAULT_SYSTEM_CATEGORY_BASES, ToolFilter
    from toolscope.core.schemas.filter import FilterEnvelope, ServerAnswer, ToolAnswer

    if not queries and not servers:
        raise InputError("filter", "nothing to ask: give package:tool queries or --server NAME")
    bases = system_categories if system_categories is not None else DEFAULT_SYSTEM_CATEGORY_BASES
    tool_filter = ToolFilter(selected_tools or [], selected_servers or [], bases)
    answers: list[ToolAnswer | ServerAnswer] = []
    for query in queries or []:
        package, sep, tool = query.partition(":")
        if not sep:
            raise InputError(query, "expected package:tool")
        decision = tool_filter.should_include_tool(package, tool, is_virtual=virtual)
        answers.append(ToolAnswer(package=package, tool=tool, **_decision_fields(decision)))
    for server in servers or []:
        decision = tool_filter.should_include_server(server)
        answers.append(ServerAnswer(server=server, **_decision_fields(decision)))
    if as_json:
        print_document(FilterEnvelope(answers=answers))
    else:
        from rich.table import Table
        from rich.text import Text

        table = Table(header_style="bold")
        for column in ("query", "include", "code", "reason"):
            table.add_column(column, overflow="fold")
        for answer in answers:
            query = f"{answer.package}:{answer.tool}" if isinstance(answer, ToolAnswer) else f"server {answer.server}"
            table.add_row(
                plain(query, single_line=True),
                Text("✓ yes" if answer.include else "✗ no", style="green" if answer.include else "bold red"),
                Text(answer.code),
                plain(answer.reason),
            )
        stdout_console().print(table)
    if not all(a.include for a in answers):
        raise typer.Exit(EXIT_NEGATIVE)


def _decision_fields(decision: FilterDecision) -> dict[str, Any]:
    return {
        "include": decision.include,
        "code": decision.code,
        "reason": decision.reason,
        "entry": decision.entry,
        "field": decision.field,
    }
