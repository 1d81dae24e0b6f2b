"""OpenCode's agents: the built-in ones, the config's (``agent``, legacy ``mode``, ``.md`` files), and
which one a run uses.

Built in (1.18.33): ``build`` (the default) and ``plan`` are primary; ``general`` and ``explore``
are subagents; ``title``, ``summary``, ``compaction`` are hidden. A config agent not built in is
``mode: all``. ``opencode run --agent NAME`` uses NAME when it is primary or ``all``; a subagent
prints "agent X is a subagent, not a primary agent. Falling back to default agent" and an unknown
name "agent X not found. Falling back to default agent" (observed); the default is
``default_agent``, else ``build``.

An agent's ``tools`` map becomes rules when each file is read (``write``/``edit``/``patch`` → ``edit``),
then its ``permission`` is laid over it (a key in both keeps its first position, the value is the
permission's).

Public API::

    read_agent_files(folder, cap) -> ({name: config}, [file texts])
    agent_permission(config) -> {key: value}   # tools map then permission, in OpenCode's order
    resolve_agent(requested, merged) -> (name, warning | None)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

BUILTIN_MODES = {
    "build": "primary",
    "plan": "primary",
    "general": "subagent",
    "explore": "subagent",
    "title": "primary",
    "summary": "primary",
    "compaction": "primary",
}
HIDDEN = ("title", "summary", "compaction")
MAX_MD_BYTES = 256_000


def _front_matter(text: str) -> tuple[dict[str, Any] | None, str]:
    import yaml

    if not text.startswith("---"):
        return {}, text
    head, sep, body = text[3:].partition("\n---")
    if not sep:
        return {}, text
    try:
        data = yaml.safe_load(head)
    except yaml.YAMLError:
        return None, body  # the binary skips a file whose front matter does not parse
    return (data if isinstance(data, dict) else {}), body


def read_agent_files(folder: Path, cap: int) -> tuple[dict[str, Any], list[str]]:
    """``agent(s)/**/*.md`` (name: the path under agent/ without .md) and ``mode(s)/*.md`` (primary)."""
    out: dict[str, Any] = {}
    texts: list[str] = []
    patterns = [(sub, "**/*.md", False) for sub in ("agent", "agents")]
    patterns += [(sub, "*.md", True) for sub in ("mode", "modes")]
    for sub, glob, primary in patterns:
        base = folder / sub
        if not base.is_dir():
            continue
        for path in sorted(base.glob(glob))[:cap]:
            try:
                text = path.read_bytes()[:MAX_MD_BYTES].decode("utf-8", "replace")
            except OSError:
                continue
            data, body = _front_matter(text)
            if data is None:
                continue
            name = str(path.relative_to(base).with_suffix(""))
            entry = {**data, "prompt": body.strip()[:200]}
            if primary:
                entry["mode"] = "primary"
            out[name] = agent_config(entry)
            texts.append(text)
    return out, texts


def agent_config(entry: dict[str, Any]) -> dict[str, Any]:
    """An agent as the schema decodes it: ``tools`` turned into ``permission`` (``tools`` kept for provenance)."""
    out = dict(entry)
    out["permission"] = agent_permission(entry)
    return out


def tools_rules(tools: Any) -> dict[str, str]:
    """A ``tools`` map as permission keys (true → allow, false → deny; write/edit/patch → edit)."""
    out: dict[str, str] = {}
    if not isinstance(tools, dict):
        return out
    for key, value in tools.items():
        action = "allow" if value else "deny"
        out["edit" if key in ("write", "edit", "patch") else str(key)] = action
    return out


def agent_permission(entry: dict[str, Any]) -> dict[str, Any]:
    """An agent's tools map, then its permission laid over it (Object.assign: first position, last value)."""
    out: dict[str, Any] = dict(tools_rules(entry.get("tools")))
    permission = entry.get("permission")
    if isinstance(permission, dict):
        out.update(permission)
    return out


def agents_of(merged: dict[str, Any]) -> dict[str, str]:
    """Every agent name → its mode (built-ins, then the config's; ``disable: true`` removes one)."""
    out = dict(BUILTIN_MODES)
    configured = merged.get("agent") if isinstance(merged.get("agent"), dict) else {}
    for name, entry in (configured or {}).items():
        entry = entry if isinstance(entry, dict) else {}
        if entry.get("disable"):
            out.pop(name, None)
            continue
        out[name] = str(entry.get("mode") or out.get(name) or "all")
    return out


def default_agent(merged: dict[str, Any]) -> str:
    """``default_agent`` when it names a primary agent, else ``build``."""
    name = merged.get("default_agent")
    modes = agents_of(merged)
    if isinstance(name, str) and modes.get(name) in ("primary", "all") and name not in HIDDEN:
        return name
    return "build"


def resolve_agent(requested: str | None, merged: dict[str, Any]) -> tuple[str, str | None]:
    """The agent a run uses, and the binary's warning when ``--agent`` falls back."""
    fallback = default_agent(merged)
    if not requested:
        return fallback, None
    mode = agents_of(merged).get(requested)
    if mode is None:
        return fallback, f'agent "{requested}" not found. Falling back to default agent ({fallback})'
    if mode == "subagent":
        return (
            fallback,
            f'agent "{requested}" is a subagent, not a primary agent. Falling back to default agent ({fallback})',
        )
    return requested, None
