"""``toolscope report``: not implemented yet (being built)."""
