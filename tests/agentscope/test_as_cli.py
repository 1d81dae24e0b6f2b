"""The CLI on toolkits: step (human and --json), tools/explain on specs and factories, bad input."""

from __future__ import annotations

import json
import textwrap

import pytest
from agentscope_version import agentscope_version
from session_helpers import LANE_TURN_KEYS
from typer.testing import CliRunner

from toolscope.cli.app import app

pytestmark = pytest.mark.agentscope

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_step_human_shows_both_lanes_and_the_probe(samples) -> None:
    result = run("step", str(samples / "toolkit.yaml"), "--script", str(samples / "typo.json"))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "-- stock reset_tools" in out and "-- guarded reset_tools" in out
    assert "(agentscope " in out and "probed" in out
    guarded = out.split("-- guarded reset_tools")[1]
    assert "turn 3: reset_tools, note_write, web_search, page_fetch" in guarded
    assert "activated_groups at the end: ['web_search', 'scraping']" in guarded
    stock = out.split("-- stock reset_tools")[1].split("-- guarded")[0]
    if agentscope_version() == (2, 0, 6):
        assert "turn 3: reset_tools, note_write\n" in stock
        assert "activated_groups at the end: ['web_serch']" in stock
        assert "clears before validating" in out
    else:
        assert "validates before applying" in out


