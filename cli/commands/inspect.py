"""``toolscope inspect``: not implemented yet (being built)."""
