"""The activation view and its parts: the view (``view``), the reset_tools composer
(``composer``), the lanes (``lanes``), the turn list (``turns``), the script box
(``script_box``) and its Markdown export (``export``)."""
