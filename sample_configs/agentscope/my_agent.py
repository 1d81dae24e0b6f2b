"""Example toolkit factory: how a user points toolscope at their own code.

    toolscope tools sample_configs/agentscope/my_agent.py:build_toolkit
    toolscope explain sample_configs/agentscope/my_agent.py:build_toolkit web_search --mode dont_ask
    toolscope step sample_configs/agentscope/my_agent.py:build_toolkit --script sample_configs/agentscope/typo.json

A factory is a sync or async function taking no arguments and returning a ``Toolkit``,
or a ``(Toolkit, AgentState)`` tuple when the agent starts with groups already active or
with permission rules. It works on every AgentScope 2.0.x from 2.0.6 on.
"""

from __future__ import annotations

from typing import Any

from agentscope.message import TextBlock, ToolResultState
from agentscope.permission import PermissionBehavior, PermissionDecision, PermissionRule
from agentscope.state import AgentState
from agentscope.tool import FunctionTool, ToolBase, ToolChunk, ToolGroup, Toolkit


def note_write(text: str) -> str:
    """Write a note to the session notebook.

    Args:
        text (`str`): The note text.
    """
    return "Note saved."


def page_fetch(url: str) -> str:
    """Fetch a web page as text.

    Args:
        url (`str`): The page URL.
    """
    return "<html>Example page</html>"


class WebSearch(ToolBase):
    """A read-only search tool that allows itself (no user confirmation needed)."""

    name = "web_search"
    description = "Search the web for a query."
    input_schema = {
        "type": "object",
        "properties": {"query": {"type": "string", "description": "What to search for."}},
        "required": ["query"],
    }
    is_concurrency_safe = True
    is_read_only = True

    async def check_permissions(self, tool_input: dict[str, Any], context: Any) -> PermissionDecision:
        return PermissionDecision(behavior=PermissionBehavior.ALLOW, message="search is always allowed")

    async def call(self, query: str = "") -> ToolChunk:
        return ToolChunk(
            content=[TextBlock(type="text", text=f"3 results for {query!r}")], state=ToolResultState.SUCCESS
        )


def build_toolkit() -> tuple[Toolkit, AgentState]:
    """The seed's world, built in code; page_fetch is allowed by a rule in the state."""
    toolkit = Toolkit(
        tools=[FunctionTool(note_write)],
        tool_groups=[
            ToolGroup(
                "web_search",
                "Search the web and fetch pages.",
                instructions="Cite the URL of every page you use.",
                tools=[WebSearch(), FunctionTool(page_fetch)],
            ),
            ToolGroup("scraping", "Scrape structured data from web pages."),
        ],
    )
    state = AgentState()
    state.permission_context.allow_rules["page_fetch"] = [
        PermissionRule(
            tool_name="page_fetch", rule_content=None, behavior=PermissionBehavior.ALLOW, source="my_agent.py"
        )
    ]
    return toolkit, state
