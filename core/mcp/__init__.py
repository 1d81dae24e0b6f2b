"""core/mcp."""
