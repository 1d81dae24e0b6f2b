"""``toolscope mcp``'s answers in process (cheap): the same words as the CLI, and its stdin reader's bounds.
The server as a real process, driven by the official client, is tests/mcp/test_mcp_server.py (process lane)."""

from __future__ import annotations

import os

import anyio
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.cli.commands.mcp_answers import Served, why_not_text
from toolscope.cli.commands.mcp_server import respond
from toolscope.cli.commands.subject_options import NO_SUBJECT_OPTIONS
from toolscope.cli.stdin_lines import StdinLines

SEED = "sample_configs/seed/step_config.json"


def test_why_not_is_explains_text(in_repo: object) -> None:
    served = Served(SEED, "build", NO_SUBJECT_OPTIONS)
    text, is_error = why_not_text(served, "notify_user")
    explained = CliRunner().invoke(app, ["explain", SEED, "notify_user", "--mode", "build"])
    assert explained.exit_code == 1
    assert not is_error and text == explained.stdout
    assert 'Fix: add "notify_user" to modes.lists.build' in text


def test_a_tool_it_does_not_serve() -> None:
    served = Served(SEED, "build", NO_SUBJECT_OPTIONS)
    result = anyio.run(respond, served, "why\x1bnot", {})
    assert result.model_dump(by_alias=True)["isError"] is True
    assert result.content[0].text == 'error: toolscope mcp has no tool "why\\x1bnot"; its tools: why_not, tools, check'


def test_stdin_lines_are_bounded() -> None:
    read, write = os.pipe()
    os.write(write, b"a" * 100 + b"\n{}\npartial")
    os.close(write)

    async def lines() -> list[str]:
        return [line async for line in StdinLines(read, limit=10)]

    try:
        assert anyio.run(lines) == ["\n", "{}\n", "partial"]  # the over-long line dropped, the last kept
    finally:
        os.close(read)
