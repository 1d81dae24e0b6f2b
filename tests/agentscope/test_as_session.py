"""Step-through sessions: two lanes, real call_tool, snapshots, forward/backward replay."""

from __future__ import annotations

import json

import pytest
from agentscope_version import agentscope_version
from session_helpers import LANE_TURN_KEYS

from toolscope.core.model.errors import InputError
from toolscope.core.systems.agentscope.script import CallStep, RegisterGroupStep, load_script, parse_script

pytestmark = pytest.mark.agentscope


@pytest.fixture
def typo_session(seed_built, samples):
    from toolscope.core.systems.agentscope.session import StepSession

    return StepSession(seed_built, load_script(samples / "typo.json"))


def test_typo_script_reproduces_the_seed(typo_session) -> None:
    turns = typo_session.run_all()
    assert [t.index for t in turns] == [1, 2, 3]
    guarded = [t.guarded for t in turns]
    stock = [t.stock for t in turns]
    # The seed's table, guarded side (every version).
    assert [g.visible_tools for g in guarded] == [
        ("reset_tools", "note_write"),
        ("reset_tools", "note_write", "web_search", "page_fetch"),
        ("reset_tools", "note_write", "web_search", "page_fetch"),
    ]
    assert typo_session.active_groups("guarded") == ("web_search", "scraping")
    assert guarded[2].accepted is False and guarded[2].response_state == "error"
    assert guarded[2].plan.unknown == ("web_serch",)
    assert guarded[1].plan.activated == ("web_search", "scraping")
    assert stock[2].plan is None and stock[2].call == '{"web_serch": true}'
    # The stock side depends on the installed version; the seed's table is 2.0.6's.
    if agentscope_version() == (2, 0, 6):
        assert stock[2].visible_tools == ("reset_tools", "note_write")
        assert typo_session.active_groups("stock") == ("web_serch",)
        assert stock[2].accepted is True
    else:
        assert stock[2].visible_tools == guarded[2].visible_tools
        assert typo_session.active_groups("stock") == ("web_search", "scraping")
        assert stock[2].accepted is False


def test_turn_records(typo_session) -> None:
    turn = typo_session.forward()
    lane = turn.stock
    assert lane.groups_before == () and lane.groups_after == ()
    assert lane.response_text == "All tool groups are currently deactivated."
    assert lane.token_estimate > 0
    turn2 = typo_session.forward()
    assert turn2.guarded.token_estimate > lane.token_estimate  # two more schemas offered
    data = turn2.to_json()
    assert set(data["guarded"]) >= LANE_TURN_KEYS | {"plan", "token_estimate"}
    assert "plan" not in data["stock"]


