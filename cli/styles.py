"""Rich style names for the marks and words of ``core.model.presentation``, in the CLI."""

from __future__ import annotations

from collections.abc import Mapping

from ..core.model.presentation import AS_ANSWER

STAGE_STYLE: Mapping[bool | None, str] = {True: "green", False: "bold red", None: "yellow"}
"""Rich style names of a mark in the CLI."""

VERDICT_STYLE: Mapping[str, str] = {verdict: STAGE_STYLE[answer] for verdict, answer in AS_ANSWER.items()}
"""Rich style names of a verdict in the CLI."""

CALL_STATE_STYLE: Mapping[str, str] = {"success": "green", "error": "bold red", "denied": "bold red"}
"""Rich style names of a tool call's result state (``step``); other states are unstyled."""
