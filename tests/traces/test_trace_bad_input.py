"""Bad traces: huge, nested deep, cut short, not a trace, megabyte attributes. Each is a clear
error naming the place (exit 2 from the CLI, never a traceback) or a count of what was skipped.
Every bad input here is made from the recorded OpenLLMetry trace of the seed agent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.capture import otlp_read
from toolscope.core.capture.observed_file import load_capture
from toolscope.core.model.errors import InputError

FIXTURES = Path(__file__).resolve().parent / "fixtures"
RECORDED = FIXTURES / "openllmetry.otlp.json"
runner = CliRunner()


def _document() -> dict:
    return json.loads(RECORDED.read_text())


def _error(path: Path) -> str:
    with pytest.raises(InputError) as raised:
        load_capture(path)
    return raised.value.render()


def test_a_trace_cut_short_names_the_line_and_column(tmp_path: Path) -> None:
    data = RECORDED.read_bytes()
    cut = tmp_path / "cut.otlp.json"
    cut.write_bytes(data[: len(data) // 2])
    text = _error(cut)
    assert "is not an OTLP trace in JSON" in text and "line 1, column" in text


def test_json_lines_a_last_line_cut_short_is_counted_and_the_rest_read(tmp_path: Path) -> None:
    line = json.dumps(_document())
    lines = tmp_path / "exports.jsonl"
    lines.write_text(line + "\n" + line + "\n" + line[: len(line) // 3])
    read = load_capture(lines)
    assert len(read.requests) == 8
    assert "1 line 3 cut short (a write in progress?)" in read.skipped


def test_json_lines_a_bad_line_in_the_middle_is_an_error_naming_it(tmp_path: Path) -> None:
    line = json.dumps(_document())
    lines = tmp_path / "exports.jsonl"
    lines.write_text(line + "\n" + line[:50] + "\n" + line + "\n")
    text = _error(lines)
    assert "line 2, column" in text


def test_deep_nesting_is_an_error_naming_the_place(tmp_path: Path) -> None:
    text = RECORDED.read_text()
    path = tmp_path / "deep.otlp.json"
    path.write_text(text.replace('"resource": {', '"resource": {"extra": ' + "[" * 5000 + "]" * 5000 + ", ", 1))
    text = _error(path)
    assert "is not an OTLP trace in JSON" in text and "line 1, column 1064: nested more than 1,024 levels deep" in text


def test_json_that_is_not_a_trace_is_refused_naming_what_was_expected(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"resourceSpans": {"not": "a list"}}))
    text = _error(path)
    assert "is not an OTLP trace" in text and "expected an object with resourceSpans" in text


def test_a_file_that_is_neither_says_both_kinds(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text('{"hello": "world"}\n')
    result = runner.invoke(app, ["report", "--capture", str(path), "-o", str(tmp_path / "r.md")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "OTLP trace" in result.stderr


def test_a_huge_trace_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.otlp.json"
    with path.open("wb") as handle:
        handle.write(b'{"resourceSpans": [')
        handle.truncate(129 * 1024 * 1024)  # sparse: nothing is written
    text = _error(path)
    assert "toolscope reads at most 128 MiB" in text


def test_a_megabyte_attribute_is_dropped_and_counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(otlp_read, "MAX_ATTRIBUTE_CHARS", 100_000)
    document = _document()
    span = next(
        s
        for s in document["resourceSpans"][0]["scopeSpans"][0]["spans"]
        if any(a["key"] == "gen_ai.tool.definitions" for a in s["attributes"])
    )
    for attribute in span["attributes"]:
        if attribute["key"] == "gen_ai.request.model":
            attribute["value"]["stringValue"] = "m" * 1_000_000
    path = tmp_path / "big.otlp.json"
    path.write_text(json.dumps(document))
    read = load_capture(path)
    assert "1 attribute value over 100,000 characters (gen_ai.request.model)" in read.skipped
    assert all(r.model is None or len(r.model) < 1000 for r in read.requests)


def test_a_tool_list_cut_by_a_length_limit_is_unreadable_not_empty(tmp_path: Path) -> None:
    document = _document()
    spans = [s for r in document["resourceSpans"] for sc in r["scopeSpans"] for s in sc["spans"]]
    for span in spans:
        for attribute in span["attributes"]:
            if attribute["key"] == "gen_ai.tool.definitions":
                attribute["value"]["stringValue"] = attribute["value"]["stringValue"][:40]
    path = tmp_path / "limited.otlp.json"
    path.write_text(json.dumps(document))
    text = _error(path)
    assert "4 model-call spans whose tool list is unreadable" in text


def test_spans_that_are_not_objects_are_counted(tmp_path: Path) -> None:
    document = _document()
    document["resourceSpans"][0]["scopeSpans"][0]["spans"] += [7, "x", {"name": "no ids"}]
    path = tmp_path / "odd.otlp.json"
    path.write_text(json.dumps(document))
    read = load_capture(path)
    assert len(read.requests) == 4
    assert "2 spans that are not an object" in read.skipped
    assert "1 span without a traceId and spanId" in read.skipped


def test_the_span_cap_counts_the_rest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(otlp_read, "MAX_SPANS", 3)
    read = otlp_read.read_otlp(RECORDED.read_bytes(), "t")
    assert len(read.spans) == 3 and any("over the 3 read" in why for why in read.skipped)
