"""Both eras of MCP: the 2026-07-28 protocol (stateless, ``server/discover``, cache hints) and the
``initialize`` handshake, spoken through the SDK's ``Client(mode="auto")``.

The servers are real processes built from the SDK's own server classes (``era_server.py``):
modern-only, legacy-only and both. Under mcp < 2 (the AgentScope 2.0.6 and 1.x lanes run this
file too, see .ci/) those servers cannot run: there a recorded refusal of the real modern-only
server is replayed, and discovery must say why it cannot speak to it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from toolscope.core.mcp.config import config_from_dict
from toolscope.core.mcp.discovery import discover_sync
from toolscope.core.mcp.eras import modern_sdk
from toolscope.core.mcp.snapshot import load_snapshot, snapshot_document, write_snapshot

pytestmark = pytest.mark.mcp_sdk

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
ERA_SERVER = str(HERE / "era_server.py")
RECORDED = HERE / "recorded" / "modern_only_refusal.json"
SAMPLE = REPO / "sample_configs" / "mcp"
needs_modern_sdk = pytest.mark.skipif(not modern_sdk(), reason="the era servers are built with mcp >= 2")


def era(name: str, *args: str) -> dict[str, object]:
    return {"command": sys.executable, "args": [ERA_SERVER, name, *args]}


@pytest.fixture(scope="module")
def three_eras():  # a DiscoveryResult, one discovery for the module (each server costs a second of CPU)
    if not modern_sdk():
        pytest.skip("the era servers are built with mcp >= 2")
    servers = {
        "modern": era("modern", "--ttl-ms", "0", "--scope", "private", "--tools", "a,b,c", "--page-size", "2"),
        "legacy": era("legacy", "--ttl-ms", "60000", "--tools", "old_one"),
        "both": era("both", "--ttl-ms", "3600000", "--scope", "public", "--tools", "both_one"),
    }
    return discover_sync(config_from_dict({"mcpServers": servers}), 30.0)


@needs_modern_sdk
def test_each_era_is_spoken_and_recorded(three_eras) -> None:
    modern, legacy, both = three_eras.servers
    assert three_eras.all_ok, [s.error for s in three_eras.servers]
    # The modern-only server refuses initialize: only the server/discover probe reaches it.
    assert (modern.era, modern.protocol_version, modern.tools) == ("modern", "2026-07-28", ("a", "b", "c"))
    assert (modern.ttl_ms, modern.cache_scope) == (0, "private")
    # The legacy-only server has no server/discover: the SDK falls back to initialize. Its
    # listing carries no cache hints on that wire, whatever the handler set.
    assert (legacy.era, legacy.tools, legacy.ttl_ms, legacy.cache_scope) == ("legacy", ("old_one",), None, None)
    assert legacy.protocol_version == "2025-11-25"
    # A server of both eras is spoken to in the newer one.
    assert (both.era, both.protocol_version, both.ttl_ms, both.cache_scope) == (
        "modern",
        "2026-07-28",
        3600000,
        "public",
    )


@needs_modern_sdk
def test_the_snapshot_records_era_version_and_cache_hints(three_eras, tmp_path: Path) -> None:
    import jsonschema

    path = tmp_path / "snap.json"
    write_snapshot(three_eras, path)
    document = json.loads(path.read_text())
    schema = json.loads((REPO / "core" / "schemas" / "mcp-snapshot-1.schema.json").read_text())
    jsonschema.validate(document, schema)
    by_name = {s["name"]: s for s in document["servers"]}
    assert {k: by_name["both"][k] for k in ("era", "protocol_version", "ttl_ms", "cache_scope")} == {
        "era": "modern",
        "protocol_version": "2026-07-28",
        "ttl_ms": 3600000,
        "cache_scope": "public",
    }
    assert by_name["legacy"]["era"] == "legacy" and by_name["legacy"]["ttl_ms"] is None
    again = load_snapshot(path)
    assert [(s.era, s.ttl_ms, s.cache_scope) for s in again.servers] == [
        (s.era, s.ttl_ms, s.cache_scope) for s in three_eras.servers
    ]
    assert snapshot_document(again).model_dump(by_alias=True) == snapshot_document(three_eras).model_dump(by_alias=True)


@needs_modern_sdk
def test_live_listings_are_never_stale_whatever_their_ttl(three_eras) -> None:
    # ttlMs 0 says: do not reuse this listing. A live answer does not reuse it.
    assert three_eras.stale_servers == () and three_eras.stale_notes() == ()


@needs_modern_sdk
def test_the_discover_command_says_how_each_server_spoke(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"m": era("modern", "--ttl-ms", "90000", "--scope", "public")}}))
    done = subprocess.run(
        [sys.executable, "-m", "toolscope", "discover", str(config), "--timeout", "30"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "modern MCP 2026-07-28 · listing fresh for 90 s, public" in done.stdout


@needs_modern_sdk
def test_the_recorded_refusal_is_what_the_real_modern_only_server_says() -> None:
    """The recording the mcp < 2 lanes replay must stay true of the real server."""
    sys.path.insert(0, str(HERE))
    try:
        from record_modern_refusal import REQUEST, ask
    finally:
        sys.path.remove(str(HERE))
    recording = json.loads(RECORDED.read_text())
    assert recording["request"] == REQUEST
    assert ask(REQUEST) == recording["response"]


@pytest.mark.skipif(modern_sdk(), reason="mcp >= 2 speaks the modern era (test_each_era_is_spoken_and_recorded)")
def test_under_mcp_1_a_modern_only_server_gets_a_clear_reason() -> None:
    from importlib.metadata import version

    replay = {"command": sys.executable, "args": [str(HERE / "replay_server.py"), str(RECORDED)]}
    (server,) = discover_sync(config_from_dict({"mcpServers": {"modern": replay}}), 30.0).servers
    assert not server.ok
    assert server.error == (
        "initialize failed: the server speaks only MCP 2026-07-28 (the stateless protocol: no initialize "
        f"handshake), and the installed mcp SDK {version('mcp')} speaks only the handshake; mcp 2.3 speaks both"
    )


# --- a saved listing past its ttl is stale: the CLI's notes and the TUI header say so ------------


def snapshot_with_hints(tmp_path: Path, taken: datetime, ttl_ms: int | None) -> Path:
    """The sample's snapshot, as if the time server had spoken the modern era with this ttl."""
    document = json.loads((SAMPLE / "snapshot.json").read_text())
    document["taken_at"] = taken.isoformat(timespec="seconds")
    for server in document["servers"]:
        if server["name"] == "time":
            server.update(era="modern", protocol_version="2026-07-28", ttl_ms=ttl_ms, cache_scope="public")
    path = tmp_path / "snapshot.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def tools_notes(snapshot: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "toolscope", "tools", str(SAMPLE / "step_config.json"), "--snapshot", str(snapshot)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert done.returncode in (0, 1), done.stderr
    return " ".join(done.stdout.split())


