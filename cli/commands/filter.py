"""``toolscope filter``: ask AgentWorks' ToolFilter directly, without a step config or registry.

    toolscope filter --selected-tools github:create_issue --selected-servers github github:create_issue
    toolscope filter --selected-tools 'tavily:*' --server tavily --server gmail --json
    toolscope filter --queries queries.json      # [{"package": "a:b", "tool": "t", "virtual": true}]

Each QUERY is ``package:tool`` (split on the first ':'; a query starting with '-' goes
after ``--``); ``--server NAME`` asks ShouldIncludeServer instead. A query file asks
about any package name (one containing ':' too) and sets ``virtual`` per query. Exit 0
when every query is included, 1 when one is not.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ...core.model.errors import EXIT_NEGATIVE, InputError, Problem
from ...core.model.presentation import MARK
from ..output import handle_errors, print_document, stdout_console
from ..styles import STAGE_STYLE

if TYPE_CHECKING:
    from ...core.schemas.filter import Answer
    from ...core.systems.agentworks.filter_decisions import FilterDecision


@handle_errors
def filter_command(
    queries: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[QUERY]...", help="PACKAGE:TOOL to ask ShouldIncludeTool about (split on the first :)."
        ),
    ] = None,
    selected_tools: Annotated[
        list[str] | None,
        typer.Option("--selected-tools", metavar="ENTRY", help="A selected_tools entry (repeatable)."),
    ] = None,
    selected_servers: Annotated[
        list[str] | None,
        typer.Option("--selected-servers", metavar="SERVER", help="A selected_servers entry (repeatable)."),
    ] = None,
    servers: Annotated[
        list[str] | None,
        typer.Option("--server", metavar="NAME", help="Ask ShouldIncludeServer for this name (repeatable)."),
    ] = None,
    query_file: Annotated[
        Path | None,
        typer.Option(
            "--queries",
            metavar="FILE",
            help='JSON/YAML list of queries: {"package": P, "tool": T, "virtual": true|false}, {"server": S} '
            "or \"P:T\"; for package names with ':' and a per-query virtual flag.",
        ),
    ] = None,
    virtual: Annotated[bool, typer.Option("--virtual", help="The QUERY tools are virtual tools.")] = False,
    system_categories: Annotated[
        list[str] | None,
        typer.Option(
            "--system-category",
            metavar="BASE",
            help="System category bases (repeatable); default: mcpagent HEAD's list.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Evaluate ShouldIncludeTool / ShouldIncludeServer for the given selected_tools and selected_servers."""
    from ...core.schemas.filter import FilterEnvelope
    from ...core.systems.agentworks.tool_filter import DEFAULT_SYSTEM_CATEGORY_BASES, ToolFilter

    asked = _asked(queries or [], virtual, query_file, servers or [])
    bases = system_categories if system_categories is not None else DEFAULT_SYSTEM_CATEGORY_BASES
    tool_filter = ToolFilter(selected_tools or [], selected_servers or [], bases)
    answers = [_answer(tool_filter, query) for query in asked]
    if as_json:
        print_document(FilterEnvelope(answers=answers))
    else:
        _print_answers(answers)
    if not all(a.include for a in answers):
        raise typer.Exit(EXIT_NEGATIVE)


def _asked(queries: list[str], virtual: bool, query_file: Path | None, servers: list[str]) -> list[Query]:
    """The queries: PACKAGE:TOOL arguments, then the query file's, then --server names (exit 2: none)."""
    asked = [_split_query(q, virtual) for q in queries]
    if query_file is not None:
        asked += load_queries(query_file)
    asked += [Query(server=name) for name in servers]
    if not asked:
        raise InputError("filter", "nothing to ask: give PACKAGE:TOOL queries, --queries FILE or --server NAME")
    return asked


def _answer(tool_filter: Any, query: Query) -> Answer:
    """ShouldIncludeServer or ShouldIncludeTool's answer to one query."""
    from ...core.schemas.filter import ServerAnswer, ToolAnswer, VirtualToolAnswer

    if query.server is not None:
        decision = tool_filter.should_include_server(query.server)
        return ServerAnswer(server=query.server, **_decision_fields(decision))
    decision = tool_filter.should_include_tool(query.package, query.tool, is_virtual=query.virtual)
    # The "virtual" key is written only for virtual queries (VirtualToolAnswer).
    model = VirtualToolAnswer if query.virtual else ToolAnswer
    return model(package=query.package, tool=query.tool, **_decision_fields(decision))


