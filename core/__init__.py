"""toolscope's domain logic.

Never imports textual, typer or rich, and imports AgentScope and the MCP SDK only
inside the functions that need them (``import agentscope.tool`` costs over a second).
"""

__version__ = "0.1.0"
"""toolscope's version (``pyproject.toml`` says the same; ``tests/test_layout.py`` checks)."""
