"""AgentWorks' ``product.yaml`` (era C): the chat modes' admission lists as layer 2.

From ``agentworksproduct/chat_definition.go`` (reference ``agentworks-today.md`` §2):
``ChatTools(mode)`` returns ``chat.<mode>.tools`` and panics on any mode but the declared
ones; ``ChatAllowsTool`` trims the tool name and wants an exact match (no aliases, no
normalisation). ``chat.run.external_tools`` / ``external_denylist`` make the surface an
external (token-backed) caller sees; ``chat_policy`` says which capabilities a mode and an
origin have. ``validateChatDefinitions``' refusals are findings, with place and line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...inputs.input_files import read_text
from ...inputs.positions import Path_, place, yaml_positions
from ...inputs.safe_yaml import parse_yaml
from ...model.enums import Severity
from ...model.errors import InputError, Problem
from ...model.verdicts import Finding
from .ids import AgentWorksFinding

PRODUCT_MODES = ("builder", "run")
EXTERNAL = "external"
"""The origin of a token-backed caller (external CLI/MCP API): the run surface minus the denylist."""
ORIGINS = ("interactive", "external_builder", "scheduled", "pulse", "child", "bot", "notification")
MCP_CAPABILITY = "mcp_management"
"""``registerMCPToolsForChat``: MCP server tools are registered for a chat only with this capability."""


@dataclass(frozen=True)
class ChatMode:
    """``chat.<mode>``: the admission list and, on run, the external surface."""

    tools: tuple[str, ...] = ()
    external_tools: tuple[str, ...] = ()
    external_denylist: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProductManifest:
    """A parsed product.yaml: chats, chat_policy, and what AgentWorks' validation refuses."""

    name: str
    path: Path
    sha256: str
    chats: Mapping[str, ChatMode]
    capabilities: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """``chat_policy.modes``: mode → capability names."""
    origins: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """``chat_policy.origins``: origin → the capabilities it may use (an origin only narrows)."""
    findings: tuple[Finding, ...] = ()
    positions: Mapping[Path_, tuple[int, int]] = field(default_factory=dict)

    def where(self, *path: str | int) -> str:
        """``product.yaml: chat.run.tools[3] (line 12, column 7)``."""
        return f"{self.name}: {place(self.positions, path)}"

    def capabilities_for(self, mode: str, origin: str | None) -> tuple[frozenset[str], str] | None:
        """The capability set of a turn in ``mode`` from ``origin`` and a sentence saying where it comes from;
        None when the manifest has no chat_policy for the mode."""
        if mode not in self.capabilities:
            return None
        mode_caps = frozenset(self.capabilities[mode])
        why = f"{self.name}: chat_policy.modes.{mode}"
        if origin is None or origin == EXTERNAL or origin not in self.origins:
            return mode_caps, why
        return mode_caps & frozenset(self.origins[origin]), f"{why} ∩ chat_policy.origins.{origin}"


def _names(data: Any, path: Path_, manifest: str, positions: Mapping[Path_, tuple[int, int]]) -> tuple[str, ...]:
    if data is None:
        return ()
    if not isinstance(data, list) or not all(isinstance(item, str) for item in data):
        bad = (
            next((i for i, item in enumerate(data) if not isinstance(item, str)), None)
            if isinstance(data, list)
            else None
        )
        where = place(positions, (*path, bad) if bad is not None else path)
        raise InputError(
            manifest, "not a product manifest AgentWorks can read", [Problem(where, "expected a list of names (text)")]
        )
    return tuple(data)


def _mapping(data: Any, path: Path_, manifest: str, positions: Mapping[Path_, tuple[int, int]]) -> dict[str, Any]:
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise InputError(
            manifest,
            "not a product manifest AgentWorks can read",
            [Problem(place(positions, path), "expected a mapping")],
        )
    return data


