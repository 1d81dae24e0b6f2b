"""How an MCP outage reads: per-tool reasons and AgentWorks' own ``get_api_spec`` outage text.

For engines: a tool the step expects (``selected_tools``) whose server is down is not
"missing", it is ``unknown: server X failed: <reason>``; and the checklist can quote what
AgentWorks tells the agent in that case (reference agentworks-semantics §6.4, HEAD):

    tools_unavailable: server_unavailable=[s] requested=[names][ not_allowed=[…]]: MCP
    server(s) [s] are configured for this agent but currently have zero registered tools,
    so they failed to start or failed to connect|they connected but advertised no tools.
    The requested tool names are most likely correct — …

Lists are rendered the way Go prints a ``[]string`` (``[a b]``). Which branch of
"failed to start or failed to connect|they connected but advertised no tools" applies is
chosen here from the discovery: the first when any blamed server failed, else the second
(the reference gives both alternatives, not the rule that picks one).
"""

from __future__ import annotations

from collections.abc import Iterable

from .results import DiscoveryResult, ServerResult


def server_state(server: ServerResult) -> str:
    """``server X failed: <reason>`` / ``server X connected but advertised no tools`` / ``server X ok``
    (``server X not started: …`` when toolscope did not start it, see ``start_policy``)."""
    if not server.started:
        return f"server {server.name} {server.error}"
    if not server.ok:
        return f"server {server.name} failed: {server.error}"
    if not server.tools:
        return f"server {server.name} connected but advertised no tools"
    return f"server {server.name} ok ({len(server.tools)} tools)"


def unknown_reason(server: ServerResult) -> str:
    """The verdict text for an expected tool of a zero-tool server: ``unknown: server X failed: …``."""
    return f"unknown: {server_state(server)}"


def _go_list(items: Iterable[str]) -> str:
    return "[" + " ".join(items) + "]"


def get_api_spec_outage_text(
    result: DiscoveryResult, blamed: Iterable[str], requested: Iterable[str], not_allowed: Iterable[str] = ()
) -> str:
    """AgentWorks' ``tools_unavailable: server_unavailable=…`` message for the blamed servers."""
    servers = [s for name in blamed if (s := result.server(name)) is not None]
    names = [s.name for s in servers]
    denied = list(not_allowed)
    head = f"tools_unavailable: server_unavailable={_go_list(names)} requested={_go_list(requested)}"
    if denied:
        head += f" not_allowed={_go_list(denied)}"
    why = (
        "they failed to start or failed to connect"
        if any(not s.ok for s in servers)
        else "they connected but advertised no tools"
    )
    return (
        f"{head}: MCP server(s) {_go_list(names)} are configured for this agent but currently have zero "
        f"registered tools, so {why}. The requested tool names are most likely correct — retrying with "
        "different or guessed tool names will NOT help. Treat this as a server outage: report it and "
        "continue without those tools."
    )
