"""toolscope's domain logic.

Never imports textual, typer or rich, and imports AgentScope and the MCP SDK only
inside the functions that need them (``import agentscope.tool`` costs over a second).
"""
