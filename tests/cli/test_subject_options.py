"""check, tools, explain, report and inspect take the subject options declared once (``SubjectOptions``)."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.cli.client_options import ClientOptions
from toolscope.cli.commands.subject_options import OPTIONS, SubjectOptions

FLAGS = ["--step", "--registry", "--workflow", "--origin", "--client-home", "--groups", "--home", "--managed-dir"]
FLAGS += [
    "--client-args",
    "--codex-home",
    "--codex-system-dir",
    "--codex-override",
    "--gemini-system-dir",
    "--snapshot",
    "--discover",
]


def test_every_shared_option_has_its_flag() -> None:
    assert len(OPTIONS) == len(FLAGS)


@pytest.mark.parametrize("command", ["check", "tools", "explain", "report", "inspect"])
def test_each_command_lists_the_shared_options_in_one_order(command: str) -> None:
    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    found = [re.search(rf"(?:  |, ){flag} ", result.output) for flag in FLAGS]
    assert all(found), [flag for flag, match in zip(FLAGS, found, strict=True) if match is None]
    places = [match.start() for match in found if match is not None]
    assert places == sorted(places)


def test_a_shared_option_reaches_the_subject(in_repo) -> None:
    """--step is read through SubjectOptions: an unknown step id is refused by name."""
    result = CliRunner().invoke(app, ["tools", "sample_configs/seed/step_config.json", "--step", "nope"])
    assert result.exit_code == 2 and "no step with id 'nope'" in result.output


def test_every_shared_option_lands_in_subject_options() -> None:
    client = {f.name for f in fields(ClientOptions)}
    assert set(OPTIONS) == {f.name for f in fields(SubjectOptions)} - {"client", "others"} | client


def test_report_capture_opens_config_with_every_shared_option(in_repo, tmp_path) -> None:
    """--origin reaches the subject a capture report compares with (it was dropped there): a
    toolkit refuses it instead of ignoring it."""
    capture = "tests/capture/fixtures/agentscope_seed.capture.jsonl"
    args = ["report", "sample_configs/agentscope/toolkit.yaml", "--capture", capture, "-o", str(tmp_path / "r.md")]
    result = CliRunner().invoke(app, [*args, "--origin", "external"])
    assert (
        result.exit_code == 2 and "--origin: is an AgentWorks option, and CONFIG is an AgentScope" in result.output
    ), result.output
