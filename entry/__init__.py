"""toolscope: why doesn't my agent have tool X?

The root package holds only the entry point (``python -m toolscope``, the ``toolscope``
script: ``toolscope.launch:main``, which imports ``toolscope.cli.app``) and the one import users put in their own agents,
``toolscope.tap.SessionTap``. The Typer front end is ``toolscope.cli``, the domain logic
``toolscope.core`` (never imports Textual, Typer or Rich, nor AgentScope at import time)
and the Textual app ``toolscope.tui``.
"""

from toolscope.core import __version__

__all__ = ["__version__"]
