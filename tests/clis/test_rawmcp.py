"""The lanes' standard-library MCP server (``rawmcp.py``): flags after ":" by default, each name
whole with ``--verbatim`` (the Codex name-sanitising experiment serves "co:lon" through it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

RAW = Path(__file__).resolve().parent / "rawmcp.py"
REQUESTS = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "co:lon"}},
]


def _serve(*args: str) -> list[dict]:
    lines = "".join(json.dumps(request) + "\n" for request in REQUESTS)
    done = subprocess.run(
        [sys.executable, str(RAW), *args], input=lines, capture_output=True, text=True, timeout=60, check=True
    )
    return [json.loads(line)["result"] for line in done.stdout.splitlines()]


@pytest.mark.lane
def test_names_are_read_whole_with_verbatim_and_split_at_colons_without() -> None:
    _, listed, called = _serve("--verbatim", "co:lon", "x:ro", "sp ace")
    assert [tool["name"] for tool in listed["tools"]] == ["co:lon", "x:ro", "sp ace"]
    assert not any("annotations" in tool for tool in listed["tools"])
    assert called["content"][0]["text"] == "called co:lon"
    _, listed, _ = _serve("co:lon", "x:ro")
    assert [(tool["name"], tool.get("annotations")) for tool in listed["tools"]] == [
        ("co", None),
        ("x", {"readOnlyHint": True}),
    ]
