"""Snapshots: round trip through a real discovery, provenance, drift (added/removed/renamed)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from mcpdisc_helpers import fixture, write_config

from toolscope.core.mcp import load_mcp_universe
from toolscope.core.mcp.results import DiscoveryResult, Provenance, ServerResult
from toolscope.core.mcp.snapshot import (
    SCHEMA,
    diff_snapshots,
    edit_distance,
    load_snapshot,
    normalize_name,
    write_snapshot,
)
from toolscope.core.model.errors import InputError


def test_live_discovery_round_trips_through_a_snapshot(tmp_path: Path) -> None:
    config = write_config(
        tmp_path / "mcp.json",
        {
            "good": fixture(
                "--tools", "alpha,beta", "--api-key", "cli-secret-111", env={"API_TOKEN": "env-secret-222"}
            ),
            "bad": fixture("--mode", "exit"),
        },
    )
    live = load_mcp_universe(config, None, 20, discover=True)
    out = tmp_path / "snap.json"
    write_snapshot(live, out)
    text = out.read_text()
    assert "cli-secret-111" not in text and "env-secret-222" not in text
    document = json.loads(text)
    assert document["schema"] == SCHEMA
    assert document["config"]["sha256"] == live.source.config_sha256 and len(live.source.config_sha256) == 64
    assert document["servers"][0]["launch"]["args"][-2:] == ["--api-key", "***"]
    assert document["servers"][0]["launch"]["env"] == {"API_TOKEN": "***"}

    again = load_mcp_universe(config, out, 20)
    assert again.source.kind == "snapshot" and again.source.snapshot_file == "snap.json"
    assert again.source.taken_at == live.source.taken_at and again.source.notes == ()
    assert [(s.name, s.ok, s.tools, s.error, s.descriptions) for s in again.servers] == [
        (s.name, s.ok, s.tools, s.error, s.descriptions) for s in live.servers
    ]
    assert again.outage_servers == ("bad",)

    # Editing the config after the snapshot is noted, not fatal.
    config.write_text(config.read_text().replace("alpha,beta", "alpha,beta,gamma"))
    assert any("changed since the snapshot" in n for n in load_mcp_universe(config, out, 20).source.notes)


def test_snapshot_without_the_config_works_offline(tmp_path: Path) -> None:
    out = tmp_path / "snap.json"
    write_snapshot(_result({"a": ("x", "y")}), out)
    loaded = load_mcp_universe(tmp_path / "gone.json", out, 1)
    assert loaded.server("a").tools == ("x", "y")


@pytest.mark.parametrize("content", ['{"schema": "other/1"}', "[]", '{"schema": "toolscope.mcp-snapshot/1"}', "{oops"])
def test_bad_snapshot_is_an_input_error(tmp_path: Path, content: str) -> None:
    bad = tmp_path / "snap.json"
    bad.write_text(content)
    with pytest.raises(InputError) as info:
        load_snapshot(bad)
    assert "snap.json" in info.value.render()


def test_write_refuses_to_overwrite_an_input(tmp_path: Path) -> None:
    config = write_config(tmp_path / "mcp.json", {})
    before = config.read_text()
    with pytest.raises(InputError, match="refusing to overwrite"):
        write_snapshot(_result({}), tmp_path / "." / "mcp.json", protect=(config,))
    assert config.read_text() == before
    assert list(tmp_path.iterdir()) == [config]  # no temp file left behind


def _result(tools: dict[str, tuple[str, ...]], failed: dict[str, str] | None = None) -> DiscoveryResult:
    servers = [ServerResult(name, "stdio", True, names) for name, names in tools.items()]
    servers += [ServerResult(name, "stdio", False, error=why) for name, why in (failed or {}).items()]
    return DiscoveryResult(tuple(servers), (), Provenance("live", "mcp.json", "0" * 64, "2026-01-01T00:00:00+00:00"))


def test_drift_added_removed_renamed_per_server() -> None:
    old = _result(
        {
            "git": ("git_status", "git_log", "git_diff_staged", "git_show"),
            "time": ("get_current_time", "convert_time"),
            "gone": ("bye",),
            "flaky": ("f1",),
        }
    )
    new = _result(
        {
            "git": ("git_status", "gitLog", "git_diff_stage", "git_blame"),
            "time": ("get_current_time", "convert_time"),
            "fresh": ("hello",),
        },
        failed={"flaky": "timed out after 3s waiting for initialize"},
    )
    drift = diff_snapshots(old, new)
    by = {s.server: s for s in drift.servers}
    assert by["git"].renamed == (("git_log", "gitLog"), ("git_diff_staged", "git_diff_stage"))
    assert by["git"].added == ("git_blame",) and by["git"].removed == ("git_show",)
    assert not by["time"].changed
    assert by["fresh"].status == "new server" and by["fresh"].added == ("hello",)
    assert by["gone"].status == "server removed"
    # A server that fails now is an outage, not "all its tools were removed".
    assert by["flaky"].status == "failed now: timed out after 3s waiting for initialize" and by["flaky"].removed == ()
    assert drift.changed
    assert drift.to_json()["schema"] == "toolscope.mcp-drift/1"
    assert not diff_snapshots(old, old).changed


def test_rename_heuristic_building_blocks() -> None:
    assert normalize_name("Get-Current_Time") == normalize_name("getCurrentTime") == "getcurrenttime"
    assert edit_distance("kitten", "sitting") == 3
    # Unrelated short names are not renames: "a"→"b" would be distance 1 but both removed/added.
    drift = diff_snapshots(_result({"s": ("read",)}), _result({"s": ("write",)}))
    assert drift.servers[0].added == ("write",) and drift.servers[0].removed == ("read",)


def test_snapshot_of_failed_server_is_preserved(tmp_path: Path) -> None:
    result = _result({"a": ("x",)}, failed={"b": "failed to start: No such file or directory: 'srv'"})
    out = tmp_path / "s.json"
    write_snapshot(result, out)
    loaded = load_snapshot(out)
    assert loaded.server("b").error == "failed to start: No such file or directory: 'srv'"
    assert (loaded.server("a").ok, loaded.server("a").tools) == (True, ("x",))
    assert replace(loaded.server("b"), launch={}) == result.server("b")


def test_drift_lines_and_outage_text() -> None:
    from toolscope.core.mcp.outage import get_api_spec_outage_text, unknown_reason

    old = _result({"git": ("git_log", "git_show")})
    new = _result({"git": ("gitLog", "git_blame")}, failed={"time": "timed out after 3s waiting for initialize"})
    assert diff_snapshots(old, new).lines() == [
        "git: added git_blame",
        "git: removed git_show",
        "git: renamed git_log -> gitLog",
        "time: new server",
    ]
    assert (
        unknown_reason(new.server("time")) == "unknown: server time failed: timed out after 3s waiting for initialize"
    )
    text = get_api_spec_outage_text(new, ["time"], ["get_current_time", "convert_time"])
    assert text.startswith(
        "tools_unavailable: server_unavailable=[time] requested=[get_current_time convert_time]: MCP server(s) [time] "
        "are configured for this agent but currently have zero registered tools, so they failed to start or failed to connect. "
    )
    assert text.endswith("Treat this as a server outage: report it and continue without those tools.")
    empty = _result({"quiet": ()})
    assert "so they connected but advertised no tools." in get_api_spec_outage_text(empty, ["quiet"], ["x"], ["y"])
    assert " not_allowed=[y]: " in get_api_spec_outage_text(empty, ["quiet"], ["x"], ["y"])
