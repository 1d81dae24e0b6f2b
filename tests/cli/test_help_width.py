"""Every help page at 80 columns: no word, option name or file name split across two lines,
no line wider than the terminal, and at most one note of an option's default."""

from __future__ import annotations

import re

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from toolscope.cli.app import app


def _pages() -> dict[tuple[str, ...], object]:
    """Every command path (``()`` is ``toolscope`` itself) and its Click command."""
    pages: dict[tuple[str, ...], object] = {}

    def walk(command: object, path: tuple[str, ...]) -> None:
        pages[path] = command
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*path, name))

    walk(get_command(app), ())
    return pages


PAGES = _pages()


def _help_at_80(path: tuple[str, ...]) -> str:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.output


def _written_words(command: object) -> set[str]:
    """The words of the command's help texts as written in the source."""
    texts = [getattr(command, "help", None), getattr(command, "epilog", None)]
    texts += [getattr(param, "help", None) for param in getattr(command, "params", [])]
    return {word for text in texts if text for word in text.split() if word != "\b"}


def _option_records(page: str) -> list[str]:
    """Each option's lines (its names and its wrapped help) as one string."""
    records: list[str] = []
    for line in page.splitlines():
        if re.match(r"  -", line):
            records.append(line)
        elif records and records[-1] and line.startswith("   ") and line.strip():
            records[-1] += "\n" + line
        elif not line.strip():
            records.append("")  # a section ends: the next indented line is not this option's
    return [record for record in records if record]


def test_every_command_is_checked() -> None:
    assert {"capture", "tools", "check", "report", "serve"} <= {path[0] for path in PAGES if path}
    assert ("registry", "check") in PAGES


@pytest.mark.parametrize("path", list(PAGES), ids=lambda path: " ".join(path) or "toolscope")
def test_help_at_80_columns_keeps_every_word_whole(path: tuple[str, ...]) -> None:
    page = _help_at_80(path)
    assert not [line for line in page.splitlines() if len(line) > 80], page
    assert not re.search(r"\w-$", page, re.M), page  # --keep- / messages
    printed = set(page.split())
    split = sorted(word for word in _written_words(PAGES[path]) if word not in printed)
    assert not split, (split, page)
    cut_notes = [record for record in _option_records(page) if re.search(r"\[default:$", record, re.M)]
    assert not cut_notes, cut_notes


@pytest.mark.parametrize("path", list(PAGES), ids=lambda path: " ".join(path) or "toolscope")
def test_an_option_states_its_default_once(path: tuple[str, ...]) -> None:
    twice = [
        record
        for record in _option_records(_help_at_80(path))
        if len(re.findall(r"\bdefault:", record, re.IGNORECASE)) > 1
    ]
    assert not twice, twice


def test_capture_port_names_its_default_in_words() -> None:
    ports = [record for record in _option_records(_help_at_80(("capture",))) if "--port" in record]
    assert ports == ["  --port PORT            Port to listen on (default: a free one)."]
