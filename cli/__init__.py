"""toolscope: why doesn't my agent have tool X?

The root package holds the Typer front end (``toolscope.app``); the domain logic is in
``toolscope.core`` (never imports Textual, Typer or AgentScope at import time) and the
Textual app in ``toolscope.tui``.
"""

__version__ = "0.1.0"
