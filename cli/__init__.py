"""The Typer front end (``toolscope explain | tools | check | step | discover | inspect | report``).

``app`` builds the command group and ``commands/`` holds one module per command family;
the rest is the CLI's plumbing: reading what the user gave (``inputs``), terminal layout
and inert printing (``layout``, ``inert_console``, ``styles``, ``verdict_table``), errors
and exit codes (``output``), signals and a closed stdout (``signals``, ``closed_stdout``),
and the log lines libraries write (``log_safety``). Commands are thin over ``toolscope.core``.
"""
