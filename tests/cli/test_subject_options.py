"""check, tools, explain, report and inspect take the subject options declared once (``SubjectOptions``)."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.cli.commands.subject_options import OPTIONS

FLAGS = ["--step", "--registry", "--groups", "--snapshot", "--workflow", "--origin", "--home", "--managed-dir"]
FLAGS += ["--client-args", "--codex-home", "--codex-system-dir", "--config", "--client-home"]


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
