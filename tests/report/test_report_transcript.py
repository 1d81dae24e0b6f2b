"""``--script``: the seed's typo script, stepped through the real toolkit, stock vs guarded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app


def toolkit_report(script: str) -> dict:
    """The JSON report of the sample toolkit with ``sample_configs/agentscope/SCRIPT`` stepped through."""
    args = ["report", "sample_configs/agentscope/toolkit.yaml", "--script", f"sample_configs/agentscope/{script}"]
    result = CliRunner().invoke(app, [*args, "-f", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.agentscope
def test_typo_script_transcript(in_repo: Path) -> None:
    """Turn by turn: the guard refuses the misspelt name and keeps both groups active."""
    document = toolkit_report("typo.json")
    transcript = document["transcript"]
    turns = transcript["turns"]
    assert [t["turn"] for t in turns] == [1, 2, 3]
    assert turns[2]["call"] == '{"web_serch": true}'
    assert set(turns[1]["guarded"]["visible"]) >= {"web_search", "page_fetch"}
    third = turns[2]["guarded"]
    assert third["outcome"].startswith("error") and "web_search" in third["outcome"]
    assert set(third["visible"]) >= {"web_search", "page_fetch"}
    assert transcript["guarded_final_groups"] == ["web_search", "scraping"]
    # The script is part of the provenance, with its hash.
    files = document["provenance"]["files"]
    assert any(f["name"].endswith("typo.json") for f in files)
    # The stock lane's behaviour is the installed AgentScope's; the probe says which it is.
    probe = document["provenance"]["agentscope"]["reset_tools"]
    assert {p["answer"] for p in probe} <= {"yes", "no"} and len(probe) == 5


@pytest.mark.agentscope
def test_report_leaves_the_toolkit_as_it_found_it(in_repo: Path) -> None:
    """A script that registers a group: the report's verdict tables don't show it."""
    document = toolkit_report("late_group.yaml")
    registered = {t["namespace"] for t in document["modes"][0]["tools"]}
    assert "databases" not in registered
    assert any("register group" in t["call"] for t in document["transcript"]["turns"])


def test_refuses_to_write_over_a_factory_file(tmp_path: Path, in_repo: Path) -> None:
    """`file.py:function` names an input file: the report will not replace it."""
    factory = tmp_path / "my_agent.py"
    factory.write_bytes(Path("sample_configs/agentscope/my_agent.py").read_bytes())
    before = factory.read_bytes()
    result = CliRunner().invoke(app, ["report", f"{factory}:build_toolkit", "-o", str(factory), "--force"])
    assert result.exit_code == 2 and "input file" in result.stderr
    assert factory.read_bytes() == before