def test_step_json_shape(samples) -> None:
    result = run("step", str(samples / "toolkit.json"), "--script", str(samples / "typo.json"), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["schema"] == "toolscope.step/1"
    assert set(data["lanes"]) == {"stock", "guarded"}
    assert len(data["lanes"]["stock"]) == len(data["lanes"]["guarded"]) == 3
    for lane in ("stock", "guarded"):
        for turn in data["lanes"][lane]:
            assert LANE_TURN_KEYS <= set(turn), turn
            assert isinstance(turn["accepted"], bool)
    plan = data["lanes"]["guarded"][2]["plan"]
    assert {"unknown", "non_bool", "activated", "deactivated", "kept"} <= set(plan)
    assert plan["unknown"] == ["web_serch"] and plan["accepted"] is False
    assert data["lanes"]["guarded"][1]["plan"]["activated"] == ["web_search", "scraping"]
    assert data["lanes"]["stock"][2]["call"] == '{"web_serch": true}'
    probe = data["probe"]
    assert probe["unknown_names_stored"] is (agentscope_version() == (2, 0, 6))
    assert data["final_groups"]["guarded"] == ["web_search", "scraping"]


def test_step_late_group_and_factory(samples) -> None:
    result = run(
        "step", f"{samples / 'my_agent.py'}:build_toolkit", "--script", str(samples / "late_group.yaml"), "--json"
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["events"][0]["group"] == "databases"
    assert data["lanes"]["guarded"][1]["plan"]["activated"] == ["databases"]


def test_step_errors(samples, tmp_path) -> None:
    script = tmp_path / "s.json"
    script.write_text('{"web_search": true}')
    result = run("step", str(samples / "toolkit.yaml"), "--script", str(script))
    assert result.exit_code == 2
    assert "a script must be a list" in result.output and "Traceback" not in result.output
    script.write_text('[{"call": {"tool": "web_search", "args": {"query": "x"}}}]')
    result = run("step", str(samples / "toolkit.yaml"), "--script", str(script))
    assert result.exit_code == 2 and "only call reset_tools" in result.output


def test_tools_on_spec_modes_and_groups(samples) -> None:
    result = run("tools", str(samples / "toolkit.yaml"), "--json")
    data = json.loads(result.output)
    assert result.exit_code == 0
    assert data["stages"] == ["registered", "visible", "callable"]
    by_name = {t["tool"]: t for t in data["tools"]}
    assert by_name["web_search"]["first_failing_stage"] == "visible"
    assert by_name["note_write"]["verdict"] == "visible"

    result = run("tools", str(samples / "toolkit.yaml"), "--json", "--mode", "explore", "--groups", "web_search")
    by_name = {t["tool"]: t for t in json.loads(result.output)["tools"]}
    assert by_name["web_search"]["verdict"] == "visible"  # read-only, group active
    assert by_name["note_write"]["first_failing_stage"] == "callable"  # explore: not read-only
    assert json.loads(result.output)["mode"] == "explore"


def test_explain_inactive_group_names_the_fix(samples) -> None:
    result = run("explain", str(samples / "toolkit.yaml"), "page_fetch", "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["first_failing_stage"] == "visible"
    visible = data["stages"][1]
    assert "group 'web_search'" in visible["rule"] and "reset_tools must activate it" in visible["rule"]
    assert data["fix"].startswith('call reset_tools with {"web_search": true}')


def test_explain_fix_keeps_active_groups(samples) -> None:
    result = run("explain", str(samples / "large_toolkit.yaml"), "web_search", "--json")
    data = json.loads(result.output)
    assert data["fix"].startswith('call reset_tools with {"files": true, "git": true, "web_search": true}')


def test_explain_visible_and_did_you_mean(samples) -> None:
    result = run("explain", str(samples / "toolkit.yaml"), "web_search", "--groups", "web_search,scraping")
    assert result.exit_code == 0, result.output
    assert "VISIBLE" in result.output
    result = run("explain", str(samples / "toolkit.yaml"), "web_serch", "--json")
    assert result.exit_code == 1
    assert json.loads(result.output)["did_you_mean"] == ["web_search"]


def test_explain_on_factory_in_dont_ask(samples) -> None:
    target = f"{samples / 'my_agent.py'}:build_toolkit"
    result = run("explain", target, "note_write", "--mode", "dont_ask", "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["first_failing_stage"] == "callable"
    assert "allow rule" in data["fix"]
    result = run("explain", target, "page_fetch", "--mode", "dont_ask", "--groups", "web_search", "--json")
    assert result.exit_code == 0, result.output  # the allow rule in the factory's state


def test_bad_mode_and_group(samples) -> None:
    result = run("tools", str(samples / "toolkit.yaml"), "--mode", "explor")
    assert result.exit_code == 2 and "did you mean explore" in result.output
    result = run("tools", str(samples / "toolkit.yaml"), "--groups", "web_serch")
    assert result.exit_code == 2 and "did you mean web_search" in result.output


def test_factory_errors_through_the_cli(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "agent_cli.py").write_text(
        textwrap.dedent("""
        def boom():
            raise RuntimeError("no API key configured")

        def wrong():
            return 42
    """)
    )
    result = run("tools", "agent_cli.py:boom")
    assert result.exit_code == 3
    assert "your code raised RuntimeError: no API key configured" in result.output
    assert "agent_cli.py:3, in boom" in result.output
    result = run("tools", "agent_cli.py:wrong")
    assert result.exit_code == 2 and "returned int" in result.output
    result = run("tools", "agent_cli.py:missing")
    assert result.exit_code == 2 and "attribute not found" in result.output
    result = run("tools", "nope_pkg_zz.mod:build")
    assert result.exit_code == 2 and "module not found" in result.output


def test_spec_errors_through_the_cli(tmp_path) -> None:
    spec = tmp_path / "dup.yaml"
    spec.write_text("groups:\n  - {name: a, description: A}\n  - {name: a, description: B}\n")
    result = run("tools", str(spec))
    assert result.exit_code == 2
    assert "duplicate" in result.output and "groups[1].name" in result.output


def test_untrusted_names_render_literally(tmp_path) -> None:
    spec = tmp_path / "evil.yaml"
    spec.write_text(
        'groups:\n  - name: web\n    description: "[bold red]x[/]"\n    tools:\n'
        '      - {name: "[red]evil[/red]", description: "\\u001b[31mred"}\n'
    )
    result = run("tools", str(spec))
    assert result.exit_code == 0, result.output
    assert "[red]evil[/red]" in result.output
    assert "\x1b[31m" not in result.output


# -- QA regressions ------------------------------------------------------------------

QA_FACTORY = """
import sys
from agentscope.tool import Toolkit, ToolGroup


def exits():
    sys.exit(0)


def chatty():
    print("hello from the factory")
    return Toolkit(tool_groups=[ToolGroup("web", "Web")])


def needs_arg(x):
    return Toolkit()
"""


@pytest.fixture
def in_factory_dir(tmp_path, monkeypatch) -> None:
    """The current folder holds fac.py (QA_FACTORY), as a user runs toolscope next to their code."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fac.py").write_text(QA_FACTORY)


@pytest.mark.usefixtures("in_factory_dir")
def test_factory_sys_exit_is_not_a_false_green() -> None:
    result = run("check", "fac.py:exits")
    assert result.exit_code == 3, result.output
    assert "your code called sys.exit(0)" in result.output
    assert "fac.py:7, in exits" in result.output


@pytest.mark.usefixtures("in_factory_dir")
def test_factory_needing_arguments_exits_2() -> None:
    result = run("tools", "fac.py:needs_arg")
    assert result.exit_code == 2, result.output
    assert "factory fac.py:needs_arg must take no arguments" in result.output
    result = run("tools", "fac.py:nope")
    assert result.exit_code == 2 and "'nope' is not defined in fac.py" in result.output


def test_factory_print_keeps_json_clean(tmp_path) -> None:
    import subprocess
    import sys
    from pathlib import Path

    (tmp_path / "fac.py").write_text(QA_FACTORY)
    exe = Path(sys.executable).with_name("toolscope")
    proc = subprocess.run(
        [str(exe), "tools", "fac.py:chatty", "--json"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["schema"].startswith("toolscope.")
    assert "hello from the factory" in proc.stderr


def test_explain_names_the_declaration_of_its_own_group(tmp_path) -> None:
    spec = tmp_path / "duptool.yaml"
    spec.write_text(
        "groups:\n  - name: g\n    description: G\n    tools: [{name: a}]\n"
        "  - name: h\n    description: H\n    tools: [{name: a}]\n"
    )
    result = run("explain", str(spec), "a", "--json")
    steps = json.loads(result.output)["checklist"]
    evidence = " ".join(" ".join(s["evidence"]) for s in steps)
    assert "registered in group 'h'" in evidence
    assert "declared at duptool.yaml: groups[1].tools[0]" in evidence
    assert "groups[0].tools[0]" not in evidence


def test_groups_option_accepts_basic(samples) -> None:
    result = run("tools", str(samples / "toolkit.yaml"), "--json", "--groups", "web_search,,basic")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    by_name = {t["tool"]: t for t in data["tools"]}
    assert by_name["page_fetch"]["first_failing_stage"] is None  # web_search is active
    # 'basic' is accepted and ignored: it is always active, never in activated_groups.
    result = run("explain", str(samples / "toolkit.yaml"), "note_write", "--json", "--groups", "basic")
    assert result.exit_code == 0, result.output
    assert "activated_groups = []" in result.output


def test_register_group_error_names_the_script(samples, tmp_path) -> None:
    script = tmp_path / "clash.json"
    script.write_text('[{"web_search": true}, {"register_group": {"name": "web_search", "description": "again"}}]')
    result = run("step", str(samples / "toolkit.yaml"), "--script", str(script))
    assert result.exit_code == 2, result.output
    assert f"error: {script}: script step 2 (register_group): group 'web_search' already exists" in " ".join(
        result.output.split()
    )
