"""The Typer front end (``toolscope capture | check | discover | explain | filter | inspect | report | serve | step | tools``).

``app`` builds the command group. A command (``commands/``, one module per command family)
parses its options into one request, asks ``toolscope.core`` once and hands the answer to one
renderer (``render/``: verdict tables, checklists, findings, capture comparisons, step runs,
JSON documents). The systems' options come from the registry (``system_options``) and are
grouped by system in ``--help`` (``help_format``). The rest is plumbing: opening CONFIG with
the options that apply to its system (``inputs``, ``client_options``), terminal layout and
inert printing (``layout``, ``inert_console``, ``styles``), errors and exit codes
(``output``), a display for the terminal app (``display``), signals and a closed stdout
(``signals``, ``closed_stdout``), and the log lines libraries write (``log_safety``).
"""
