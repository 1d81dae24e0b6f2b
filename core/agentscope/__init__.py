"""core/agentscope."""
