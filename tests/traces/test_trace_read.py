"""Traces as a capture: the recorded traces of real producers read back to the comparison the
capture of the same run gives.

Every fixture pair was recorded by ``fixtures/record_traces.py``: a real AgentScope 2.x
``Agent`` (its own ``OpenAIChatModel`` over the official openai SDK) over the seed toolkit,
run under ``toolscope capture`` with the seed's scripted replies, while an instrumentation
recorded the model calls (``PREFIX.otlp.json``) and toolscope recorded the requests
(``PREFIX.capture.jsonl``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agentscope_version import agentscope_version
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.capture.observed_file import load_capture
from toolscope.core.model.errors import InputError

pytestmark = pytest.mark.agentscope

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
REPO = HERE.parent.parent
TOOLKIT = REPO / "sample_configs" / "agentscope" / "toolkit.yaml"
COMPARED = ("openllmetry", "openinference", "agentscope", "agentscope-openllmetry")
runner = CliRunner()


@pytest.fixture(scope="module")
def subject():
    from toolscope.core.systems.agentscope.ids import AgentScopeInput
    from toolscope.core.systems.agentscope.subject import load_toolkit_subject

    return load_toolkit_subject(str(TOOLKIT), kind=AgentScopeInput.TOOLKIT_SPEC)


def _facts(comparison) -> list[dict]:
    """What a comparison says per request, without where it was read from."""
    keys = ("request", "model", "received", "predicted", "basis", "agrees", "missing", "unexpected", "foreign")
    return [{k: r.to_json()[k] for k in keys} for r in comparison.requests]


@pytest.mark.parametrize("producer", COMPARED)
def test_the_trace_and_the_capture_of_one_run_give_the_same_comparison(subject, producer: str) -> None:
    from toolscope.core.comparison.predict import compare_subject

    capture = load_capture(FIXTURES / f"{producer}.capture.jsonl")
    trace = load_capture(FIXTURES / f"{producer}.otlp.json")
    from_capture = compare_subject(subject, capture, None).comparison
    from_trace = compare_subject(subject, trace, None).comparison
    assert len(trace.requests) == len(capture.requests) == 4
    assert _facts(from_trace) == _facts(from_capture)
    assert from_trace.agrees == from_capture.agrees
    assert [r.tools for r in trace.requests] == [r.tools for r in capture.requests]


@pytest.mark.parametrize("producer", COMPARED)
def test_each_request_links_back_to_its_span(producer: str) -> None:
    document = json.loads((FIXTURES / f"{producer}.otlp.json").read_text())
    spans = {
        (s["traceId"], s["spanId"]): s for r in document["resourceSpans"] for sc in r["scopeSpans"] for s in sc["spans"]
    }
    trace = load_capture(FIXTURES / f"{producer}.otlp.json")
    for request in trace.requests:
        span = spans[(request.trace_id, request.span_id)]
        assert request.head_json()["trace"] == {"trace_id": span["traceId"], "span_id": span["spanId"]}
        assert request.started is not None and request.started.endswith("Z")
    assert trace.requests[0].protocol == ("trace:openinference" if producer == "openinference" else "trace:gen_ai")


def test_a_call_recorded_twice_is_read_once_from_the_inner_span() -> None:
    """AgentScope's TracingMiddleware span holds OpenLLMetry's openai.chat span of the same call."""
    trace = load_capture(FIXTURES / "agentscope-openllmetry.otlp.json")
    document = json.loads((FIXTURES / "agentscope-openllmetry.otlp.json").read_text())
    names = {s["spanId"]: s["name"] for r in document["resourceSpans"] for sc in r["scopeSpans"] for s in sc["spans"]}
    assert [names[r.span_id] for r in trace.requests] == ["openai.chat"] * 4
    assert any("same call as a span nested with it" in s and s.startswith("4 ") for s in trace.skipped)


def test_a_trace_without_tool_lists_is_reported_never_read_as_no_tools() -> None:
    """opentelemetry-instrumentation-openai-v2 records the calls but not their tools."""
    with pytest.raises(InputError) as raised:
        load_capture(FIXTURES / "openai-v2.otlp.json")
    text = raised.value.render()
    assert "has no model call with a tool list recorded" in text
    assert "4 model-call spans with no tool list recorded" in text


def test_check_reads_a_trace_with_no_extra_option(in_repo: Path) -> None:
    result = runner.invoke(
        app,
        ["check", str(TOOLKIT), "--capture", str(FIXTURES / "openinference.otlp.json"), "--json"],
    )
    # 2.0.6 clears every group on the recorded typo (the stock lane then disagrees at request 4).
    agrees = agentscope_version() >= (2, 0, 7)
    assert result.exit_code == (0 if agrees else 1), result.output
    block = json.loads(result.stdout)["capture"]
    assert block["agrees"] is agrees and block["source"]["path"] == "openinference.otlp.json"
    assert [r["protocol"] for r in block["requests"]] == ["trace:openinference"] * 4
    assert all(len(r["trace"]["trace_id"]) == 32 and len(r["trace"]["span_id"]) == 16 for r in block["requests"])


def test_the_openai_v2_trace_is_bad_input_for_check(in_repo: Path) -> None:
    result = runner.invoke(app, ["check", str(TOOLKIT), "--capture", str(FIXTURES / "openai-v2.otlp.json")])
    assert result.exit_code == 2
    assert "no tool list recorded" in result.stderr and "Traceback" not in result.output


def test_the_capture_view_follows_a_trace_file_read_whole_again_when_it_changes(tmp_path: Path) -> None:
    from toolscope.core.capture.observed_file import ObservedFollower

    path = tmp_path / "run.otlp.json"
    follower = ObservedFollower(path)
    assert follower.poll() is None  # not there yet
    path.write_bytes((FIXTURES / "openinference.otlp.json").read_bytes())
    first = follower.poll()
    assert first is not None and len(first.requests) == 4 and first.requests[0].protocol == "trace:openinference"
    assert follower.poll() is None
    path.write_bytes((FIXTURES / "openllmetry.otlp.json").read_bytes())
    again = follower.poll()
    assert again is not None and again.requests[0].protocol == "trace:gen_ai"
