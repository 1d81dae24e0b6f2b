"""What a request body tells about tools, per protocol: the tool list in order, sizes, deferral.

Pure functions over the parsed JSON body (a dict): nothing here keeps or returns message
text, only sizes, counts and names. The shapes are the SDKs' request params
(``openai.types.chat.ChatCompletionToolUnionParam``, ``openai.types.responses.ToolParam``
with ``NamespaceToolParam``, ``anthropic.types.ToolUnionParam``, Gemini's REST ``Tool`` with
``functionDeclarations``); where a client announces
deferred tools in a system message instead of sending them (Claude Code, Codex with
catalog models: ``shared/reference/coding-agent-clis.md`` §1.8, §2.7), the names are read
from that message by its exact header line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

_dumps = orjson.dumps

MAX_TOOLS = 100_000
"""The most tool entries recorded per request (a request body is at most 32 MiB anyway)."""

_CLAUDE_DEFERRED = "The following deferred tools are now available via ToolSearch"
_CODEX_DEFERRED = "Deferred tool namespaces:"
_SYSTEM_ROLES = ("system", "developer")


@dataclass(frozen=True)
class RequestFacts:
    """The tool facts of one request body (the record's request half)."""

    model: str | None
    stream: bool
    tools: list[dict[str, Any]]
    deferred_names: list[str]
    deferred_namespaces: list[str]
    tool_choice: Any
    system_bytes: int
    messages: int


def _size(value: Any) -> int:
    try:
        return len(_dumps(value))
    except (TypeError, orjson.JSONEncodeError):
        return 0


def tool_entry(name: Any, namespace: str | None, kind: Any, size: int, deferred: bool | None) -> dict[str, Any]:
    """One tool's entry in a record's ``tools`` (the slow path here and the fast ``request_decode`` alike).

    ``size`` is the tool's compact JSON size in bytes; a name or type that is not a string is "".
    """
    return {
        "name": name if isinstance(name, str) else "",
        "namespace": namespace,
        "type": kind if isinstance(kind, str) else "",
        "schema_bytes": size,
        "token_estimate": (size + 3) // 4,
        "deferred": deferred,
    }


def _chat_tools(tools: list[Any]) -> list[dict[str, Any]]:
    out = []
    for tool in tools[:MAX_TOOLS]:
        if not isinstance(tool, dict):
            continue
        kind = tool.get("type", "function")
        inner = tool.get(kind) if isinstance(kind, str) else None
        name = inner.get("name") if isinstance(inner, dict) else tool.get("name")
        out.append(tool_entry(name, None, kind, _size(tool), None))
    return out


def _responses_tools(tools: list[Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for tool in tools[:MAX_TOOLS]:
        if not isinstance(tool, dict):
            continue
        kind = tool.get("type")
        members = tool.get("tools")
        if kind == "namespace" and isinstance(members, list):
            namespace = str(tool.get("name", ""))
            for member in members[:MAX_TOOLS]:
                if isinstance(member, dict):
                    out.append(
                        tool_entry(member.get("name"), namespace, member.get("type"), _size(member), _deferred(member))
                    )
            continue
        if kind in ("function", "custom"):
            out.append(tool_entry(tool.get("name"), None, kind, _size(tool), _deferred(tool)))
        else:
            # Built-in tools (tool_search, web_search, mcp, shell…) have no name: the type names them.
            name = tool.get("name") or tool.get("server_label") or kind
            out.append(tool_entry(name, None, kind, _size(tool), _deferred(tool) if "defer_loading" in tool else None))
    return out


def _anthropic_tools(tools: list[Any]) -> list[dict[str, Any]]:
    return [
        tool_entry(tool.get("name"), None, tool.get("type", "custom"), _size(tool), tool.get("defer_loading") is True)
        for tool in tools[:MAX_TOOLS]
        if isinstance(tool, dict)
    ]


_DECLARATIONS = ("functionDeclarations", "function_declarations")
GEMINI_FIELDS = {
    "system": ("systemInstruction", "system_instruction"),
    "tool_choice": ("toolConfig", "tool_config"),
}
"""Gemini's body fields, camelCase as the SDKs send them and snake_case as the API also reads them."""


def _gemini_tools(tools: list[Any]) -> list[dict[str, Any]]:
    # One entry per function declaration (Gemini CLI sends them all in one Tool); a built-in
    # (googleSearch, codeExecution, urlContext…) is named by its key, as Responses built-ins by their type.
    out: list[dict[str, Any]] = []
    for tool in tools[:MAX_TOOLS]:
        if not isinstance(tool, dict):
            continue
        for key, value in tool.items():
            if key not in _DECLARATIONS:
                out.append(tool_entry(key, None, key, _size({key: value}), None))
            elif isinstance(value, list):
                out += [
                    tool_entry(item.get("name"), None, "function", _size(item), None)
                    for item in value[:MAX_TOOLS]
                    if isinstance(item, dict)
                ]
    return out[:MAX_TOOLS]


def gemini_field(body: dict[str, Any], field: str) -> Any:
    """A Gemini body's ``system`` or ``tool_choice`` field, whichever spelling was sent."""
    camel, snake = GEMINI_FIELDS[field]
    return body[camel] if camel in body else body.get(snake)


def gemini_text(content: Any) -> str:
    """The text of a Gemini ``Content`` (``{parts: [{text}]}``; a bare string as itself)."""
    if isinstance(content, dict):
        return _text(content.get("parts"))
    return _text(content)


def _deferred(tool: dict[str, Any]) -> bool:
    return tool.get("defer_loading") is True


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part.get("text", "") for part in content if isinstance(part, dict) and isinstance(part.get("text"), str)
        )
    return ""


def _listed(text: str, header: str, limit: int = MAX_TOOLS) -> list[str]:
    start = text.find(header)
    if start < 0:
        return []
    lines = text[start:].split("\n")[1 : limit + 1]
    names = []
    for line in lines:
        line = line.strip()
        if not line or line.startswith("<"):
            break
        # Codex: "- multi_agent_v1: Tools for …"; Claude Code: one bare name per line.
        names.append(line.removeprefix("- ").split(":", 1)[0].strip())
    return names


def request_facts(protocol: str, body: dict[str, Any]) -> RequestFacts:
    """The tool facts of a parsed request body of ``protocol``."""
    tools = body.get("tools")
    tools = tools if isinstance(tools, list) else []
    if protocol.startswith("gemini-"):
        return _gemini_facts(body, tools)
    system_text: list[str] = []
    if protocol == "openai-responses":
        entries = _responses_tools(tools)
        items = body.get("input")
        messages = items if isinstance(items, list) else ([items] if items else [])
        system_text.append(_text(body.get("instructions")))
    else:
        listed = body.get("messages")
        messages = listed if isinstance(listed, list) else []
        if protocol == "openai-chat":
            entries = _chat_tools(tools)
        else:
            entries = _anthropic_tools(tools)
            system_text.append(_text(body.get("system")))
    for message in messages:
        if isinstance(message, dict) and message.get("role") in _SYSTEM_ROLES:
            system_text.append(_text(message.get("content")))
    joined = "\n".join(t for t in system_text if t)
    model = body.get("model")
    return RequestFacts(
        model=model if isinstance(model, str) else None,
        stream=body.get("stream") is True,
        tools=entries,
        deferred_names=_listed(joined, _CLAUDE_DEFERRED) if _CLAUDE_DEFERRED in joined else [],
        deferred_namespaces=_listed(joined, _CODEX_DEFERRED) if _CODEX_DEFERRED in joined else [],
        tool_choice=body.get("tool_choice"),
        system_bytes=len(joined.encode("utf-8", "replace")),
        messages=len(messages),
    )


def _gemini_facts(body: dict[str, Any], tools: list[Any]) -> RequestFacts:
    # The model and streaming are in the path (the record job sets them), not in the body.
    contents = body.get("contents")
    system = gemini_text(gemini_field(body, "system"))
    return RequestFacts(
        model=None,
        stream=False,
        tools=_gemini_tools(tools),
        deferred_names=[],
        deferred_namespaces=[],
        tool_choice=gemini_field(body, "tool_choice"),
        system_bytes=len(system.encode("utf-8", "replace")),
        messages=len(contents) if isinstance(contents, list) else 0,
    )


def system_and_messages(protocol: str, body: dict[str, Any]) -> tuple[Any, Any]:
    """The system prompt and the messages as sent (kept only with ``--keep-messages``)."""
    if protocol == "openai-responses":
        return body.get("instructions"), body.get("input")
    if protocol == "openai-chat":
        return None, body.get("messages")
    if protocol.startswith("gemini-"):
        return gemini_field(body, "system"), body.get("contents")
    return body.get("system"), body.get("messages")
