"""The registry of systems (core.systems.registry) declares what the rest of toolscope used to hard-code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolscope.core.systems import registry
from toolscope.core.systems.contract import System


def test_the_six_systems_in_order() -> None:
    keys = ["agentworks", "agentscope", "agentscope1", "claude_code", "codex", "gemini_cli", "opencode"]
    assert [s.key for s in registry.BUILTIN] == keys
    assert registry.prefixes() == ("claude-code:", "codex:", "gemini-cli:", "opencode:")


def test_vocabularies_are_the_union_of_the_systems_in_the_schemas_order() -> None:
    """The committed JSON Schemas list these enums in this order (the union in registry order)."""
    schema = json.loads((Path(__file__).parents[2] / "core" / "schemas" / "tools-2.schema.json").read_text())
    assert registry.stage_ids() == tuple(schema["$defs"]["StageId"]["enum"])
    assert registry.finding_kinds() == tuple(schema["$defs"]["FindingKind"]["enum"])
    assert registry.input_kinds() == tuple(schema["$defs"]["InputKind"]["enum"])
    # 37: mcp_not_started (#31); Gemini CLI (#34) adds 9 kinds and 5 stages; #32: slow_server,
    # mcp_config_fatal, setting_sources (Claude Code), required_server_failed, config_refused,
    # env_not_passed (Codex); OpenCode (#33) adds 4 kinds and 2 stages
    assert len(registry.finding_kinds()) == 56 and len(registry.stage_ids()) == 25


def test_stage_titles_and_headers_are_declared_per_stage() -> None:
    titles, headers = registry.stage_titles(), registry.stage_headers()
    assert titles["visible"] == "offered" and headers["visible"] == "OFFER"
    assert titles["approval_policy"] == "approval" and headers["tool_filter"] == "FILT"
    for system in registry.systems():
        for stage in system.stages:
            assert titles[stage.id] == stage.title, f"{system.key}: {stage.id} titled two ways"
            assert headers[stage.id] == stage.header, f"{system.key}: {stage.id} headed two ways"


def test_options_are_declared_once_each_with_a_group() -> None:
    options = registry.options()
    names = [o.name for o in options]
    assert len(names) == len(set(names))
    flags = [f for o in options for f in o.flags]
    assert len(flags) == len(set(flags)), "two options share a flag"
    assert {o.name for o in options} >= {"step", "registry", "groups", "snapshot", "codex_config", "home"}
    assert all(o.group and o.help and o.flag.startswith("--") for o in options)
    assert next(o for o in options if o.name == "codex_config").flags == ("--codex-override", "-c")


def test_prefix_and_markers(tmp_path: Path) -> None:
    found = registry.by_prefix("codex:proj")
    assert found is not None and found[0].key == "codex" and found[1] == Path("proj")
    assert registry.by_prefix("claude-code:")[1] == Path(".")  # type: ignore[index]
    assert registry.by_prefix("step_config.json") is None
    assert registry.seen_in(tmp_path) == []
    (tmp_path / ".codex").mkdir()
    (tmp_path / ".mcp.json").write_text("{}")
    assert [(s.key, m) for s, m in registry.seen_in(tmp_path)] == [
        ("claude_code", (".mcp.json",)),
        ("codex", (".codex/",)),
    ]


def test_a_marker_folder_must_be_a_folder(tmp_path: Path) -> None:
    (tmp_path / ".codex").write_text("not a folder")
    (tmp_path / ".claude").write_text("")
    assert registry.seen_in(tmp_path) == []


def test_every_hook_names_a_function() -> None:
    for system in registry.systems():
        for hook in (system.opener, system.capture):
            if hook is not None:
                assert callable(hook.resolve()), f"{system.key}: {hook.target}"


def test_register_adds_after_the_builtin_ones() -> None:
    toy = System(
        key="toy_probe",
        title="Toy",
        summary="a test system",
        input_kinds=("toy_probe",),
        stages=(),
        finding_kinds=(),
        opener=registry.AGENTWORKS.opener,
        prefix="toyp:",
    )
    registry.register(toy)
    try:
        assert registry.systems()[-1] is toy
        assert registry.system_of_kind("toy_probe") is toy
        assert registry.prefixes()[-1] == "toyp:"
    finally:
        registry.unregister("toy_probe")
    assert "toy_probe" not in [s.key for s in registry.systems()]
    with pytest.raises(KeyError):
        registry.system_of_kind("toy_probe")