def test_token_estimate_is_documented_formula(typo_session) -> None:
    from toolscope.core.systems.agentscope.session import estimate_tokens

    turn = typo_session.forward()
    import asyncio

    schemas = asyncio.run(typo_session.toolkit.get_tool_schemas([]))
    assert turn.stock.token_estimate == estimate_tokens(schemas)
    assert estimate_tokens(schemas) == -(-len(json.dumps(schemas, ensure_ascii=False, separators=(",", ":"))) // 4)


def test_back_and_forward_replay_with_snapshots(typo_session) -> None:
    typo_session.run_all()
    assert typo_session.at_end and typo_session.cursor == 3
    third = typo_session.back()
    assert third.index == 3 and typo_session.cursor == 2
    assert typo_session.active_groups("stock") == ("web_search", "scraping")
    assert typo_session.active_groups("guarded") == ("web_search", "scraping")
    typo_session.back()
    assert typo_session.active_groups("stock") == ()
    # The live state is a copy: mutating it does not alter the recorded snapshots.
    typo_session.states["stock"].tool_context.activated_groups.append("tampered")
    redo = typo_session.forward()
    assert redo.index == 2 and typo_session.active_groups("stock") == ("web_search", "scraping")
    assert redo.stock.state_after.tool_context.activated_groups == ["web_search", "scraping"]
    assert redo.stock.state_after is not typo_session.states["stock"]
    typo_session.forward()
    assert typo_session.cursor == 3
    assert typo_session.forward() is None
    typo_session.reset()
    assert typo_session.cursor == 0 and typo_session.active_groups("guarded") == ()


def test_manual_call_after_back_drops_redo(typo_session) -> None:
    typo_session.run_all()
    typo_session.back()
    typo_session.back()
    turn = typo_session.call('{"scraping": true}')
    assert turn.index == 2 and typo_session.cursor == 2
    assert typo_session.active_groups("guarded") == ("scraping",)
    assert len(typo_session.history) == 2
    # the script continues where the cursor left it: its second step, then its third
    assert typo_session.forward().stock.call == '{"web_search": true, "scraping": true}'
    assert typo_session.forward().stock.call == '{"web_serch": true}'
    assert typo_session.forward() is None


def test_raw_text_stays_raw(seed_built) -> None:
    from toolscope.core.systems.agentscope.session import StepSession

    session = StepSession(seed_built)
    turn = session.call("[1, 2]")
    assert turn.stock.call == "[1, 2]"
    assert turn.stock.response_state == "error"
    assert "ToolJSONDecodeError" in turn.stock.response_text
    assert turn.guarded.plan is None  # the guard never ran: call_tool refused the JSON first


def test_late_group_known_without_reinstall(seed_built, samples) -> None:
    from toolscope.core.systems.agentscope.session import StepSession

    session = StepSession(seed_built, load_script(samples / "late_group.yaml"))
    guarded_meta = session._guarded_meta
    turns = session.run_all()
    assert [t.kind for t in turns] == ["call", "register_group", "call", "call"]
    assert session._guarded_meta is guarded_meta
    activate = turns[2].guarded
    assert activate.accepted, activate.response_text
    assert activate.plan.activated == ("databases",)
    assert "sql_query" in activate.visible_tools
    typo = turns[3].guarded
    assert not typo.accepted and typo.plan.unknown == ("databses",)
    assert session.active_groups("guarded") == ("web_search", "databases")
    # going back over the registration removes the group again; forward re-adds it
    for _ in range(3):
        session.back()
    assert "databases" not in session.known_groups()
    session.forward()
    assert "databases" in session.known_groups()
    data = session.to_json()
    assert data["events"][0]["group"] == "databases"
    assert [t["turn"] for t in data["lanes"]["guarded"]] == [1]


def test_non_bool_script(seed_built, samples) -> None:
    from toolscope.core.systems.agentscope.session import StepSession

    session = StepSession(seed_built, load_script(samples / "non_bool.json"))
    turns = session.run_all()
    maybe = turns[2].guarded
    assert not maybe.accepted and maybe.plan.non_bool == ("web_search",)
    assert "maybe" not in maybe.response_text
    both = turns[3].guarded
    assert both.plan.non_bool == ("web_search", "scraping")
    # the guard never lets a refused call change the state
    for turn in turns:
        g = turn.guarded
        if not g.accepted:
            assert g.groups_after == g.groups_before


async def test_async_api_inside_a_loop(seed_built) -> None:
    from toolscope.core.systems.agentscope.session import StepSession

    session = StepSession(seed_built)
    turn = await session.acall({"web_search": True})
    assert turn.guarded.accepted
    names, tokens = await session.avisible("guarded")
    assert "web_search" in names and tokens > 0


# -- script loading -------------------------------------------------------------


def test_script_items(tmp_path) -> None:
    steps = parse_script(
        [
            {"web_search": True},
            '{"web_serch": tru',
            {"call": {"tool": "reset_tools", "args": {"a": True}, "label": "explicit"}},
            {"call": {"raw": "{}"}},
            {"register_group": {"name": "g", "description": "G"}},
        ],
        "s.json",
    )
    assert steps[0] == CallStep(raw='{"web_search": true}', args={"web_search": True})
    assert steps[1].raw == '{"web_serch": tru' and steps[1].args is None
    assert steps[2].label == "explicit" and steps[2].args == {"a": True}
    assert steps[3].raw == "{}"
    assert isinstance(steps[4], RegisterGroupStep) and steps[4].group.name == "g"


@pytest.mark.parametrize(
    "data, where, what",
    [
        ({"web_search": True}, "(top level)", "must be a list"),
        ([], "(top level)", "no steps"),
        ([{"a": True}, 3], "[1]", "expected an object"),
        ([{"call": {"tool": "web_search", "args": {"query": "x"}}}], "[0].call.tool", "only call reset_tools"),
        ([{"call": {"tool": "reset_tools"}}], "[0].call", "exactly one of"),
        ([{"register_group": {"description": "no name"}}], "[0].register_group.name", "register_group"),
    ],
)
def test_script_errors(data, where, what) -> None:
    with pytest.raises(InputError) as info:
        parse_script(data, "s.json")
    rendered = info.value.render()
    assert rendered.startswith("s.json: ")
    assert where in rendered and what in rendered


def test_script_file_errors(tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('[{"a": true},\n  {"b": tru}]')
    with pytest.raises(InputError) as info:
        load_script(bad)
    assert "line 2" in info.value.render()
    with pytest.raises(InputError, match="no such script"):
        load_script(tmp_path / "missing.yaml")
    obj = tmp_path / "obj.yaml"
    obj.write_text("web_search: true\n")
    with pytest.raises(InputError, match="must be a list"):
        load_script(obj)


def test_register_group_clash_fails_at_load(seed_built) -> None:
    from toolscope.core.systems.agentscope.session import StepSession

    steps = parse_script([{"register_group": {"name": "web_search", "description": "again"}}], "s.yaml")
    with pytest.raises(InputError) as info:
        StepSession(seed_built, steps)
    assert info.value.render().startswith("s.yaml: script step 1 (register_group): group 'web_search' already exists")
    assert "[0].register_group.name: AgentScope group names must be unique" in info.value.render()
    steps = parse_script(["{}", {"register_group": {"name": "nodesc"}}], "s.yaml")
    with pytest.raises(InputError) as info:
        StepSession(seed_built, steps)
    assert info.value.render().startswith("s.yaml: script step 2 (register_group): AgentScope refused the group")
    assert "[1].register_group: AgentScope says:" in info.value.render()
