"""Prediction against reality: a capture recorded from a real AgentScope Agent (its own
OpenAIChatModel, the official openai SDK) compared with toolscope's lanes, core and CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agentscope_version import agentscope_version
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.systems.agentscope.ids import AgentScopeInput

pytestmark = pytest.mark.agentscope

HERE = Path(__file__).resolve().parent
CAPTURE = HERE / "fixtures" / "agentscope_seed.capture.jsonl"
"""Recorded by fixtures/record_agentscope_capture.py under toolscope capture (4 requests, agentscope 2.0.11)."""
REPO = HERE.parent.parent
TOOLKIT = REPO / "sample_configs" / "agentscope" / "toolkit.yaml"
runner = CliRunner()


def _compare(groups: list[str] | None = None):
    from toolscope.core.capture.observed_file import load_capture
    from toolscope.core.comparison.predict import compare_subject
    from toolscope.core.systems.agentscope.subject import load_toolkit_subject

    subject = load_toolkit_subject(str(TOOLKIT), kind=AgentScopeInput.TOOLKIT_SPEC, groups=groups)
    return compare_subject(subject, load_capture(CAPTURE), None).comparison


def test_the_replayed_lanes_predict_every_recorded_request() -> None:
    comparison = _compare()
    assert [r.received for r in comparison.requests][:2] == [
        ("reset_tools", "note_write"),
        ("reset_tools", "note_write", "web_search", "page_fetch"),
    ]
    assert comparison.requests[1].prediction.basis.startswith("after request 1's reset_tools")
    if agentscope_version() >= (2, 0, 7):
        assert comparison.agrees and comparison.never_received == () and comparison.unpredicted == ()
        assert all(r.same_order for r in comparison.requests)
    else:
        # 2.0.6 clears every group on the typo: the stock lane loses the web tools the real
        # 2.0.11 agent kept, and the guarded lane (which refuses the typo) agrees.
        assert [r.request.index for r in comparison.disagreeing] == [4]
        assert comparison.lanes_agreeing() == {"guarded": True}


def test_a_wrong_starting_state_disagrees_at_the_first_request() -> None:
    comparison = _compare(groups=["web_search"])
    first = comparison.requests[0]
    assert not first.agrees
    assert first.main.missing == ("web_search", "page_fetch") and first.main.unexpected == ()
    assert first.prediction.basis == "starting groups: web_search"


def test_step_capture_json_has_the_capture_block() -> None:
    result = runner.invoke(app, ["step", str(TOOLKIT), "--capture", str(CAPTURE), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    block = doc["capture"]
    assert block["source"] == {
        "path": CAPTURE.name,
        "requests": 4,
        "records": 4,
        "skipped": [],
        "truncated": None,
    }
    assert {"received", "predicted", "agrees", "missing", "unexpected"} <= set(block["requests"][0])
    assert block["lane"] == "stock" and block["name_rule"]["documented"] is True
    # The lanes are the replayed reset_tools calls of the replies (two of them).
    assert [t["call"] for t in doc["lanes"]["stock"]] == [
        '{"web_search": true, "scraping": true}',
        '{"web_serch": true}',
    ]


def test_step_capture_prints_a_disagreement_first() -> None:
    result = runner.invoke(app, ["step", str(TOOLKIT), "--capture", str(CAPTURE), "--groups", "web_search"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("≠ the capture disagrees with toolscope's prediction at request 1 of 4")
    assert "missing     web_search, page_fetch" in result.output
    assert result.output.index("≠ the capture") < result.output.index("AgentScope toolkit spec")


def test_bad_capture_files_are_input_errors(tmp_path: Path) -> None:
    missing = runner.invoke(app, ["step", str(TOOLKIT), "--capture", str(tmp_path / "nope.jsonl")])
    assert missing.exit_code == 2 and "nope.jsonl" in missing.output and "Traceback" not in missing.output
    not_capture = runner.invoke(app, ["step", str(TOOLKIT), "--capture", str(TOOLKIT)])
    assert not_capture.exit_code == 2 and "line 1" in not_capture.output
    both = runner.invoke(app, ["step", str(TOOLKIT), "--capture", str(CAPTURE), "--script", str(CAPTURE)])
    assert both.exit_code == 2 and "--capture" in both.output


def test_the_number_of_requests_read_is_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from toolscope.core.capture import observed_file
    from toolscope.core.capture.observed_file import load_capture

    monkeypatch.setattr(observed_file, "MAX_REQUESTS", 2)
    capture = load_capture(CAPTURE)
    assert len(capture.requests) == 2 and capture.truncated == "only the first 2 model requests were read"


def test_tools_explain_check_carry_the_capture_block() -> None:
    tools = runner.invoke(app, ["tools", str(TOOLKIT), "--capture", str(CAPTURE), "--json"])
    assert tools.exit_code == 0, tools.output
    block = json.loads(tools.stdout)["capture"]
    assert len(block["requests"]) == 4 and block["requests"][0]["received"] == ["reset_tools", "note_write"]
    explain = runner.invoke(app, ["explain", str(TOOLKIT), "web_search", "--capture", str(CAPTURE)])
    assert "web_search reached the model in 3 of 4 requests (2, 3, 4)" in explain.output
    check = runner.invoke(app, ["check", str(TOOLKIT), "--capture", str(CAPTURE), "--groups", "web_search", "--json"])
    assert check.exit_code == 1, check.output
    doc = json.loads(check.stdout)
    assert doc["ok"] is False and doc["capture"]["disagreeing_requests"] == [1]


def test_a_step_config_names_the_tools_that_never_reached_the_model() -> None:
    """The seed step config (a claude-code step) against the AgentScope agent's capture: the bridge's
    tools never arrived and the agent's own tools are foreign; the name rule is said."""
    config = REPO / "sample_configs" / "seed" / "step_config.json"
    result = runner.invoke(app, ["tools", str(config), "--mode", "build", "--capture", str(CAPTURE), "--json"])
    block = json.loads(result.stdout)["capture"]
    assert "get_api_spec" in block["never_received"]
    assert block["unpredicted"] == ["reset_tools", "note_write", "web_search", "page_fetch"]
    assert block["requests"][0]["foreign"] == ["reset_tools", "note_write"]
    assert "mcp__api-bridge__" in block["name_rule"]["summary"]
    human = runner.invoke(app, ["tools", str(config), "--mode", "build", "--capture", str(CAPTURE)])
    assert human.output.startswith("≠ the capture disagrees")
    assert "never reached the model  execute_shell_command" in human.output


