"""One typed model per ``--json`` document, and the JSON Schemas generated from them.

=======================  ==============================  =====================================
schema id                model                           printed by
=======================  ==============================  =====================================
toolscope.explain/1      with_capture.ExplainDocument    ``explain --json``
toolscope.tools/2        with_capture.ToolsDocument      ``tools --json``
toolscope.check/1        with_capture.CheckDocument      ``check --json``
toolscope.filter/1       filter.FilterEnvelope           ``filter --json``
toolscope.step/1         step.StepDocument               ``step --json``
toolscope.mcp-snapshot/1 mcp_snapshot.SnapshotEnvelope   ``discover --json`` / ``-o``
toolscope.report/2       report.ReportEnvelope           ``report --format json``
toolscope.workflow-report/1  report.WorkflowReportEnvelope    ``report --format json``, every step
toolscope.workflow-check/1   verdicts.WorkflowCheckEnvelope   ``check --json``, every step
toolscope.workflow-explain/1 verdicts.WorkflowExplainEnvelope ``explain --json``, every step
toolscope.workflow-tools/1   verdicts.WorkflowToolsEnvelope   ``tools --json``, every step
toolscope.registry-check/1   drift.RegistryCheckEnvelope      ``registry check --json``
toolscope.capture-report/1 capture_report.CaptureReportEnvelope ``report --capture --format json``
toolscope.capture/1      capture.CaptureRecord           each line of ``capture -o FILE``
=======================  ==============================  =====================================

Commands build these models and print ``base.render(model)``, except ``tools --json``:
``core.schemas.tools_json`` writes that document as text for speed, following its model (a test
reads the writer's output back through the model). Each schema is committed next to this file as
``<name>-<version>.schema.json`` (shipped as package data), written by
``python -m toolscope.core.systems.schema_files``: the stage ids, finding kinds and input kinds
are open strings here (``core.model.enums``) and their enums are what the registry's systems
declare, so the schemas are generated above the systems (``generate_schema`` takes them as
``vocabularies``). ``tests/test_contracts.py`` fails when a committed schema differs from its model; the test suite validates every
``--json`` output it produces against its schema (``tests/json_contracts.py``).

How to add a JSON field:

1. Add the field to the model, in the position its key should appear (field order is key
   order). Type it as precisely as you can: an enum from ``core.model.enums`` for a closed
   vocabulary, ``X | None`` for a key that can be null (every key is always written).
2. Fill it where the builder (the model's ``of`` classmethod or the command) builds it.
3. Regenerate the schemas: ``python -m toolscope.core.systems.schema_files`` and commit the changed
   ``*.schema.json`` (adding a key is compatible; renaming or removing one needs ``/2``).
4. Document it in the README's JSON section (``tests/test_contracts.py`` checks the
   field names listed there against the models).

How to add a finding kind or a stage id: add it to its system's ``ids.py`` and ``system.py``
(``core.systems.contract``), emit the member, regenerate the schemas, list it in the README.
A tool kind, severity or verdict: ``core.model.enums``.

Hot path: ``tools/2`` and ``report/2`` hold one object per tool. ``tools/2`` is written by
``core.schemas.tools_json`` and ``report/2``'s tools by ``core.report.json_report`` as text, one
line per tool (add a new per-tool field there too, and keep it cheap to fill).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from ..model.enums import VOCABULARY

__all__ = ["ENVELOPES", "Vocabularies", "committed_schema", "envelope_model", "generate_schema", "schema_file_name"]

# schema id → "module:Model" (imported on demand: each command loads only its own model).
ENVELOPES: dict[str, str] = {
    "toolscope.explain/1": "with_capture:ExplainDocument",
    "toolscope.tools/2": "with_capture:ToolsDocument",
    "toolscope.check/1": "with_capture:CheckDocument",
    "toolscope.filter/1": "filter:FilterEnvelope",
    "toolscope.step/1": "step:StepDocument",
    "toolscope.mcp-snapshot/1": "mcp_snapshot:SnapshotEnvelope",
    "toolscope.report/2": "report:ReportEnvelope",
    "toolscope.workflow-report/1": "report:WorkflowReportEnvelope",
    "toolscope.workflow-check/1": "verdicts:WorkflowCheckEnvelope",
    "toolscope.workflow-explain/1": "verdicts:WorkflowExplainEnvelope",
    "toolscope.workflow-tools/1": "verdicts:WorkflowToolsEnvelope",
    "toolscope.registry-check/1": "drift:RegistryCheckEnvelope",
    "toolscope.capture-report/1": "capture_report:CaptureReportEnvelope",
    "toolscope.capture/1": "capture:CaptureRecord",
}

_DRAFT = "https://json-schema.org/draft/2020-12/schema"


def envelope_model(schema_id: str) -> type[BaseModel]:
    """The model of a schema id (KeyError for an unknown one)."""
    module_name, _, class_name = ENVELOPES[schema_id].partition(":")
    module = importlib.import_module(f"toolscope.core.schemas.{module_name}")
    model: type[BaseModel] = getattr(module, class_name)
    return model


def schema_file_name(schema_id: str) -> str:
    """``toolscope.mcp-snapshot/1`` → ``mcp-snapshot-1.schema.json``."""
    name, _, version = schema_id.removeprefix("toolscope.").partition("/")
    return f"{name}-{version}.schema.json"


Vocabularies = Mapping[str, Sequence[str]]
"""``{"StageId": (...), "FindingKind": (...), "InputKind": (...)}``: each open string type's values."""


def _generator(vocabularies: Vocabularies) -> type[GenerateJsonSchema]:
    """pydantic's generator, writing each vocabulary (``core.model.enums``) as the enum it is."""

    class WithVocabularies(GenerateJsonSchema):
        def str_schema(self, schema: core_schema.StringSchema) -> JsonSchemaValue:
            metadata = schema.get("metadata") or {}
            title = metadata.get(VOCABULARY)
            if title is None:
                return super().str_schema(schema)
            values = list(vocabularies[title])
            return {"description": metadata["description"], "enum": values, "title": title, "type": "string"}

    return WithVocabularies


def generate_schema(schema_id: str, vocabularies: Vocabularies) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a document, generated from its model."""
    model = envelope_model(schema_id)
    body = model.model_json_schema(mode="serialization", schema_generator=_generator(vocabularies))
    name, _, version = schema_id.removeprefix("toolscope.").partition("/")
    head = {
        "$schema": _DRAFT,
        "$id": f"https://toolscope.invalid/schemas/{schema_file_name(schema_id)}",
        "title": f"toolscope {name} (schema {schema_id})",
    }
    return {**head, **{k: v for k, v in body.items() if k != "title"}}


def schema_text(schema_id: str, vocabularies: Vocabularies) -> str:
    """The committed form of a generated schema (sorted keys are not used: model order stays)."""
    return json.dumps(generate_schema(schema_id, vocabularies), indent=2, ensure_ascii=False) + "\n"


def committed_schema(schema_id: str) -> dict[str, Any]:
    """The JSON Schema shipped with toolscope for a schema id."""
    text = resources.files("toolscope.core.schemas").joinpath(schema_file_name(schema_id)).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
