"""product.yaml as the mode table: modes builder and run, exact names, the external view and chat_policy.

``ChatAllowsTool(mode, name)`` admits a tool when its trimmed name is one of
``chat.<mode>.tools`` exactly; there are no aliases and no other modes (``ChatTools``
panics on one). With ``origin`` ``external`` (a token-backed caller of the external
CLI/MCP API) the run surface loses ``chat.run.external_denylist``. MCP server tools are
registered for a chat only when its capabilities (``chat_policy.modes`` narrowed by
``chat_policy.origins``) include ``mcp_management``.
"""

from __future__ import annotations

from ...model.errors import InputError, Problem
from .mode_table import ModeTable
from .product_manifest import EXTERNAL, MCP_CAPABILITY, ORIGINS, PRODUCT_MODES, ChatMode, ProductManifest


def check_origin(manifest: ProductManifest, origin: str | None) -> None:
    """``--origin`` must be an origin AgentWorks derives, or ``external``."""
    if origin is None:
        return
    known = (*ORIGINS, EXTERNAL)
    if origin not in known:
        raise InputError("--origin", f"unknown origin {origin!r}", [Problem("", f"origins: {', '.join(known)}")])


def product_mode_table(manifest: ProductManifest, origin: str | None) -> ModeTable:
    """The admission lists of ``manifest`` as a ModeTable (for ``origin``, when given)."""
    check_origin(manifest, origin)
    name = manifest.name
    allowed: dict[str, dict[str, str]] = {}
    withheld: dict[str, dict[str, str]] = {}
    not_listed: dict[str, str] = {}
    mcp: dict[str, str] = {}
    mcp_withheld: dict[str, str] = {}
    modes = tuple(m for m in PRODUCT_MODES if m in manifest.chats)
    for mode in modes:
        chat = manifest.chats[mode]
        label = f"{name}: chat.{mode}.tools"
        table = dict.fromkeys((t.strip() for t in chat.tools), label)
        if origin == EXTERNAL and mode == "run":
            withheld[mode] = _withhold_denied(table, chat, name, label)
        allowed[mode] = table
        not_listed[mode] = f"not in {label} (ChatAllowsTool: the exact name after trimming; no aliases)"
        held, sentence = _mcp_in_chat(manifest, mode, origin)
        (mcp_withheld if held else mcp)[mode] = sentence
    return ModeTable(
        modes=modes,
        aliases={},
        default=None,
        fallback=None,
        applies_to_mcp=False,
        system=frozenset(),
        allowed=allowed,
        exact=True,
        withheld=withheld,
        not_listed=not_listed,
        mcp_sentence=mcp,
        mcp_withheld=mcp_withheld,
        product=name,
        gates_virtual=False,
        unknown_note=(
            f"{name} declares the chats {' and '.join(modes)} only; AgentWorks panics on any other "
            '(ChatTools: unknown AgentWorks chat mode "{mode}")'
        ),
    )


def _withhold_denied(table: dict[str, str], chat: ChatMode, name: str, label: str) -> dict[str, str]:
    """Take the external denylist's tools out of the run list; returns them with why."""
    held = {}
    for entry in chat.external_denylist:
        tool = entry.strip()
        if table.pop(tool, None) is not None:
            held[tool] = (
                f"withheld from external callers and token-backed Run sessions "
                f"({name}: chat.run.external_denylist), although in {label}"
            )
    return held


def _mcp_in_chat(manifest: ProductManifest, mode: str, origin: str | None) -> tuple[bool, str]:
    """Whether the chat withholds MCP server tools (registerMCPToolsForChat needs the capability), and the sentence."""
    name = manifest.name
    caps = manifest.capabilities_for(mode, origin)
    if caps is None:
        return False, f"MCP server tools are not in {name}'s admission lists, and {name} has no chat_policy for {mode}"
    if MCP_CAPABILITY in caps[0]:
        return False, (
            f"MCP server tools are registered for this chat: {MCP_CAPABILITY} is in {caps[1]} (registerMCPToolsForChat)"
        )
    return True, (
        f"MCP server tools are registered for a chat only with {MCP_CAPABILITY}, which {caps[1]} lacks "
        "(registerMCPToolsForChat)"
    )
