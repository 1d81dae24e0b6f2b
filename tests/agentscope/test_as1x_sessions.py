"""AgentScope 1.x sessions as a real 1.x ReActAgent saved them (fixtures/v1, recorded by
fixtures/v1/record_v1_sessions.py on 1.0.21 and 1.0.11): read without AgentScope, in both
memory layouts; a 1.x session under an installed 2.x is refused clearly (exit 2).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.model.errors import InputError
from toolscope.core.systems.agentscope.v1.sessions import detect_v1, failure_kind_v1, read_v1
from toolscope.core.systems.agentscope.version import agentscope_major

V1 = Path(__file__).parent / "fixtures" / "v1"
VERSIONS = ("1.0.21", "1.0.11")
FORMS = {"typo.json": "v1_json_session", "typo.agent_state.json": "v1_agent_state", "typo.memory.json": "v1_memory"}


def _load(version: str, name: str):
    path = V1 / version / name
    return read_v1(str(path), json.loads(path.read_text()))


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("name", sorted(FORMS))
def test_every_form_reads_the_same_calls(version: str, name: str) -> None:
    path = V1 / version / name
    data = json.loads(path.read_text())
    assert detect_v1(data) == FORMS[name]
    session = read_v1(str(path), data)
    assert [c.name for c in session.calls] == [
        "reset_equipped_tools",
        "web_search",
        "reset_equipped_tools",
        "page_fetch",
    ]
    assert [c.model_turn for c in session.calls] == [1, 2, 3, 4]
    assert session.model_turns == 5
    assert [c.raw_input for c in session.resets] == ['{"web_search": true, "scraping": true}', '{"web_serch": true}']
    # 1.x claims the misspelled group was activated: that text is what was recorded.
    assert session.resets[1].result_text == "Now tool groups 'web_serch' are activated."
    assert session.calls[3].failure == "inactive_group"
    assert session.calls[1].failure is None and session.calls[1].raw_input is None  # values of other tools: not kept
    assert session.final_groups == (None if name == "typo.memory.json" else ())
    assert session.initial_groups is None  # 1.x never saves them
    layout = "from 1.0.12" if version == "1.0.21" else "up to 1.0.11"
    assert any(layout in note for note in session.notes)


def test_the_memory_layouts_really_differ() -> None:
    new = json.loads((V1 / "1.0.21" / "typo.memory.json").read_text())
    old = json.loads((V1 / "1.0.11" / "typo.memory.json").read_text())
    assert set(new) == {"_compressed_summary", "content"} and isinstance(new["content"][0], list)
    assert set(old) == {"content"} and isinstance(old["content"][0], dict)


def test_no_meta_session_and_failure_texts() -> None:
    session = _load("1.0.21", "no_meta.json")
    assert [(c.name, c.failure) for c in session.calls] == [
        ("web_search", "inactive_group"),
        ("nope_tool", "not_found"),
    ]
    assert failure_kind_v1("FunctionNotFoundError: Cannot find the function named x") == "not_found"
    assert failure_kind_v1("3 results") is None


def test_a_bare_message_list_is_a_memory_dump() -> None:
    data = json.loads((V1 / "1.0.11" / "typo.memory.json").read_text())["content"]
    assert detect_v1(data) == "v1_memory"
    assert len(read_v1("m.json", data).calls) == 4


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda d: d["dbg"]["memory"]["content"].__setitem__(1, [{"no": "role"}, []]), "dbg.memory[1][0]"),
        (lambda d: d["dbg"].__setitem__("toolkit", {"active_groups": "web_search"}), "dbg.toolkit"),
    ],
)
def test_bad_1x_sessions_name_the_place(mutate, where: str) -> None:
    data = json.loads((V1 / "1.0.21" / "typo.json").read_text())
    mutate(data)
    with pytest.raises(InputError) as caught:
        read_v1("typo.json", data)
    assert where in caught.value.render()


def test_several_agents_pick_the_first_or_the_key() -> None:
    agent = json.loads((V1 / "1.0.21" / "typo.json").read_text())["dbg"]
    data = {"a": agent, "b": agent}
    assert any("reading 'a'" in n for n in read_v1("s.json", data).notes)
    assert read_v1("s.json", data, agent_key="b").session_id == "b"
    with pytest.raises(InputError, match="no agent 'c'"):
        read_v1("s.json", data, agent_key="c")


@pytest.mark.agentscope
@pytest.mark.skipif(agentscope_major() != 2, reason="needs AgentScope 2.x installed")
def test_a_1x_session_under_2x_is_refused_clearly(samples) -> None:
    result = CliRunner().invoke(
        app, ["step", str(samples / "toolkit.yaml"), "--session", str(V1 / "1.0.21" / "typo.json")]
    )
    assert result.exit_code == 2, result.output
    assert "an AgentScope 1.x session, but AgentScope 2." in result.output
    assert "agentscope==1.0.21" in result.output and "Traceback" not in result.output


REPO = Path(__file__).resolve().parents[2]
ON_1X = pytest.mark.skipif(agentscope_major() != 1, reason="needs AgentScope 1.x installed (the 1.x lane)")


@pytest.mark.agentscope1
@ON_1X
@pytest.mark.parametrize("command", ["step", "report", "check"])
def test_a_2x_session_on_1x_is_exit_2_naming_the_file_and_both_versions(command: str, monkeypatch) -> None:
    """#36: the shipped 2.x session with 1.x installed exited 70 (ModuleNotFoundError: agentscope.state)."""
    from importlib.metadata import version

    monkeypatch.chdir(REPO)
    session = "sample_configs/agentscope/session_typo.json"
    result = CliRunner().invoke(app, [command, "sample_configs/agentscope/toolkit.yaml", "--session", session])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())  # wrapped at the terminal's width
    assert session in said and "AgentScope 2.x session" in said, said
    assert f"AgentScope {version('agentscope')} is installed" in said and "2.0.6" in said, said


@pytest.mark.agentscope1
@ON_1X
def test_a_capture_on_1x_is_compared_not_a_crash(monkeypatch) -> None:
    """#36: a capture with 1.x installed exited 70 (ImportError: ToolResultState); 1.x has no 2.x
    replay lanes, so the capture is compared with the 1.x toolkit's tool list instead."""
    monkeypatch.chdir(REPO)
    args = ["sample_configs/agentscope/toolkit.yaml", "--capture", "sample_configs/capture/seed.capture.jsonl"]
    result = CliRunner().invoke(app, ["check", *args])
    assert result.exit_code == 1, result.output  # the 2.x agent's reset_tools is not 1.x's meta tool
    assert "reset_equipped_tools" in result.output and "Traceback" not in result.output, result.output