def _print_answers(answers: list[Answer]) -> None:
    from rich.text import Text

    from ...core.schemas.filter import ToolAnswer, VirtualToolAnswer
    from ...core.text.safe_text import inert
    from ..layout import Cell, Column, layout_table
    from ..output import print_lines, print_wrapped

    console = stdout_console()
    columns = [Column("QUERY"), Column("INCLUDE"), Column("CODE")]
    rows, notes = [], []
    for answer in answers:
        if isinstance(answer, ToolAnswer):
            query = f"{answer.package}:{answer.tool}" + (" (virtual)" if isinstance(answer, VirtualToolAnswer) else "")
        else:
            query = f"server {answer.server}"
        rows.append(
            [
                Cell(inert(query, single_line=True)),
                Cell(f"{MARK[True]} yes", STAGE_STYLE[True])
                if answer.include
                else Cell(f"{MARK[False]} no", STAGE_STYLE[False]),
                Cell(answer.code),
            ]
        )
        notes.append(Cell(inert(answer.reason, single_line=True)))
    layout = layout_table(columns, rows, console.width, note=Column("REASON"), notes=notes, min_note=40)
    if layout.inline and not layout.shortened:
        print_lines(console, layout.lines)
        return
    # The reason is the answer: never shortened; wrapped below its row instead.
    layout = layout_table(columns, rows, console.width)
    print_lines(console, layout.lines[:1])
    for line, note in zip(layout.lines[1:], notes, strict=True):
        print_lines(console, [line])
        print_wrapped(console, Text("    "), note.text)


@dataclass(frozen=True)
class Query:
    """One question: a tool (package, tool, virtual) or a server."""

    package: str = ""
    tool: str = ""
    virtual: bool = False
    server: str | None = None


def _split_query(text: str, virtual: bool) -> Query:
    package, sep, tool = text.partition(":")
    if not sep:
        raise InputError(text, "expected PACKAGE:TOOL (a package name with ':' goes in a --queries file)")
    return Query(package, tool, virtual)


def load_queries(path: Path) -> list[Query]:
    """Queries from a JSON/YAML list: objects with package/tool[/virtual] or server, or
    "package:tool" strings. Every problem is reported with its place in the list."""
    from ...core.inputs.documents import load_document

    data = load_document(path, "query file").data
    if not isinstance(data, list):
        raise InputError(str(path), "expected a list of queries", [Problem("", f"got {type(data).__name__}")])
    queries: list[Query] = []
    problems: list[Problem] = []
    for index, item in enumerate(data):
        query = _query_of(item, f"[{index}]", problems)
        if query is not None:
            queries.append(query)
    if problems:
        raise InputError(str(path), "is not a valid query file", problems)
    return queries


def _query_of(item: Any, where: str, problems: list[Problem]) -> Query | None:
    """One entry of a query file as a Query; None (its problems added) when it is not one."""
    if isinstance(item, str):
        package, sep, tool = item.partition(":")
        if not sep:
            problems.append(Problem(where, f'expected "PACKAGE:TOOL", got {item!r}'))
        return Query(package, tool) if sep else None
    if not isinstance(item, dict):
        problems.append(Problem(where, 'expected an object or a "PACKAGE:TOOL" string'))
        return None
    unknown = sorted(set(item) - {"package", "tool", "virtual", "server"})
    if unknown:
        problems.append(Problem(where, f"unknown key(s) {', '.join(map(repr, unknown))}"))
    if "server" in item:
        if not isinstance(item["server"], str) or set(item) - {"server"}:
            problems.append(Problem(where, 'a server query is {"server": NAME} alone'))
            return None
        return Query(server=item["server"])
    return _tool_query(item, where, problems)


def _tool_query(item: dict[str, Any], where: str, problems: list[Problem]) -> Query | None:
    """``{"package": P, "tool": T, "virtual": B}`` as a Query (None, its problem added, when not)."""
    given_package, given_tool, virtual = item.get("package"), item.get("tool"), item.get("virtual", False)
    if not isinstance(given_package, str) or not isinstance(given_tool, str):
        problems.append(Problem(where, "expected string values for both package and tool"))
    elif not isinstance(virtual, bool):
        problems.append(Problem(f"{where}.virtual", f"expected true or false, got {virtual!r}"))
    else:
        return Query(given_package, given_tool, virtual)
    return None


def _decision_fields(decision: FilterDecision) -> dict[str, Any]:
    return {
        "include": decision.include,
        "code": decision.code,
        "reason": decision.reason,
        "entry": decision.entry,
        "field": decision.field,
    }
