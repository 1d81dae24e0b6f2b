"""What a ``reset_tools`` call carried that the guard never sees as written.

* ``_agent_state``: AgentScope injects the live AgentState under this keyword
  (``is_state_injected``) and overwrites whatever the call carried, so the model cannot
  set it and the guard plans without it.
* Coercion: ``call_tool`` of some versions (2.0.11) repairs arguments against the tool
  schema, so ``"yes"``, ``"1"``, ``1``… reach the guard as ``true``. Whether the installed
  version did is read from the guarded lane's own plan, not assumed: a known group whose
  value was not a boolean in the call but is not reported ``non_bool`` by the guard was
  coerced on the way in.
"""

from __future__ import annotations

import json
from typing import Any

STATE_KWARG = "_agent_state"
"""The keyword AgentScope 2.x injects the live AgentState under (``is_state_injected``); here,
not in ``guard`` (which imports AgentScope 2.x), so that 1.x sessions can use these notes."""


def call_args(args: dict[str, Any] | None, raw: str) -> dict[str, Any] | None:
    """The call's arguments as an object: ``args`` when given, else the raw text if it parses as one."""
    if args is not None:
        return args
    try:
        parsed = json.loads(raw)
    except (ValueError, TypeError):
        return None
    return parsed if isinstance(parsed, dict) else None


def call_notes(
    args: dict[str, Any] | None, plan: Any, version: str, received: dict[str, Any] | None = None
) -> list[str]:
    """Warnings and notes for one call, given the guarded lane's plan (None: nothing to compare)
    and, when they differ from the call, the arguments the guard received (``received``)."""
    notes = [_repaired_note(args, received, version)] if received is not None else []
    if not args:
        return notes
    if STATE_KWARG in args:
        notes.append(
            f"warning: the call carries '{STATE_KWARG}', which AgentScope overwrites with the live AgentState "
            "before the guard (or the stock tool) sees it: the model cannot set it, and its value here is ignored"
        )
    coerced = _coerced(args, plan) if plan is not None else []
    if coerced:
        shown = ", ".join(f"'{name}': {json.dumps(value, default=str)[:40]}" for name, value in coerced[:5])
        more = f" and {len(coerced) - 5} more" if len(coerced) > 5 else ""
        notes.append(
            f"note: agentscope {version}'s call_tool coerced {shown}{more} to a boolean before the guard saw it, "
            "so the guard checked true/false, not what the model wrote"
        )
    return notes


def _repaired_note(args: dict[str, Any] | None, received: dict[str, Any], version: str) -> str:
    """The call as written and as call_tool repaired it, naming the keys it filled in."""
    filled = [k for k in received if args is not None and k not in args]
    extra = f"; filled in {', '.join(repr(k) for k in filled[:5])}, which the model never wrote" if filled else ""
    return (
        f"note: as written: {_short_json(args) if args is not None else '(not a JSON object)'}; "
        f"as repaired by agentscope {version}'s call_tool: {_short_json(received)}{extra}"
    )


def _coerced(args: dict[str, Any], plan: Any) -> list[tuple[str, Any]]:
    """Known groups whose value was no boolean in the call, yet the guard did not report it: coerced on the way in."""
    known = set(plan.known)
    return [
        (name, value)
        for name, value in args.items()
        if name in known and not isinstance(value, bool) and name not in plan.non_bool and name not in plan.unknown
    ]


def _short_json(value: Any) -> str:
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= 200 else text[:199] + "…"
