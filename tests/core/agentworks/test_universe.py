"""The universe built from a registry: every tool once per definition, in registry order,
duplicates and outages marked, and the runs the pipeline decides namespace by namespace."""

from __future__ import annotations

from toolscope.core.model.enums import ToolKind
from toolscope.core.systems.agentworks.registry import CustomCategory, McpServer, RegistryModel
from toolscope.core.systems.agentworks.universe import ToolEntry, build_universe


def _reference(model: RegistryModel, discovered, errors, expected):  # type: ignore[no-untyped-def]
    """The universe's tools, duplicates and runs computed the plain way, one tool at a time."""
    tools, duplicates, defined, owner = [], [], {}, {}
    for server, spec in (discovered if discovered is not None else model.mcp_servers).items():
        for tool in spec.tools:
            tools.append(ToolEntry(tool, server, ToolKind.MCP, spec.descriptions.get(tool, ""), owner.get(tool)))
            owner.setdefault(tool, server)
            if tool in defined:
                duplicates.append((tool, defined[tool], f"mcp_servers.{server}"))
            defined.setdefault(tool, f"mcp_servers.{server}")
    for server, reason in errors.items():
        for tool in expected.get(server, ()):
            tools.append(ToolEntry(tool, server, ToolKind.MCP, outage=reason))
    for name, cat in model.custom_tools.items():
        for tool in (*cat.tools, *cat.also_registered):
            tools.append(ToolEntry(tool, name, ToolKind.CUSTOM, cat.descriptions.get(tool, "")))
            if tool in defined:
                duplicates.append((tool, defined[tool], f"custom_tools.{name}"))
            defined.setdefault(tool, f"custom_tools.{name}")
    tools += [ToolEntry(t, "virtual", ToolKind.VIRTUAL) for t in model.virtual_tools]
    runs: list[list] = []
    for index, tool in enumerate(tools):
        plain = tool.duplicate_of is None and tool.outage is None
        if runs and runs[-1][2:4] == [tool.namespace, tool.kind]:
            runs[-1][1] = index + 1
            runs[-1][4] = runs[-1][4] and plain
        else:
            runs.append([index, index + 1, tool.namespace, tool.kind, plain])
    return tools, duplicates, [tuple(r) for r in runs]


def test_tools_duplicates_outages_and_runs_match_the_plain_computation() -> None:
    model = RegistryModel(
        mcp_servers={
            "alpha": McpServer(("a1", "a2", "shared"), {"a2": "second tool"}),
            "beta": McpServer(("b1", "shared", "b1")),  # a name from alpha, and one of its own twice
            "gamma": McpServer(()),
            "delta": McpServer(("d1",)),
        },
        custom_tools={"cat": CustomCategory(("c1", "d1"), ("c2",), descriptions={"c1": "custom"})},
        virtual_tools=("get_api_spec",),
    )
    errors = {"delta": "connection refused"}
    expected = {"delta": ("d2", "d3")}
    universe = build_universe(model, "registry.yaml", None, errors, expected)
    tools, duplicates, runs = _reference(model, None, errors, expected)
    assert list(universe.tools) == tools
    assert list(universe.duplicates) == duplicates
    assert list(universe.runs) == runs
    assert universe.names == tuple(t.name for t in tools)
    assert [t.duplicate_of for t in universe.tools if t.namespace == "beta"] == [None, "alpha", "beta"]
    # delta's outage entries join delta's run, which is then not plain
    assert (6, 9, "delta", ToolKind.MCP, False) in universe.runs
    assert all(isinstance(t, ToolEntry) for t in universe.tools)


def test_a_name_defined_in_several_places_is_reported_at_each_later_place() -> None:
    model = RegistryModel(
        mcp_servers={"alpha": McpServer(("x", "y")), "beta": McpServer(("x",))},
        custom_tools={"cat": CustomCategory(("x", "c", "c")), "other": CustomCategory(("y",))},
        virtual_tools=("c",),
        other_tools={"session": ("y", "s")},
    )
    universe = build_universe(model, "registry.yaml")
    assert list(universe.duplicates) == _reference(model, None, {}, {})[1] + [
        ("c", "custom_tools.cat", "virtual_tools"),
        ("y", "mcp_servers.alpha", "other_tools.session"),
    ]
    assert universe.duplicates[:4] == (
        ("x", "mcp_servers.alpha", "mcp_servers.beta"),
        ("x", "mcp_servers.alpha", "custom_tools.cat"),
        ("c", "custom_tools.cat", "custom_tools.cat"),
        ("y", "mcp_servers.alpha", "custom_tools.other"),
    )
