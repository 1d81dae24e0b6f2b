"""The Codex capture matrix: one configuration per row of the reference's stage table (§2).

``config`` is appended to ``$CODEX_HOME/config.toml`` (the test adds the model provider that
points at the capture); ``files`` are written under the root (``proj/``, ``etc/`` → /etc);
``$PY`` / ``$RAW`` / ``$D`` as in the Claude matrix. Used by ``test_codex_real.py`` and
``benchmarks/cli_drift.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


def srv(name: str, *tools: str, extra: str = "") -> str:
    """A [mcp_servers.NAME] table starting rawmcp.py with these tools."""
    return f'[mcp_servers."{name}"]\ncommand = "$PY"\nargs = {json.dumps(["$RAW", *tools])}\n{extra}\n'


@dataclass(frozen=True)
class CodexCase:
    id: str
    config: str
    model: str = "gpt-4.1"
    files: dict[str, Any] = field(default_factory=dict)
    overrides: tuple[str, ...] = ()
    call: tuple[str, str] | None = None
    """(namespace, function) the scripted model calls."""
    cwd: str = "proj"

    @property
    def managed(self) -> bool:
        """Needs /etc/codex (private mount namespace)."""
        return any(path.startswith("etc/") for path in self.files)


TRUST = '[projects."$D/proj"]\ntrust_level = "trusted"\n'

CASES: tuple[CodexCase, ...] = (
    CodexCase("user_server_full", srv("t", "x", "y")),
    CodexCase("catalog_model_deferred", srv("t", "x"), model="gpt-5.5"),
    CodexCase("other_model_full", srv("t", "x"), model="o3"),
    CodexCase("enabled_tools_typo_hides_server", srv("t", "x", "y", extra='enabled_tools = ["mcp__t__x"]')),
    CodexCase("enabled_tools_raw_name", srv("t", "x", "y", extra='enabled_tools = ["x"]')),
    CodexCase("disabled_beats_enabled", srv("t", "x", "y", extra='enabled_tools = ["x"]\ndisabled_tools = ["x"]')),
    CodexCase("enabled_false", srv("t", "x", extra="enabled = false") + srv("u", "y")),
    CodexCase("failing_server", srv("t", "--fail") + srv("u", "y")),
    CodexCase("naming_sanitised", srv("my.srv", "get-time", "a.b")),
    CodexCase("collision_servers", srv("a.b", "x") + srv("a_b", "x") + srv("u", "y")),
    CodexCase("collision_tools", srv("t", "a.b", "a_b", "c")),
    CodexCase("non_prefixed_names", "[features]\nnon_prefixed_mcp_tool_names = true\n" + srv("t", "x")),
    CodexCase("enabled_tools_empty", srv("t", "x", extra="enabled_tools = []") + srv("u", "y")),
    CodexCase("space_in_server_name", srv("my srv", "x") + srv("u", "y")),
    CodexCase("project_untrusted_ignored", "", files={"proj/.codex/config.toml": srv("p", "x")}),
    CodexCase(
        "project_parent_trust_does_not_count",
        '[projects."$D"]\ntrust_level = "trusted"\n',
        files={"proj/.codex/config.toml": srv("p", "x")},
    ),
    CodexCase("project_trusted", TRUST, files={"proj/.codex/config.toml": srv("p", "x")}),
    CodexCase("c_override_enabled_tools", srv("t", "x", "y"), overrides=('mcp_servers.t.enabled_tools=["y"]',)),
    CodexCase("system_config_adds", srv("u", "x"), files={"etc/codex/config.toml": srv("e", "y")}),
    CodexCase(
        "managed_config_overrides",
        srv("u", "x", extra="enabled = true"),
        files={"etc/codex/managed_config.toml": "[mcp_servers.u]\nenabled = false\n"},
    ),
    CodexCase(
        "requirements_allowlist",
        srv("a", "x") + srv("b", "y"),
        files={"etc/codex/requirements.toml": '[mcp_servers.a.identity]\ncommand = "$PY"\n'},
    ),
    CodexCase(
        "requirements_command_mismatch",
        srv("a", "x") + srv("b", "y"),
        files={"etc/codex/requirements.toml": '[mcp_servers.a.identity]\ncommand = "/bin/false"\n'},
    ),
    CodexCase("call_needs_approval", srv("t", "x"), call=("mcp__t", "x")),
    CodexCase(
        "call_flat_name_unsupported",
        srv("t", "x", extra='default_tools_approval_mode = "approve"'),
        call=("", "mcp__t__x"),
    ),
    CodexCase("call_read_only_runs", srv("t", "x:ro"), call=("mcp__t", "x")),
    CodexCase(
        "call_approve_mode_runs", srv("t", "x", extra='default_tools_approval_mode = "approve"'), call=("mcp__t", "x")
    ),
    # The key toolscope's fix names for a refused call: raw server and tool names, quoted.
    CodexCase(
        "call_tool_approval_quoted_raw_names",
        srv("my.srv", "get-time", extra='[mcp_servers."my.srv".tools."get-time"]\napproval_mode = "approve"'),
        call=("mcp__my_srv", "get_time"),
    ),
    CodexCase(
        "call_tool_approval_auto_refused",
        srv("t", "x", extra='[mcp_servers.t.tools.x]\napproval_mode = "auto"'),
        call=("mcp__t", "x"),
    ),
)
