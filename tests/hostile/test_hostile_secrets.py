"""Hostile corpus: secrets stay secret in discovery output, snapshots, tables and every report.

A real MCP server (the SDK fixture) echoes a plain-word env value in a description; other
servers carry inline secrets in ``command``, ``--pat``/``-t`` flags, a token in the URL path
and a signed URL's ``sig``; they fail, and their failure text must not leak either.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "mcp" / "fixture_server.py"
runner = CliRunner()

SECRETS = {
    "inline": "sk-INLINE0001abcdef",
    "pat": "ghp_PATSECRET0002xyz",
    "short_flag": "tok-SHORTFLAG-0003",
    "url_path": "sk-URLPATH0004abcdefghij",
    "sig": "SIGVALUE0005abcdef",
    "env_plain": "plainword",
    "header": "hdrvalue",
}


@pytest.fixture
def secret_world(tmp_path: Path) -> Path:
    folder = tmp_path / "world"
    folder.mkdir()
    servers = {
        "echo": {
            "command": sys.executable,
            "args": [str(FIXTURE), "--mode", "env", "--pat", SECRETS["pat"], "-t", SECRETS["short_flag"]],
            "env": {"FIXTURE_ECHO": SECRETS["env_plain"]},
        },
        "inline": {"command": f"/nonexistent/srv --api-key {SECRETS['inline']}"},
        "signed": {
            "url": f"http://127.0.0.1:9/mcp/{SECRETS['url_path']}/sse?sig={SECRETS['sig']}&sv=2020-01-01",
            "headers": {"X-Team": SECRETS["header"]},
        },
    }
    (folder / "mcp.json").write_text(json.dumps({"mcpServers": servers}))
    (folder / "toolscope.registry.yaml").write_text(
        "mcp_config: mcp.json\nmodes: {system: [], lists: {build: []}, default: build}\n"
    )
    (folder / "step_config.json").write_text(
        json.dumps(
            {
                "id": "s",
                "agent_configs": {
                    "selected_servers": ["echo", "inline", "signed"],
                    "selected_tools": ["echo:*", "inline:*", "signed:*"],
                },
            }
        )
    )
    return folder


def assert_no_secret(text: str, where: str) -> None:
    for name, secret in SECRETS.items():
        assert secret not in text, f"{name} secret leaked in {where}: {text[:2000]}"


def test_discovery_outputs_and_snapshot_keep_every_secret(secret_world: Path) -> None:
    snapshot = secret_world / "snap.json"
    human = runner.invoke(app, ["discover", str(secret_world / "mcp.json"), "-o", str(snapshot), "--timeout", "20"])
    assert human.exit_code == 1, human.output  # two servers fail on purpose
    as_json = runner.invoke(app, ["discover", str(secret_world / "mcp.json"), "--json", "--timeout", "20"])
    document = json.loads(as_json.stdout)
    echo = next(server for server in document["servers"] if server["name"] == "echo")
    assert echo["ok"], echo
    assert echo["tools"][0]["description"] == "echo: ***"  # a plain-word env value, masked
    assert "***" in json.dumps(echo["launch"])
    for text, where in (
        (human.output, "discover"),
        (as_json.output, "discover --json"),
        (snapshot.read_text(), "snapshot"),
    ):
        assert_no_secret(text, where)

    config = str(secret_world / "step_config.json")
    for args in (
        ["tools", config, "--snapshot", str(snapshot)],
        ["tools", config, "--snapshot", str(snapshot), "--json"],
        ["check", config, "--snapshot", str(snapshot)],
        ["explain", config, "echo_env", "--snapshot", str(snapshot)],
        ["report", config, "--snapshot", str(snapshot), "-t", "echo_env"],
        ["report", config, "--snapshot", str(snapshot), "-f", "html"],
        ["report", config, "--snapshot", str(snapshot), "-f", "json"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code in (0, 1), result.output
        assert_no_secret(result.output, " ".join(args[:1] + args[2:]))


def test_redaction_rules_directly() -> None:
    from toolscope.core.mcp.redact import MASK, collect_secrets, redact_args, redact_command, redact_url

    assert redact_command("/srv --api-key sk-abc123456 --verbose") == f"/srv --api-key {MASK} --verbose"
    assert redact_args(["--pat", "ghp_x1", "-t", "tok1", "--github-pat=abc"]) == [
        "--pat",
        MASK,
        "-t",
        MASK,
        f"--github-pat={MASK}",
    ]
    assert redact_args(["--path", "/srv/data", "-v"]) == ["--path", "/srv/data", "-v"]  # not a "pat"
    url = redact_url("https://h.example/mcp/sk-live0123456789abcdef/sse?sig=abc123&sv=2020")
    assert "sk-live" not in url and "abc123" not in url and "sv=2020" in url and "/mcp/" in url
    assert redact_url("https://h.example/api/v1/tools") == "https://h.example/api/v1/tools"
    assert {"sk-abc123456"} <= collect_secrets({"command": "/srv --api-key sk-abc123456"})
