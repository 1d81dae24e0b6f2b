"""Stock vs guarded lanes on AgentScope 1.x, the guard as a real Toolkit middleware (and a
real ReActAgent behind it), and recorded 1.x sessions replayed with the lost-tool link.
1.x CI lane only (.ci/agentscope-v1.sh)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from json_contracts import validated
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.systems.agentscope.ids import AgentScopeInput
from toolscope.core.systems.agentscope.version import agentscope_major, installed_version, parse_version

pytestmark = [
    pytest.mark.agentscope1,
    pytest.mark.skipif(agentscope_major() != 1, reason="needs AgentScope 1.x (the 1.x CI lane)"),
]

V1 = Path(__file__).parent / "fixtures" / "v1"
ARMED = f"{V1 / 'v1_seed_toolkit.py'}:build_armed_toolkit"
HAS_MIDDLEWARE = parse_version(installed_version() or "0") >= (1, 0, 16)
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def _session(steps):
    from toolscope.core.systems.agentscope.script import parse_script
    from toolscope.core.systems.agentscope.subject import load_toolkit_subject

    subject = load_toolkit_subject(ARMED, AgentScopeInput.TOOLKIT_FACTORY, ["web_search", "scraping"])
    session = subject.session(parse_script(steps, "script.json"))
    session.run_all()
    return session


def test_typo_and_non_bool_stock_vs_guarded() -> None:
    session = _session(
        [{"web_serch": True}, {"web_search": True}, {"web_search": True, "scraping": "yes"}, {"scraping": 1}]
    )
    typo, ok, non_bool, one = session.history
    assert typo.stock.groups_after == () and typo.stock.response_text == "Now tool groups 'web_serch' are activated."
    assert typo.stock.accepted  # no error state in 1.x
    assert typo.guarded.groups_after == ("web_search", "scraping") and not typo.guarded.accepted
    assert "reset_equipped_tools refused; nothing was changed" in typo.guarded.response_text
    assert typo.guarded.plan.unknown == ("web_serch",)
    assert ok.stock.groups_after == ("web_search",)
    assert non_bool.stock.groups_after == () and non_bool.stock.response_text.startswith("Invalid arguments")
    assert non_bool.guarded.plan.non_bool == ("scraping",) and non_bool.guarded.groups_after == ("web_search",)
    assert one.stock.groups_after == ()  # 1 is not coerced
    assert session.toolkit.state_dict() == {"active_groups": []}  # the toolkit keeps its own flags
    session.back()
    session.back()
    assert session.active_groups("stock") == ("web_search",)
    assert session.active_groups("guarded") == ("web_search",)


def test_probe_observes_1x() -> None:
    from toolscope.core.systems.agentscope.probe import run_probe

    probe = run_probe()
    assert probe.refused_call_changes_state and not probe.unknown_names_stored
    assert not probe.coerces_yes and not probe.coerces_one and not probe.refusal_reported_as_error
    assert "reply claims it was activated" in probe.summary()


@pytest.mark.skipif(not HAS_MIDDLEWARE, reason="register_middleware is 1.0.16+")
def test_users_own_middleware_runs_in_both_lanes() -> None:
    from agentscope.message import TextBlock
    from agentscope.tool import ToolResponse

    from toolscope.core.systems.agentscope.script import parse_script
    from toolscope.core.systems.agentscope.subject import load_toolkit_subject

    subject = load_toolkit_subject(ARMED, AgentScopeInput.TOOLKIT_FACTORY, ["web_search"])
    seen = []

    async def deny_meta(kwargs, next_handler):
        seen.append(kwargs["tool_call"]["name"])
        if kwargs["tool_call"]["name"] == "reset_equipped_tools":
            yield ToolResponse(content=[TextBlock(type="text", text="DENIED by policy")])
            return
        async for r in await next_handler(**kwargs):
            yield r

    subject.toolkit.register_middleware(deny_meta)
    session = subject.session(parse_script([{"scraping": True}], "s.json"))
    (turn,) = session.run_all()
    assert turn.stock.response_text == "DENIED by policy" and turn.stock.groups_after == ("web_search",)
    assert turn.guarded.response_text.startswith("DENIED by policy") and turn.guarded.groups_after == ("web_search",)
    assert seen == ["reset_equipped_tools", "reset_equipped_tools"]


@pytest.mark.skipif(HAS_MIDDLEWARE, reason="1.0.16+ has register_middleware")
def test_below_1_0_16_the_guard_cannot_be_installed() -> None:
    from toolscope.core.systems.agentscope.v1.guard import GuardUnavailable, install_guard_v1

    session = _session([{"web_serch": True}])
    assert "cannot be installed" in session.guard_description
    assert session.history[0].guarded.groups_after == ("web_search", "scraping")
    with pytest.raises(GuardUnavailable):
        install_guard_v1(session.built)


@pytest.mark.skipif(not HAS_MIDDLEWARE, reason="register_middleware is 1.0.16+")
async def test_the_guard_inside_a_real_react_agent() -> None:
    sys.path.insert(0, str(V1))
    from agentscope.message import Msg
    from record_v1_sessions import scripted_agent
    from v1_seed_toolkit import build_toolkit

    from toolscope.core.systems.agentscope.v1.build import check_factory_result
    from toolscope.core.systems.agentscope.v1.guard import install_guard_v1

    toolkit = build_toolkit()
    calls = [
        ("reset_equipped_tools", {"web_search": True, "scraping": True}),
        ("reset_equipped_tools", {"web_serch": True}),
        ("page_fetch", {"url": "u"}),
    ]
    agent = scripted_agent(calls, toolkit)
    install_guard_v1(check_factory_result(toolkit, "t"))
    await agent(Msg("user", "go", "user"))
    assert toolkit.state_dict() == {"active_groups": ["web_search", "scraping"]}
    offered = agent.model.offered
    assert "page_fetch" in offered[2] and "page_fetch" in offered[3]  # still offered after the typo


def test_replayed_session_links_the_lost_tool() -> None:
    result = run("step", ARMED, "--session", str(V1 / installed_version_folder() / "typo.json"))
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert (
        'turn 3: reset_equipped_tools({"web_serch": true}) cleared web_search and scraping; turn 4 then called page_fetch and got FunctionInactiveError'
        in out
    )
    assert "the guard would have refused it" in out
    assert "saves only the final groups" in out and "= the stock replay matches the recording at every turn" in out
    doc = validated(
        run("step", ARMED, "--session", str(V1 / installed_version_folder() / "typo.memory.json"), "--json").output
    )
    assert doc["session"]["lost_tool_links"][0]["tools"] == ["page_fetch"]


@pytest.mark.parametrize("version", ["1.0.21", "1.0.11"])
def test_replay_offers_what_the_recorded_model_was_offered(version: str) -> None:
    from toolscope.core.systems.agentscope.session_replay import replay_session
    from toolscope.core.systems.agentscope.session_source import load_session
    from toolscope.core.systems.agentscope.subject import load_toolkit_subject

    subject = load_toolkit_subject(ARMED, AgentScopeInput.TOOLKIT_FACTORY)
    replay = replay_session(subject.built, load_session(V1 / version / "typo.json"))
    offered = json.loads((V1 / version / "typo.offered.json").read_text())
    # The reset at model turn k decides what the model is offered at turn k + 1.
    for turn in replay.turns:
        assert sorted(turn.turn.stock.visible_tools) == sorted(offered[turn.call.model_turn])


def test_no_meta_session_and_check_finding() -> None:
    unarmed = f"{V1 / 'v1_seed_toolkit.py'}:build_toolkit"
    result = run("step", unarmed, "--session", str(V1 / "1.0.21" / "no_meta.json"))
    assert result.exit_code == 0, result.output
    assert "was never activated in this session" in " ".join(result.output.split())
    check = run("check", ARMED, "--session", str(V1 / "1.0.21" / "typo.json"))
    assert check.exit_code == 1 and "unknown_group_activated" in check.output and "web_serch" in check.output


def test_step_script_cli() -> None:
    script = V1 / "typo_script.json"
    result = run("step", ARMED, "--script", str(script), "--json")
    doc = validated(result.output)
    stock = doc["lanes"]["stock"]
    assert stock[1]["groups_after"] == [] and doc["lanes"]["guarded"][1]["groups_after"] == ["web_search", "scraping"]
    human = run("step", ARMED, "--script", str(script))
    assert "Now tool groups 'web_serch' are activated." in human.output


def installed_version_folder() -> str:
    return "1.0.21" if HAS_MIDDLEWARE else "1.0.11"


def test_report_on_1x_leads_with_the_lost_tool() -> None:
    md = run("report", ARMED, "--session", str(V1 / installed_version_folder() / "typo.json"))
    assert md.exit_code == 0, md.output
    assert md.output.splitlines()[2].startswith("- Lost tool: turn 3: reset\\_equipped\\_tools(")
    assert "FunctionInactiveError" in md.output.splitlines()[2]
