"""The private names of Textual that the TUI uses, in one place (Textual is pinned exactly).

- ``textual.widgets._footer.FooterKey``: the footer's key widget, which ``FittedFooter``
  measures and drops when it would not fit (Textual exports ``Footer`` only).
- ``textual.keys._character_to_key``: a typed character's key name (``"?"`` ->
  ``"question_mark"``), so the footer never advertises a key a text box takes as text.

``tests/test_private_apis.py`` fails when either name changes; bump Textual with that test.
"""

from __future__ import annotations

from textual.keys import _character_to_key as character_to_key
from textual.widgets._footer import FooterKey

__all__ = ["FooterKey", "character_to_key"]
