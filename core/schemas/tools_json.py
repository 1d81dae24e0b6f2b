"""The ``toolscope.tools/2`` document (``tools --json``), written fast for 50,000-tool universes.

Version 2 shares stage results by reference: ``stage_results`` lists every distinct stage
result once (``name``, ``passed``, ``code``, ``rule``, ``entry``, ``source``) and each tool's
``stages`` holds indexes into it, in pipeline order. In version 1 every tool repeated its
four rule sentences (about 1.5 KB per tool, 77 MB for 50,000 tools, most of a run spent
encoding them); a real universe has a few hundred distinct decisions, so version 2 carries
the same facts in about a tenth of the bytes.

The text is built from strings: each distinct row of stages is encoded once (an
evaluation's ``VerdictList`` holds its distinct rows and a row number per tool), and per
tool only its name and namespace are escaped. No per-tool dict or ``ToolVerdict`` is created. The compact text is what pipes and files get; ``indent`` re-encodes it
with two-space indentation for a terminal, so both carry exactly the same data.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Sequence
from json.encoder import encode_basestring  # type: ignore[attr-defined]  # the C escaper json.dumps uses
from typing import Any

from ..model.verdicts import Evaluation, Finding, Stage, Verdict, VerdictList, first_failing
from ..outputs.json_text import compact, reindent

SCHEMA = "toolscope.tools/2"
"""The document follows ``core.schemas.verdicts.ToolsEnvelope`` (see ``tests/test_contracts.py``)."""

# A stage's keys are its dataclass fields in order, as every other document serializes it.
_STAGE_FIELDS = tuple(f.name for f in dataclasses.fields(Stage))

# Tools per written chunk: large enough that writes are few, small enough that the
# document never exists as one string (memory stays flat in the number of tools).
CHUNK_TOOLS = 4096


def _findings_json(findings: Iterable[Finding]) -> list[dict[str, Any]]:
    findings = list(findings)
    if not findings:
        return []  # the common case: no JSON models to load
    from .verdicts import FindingJson

    return [FindingJson.of(f).model_dump(mode="json") for f in findings]


class StageTable:
    """Distinct stage results numbered in order of first use; each row's verdict and indexes.

    Shared by the ``tools/2`` and ``report/2`` writers: call ``row`` once per distinct row
    of stages (``VerdictList.rows``); its verdict is the list's ``row_verdicts()``.
    """

    def __init__(self) -> None:
        self.index: dict[Stage, int] = {}
        self.results: list[dict[str, Any]] = []
        """Each distinct stage result's JSON object, in index order."""

    def row(self, row: Sequence[Stage]) -> tuple[str | None, list[int]]:
        """(first failing stage or None, the stages' indexes)."""
        indexes = []
        for stage in row:
            index = self.index.get(stage)
            if index is None:
                index = self.index[stage] = len(self.results)
                self.results.append({name: getattr(stage, name) for name in _STAGE_FIELDS})
            indexes.append(index)
        failing = first_failing(row)
        return None if failing is None else str(failing.name), indexes


def _tail(table: StageTable, row: Sequence[Stage], verdict: Verdict) -> str:
    """A row's compact JSON after the tool's labels: verdict, first failing stage, stage indexes."""
    failing, indexes = table.row(row)
    return f'"verdict":"{verdict}","first_failing_stage":{compact(failing)},"stages":{compact(indexes)}}}'


def tools_document_chunks(
    evaluation: Evaluation,
    *,
    hidden_only: bool = False,
    config_findings: Iterable[Finding] = (),
    capture: dict[str, Any] | None = None,
) -> Iterator[str]:
    """The compact ``toolscope.tools/2`` text in pieces (concatenated: one JSON document, no newline).

    ``stage_results`` comes before ``tools``, so a reader streaming the document has the
    table before the first reference. Each distinct row of stages (a few hundred for
    50,000 tools) is encoded once; a tool is its labels and its row's encoded tail.
    """
    tools = VerdictList.of(evaluation.tools)
    table = StageTable()
    # By row number: the row's JSON tail, or None for a visible row left out by hidden_only.
    row_verdicts = tools.row_verdicts()
    tails: list[str | None] = [
        None if hidden_only and verdict == Verdict.VISIBLE else _tail(table, row, verdict)
        for row, verdict in zip(tools.rows, row_verdicts, strict=True)
    ]
    loaded = evaluation.loaded
    head = {
        "schema": SCHEMA,
        "input": loaded.kind,
        "step": loaded.step,
        "mode": loaded.mode,
        "era": loaded.era,
        "stages": list(evaluation.stage_names),
        "counts": evaluation.counts(),
        "config_findings": _findings_json(config_findings),
    }
    yield compact(head)[:-1] + ',"stage_results":' + compact(table.results) + ',"tools":['
    escape: Callable[[str], str] = encode_basestring
    # Namespaces and kinds repeat across thousands of tools: escaped once each.
    labels: dict[str, str] = {}
    chunk: list[str] = []
    add = chunk.append
    separator = ""
    for tool, row in zip(tools.entries, tools.row_of, strict=True):
        tail = tails[row]
        if tail is None:
            continue
        namespace = labels.get(tool.namespace) or labels.setdefault(tool.namespace, escape(tool.namespace))
        kind = labels.get(tool.kind) or labels.setdefault(tool.kind, escape(tool.kind))
        add(f'{separator}{{"tool":{escape(tool.name)},"namespace":{namespace},"kind":{kind},{tail}')
        separator = ","
        if len(chunk) >= CHUNK_TOOLS:
            yield "".join(chunk)
            chunk.clear()
    if chunk:
        yield "".join(chunk)
    # ``--capture``: the capture block last (``schemas.with_capture.ToolsCaptureEnvelope``).
    yield "]}" if capture is None else '],"capture":' + compact(capture) + "}"


def write_tools_document(
    write: Callable[[str], Any],
    evaluation: Evaluation,
    *,
    hidden_only: bool = False,
    config_findings: Iterable[Finding] = (),
    indent: bool = False,
    capture: dict[str, Any] | None = None,
) -> None:
    """Write the document and a final newline: compact, or indented by two spaces (terminals)."""
    chunks = tools_document_chunks(
        evaluation, hidden_only=hidden_only, config_findings=config_findings, capture=capture
    )
    if indent:
        write(reindent("".join(chunks)) + "\n")
        return
    for piece in chunks:
        write(piece)
    write("\n")
