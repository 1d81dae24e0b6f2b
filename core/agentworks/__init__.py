"""core/agentworks."""
