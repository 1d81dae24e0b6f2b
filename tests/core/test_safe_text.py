"""The one definition of unsafe text (``core.text.safe_text``) and every output that uses it:
the terminal, JSON, Markdown, HTML, shell quoting and text boxes neutralise the same characters."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.report.html import esc
from toolscope.core.report.markdown import md
from toolscope.core.text import safe_text
from toolscope.core.text.safe_text import INPUT_PATTERN, UNSAFE, inert, inert_json
from toolscope.core.text.shell import shell_quote

# One of each kind the old five definitions disagreed on (the terminal let these through).
HOSTILE = {
    "arabic letter mark (Cf)": "\u061c",
    "line separator (Zl)": "\u2028",
    "paragraph separator (Zp)": "\u2029",
    "soft hyphen (Cf)": "\u00ad",
    "mongolian vowel separator (Cf)": "\u180e",
    "tag letter (Cf, astral)": "\U000e0041",
    "hangul filler (drawn as nothing)": "\u3164",
    "lone surrogate (Cs)": "\ud800",
    "right-to-left override (Cf)": "\u202e",
    "escape (Cc)": "\x1b",
    "CSI (Cc, C1)": "\x9b",
}


@pytest.mark.skipif(unicodedata.unidata_version != safe_text.UNICODE_VERSION, reason="other Unicode data")
def test_the_committed_ranges_are_the_unicode_categories() -> None:
    assert safe_text.unsafe_ranges() == safe_text.UNSAFE_RANGES


@pytest.mark.parametrize("char", HOSTILE.values(), ids=HOSTILE.keys())
def test_every_output_neutralises_the_same_characters(char: str) -> None:
    name = f"a{char}b"
    for shown in (inert(name), inert(name, single_line=True), md(name), esc(name)):
        assert char not in shown and shown.startswith("a\\") and shown.endswith("b")
    quoted = shell_quote(name)
    assert char not in quoted and quoted.startswith("$'")
    encoded = inert_json(json.dumps({"name": name}, ensure_ascii=False))
    assert char not in encoded and json.loads(encoded) == {"name": name}
    assert re.fullmatch(INPUT_PATTERN, name) is None and re.fullmatch(INPUT_PATTERN, "ab")


def test_text_that_reads_as_stored_is_left_alone() -> None:
    for text in ("notify_user", "café ❤️ 工具", "non\u00a0breaking", "tab\there"):
        assert inert(text) == text and UNSAFE.search(text.replace("\t", "")) is None
    assert inert("a\tb\r\nc", single_line=True) == "a\\tb\\r\\nc"  # a name reads as one line


def test_the_tools_table_prints_them_escaped(tmp_path: Path) -> None:
    names = [f"t{i}{char}x" for i, char in enumerate(HOSTILE.values()) if char != "\ud800"]
    registry = {"custom_tools": {"human_tools": names}, "modes": {"lists": {"build": names}, "default": "build"}}
    (tmp_path / "toolscope.registry.json").write_text(json.dumps(registry))
    step = tmp_path / "step_config.json"
    step.write_text(json.dumps({"id": "s", "agent_configs": {"enabled_custom_tools": ["human_tools:*"]}}))
    for args in (["tools", str(step)], ["tools", str(step), "--json"]):
        result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
        assert result.exit_code in (0, 1), result.output
        for char in HOSTILE.values():
            assert char not in result.output
        assert "t1\\u2028x" in result.output