@pytest.mark.parametrize(
    ("age", "ttl_ms", "stale"),
    [
        (timedelta(hours=2), 3_600_000, "stale since"),  # an hour's ttl, taken two hours ago
        (timedelta(seconds=0), 0, "stale at once (ttlMs 0"),  # ttlMs 0: stale at once
        (timedelta(minutes=1), 3_600_000, None),  # still fresh
        (timedelta(days=400), None, None),  # no ttl given (legacy): never called stale
    ],
)
def test_a_saved_listing_past_its_ttl_is_stale_in_the_cli(
    tmp_path: Path, age: timedelta, ttl_ms: int | None, stale: str | None
) -> None:
    notes = tools_notes(snapshot_with_hints(tmp_path, datetime.now(UTC) - age, ttl_ms))
    if stale is None:
        assert "stale" not in notes
    else:
        assert f"MCP listing of server 'time' in the snapshot is {stale}" in notes
        assert "run toolscope discover again" in notes


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_the_tui_header_flags_a_stale_listing_first_on_its_second_line(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    from toolscope.cli.inputs import open_subject
    from toolscope.tui.app import ToolscopeApp
    from toolscope.tui.options import TuiOptions
    from toolscope.tui.widgets.input_header import InputHeader

    snapshot = snapshot_with_hints(tmp_path, datetime.now(UTC) - timedelta(hours=2), 3_600_000)
    subject = open_subject(str(SAMPLE / "step_config.json"), snapshot=snapshot)
    app = ToolscopeApp(subject, None, TuiOptions(deterministic=True, export_png=False))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        header = app.screen.query_one(InputHeader)
        shown = [strip.text.strip() for strip in header.render_lines(header.region.reset_offset)]
    # First on the second line: the rest of that line (files, versions) is what gets cut at 80 columns.
    assert shown[1].startswith("⚠ MCP listing stale: time"), shown
