"""A key repeated in a JSON input is refused with the place of its second value (line:column),
like every other syntax error; the CLI says it for workflow.json as for any JSON input."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.inputs.positions import json_repeated_key
from toolscope.core.inputs.strict_json import parse_json
from toolscope.core.model.errors import InputError

ERA_C = Path(__file__).resolve().parent / "agentworks" / "eras" / "product_manifest"


def problems(text: str) -> list[tuple[str, str]]:
    """(location, message) of each problem parse_json finds in ``text``; it must refuse it."""
    with pytest.raises(InputError) as caught:
        parse_json(text, "f.json")
    return [(p.location, p.message) for p in caught.value.problems]


@pytest.mark.parametrize(
    ("text", "where", "key"),
    [
        ('{"a": 1,\n "a": 2}', "a (line 2, column 7)", "a"),
        ('{"x": {"b": [1, {"k": 0, "k": 1}]}, "x": 2}', "x.b[1].k (line 1, column 31)", "k"),
        ('[{"a": {}}, {"a": 1, "b": 2, "a": 3}]', "[1].a (line 1, column 35)", "a"),
    ],
)
def test_the_repeated_key_is_placed(text: str, where: str, key: str) -> None:
    assert problems(text) == [(where, f"key {key!r} appears twice in one object")]


def test_no_repeated_key_in_valid_json() -> None:
    assert json_repeated_key('{"a": {"a": [{"a": 1}, {"a": 2}]}, "b": {"a": 3}}') is None


def test_workflow_json_with_a_repeated_key_names_file_line_and_column(tmp_path: Path) -> None:
    shutil.copytree(ERA_C, tmp_path / "c")
    (tmp_path / "c" / "workflow.json").write_text(
        '{"capabilities": {"selected_servers": ["a"],\n "selected_servers": []}}'
    )
    result = CliRunner().invoke(
        app, ["check", str(tmp_path / "c" / "planning" / "step_config.json"), "--step", "report"]
    )
    assert result.exit_code == 2
    assert "workflow.json: invalid JSON" in result.output
    assert "capabilities.selected_servers (line 2, column 22): key 'selected_servers' appears twice" in result.output


@pytest.mark.parametrize(
    ("text", "where", "word"),
    [
        ('{"a": [1,\n NaN]}', "a[1] (line 2, column 2)", "NaN"),
        ('{"a": {"b": -Infinity}}', "a.b (line 1, column 13)", "-Infinity"),
    ],
)
def test_nan_and_infinity_are_placed(text: str, where: str, word: str) -> None:
    assert [(location, message.split(" ")[0]) for location, message in problems(text)] == [(where, word)]


@pytest.mark.parametrize(
    ("text", "where", "closing"),
    [
        ('{\n  "steps": [\n    {"id": "a"},\n  ]\n}\n', "line 3, column 16", "']'"),
        ('{\n  "a": 1,\n}\n', "line 2, column 9", "'}'"),
        ("[1,\n\n   ]", "line 1, column 3", "']'"),
    ],
)
def test_a_trailing_comma_is_named_at_the_comma(text: str, where: str, closing: str) -> None:
    """#36: json reports the closing bracket, often on the line after the comma; the place is the comma's."""
    ((location, message),) = problems(text)
    assert location == where and "trailing comma" in message and closing in message


def test_a_comma_before_a_value_is_still_the_plain_error() -> None:
    ((location, message),) = problems('{"a": [1,, 2]}')
    assert location == "line 1, column 10" and message == "Expecting value"
