"""The ``tools`` / ``explain`` / ``check`` documents with a ``capture`` block (``--capture FILE``).

Each is its envelope plus ``capture`` (``capture_compare.CaptureJson``) as the last key;
the schema of each id is the union of the plain and the captured form, so a document
without ``--capture`` is exactly what it was.
"""

from __future__ import annotations

from pydantic import RootModel

from .capture_compare import CaptureJson
from .verdicts import CheckEnvelope, ExplainEnvelope, ToolsEnvelope


class ToolsCaptureEnvelope(ToolsEnvelope):
    """``toolscope tools CONFIG --capture FILE --json``."""

    capture: CaptureJson


class ExplainCaptureEnvelope(ExplainEnvelope):
    """``toolscope explain CONFIG TOOL --capture FILE --json``."""

    capture: CaptureJson


class CheckCaptureEnvelope(CheckEnvelope):
    """``toolscope check CONFIG --capture FILE --json`` (``ok`` is false when the capture disagrees)."""

    capture: CaptureJson


class ToolsDocument(RootModel[ToolsCaptureEnvelope | ToolsEnvelope]):
    """``toolscope.tools/2``: every tool of one input in one mode (with ``capture`` for ``--capture``)."""


class ExplainDocument(RootModel[ExplainCaptureEnvelope | ExplainEnvelope]):
    """``toolscope.explain/1``: one tool's checklist (with ``capture`` for ``--capture``)."""


class CheckDocument(RootModel[CheckCaptureEnvelope | CheckEnvelope]):
    """``toolscope.check/1``: the checks (with ``capture`` for ``--capture``)."""