def load_product_manifest(path: Path) -> ProductManifest:
    """Read and check a product.yaml; structure errors are InputErrors with line and column."""
    text, digest = read_text(path, "product manifest")
    data = parse_yaml(text, str(path))
    positions = yaml_positions(text)
    source = str(path)
    root = _mapping(data, (), source, positions)
    if "chat" not in root:
        raise InputError(
            source, "not a product manifest", [Problem("(top level)", "expected a 'chat' mapping with builder and run")]
        )
    chats: dict[str, ChatMode] = {}
    for mode, raw in _mapping(root["chat"], ("chat",), source, positions).items():
        spec = _mapping(raw, ("chat", mode), source, positions)
        chats[str(mode)] = ChatMode(
            tools=_names(spec.get("tools"), ("chat", mode, "tools"), source, positions),
            external_tools=_names(spec.get("external_tools"), ("chat", mode, "external_tools"), source, positions),
            external_denylist=_names(
                spec.get("external_denylist"), ("chat", mode, "external_denylist"), source, positions
            ),
        )
    policy = _mapping(root.get("chat_policy"), ("chat_policy",), source, positions)
    capabilities = {
        str(k): _names(v, ("chat_policy", "modes", k), source, positions)
        for k, v in _mapping(policy.get("modes"), ("chat_policy", "modes"), source, positions).items()
    }
    origins = {
        str(k): _names(v, ("chat_policy", "origins", k), source, positions)
        for k, v in _mapping(policy.get("origins"), ("chat_policy", "origins"), source, positions).items()
    }
    manifest = ProductManifest(path.name, path, digest, chats, capabilities, origins, (), positions)
    return ProductManifest(**{**manifest.__dict__, "findings": tuple(validate_chats(manifest))})


def validate_chats(manifest: ProductManifest) -> list[Finding]:
    """``validateChatDefinitions``' refusals, each at its place (AgentWorks stops at the first; all are listed)."""
    out: list[Finding] = []

    def refuse(message: str, *path: str | int, entry: str | None = None, severity: Severity = Severity.ERROR) -> None:
        out.append(
            Finding(
                AgentWorksFinding.PRODUCT_MANIFEST,
                f"{message} (validateChatDefinitions refuses to load this manifest)"
                if severity == Severity.ERROR
                else message,
                entry=entry,
                source=manifest.where(*path),
                severity=severity,
            )
        )

    for mode in PRODUCT_MODES:
        if mode not in manifest.chats:
            refuse(f"missing AgentWorks chat {mode!r}", "chat")
    for mode in manifest.chats:
        if mode not in PRODUCT_MODES:
            refuse(f"chat {mode!r}: AgentWorks chat must declare builder and run only", "chat", mode)
    for mode, chat in manifest.chats.items():
        seen: set[str] = set()
        for index, name in enumerate(chat.tools):
            trimmed = name.strip()
            if not trimmed or trimmed in seen:
                refuse(f"chat {mode}: empty or duplicate tool {trimmed!r}", "chat", mode, "tools", index, entry=name)
            seen.add(trimmed)
        if mode == "run" and not chat.external_tools:
            refuse("chat run: external_tools are required", "chat", "run")
        if mode != "run" and chat.external_tools:
            refuse(
                f"chat {mode}: external_tools outside run: AgentWorks versions disagree (one refuses them, "
                '"external_tools belong on the run mode only"; a later one takes the Builder\'s delegated '
                "operations here); toolscope's external view reads chat.run only",
                "chat",
                mode,
                "external_tools",
                severity=Severity.WARNING,
            )
        if mode != "run" and chat.external_denylist:
            refuse(f"chat {mode}: external_denylist belongs on the run mode only", "chat", mode, "external_denylist")
        denied: set[str] = set()
        for index, name in enumerate(chat.external_denylist):
            trimmed = name.strip()
            where = ("chat", mode, "external_denylist", index)
            if not trimmed or trimmed in denied:
                refuse(f"chat {mode}: empty or duplicate external_denylist entry {trimmed!r}", *where, entry=name)
            elif trimmed not in seen:
                refuse(f"chat {mode}: external_denylist entry {trimmed!r} is not a run tool", *where, entry=name)
            denied.add(trimmed)
    for origin in manifest.origins:
        if origin not in ORIGINS:
            refuse(
                f"chat_policy.origins.{origin}: not an origin AgentWorks derives ({', '.join(ORIGINS)})",
                "chat_policy",
                "origins",
                origin,
                severity=Severity.WARNING,
            )
    return out
