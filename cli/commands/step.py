"""``toolscope step``: not implemented yet (being built)."""
