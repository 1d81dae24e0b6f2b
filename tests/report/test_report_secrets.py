"""Secrets never reach a report: env values and headers of MCP server configs, and
anything under a secret-looking key, show as ``***`` in every format."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.report.build import build_report
from toolscope.core.report.data import Environment
from toolscope.core.report.html import render_html
from toolscope.core.report.json_report import render_json
from toolscope.core.report.markdown import render_markdown
from toolscope.core.report.redaction import secret_values_in, secret_values_in_files

SECRETS = ("ghp_ENVSECRET12345", "sk-ARGSECRET-9876", "HDRSECRET-abcdef", "hunter2-PASSWORD", "pw-URLSECRET")
MCP_CONFIG = {
    "mcpServers": {
        "github": {
            "command": "python3",
            "args": [
                "-c",
                "import os,sys; sys.stderr.write('auth failed: ' + os.environ['GITHUB_TOKEN'] + ' ' + sys.argv[2] + '\\n'); sys.exit(3)",
                "--api-key",
                "sk-ARGSECRET-9876",
            ],
            "env": {"GITHUB_TOKEN": "ghp_ENVSECRET12345", "DEBUG": "1"},
        },
        "web": {
            "url": "http://user:pw-URLSECRET@127.0.0.1:9/mcp",
            "headers": {"Authorization": "Bearer HDRSECRET-abcdef"},
        },
        "db": {"command": "db-mcp", "password": "hunter2-PASSWORD"},
    }
}


def test_scanner_finds_every_kind_of_secret(tmp_path: Path) -> None:
    """env and headers values, flag values, URL passwords, secret-keyed values; not ordinary words."""
    found = secret_values_in(MCP_CONFIG)
    assert set(SECRETS) <= found
    assert "1" not in found and "python3" not in found and "db-mcp" not in found
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps(MCP_CONFIG))
    assert set(SECRETS) <= secret_values_in_files([path, tmp_path / "missing.json", tmp_path])


@pytest.mark.parametrize("render", [render_markdown, render_html, render_json])
def test_every_format_masks_secrets(render, hostile_subject, tmp_path: Path) -> None:
    """Secrets quoted in rules, descriptions and facts come out as ***."""
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps(MCP_CONFIG))
    secrets = sorted(secret_values_in_files([path]) | {"ghp_SECRETVALUE123"})
    report = build_report(
        hostile_subject, ["build"], ["[bold red]rich[/bold red]"], environment=Environment("t", "3.x"), secrets=secrets
    )
    text = render(report)
    for secret in (*SECRETS, "ghp_SECRETVALUE123", "tok-SHOULD-NOT-LEAK-1"):
        assert secret not in text
    assert "***" in text or "\\*\\*\\*" in text  # Markdown escapes the stars; it renders as ***


def test_mcp_server_that_leaks_its_token_end_to_end(tmp_path: Path) -> None:
    """A real server that fails and prints its token on stderr: every format shows *** instead.

    The registry points at an mcpServers config; with --discover, discovery really starts the servers.
    """
    repo = Path(__file__).resolve().parents[2]
    shutil.copy(repo / "sample_configs/seed/step_config.json", tmp_path)
    registry = (repo / "sample_configs/seed/toolscope.registry.yaml").read_text()
    (tmp_path / "toolscope.registry.yaml").write_text(
        registry.replace("name: seed world", "name: seed world\nmcp_config: mcp.json", 1)
    )
    (tmp_path / "mcp.json").write_text(json.dumps(MCP_CONFIG))
    for fmt in ("md", "json", "html"):
        result = CliRunner().invoke(
            app, ["report", str(tmp_path / "step_config.json"), "-f", fmt, "-t", "create_issue", "--discover"]
        )
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert result.exit_code == 0, result.output
        for secret in SECRETS:
            assert secret not in result.stdout
        assert "github" in result.stdout
    # The mcpServers config is an input file too.
    result = CliRunner().invoke(
        app, ["report", str(tmp_path / "step_config.json"), "-o", str(tmp_path / "mcp.json"), "--force"]
    )
    assert result.exit_code == 2 and "input file" in result.stderr


def test_plain_env_values_do_not_mask_ordinary_words(tmp_path: Path) -> None:
    """Regression: env values "build" and "time" used to turn mode, tool and server names into ***."""
    repo = Path(__file__).resolve().parents[2]
    shutil.copytree(repo / "sample_configs/mcp", tmp_path / "mcp")
    mcp_json = tmp_path / "mcp" / "mcp.json"
    config = json.loads(mcp_json.read_text())
    config["mcpServers"]["time"]["env"] = {"MODE": "build", "LEVEL": "time", "TIME_TOKEN": "sk-live-time-0123"}
    mcp_json.write_text(json.dumps(config))
    result = CliRunner().invoke(
        app,
        [
            "report",
            str(tmp_path / "mcp" / "step_config.json"),
            "--snapshot",
            str(tmp_path / "mcp" / "snapshot.json"),
            "-f",
            "md",
            "-o",
            "-",
        ],
    )
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "\\*\\*\\*" not in text and "***" not in text
    assert "Mode build (the default mode):" in text and "get\\_current\\_time" in text and "| time |" in text
    assert "sk-live" not in text and "example-secret-value" not in text


def test_secrets_inside_public_names_are_not_masked(hostile_subject) -> None:
    """A value occurring in a tool, namespace or mode name is shown: masking it would hide nothing."""
    report = build_report(
        hostile_subject,
        ["build"],
        environment=Environment("t", "3.x"),
        secrets=["notify_user", "github", "build", "ghp_SECRETVALUE123"],
    )
    text = render_markdown(report)
    assert "notify\\_user" in text and "Mode build" in text and "github" in text
    assert "ghp_SECRETVALUE123" not in text and "ghp\\_SECRETVALUE123" not in text


def test_a_step_config_report_masks_secrets_in_its_rows() -> None:
    """An AgentWorks evaluation's rows (shared stages, the engine's tool entries) are masked
    row by row, and the masked section still builds its tools and its mode diff."""
    from toolscope.cli.inputs import open_subject

    repo = Path(__file__).resolve().parents[2]
    subject = open_subject(str(repo / "sample_configs" / "seed" / "step_config.json"))
    report = build_report(subject, ["build", "run"], environment=Environment("t", "3.x"), secrets=["agent_configs"])
    section = report.sections[0]
    assert all(hasattr(entry, "_fields") for entry in section.evaluated.entries)  # still the engine's named tuples
    assert len(section.tools) == len(section.evaluated) and report.diff is not None
    for text in (render_markdown(report), render_json(report)):
        assert "agent_configs" not in text and "agent\\_configs" not in text
        assert "notify_user" in text or "notify\\_user" in text


def test_the_secret_scan_reads_the_data_the_loaders_parsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A report scans its inputs for secrets in the documents the loader already parsed: a
    50,000-tool registry is not parsed a second time."""
    import toolscope.core.inputs.documents as documents
    from toolscope.cli.inputs import open_subject
    from toolscope.core.inputs.document_cache import parsed_document

    sample = Path(__file__).resolve().parents[2] / "sample_configs" / "seed"
    open_subject(str(sample / "step_config.json"))
    assert parsed_document(sample / "toolscope.registry.yaml") is not None
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps(MCP_CONFIG))
    documents.load_document(config)  # as a loader reads it

    def no_second_parse(path: Path, what: str) -> documents.Document:
        raise AssertionError(f"{path} parsed again")

    monkeypatch.setattr(documents, "_parse_document", no_second_parse)
    found = secret_values_in_files([sample / "step_config.json", sample / "toolscope.registry.yaml", config])
    assert set(SECRETS) <= found
