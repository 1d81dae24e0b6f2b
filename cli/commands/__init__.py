"""CLI commands, one module per command family."""