CLIENT = """
import os, openai
client = openai.OpenAI(base_url=os.environ["OPENAI_BASE_URL"], api_key="sk-test", max_retries=0)
evil = {"type": "function", "function": {"name": "evil\\x1b[31m[bold]x", "parameters": {"type": "object"}}}
client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}], tools=[evil])
"""


@pytest.mark.slow  # starts toolscope capture and a client process (~5 s alone, more on a busy machine)
def test_untrusted_names_from_a_real_client_stay_inert(tmp_path: Path) -> None:
    """The official openai SDK sends a tool whose name holds an escape and markup: recorded by
    toolscope capture, compared, and printed without the escape and without markup parsing."""
    import subprocess
    import sys

    capture = tmp_path / "evil.capture.jsonl"
    subprocess.run(
        [sys.executable, "-m", "toolscope", "capture", "-o", str(capture), "--", sys.executable, "-c", CLIENT],
        check=True,
        timeout=120,
        capture_output=True,
    )
    result = runner.invoke(app, ["step", str(TOOLKIT), "--capture", str(capture)])
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output
    assert "evil\\x1b[31m[bold]x" in result.output


def test_results_pair_with_their_calls_when_a_client_reuses_one_call_id(start_server) -> None:
    import httpx
    from capture_helpers import wait_records

    from toolscope.core.capture.observed import request_from_record

    server = start_server(keep_messages=True)
    calls = [{"id": "call_0", "type": "function", "function": {"name": n, "arguments": "{}"}} for n in "abc"]
    results = [{"role": "tool", "tool_call_id": "call_0", "content": f"result of {n}"} for n in "abc"]
    chat = [{"role": "user", "content": "go"}, {"role": "assistant", "content": None, "tool_calls": calls}, *results]
    uses = [{"type": "tool_use", "id": "toolu_0", "name": n, "input": {}} for n in "abc"]
    outputs = [{"type": "tool_result", "tool_use_id": "toolu_0", "content": f"result of {n}"} for n in "abc"]
    anthropic = [{"role": "user", "content": "go"}, {"role": "assistant", "content": uses}]
    anthropic.append({"role": "user", "content": outputs})
    items = [{"role": "user", "content": "go"}]
    items += [{"type": "function_call", "call_id": "fc_0", "name": n, "arguments": "{}"} for n in "abc"]
    items += [{"type": "function_call_output", "call_id": "fc_0", "output": f"result of {n}"} for n in "abc"]
    httpx.post(f"{server.url}/v1/chat/completions", json={"model": "m", "messages": chat}).raise_for_status()
    httpx.post(f"{server.url}/v1/messages", json={"model": "m", "max_tokens": 1, "messages": anthropic})
    httpx.post(f"{server.url}/v1/responses", json={"model": "m", "input": items}).raise_for_status()
    for record in wait_records(server, 3):
        observed = request_from_record(record, record.index)
        assert [(r.name, r.text) for r in observed.results or ()] == [(n, f"result of {n}") for n in "abc"]
