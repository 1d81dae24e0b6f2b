"""How a coding-agent CLI offers MCP tools: toolscope's prediction and one captured request, in the same terms.

A tool is named as the model meets it: Claude Code ``mcp__<server>__<tool>``; Codex
``<namespace>:<function>`` (``mcp__time:convert_time``), and a deferred Codex namespace as
``<namespace>:*`` (the model sees only the namespace's name). Each is offered ``full`` (its
schema is in the request's tools), ``deferred`` (only its name: Claude's ToolSearch list, a
tool ToolSearch loaded with ``defer_loading``, or a Codex deferred namespace) or, predicted
only, ``either`` (Claude's ``ENABLE_TOOL_SEARCH=auto:N``: the count_tokens answer decides).

Built-in tools (Claude Code's Bash, Read, ToolSearch…; Codex's own functions and namespaces
such as ``multi_agent_v1``) are not modelled: ``observed_offer`` returns them apart.

Public API::

    predicted_offer(evaluation) -> {name: form}
    predicted_callable(evaluation) -> {name}
    tool_key(evaluation_kind, namespace, name) -> str
    observed_offer(request, codex, mcp_namespaces) -> ({name: form}, left_out)
    resolve_hashes(names, observed) -> {placeholder name: observed name}
    offer_differences(predicted, observed) -> [sentence]
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from ...capture.observed import ObservedRequest
from ...model.verdicts import Evaluation, ToolVerdict
from ..claude_code.ids import ClaudeStage
from ..codex.ids import CodexInput

__all__ = [
    "observed_offer",
    "offer_differences",
    "predicted_callable",
    "predicted_offer",
    "resolve_hashes",
    "tool_key",
]


def _is_codex(evaluation: Evaluation) -> bool:
    return evaluation.loaded.kind == CodexInput.CODEX


def tool_key(codex: bool, namespace: str | None, name: str) -> str:
    """A tool's name in the offer: ``namespace:function`` for Codex, the name itself for Claude Code."""
    return f"{namespace}:{name}" if codex else name


def _offered_form(tool: ToolVerdict) -> str | None:
    """How the tool is offered when every stage up to ``in_context`` passes, else None."""
    context = tool.stage(ClaudeStage.IN_CONTEXT)
    if context is None or not all(s.passed for s in tool.stages[: tool.stages.index(context) + 1]):
        return None
    form = context.code.partition(".")[2]
    return "either" if form == "auto" else form


def _key(tool: ToolVerdict, codex: bool) -> str:
    """The offer name; a Codex collision's carries a ``<hash RAW>`` placeholder (``resolve_hashes``)."""
    naming = tool.stage(ClaudeStage.NAMING)
    if codex and naming is not None and naming.code == "naming.collision" and naming.entry:
        return naming.entry
    return tool_key(codex, tool.namespace, tool.name)


def predicted_offer(evaluation: Evaluation) -> dict[str, str]:
    """The MCP tools toolscope says the model is offered, and how (a deferred Codex namespace as ``ns:*``)."""
    codex = _is_codex(evaluation)
    out: dict[str, str] = {}
    for tool in evaluation.tools:
        form = _offered_form(tool)
        if form is None:
            continue
        if codex and form == "deferred":
            out[_key(tool, codex).rpartition(":")[0] + ":*"] = "deferred"
        else:
            out[_key(tool, codex)] = form
    return out


def predicted_callable(evaluation: Evaluation) -> set[str]:
    """Offered tools whose last stage (callable / approval) passes too."""
    codex = _is_codex(evaluation)
    return {_key(t, codex) for t in evaluation.tools if t.first_failing is None and _offered_form(t) is not None}


_PLACEHOLDER = re.compile(r"<hash [^>]*>")


def resolve_hashes(names: Iterable[str], observed: Collection[str]) -> dict[str, str]:
    """Each name with a ``<hash …>`` placeholder → the observed name it stands for (``_<12 hex>``), each used once.

    Codex's collision suffix cannot be predicted; any 12 hex digits in its place match.
    """
    out: dict[str, str] = {}
    taken = set(names)
    for name in names:
        if "<hash " not in name:
            continue
        pattern = re.compile("[0-9a-f]{12}".join(re.escape(part) for part in _PLACEHOLDER.split(name)))
        match = next((seen for seen in observed if seen not in taken and pattern.fullmatch(seen)), None)
        if match is not None:
            out[name] = match
            taken.add(match)
    return out


def _is_mcp_namespace(namespace: str | None, mcp_namespaces: Collection[str]) -> bool:
    return bool(namespace) and (namespace.startswith("mcp__") or namespace in mcp_namespaces)  # type: ignore[union-attr]


def observed_offer(
    request: ObservedRequest, codex: bool, mcp_namespaces: Collection[str] = ()
) -> tuple[dict[str, str], tuple[str, ...]]:
    """The MCP tools one captured request offered, and how; then the built-in names left out.

    ``mcp_namespaces``: the Codex namespaces of the configured servers (with
    ``non_prefixed_mcp_tool_names`` they lack the ``mcp__`` prefix).
    """
    out: dict[str, str] = {}
    left_out: list[str] = []
    namespaces = request.namespaces or (None,) * len(request.tools)
    for name, namespace in zip(request.tools, namespaces, strict=False):
        deferred = name in request.deferred
        if codex and _is_mcp_namespace(namespace, mcp_namespaces):
            if deferred:
                out[f"{namespace}:*"] = "deferred"
            else:
                out[f"{namespace}:{name}"] = "full"
        elif not codex and name.startswith("mcp__"):
            # A tool ToolSearch loaded comes back with defer_loading: still a deferred tool.
            out[name] = "deferred" if deferred else "full"
        else:
            left_out.append(f"{namespace}:{name}" if namespace else name)
    for name in request.deferred_names:
        if not codex and name.startswith("mcp__"):
            out.setdefault(name, "deferred")
        else:
            left_out.append(name)
    for namespace in request.deferred_namespaces:
        if codex and _is_mcp_namespace(namespace, mcp_namespaces):
            out.setdefault(f"{namespace}:*", "deferred")
        else:
            left_out.append(f"{namespace}:*")
    return out, tuple(dict.fromkeys(left_out))


def offer_differences(predicted: dict[str, str], observed: dict[str, str]) -> list[str]:
    """One sentence per difference (empty: they agree). The capture is right: the binary decides."""
    problems = []
    for name, form in predicted.items():
        seen = observed.get(name)
        if seen is None:
            problems.append(f"predicted {name} ({form}); the request does not offer it")
        elif form != "either" and seen != form:
            problems.append(f"predicted {name} {form}; the request offers it {seen}")
    for name, seen in observed.items():
        if name not in predicted:
            problems.append(f"the request offers {name} ({seen}); toolscope predicted it absent")
    return problems
