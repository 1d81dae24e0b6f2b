"""The activation view and its parts: the view (``view``), the reset_tools composer
(``composer``), the stock and guarded lanes (``lanes``), the turn list (``turns``), stepping
through a session (``stepping``), the script box (``script_box``) and its Markdown export
(``export``)."""
