"""Which of Claude Code's servers toolscope starts, and how: as Claude Code would, or not at all.

Only a definition whose stages 1-4 all pass is started (Claude Code itself starts no other: an
unread file, a shadowed name, a disabled or pending ``.mcp.json`` server, a policy block, a
server ``managed-mcp.json`` or a flag drops), and only when the user opted in for this run
(``--discover``) or the definition is the user's own: the ``user`` or ``local`` scope of the
``~/.claude.json`` toolscope reads (what ``claude mcp add`` writes; ``$HOME``, or the ``--home``
the user named). A project's ``.mcp.json`` (or a parent folder's), ``--mcp-config`` and
``managed-mcp.json`` need ``--discover``. Every other server gets ``start_policy.not_started``.

The environment, observed with 2.1.332 (a stdio server that wrote its environment to a file):
Claude Code's own environment, the ``env`` blocks of its settings files (user, project, local,
``--settings``, managed; later wins), then the server's ``env``, each ``${VAR}`` expanded
(``expand``). Claude also adds variables of its own (``CLAUDECODE``, ``CLAUDE_PROJECT_DIR``,
``CLAUDE_CODE_SESSION_ID``…), which toolscope does not invent.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ...mcp.results import ServerResult
from ...mcp.start_policy import not_started, own_definitions_start
from ..coding_cli.common import Launch, list_servers, start_summary
from .expand import expand_entry
from .files import ClaudeFiles, ServerEntry
from .servers import ServerDecision

OWN_SCOPES = ("user", "local")
"""Scopes whose definitions live in the user's own ``~/.claude.json``."""
ENV_ORDER = ("user", "project", "local", "flag", "managed")
"""The settings ``env`` blocks in the order applied (later wins)."""


def own_definition(entry: ServerEntry) -> bool:
    """True for a definition the user's own settings hold (started without ``--discover``)."""
    return entry.scope in OWN_SCOPES


def _settings_env(files: ClaudeFiles, scopes: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for scope in scopes:
        for source in files.settings_in(scope):
            block = source.file.data.get("env")
            if isinstance(block, dict):
                out.update({str(k): v for k, v in block.items() if isinstance(v, str)})
    return out


def claude_launch(entry: Mapping[str, object], files: ClaudeFiles, environ: Mapping[str, str]) -> Launch:
    """One definition as Claude Code starts it: ``${VAR}`` expanded, Claude's environment."""
    expanded = expand_entry(entry, {**environ, **_settings_env(files, ("user",))})
    base = {**environ, **_settings_env(files, ENV_ORDER)}
    return Launch(expanded.entry, base, expanded.environ_values)


def list_claude_servers(
    decisions: list[ServerDecision],
    files: ClaudeFiles,
    environ: Mapping[str, str],
    snapshot: Path | None,
    discover: bool,
) -> tuple[dict[str, ServerResult], str]:
    """Each definition's tools (live for those started, else ``not_started``), and where they came from."""
    if snapshot is not None:
        listed = {d.key: Launch(d.entry.entry) for d in decisions if not d.blocked_by_policy}
        return list_servers(listed, snapshot)
    startable = [d for d in decisions if d.passed]
    chosen = {
        d.key: claude_launch(d.entry.entry, files, environ)
        for d in startable
        if discover or (own_definition(d.entry) and own_definitions_start())
    }
    results, where = list_servers(chosen, None)
    for decision in startable:
        results.setdefault(decision.key, not_started(decision.key))
    return results, start_summary(results, where)
