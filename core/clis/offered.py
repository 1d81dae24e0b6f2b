"""What a CLI evaluation predicts the model is offered, in the shape a capture records it.

``predicted_offer(evaluation)``: model-facing name → ``full`` (schema in the request's tools),
``deferred`` (only the name: Claude's ToolSearch list, or a Codex deferred namespace) or
``either`` (Claude's ``ENABLE_TOOL_SEARCH=auto``: the count_tokens answer decides).
``observed_offer(record)``: the same from one ``toolscope.capture/1`` record (MCP tools only).
``offer_disagreements`` compares them: the capture is right (the binary decides).
"""

from __future__ import annotations

from typing import Any

from ..model.enums import StageId
from ..model.verdicts import Evaluation


def predicted_offer(evaluation: Evaluation) -> dict[str, str]:
    """Tools that pass every stage up to and including ``in_context``, with how they are offered."""
    out: dict[str, str] = {}
    for tool in evaluation.tools:
        context = tool.stage(StageId.IN_CONTEXT)
        if context is None or not all(s.passed for s in tool.stages[: tool.stages.index(context) + 1]):
            continue
        form = context.code.partition(".")[2]
        name = f"{tool.namespace}:{tool.name}" if evaluation.loaded.kind == "codex" else tool.name
        out[name] = {"auto": "either"}.get(form, form)
    return out


def predicted_callable(evaluation: Evaluation) -> set[str]:
    """Offered tools whose last stage (callable / approval) passes too."""
    offered = predicted_offer(evaluation)
    return {
        (f"{t.namespace}:{t.name}" if evaluation.loaded.kind == "codex" else t.name)
        for t in evaluation.tools
        if t.first_failing is None
        and (f"{t.namespace}:{t.name}" if evaluation.loaded.kind == "codex" else t.name) in offered
    }


def observed_offer(record: Any) -> dict[str, str]:
    """MCP tools of one capture record: in full (Claude ``mcp__…`` tools, Codex namespace members) or deferred."""
    out: dict[str, str] = {}
    for tool in record.tools:
        namespace = getattr(tool, "namespace", None)
        if namespace:
            if namespace.startswith("mcp__") or namespace == "*":
                out[f"{namespace}:{tool.name}"] = "full"
        elif tool.name.startswith("mcp__") and not tool.deferred:
            out[tool.name] = "full"
        elif tool.name.startswith("mcp__"):
            out.setdefault(tool.name, "deferred")
    for name in getattr(record, "deferred_names", None) or ():
        if name.startswith("mcp__"):
            out.setdefault(name, "deferred")
    for namespace in getattr(record, "deferred_namespaces", None) or ():
        if namespace.startswith("mcp__"):
            out.setdefault(f"{namespace}:*", "deferred")
    return out


def offer_disagreements(predicted: dict[str, str], observed: dict[str, str]) -> list[str]:
    """Sentences for every difference (empty: they agree). Codex deferral is per namespace (``ns:*``)."""
    problems = []
    deferred_namespaces = {n.partition(":")[0] for n, form in observed.items() if n.endswith(":*")}
    for name, form in sorted(predicted.items()):
        namespace = name.partition(":")[0] if ":" in name else None
        seen = observed.get(name)
        if seen is None and form == "deferred" and namespace in deferred_namespaces:
            continue
        if seen is None:
            problems.append(f"predicted {name} ({form}); the capture has no such tool")
        elif form != "either" and seen != form:
            problems.append(f"predicted {name} {form}; the capture has it {seen}")
    predicted_namespaces = {n.partition(":")[0] for n in predicted if ":" in n}
    for name, seen in sorted(observed.items()):
        if name in predicted:
            continue
        if name.endswith(":*") and name.partition(":")[0] in predicted_namespaces:
            continue
        problems.append(f"the capture has {name} ({seen}); toolscope predicted it absent")
    return problems
