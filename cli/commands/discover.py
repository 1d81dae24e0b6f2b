"""``toolscope discover``: not implemented yet (being built)."""
