"""Claude Code's name sanitising, against the names the real 2.1.332 sent (recorded:
``fixtures/experiments/claude.G_names.capture.jsonl``, ``experiments/x_claude_names_models_timing.py G_names``).

Every UTF-16 code unit outside ``A-Za-z0-9_-`` becomes ``_``: an emoji (two code units) becomes two.
"""

from __future__ import annotations

import json
from pathlib import Path

from toolscope.core.systems.claude_code.tools import final_name

FIXTURE = Path(__file__).parent / "fixtures" / "experiments" / "claude.G_names.capture.jsonl"

# (server, tool) as configured in the G_names setup; rawmcp.py read the spec "co:lon" as tool "co".
SETUP = [
    ("e\U0001f600", "x"),
    ("caf\u00e9", "x"),
    ("a/b", "x"),
    ("t", "emo\U0001f600ji"),
    ("t", "sl/ash"),
    ("t", "at@t"),
    ("t", "co"),
    ("t", "n" * 70),
    ("s" * 60, "t" * 60),
]


def test_sanitised_names_equal_what_the_binary_sent() -> None:
    record = json.loads(FIXTURE.read_text(encoding="utf-8").splitlines()[0])
    sent = {n for n in record["deferred_names"] if n.startswith("mcp__")}
    assert {final_name(server, tool) for server, tool in SETUP} == sent


def test_an_emoji_becomes_two_underscores() -> None:
    assert final_name("e\U0001f600", "x") == "mcp__e____x"
    assert final_name("t", "emo\U0001f600ji") == "mcp__t__emo__ji"
