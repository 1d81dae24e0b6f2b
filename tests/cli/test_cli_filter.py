"""``toolscope filter``: the ToolFilter asked directly."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from toolscope.cli.app import app

runner = CliRunner()


def answers(*args: str) -> tuple[int, list[dict]]:
    result = runner.invoke(app, ["filter", *args, "--json"])
    return result.exit_code, json.loads(result.stdout)["answers"]


def test_specific_entries_beat_selected_servers():
    code, out = answers(
        "--selected-tools", "gmail:read_email", "--selected-servers", "gmail", "gmail:read_email", "gmail:send_email"
    )
    assert [a["include"] for a in out] == [True, False]
    assert [a["code"] for a in out] == ["specific_match", "specific_miss"]
    assert code == 1


def test_server_question_differs_from_tool_rules():
    """Only selected_tools set: an unmentioned server passes ShouldIncludeServer, its tools do not pass."""
    code, out = answers("--selected-tools", "github:*", "slack:post", "--server", "slack")
    assert (out[0]["code"], out[0]["include"]) == ("strict_exclude", False)
    assert (out[1]["code"], out[1]["include"]) == ("servers_unrestricted", True)


def test_no_servers_is_an_ordinary_name_and_virtual_always_passes():
    code, out = answers("--selected-servers", "NO_SERVERS", "github:x", "human_tools:notify_user")
    assert [a["include"] for a in out] == [False, True]
    code, out = answers("--selected-servers", "NO_SERVERS", "--virtual", "anything:get_api_spec")
    assert code == 0 and out[0]["code"] == "virtual"


def test_usage_errors():
    assert runner.invoke(app, ["filter"]).exit_code == 2
    assert runner.invoke(app, ["filter", "no-colon"]).exit_code == 2
