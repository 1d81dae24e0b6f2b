"""``tools --json`` writes ``toolscope.tools/2``: every tool's stages by reference into
``stage_results``, carrying exactly what each ``ToolVerdict`` says; compact to pipes,
indented to terminals; untrusted names survive the fast encoder byte for byte."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.cli.inputs import open_subject
from toolscope.core.schemas.tools_json import CHUNK_TOOLS, write_tools_document

REPO = Path(__file__).resolve().parents[2]
SEED_STEP = REPO / "sample_configs" / "seed" / "step_config.json"
sys.path.insert(0, str(REPO / "benchmarks"))

from engine_bench import make_universe_files  # noqa: E402

runner = CliRunner()


def resolved(document: dict) -> list[dict]:
    """The document's tools with each stage index replaced by its stage result (the v1 form)."""
    results = document["stage_results"]
    return [{**tool, "stages": [results[i] for i in tool["stages"]]} for tool in document["tools"]]


def written(subject, mode: str | None = None, **options) -> str:
    out = io.StringIO()
    write_tools_document(out.write, subject.evaluate(subject.resolve_mode(mode)), **options)
    return out.getvalue()


@pytest.mark.parametrize("mode", ["build", "run"])
def test_every_tool_carries_exactly_its_verdicts_stages(mode: str):
    subject = open_subject(str(SEED_STEP))
    evaluation = subject.evaluate(mode)
    document = json.loads(written(subject, mode))
    assert document["schema"] == "toolscope.tools/2"
    assert resolved(document) == [_tool_json(tool) for tool in evaluation.tools]
    assert document["counts"] == evaluation.counts()
    assert (document["input"], document["mode"]) == ("step_config", mode)
    # Each distinct stage result once, each one used.
    texts = [json.dumps(s, sort_keys=True) for s in document["stage_results"]]
    assert len(texts) == len(set(texts))
    assert {i for t in document["tools"] for i in t["stages"]} == set(range(len(texts)))


def test_hidden_lists_only_tools_that_are_not_visible_and_only_their_stage_results():
    subject = open_subject(str(SEED_STEP))
    full = json.loads(written(subject, "build"))
    hidden = json.loads(written(subject, "build", hidden_only=True))
    assert [t["tool"] for t in hidden["tools"]] == [t["tool"] for t in full["tools"] if t["verdict"] != "visible"]
    assert resolved(hidden) == [t for t in resolved(full) if t["verdict"] != "visible"]
    assert {i for t in hidden["tools"] for i in t["stages"]} == set(range(len(hidden["stage_results"])))
    assert hidden["counts"] == full["counts"]  # counts describe the whole evaluation, as in v1


def test_compact_for_pipes_indented_for_terminals_same_data():
    subject = open_subject(str(SEED_STEP))
    compact = written(subject, "build")
    indented = written(subject, "build", indent=True)
    assert compact.endswith("}\n") and compact.count("\n") == 1
    assert indented.startswith('{\n  "schema": "toolscope.tools/2"')
    assert json.loads(compact) == json.loads(indented)
    # CliRunner's stdout is not a terminal: the CLI writes the compact form.
    result = runner.invoke(app, ["tools", str(SEED_STEP), "--mode", "build", "--json"])
    assert result.exit_code == 0 and result.stdout == compact


HOSTILE = ['quote"back\\slash', "tab\tnew\nline", "bell\x07esc\x1b[31m", "naïve_ünïcode_☃", "\u202ertl", "[bold]x[/]"]


def test_untrusted_names_round_trip_through_the_fast_encoder(tmp_path: Path):
    registry = {
        "mcp_servers": {'srv"\\\n': HOSTILE},
        "custom_tools": {"cat☃": ["custom\x00nul"]},
        "modes": {"lists": {"build": ["custom\x00nul"]}, "default": "build"},
    }
    (tmp_path / "toolscope.registry.json").write_text(json.dumps(registry))
    step = tmp_path / "step_config.json"
    step.write_text(json.dumps({"id": "s", "agent_configs": {"selected_servers": ['srv"\\\n']}}))
    subject = open_subject(str(step))
    text = written(subject)
    assert "\x1b" not in text and "\x07" not in text and "\x00" not in text  # escaped, as json.dumps does
    document = json.loads(text)
    assert resolved(document) == [_tool_json(tool) for tool in subject.evaluate("build").tools]
    assert {t["tool"] for t in document["tools"]} == {*HOSTILE, "custom\x00nul"}


def test_a_universe_larger_than_one_chunk_is_written_in_pieces(tmp_path: Path):
    step = make_universe_files(tmp_path, tools=CHUNK_TOOLS * 2 + 500, servers=20)
    subject = open_subject(str(step))
    pieces: list[str] = []
    write_tools_document(pieces.append, subject.evaluate("build"))
    assert len(pieces) >= 4  # head, at least two chunks of tools, the end
    assert max(len(p) for p in pieces) < len("".join(pieces)) / 2
    document = json.loads("".join(pieces))
    assert resolved(document) == [_tool_json(tool) for tool in subject.evaluate("build").tools]


def _tool_json(tool) -> dict:  # type: ignore[no-untyped-def]
    """A tool with its stages inline (version 1's per-tool object)."""
    from toolscope.core.schemas.verdicts import ToolJson

    return ToolJson.of(tool).model_dump(mode="json")
