"""``toolscope discover`` through the real Typer app (CliRunner) against real servers."""

from __future__ import annotations

import json
import re
from pathlib import Path

from mcpdisc_helpers import fixture, free_port, write_config
from typer.testing import CliRunner

from toolscope.cli.app import app

SECRETS = ("env-secret-AAA111", "header-secret-BBB222", "arg-secret-CCC333", "url-secret-DDD444")


def _invoke(*args: str):
    return CliRunner().invoke(app, ["discover", *args])


def _secret_config(tmp_path: Path) -> Path:
    return write_config(
        tmp_path / "mcp.json",
        {
            # The server echoes FIXTURE_ECHO in a tool description: a leak we must scrub.
            "leaky": fixture("--mode", "env", "--api-key", SECRETS[2], env={"FIXTURE_ECHO": SECRETS[0]}),
            "remote": {
                "url": f"http://127.0.0.1:{free_port()}/mcp?token={SECRETS[3]}",
                "headers": {"Authorization": f"Bearer {SECRETS[1]}"},
            },
        },
    )


def test_human_output_lists_servers_times_counts_errors(tmp_path: Path) -> None:
    config = write_config(
        tmp_path / "mcp.json",
        {
            "good": fixture("--tools", "alpha,beta"),
            "broken": fixture("--mode", "exit"),
        },
    )
    result = _invoke(str(config), "--timeout", "20")
    assert result.exit_code == 1, result.output
    out = result.output
    assert "mcp.json: 1/2 servers connected" in out
    assert "good" in out and "✓ connected" in out and "alpha, beta" in out
    assert "broken" in out and "✗ failed" in out and "exited with code 3" in out
    assert re.search(r"\s\d+\.\d\ds\s", out)  # a time column in seconds


def test_all_connected_exits_0_and_json_has_schema(tmp_path: Path) -> None:
    config = write_config(tmp_path / "mcp.json", {"a": fixture("--tools", "x"), "b": fixture("--tools", "x,y")})
    result = _invoke(str(config), "--json", "--timeout", "20")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["schema"] == "toolscope.mcp-snapshot/1"
    assert [s["name"] for s in document["servers"]] == ["a", "b"]
    assert document["duplicates"] == [{"tool": "x", "kept_server": "a", "dropped_server": "b"}]


def test_secrets_never_in_output_json_or_snapshot(tmp_path: Path) -> None:
    config = _secret_config(tmp_path)
    snapshot = tmp_path / "snap.json"
    human = _invoke(str(config), "-o", str(snapshot), "--timeout", "20")
    as_json = _invoke(str(config), "--json", "--timeout", "20")
    assert human.exit_code == as_json.exit_code == 1  # "remote" cannot connect
    assert "echo: ***" in as_json.stdout  # the leaky description, scrubbed
    for text in (human.output, as_json.output, snapshot.read_text()):
        for secret in SECRETS:
            assert secret not in text


def test_markup_names_render_literally(tmp_path: Path) -> None:
    config = write_config(tmp_path / "mcp.json", {"evil": fixture("--mode", "markup")})
    result = _invoke(str(config), "--timeout", "20")
    assert result.exit_code == 0, result.output
    assert "[bold red]boom[/bold red]" in result.output
    assert "\\x1b[31mred\\x1b[0m" in result.output and "\x1b" not in result.output


def test_snapshot_written_atomically_and_never_over_an_input(tmp_path: Path) -> None:
    config = write_config(tmp_path / "mcp.json", {"a": fixture("--tools", "x")})
    (tmp_path / "mcp_user.json").write_text('{"mcpServers": {}}')
    before = config.read_text()
    for target in (config, tmp_path / "mcp_user.json"):
        refused = _invoke(str(config), "-o", str(target))
        assert refused.exit_code == 2 and "refusing to overwrite an input file" in refused.output
    assert config.read_text() == before
    out = tmp_path / "snap.json"
    ok = _invoke(str(config), "-o", str(out), "--timeout", "20")
    assert ok.exit_code == 0 and json.loads(out.read_text())["config"]["user_file"] == "mcp_user.json"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mcp.json", "mcp_user.json", "snap.json"]


def test_bad_input_exits_2_without_traceback(tmp_path: Path) -> None:
    missing = _invoke(str(tmp_path / "nope.json"))
    assert missing.exit_code == 2 and "no such MCP config" in missing.output
    bad = tmp_path / "mcp.json"
    bad.write_text('{"mcpServers": {"a": {"protocol": "http"}}}')
    invalid = _invoke(str(bad))
    assert invalid.exit_code == 2 and "mcpServers.a" in invalid.output and "Traceback" not in invalid.output
    zero = _invoke(str(bad), "--timeout", "0")
    assert zero.exit_code == 2 and "--timeout" in zero.output
    # Not a number, or not finite: the project's own message (not Typer's "Input should be a valid number").
    for text in ("abc", "inf", "nan"):
        result = _invoke(str(bad), "--timeout", text)
        assert result.exit_code == 2, result.output
        assert f"--timeout: expected a positive number of seconds, like 10 or 2.5 (got '{text}')" in result.output
        assert "Input should be" not in result.output and "Usage:" not in result.output


def test_user_override_applies_in_cli(tmp_path: Path) -> None:
    config = write_config(tmp_path / "mcp.json", {"a": fixture("--mode", "exit")})
    write_config(tmp_path / "mcp_user.json", {"a": fixture("--tools", "fixed")})
    result = _invoke(str(config), "--timeout", "20")
    assert result.exit_code == 0, result.output
    assert "mcp.json (+ mcp_user.json)" in result.output and "fixed" in result.output
    assert "overridden by mcp_user.json" in result.output


def test_bearer_token_in_args_never_in_json(tmp_path: Path) -> None:
    """``--header "Authorization: Bearer X"`` on a server's command line: X is masked in --json."""
    config = write_config(
        tmp_path / "mcp.json",
        {
            "down": {
                "command": str(tmp_path / "no-such-server"),
                "args": ["--header", "Authorization: Bearer abc123def", "--header", "Proxy: Basic dXNlcjpwYXNz9"],
            }
        },
    )
    result = _invoke(str(config), "--json", "--timeout", "10")
    assert result.exit_code == 1, result.output
    launch = json.loads(result.stdout)["servers"][0]["launch"]
    assert launch["args"] == ["--header", "Authorization: ***", "--header", "Proxy: Basic ***"]
    assert "abc123def" not in result.stdout and "dXNlcjpwYXNz9" not in result.stdout


def test_snapshot_output_refuses_existing_files_unless_force(tmp_path: Path) -> None:
    config = write_config(tmp_path / "mcp.json", {"a": fixture("--tools", "x")})
    existing = tmp_path / "step_config.json"
    existing.write_text('{"keep": true}')
    refused = _invoke(str(config), "-o", str(existing))
    assert refused.exit_code == 2 and "already exists" in refused.output and "--force" in refused.output
    assert existing.read_text() == '{"keep": true}'
    # --force replaces an existing output file, but never an input file.
    forced = _invoke(str(config), "-o", str(existing), "--force", "--timeout", "20")
    assert forced.exit_code == 0, forced.output
    assert json.loads(existing.read_text())["schema"] == "toolscope.mcp-snapshot/1"
    before = config.read_text()
    over_input = _invoke(str(config), "-o", str(config), "--force")
    assert over_input.exit_code == 2 and "input file" in over_input.output and config.read_text() == before
    missing = _invoke(str(config), "-o", str(tmp_path / "no" / "such" / "snap.json"))
    assert missing.exit_code == 2 and "does not exist" in missing.output and "Traceback" not in missing.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mcp.json", "step_config.json"]
