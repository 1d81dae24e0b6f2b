"""The activation view and its parts: the view (``view``), its keys (``keys``), the reset_tools
composer (``call_composer``: the group toggles and raw call of ``composer``, the script line of
``script_box``), the replayed session's answer (``replay_banner``), the lanes (``lane_board``,
``lanes``), the turn list (``turns``), the too-small notice (``too_small``) and the Markdown
export (``export``)."""
