"""Help that reads like a CLI, one meaning per short flag, filter queries of any shape,
and commands that say what they wrote."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from toolscope.cli.app import app

SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs"
SEED = str(SAMPLES / "seed" / "step_config.json")

COMMANDS = (
    "capture",
    "check",
    "discover",
    "explain",
    "filter",
    "inspect",
    "mcp",
    "registry",
    "report",
    "serve",
    "step",
    "tools",
)


def invoke(*args: str, width: int = 80):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": str(width)})


@pytest.mark.parametrize("command", COMMANDS)
def test_help_names_values_by_words(command: str) -> None:
    out = invoke(command, "--help").output
    assert not re.search(r"<[a-z\[\]]+>", out), out  # <str>, <path>, <list[str]>
    assert not re.search(r"\{[a-z_]+\}", out), out  # {config}
    usage = out.splitlines()[0]
    assert re.fullmatch(r"Usage: toolscope \w+ \[OPTIONS\]( [A-Z_\[\].]+)*", usage), usage


def test_explain_usage_and_arguments() -> None:
    out = invoke("explain", "--help").output
    assert out.splitlines()[0] == "Usage: toolscope explain [OPTIONS] CONFIG TOOL"
    assert re.search(r"^  CONFIG +An AgentWorks step config", out, re.M)
    assert "-m, --mode MODE" in out and "-r, --registry FILE" in out


def test_top_level_command_list_is_not_cut() -> None:
    out = invoke("--help").output
    listed = out.split("Commands:", 1)[1]
    assert "..." not in listed
    assert sorted(re.findall(r"^  (\w+) ", listed, re.M)) == sorted(COMMANDS)


def test_a_short_flag_means_one_thing_across_commands() -> None:
    meaning: dict[str, set[str]] = {}
    group = get_command(app)
    for command in group.commands.values():  # type: ignore[attr-defined]
        for param in command.params:
            longs = [o for o in getattr(param, "opts", []) if o.startswith("--")]
            for short in (o for o in getattr(param, "opts", []) if re.fullmatch(r"-\w", o)):
                meaning.setdefault(short, set()).update(longs)
    clashes = {short: longs for short, longs in meaning.items() if len(longs) > 1}
    assert not clashes
    assert meaning["-s"] == {"--script"} and meaning["-t"] == {"--tool"}


def _filter(*args: str) -> dict:
    result = invoke("filter", "--json", *args)
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def test_filter_query_file_asks_any_package_and_virtual_per_query(tmp_path: Path) -> None:
    queries = tmp_path / "queries.json"
    queries.write_text(
        json.dumps(
            [
                {"package": "acme:internal", "tool": "deploy"},
                {"package": "acme:internal", "tool": "get_api_spec", "virtual": True},
                "github:create_issue",
                {"server": "acme:internal"},
            ]
        ),
        encoding="utf-8",
    )
    answers = _filter("--selected-tools", "github:create_issue", "--queries", str(queries))["answers"]
    assert [(a.get("package"), a.get("tool"), a["include"]) for a in answers[:3]] == [
        ("acme:internal", "deploy", False),
        ("acme:internal", "get_api_spec", True),
        ("github", "create_issue", True),
    ]
    assert answers[1]["virtual"] is True and answers[1]["code"] == "virtual"
    assert answers[3] == answers[3] | {"kind": "server", "server": "acme:internal"}


def test_filter_query_starting_with_dash_after_double_dash() -> None:
    answers = _filter("--selected-tools", "-odd:*", "--", "-odd:tool")["answers"]
    assert answers[0]["package"] == "-odd" and answers[0]["include"] is True
    assert "after --" in invoke("filter", "--help").output.replace("\n", " ")


def test_filter_bad_query_file_is_exit_2_with_the_place(tmp_path: Path) -> None:
    queries = tmp_path / "q.yaml"
    queries.write_text("- {package: a, tool: b, virtual: maybe}\n- 7\n", encoding="utf-8")
    result = invoke("filter", "--queries", str(queries))
    assert result.exit_code == 2
    assert "q.yaml" in result.output and "[0].virtual" in result.output and "[1]" in result.output
    assert "Traceback" not in result.output


def test_report_says_what_it_wrote(tmp_path: Path) -> None:
    target = tmp_path / "report.md"
    result = invoke("report", SEED, "-o", str(target))
    assert result.exit_code == 0, result.output
    size = target.stat().st_size
    assert result.stdout == f"wrote {target} (Markdown report, {size:,} bytes; mode build (the default))\n"
    to_stdout = invoke("report", SEED)
    assert "wrote" not in to_stdout.stdout.splitlines()[-1]


def test_follow_takes_the_tap_file_the_readme_names() -> None:
    """`--follow FOLLOW` said nothing; the command reference and the help both call the value TAP."""
    out = invoke("inspect", "--help", width=200).output
    assert "--follow TAP" in out, out
    assert "--follow TAP" in (Path(__file__).resolve().parents[2] / "docs" / "commands.md").read_text()
