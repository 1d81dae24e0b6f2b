"""The activation planner: what a ``reset_tools`` call would do, decided before it runs.

Pure: no AgentScope import, no I/O. ``GroupActivationGuard`` (``guard.py``) calls it
before delegating to the meta tool; the step-through session shows its plans.

``reset_tools`` sets the *final* state of every group: the groups named ``true`` become
the active set, in the order given, and every other group is deactivated (AgentScope
#959/#962). The plan follows that contract. It refuses a call when any argument names a
group nobody registered (``unknown``) or carries a value that is not a JSON boolean
(``non_bool``); both kinds are reported at once so a model can fix everything in one
retry. A refusal names the argument, never its value: a model can put anything in that
slot, and copying it back into the transcript is a habit worth not acquiring.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...text.suggest import close_matches

BASIC = "basic"


@dataclass(frozen=True, slots=True)
class ActivationPlan:
    """The outcome of one ``reset_tools`` call, computed before anything changes.

    ``after`` equals ``before`` when the call is refused (nothing moves), so
    ``activated``/``deactivated`` are empty and ``kept`` is ``before``.
    """

    accepted: bool
    requested: tuple[str, ...]
    """The argument names, in the order given (values are deliberately not kept)."""
    unknown: tuple[str, ...]
    """Names no registered group answers to (``basic`` included: it cannot be toggled)."""
    non_bool: tuple[str, ...]
    """Known groups whose value is not a boolean."""
    known: tuple[str, ...]
    """The registered non-basic groups, in registration order."""
    before: tuple[str, ...]
    after: tuple[str, ...]
    activated: tuple[str, ...]
    deactivated: tuple[str, ...]
    kept: tuple[str, ...]
    meta_tool: str = "reset_tools"
    """The meta tool's name in the summary (AgentScope 1.x: ``reset_equipped_tools``)."""

    def suggestions(self, name: str) -> tuple[str, ...]:
        """Close known group names for an unknown one (did you mean)."""
        return close_matches(name, self.known, n=2)

    def summary(self) -> str:
        """One paragraph for the model and the user: the refusal reasons or the diff.

        Bounded whatever the call carried: a few names are quoted (each cut to a readable
        length) and the rest counted; the full lists stay in the plan (``to_json``).
        """
        if not self.accepted:
            return self._refusal()
        return f"{self.meta_tool} accepted. " + diff_text(self.activated, self.deactivated, self.kept)

    def _refusal(self) -> str:
        """Why the call was refused, the registered groups and the ones still active."""
        parts = [f"{self.meta_tool} refused; nothing was changed."]
        if self.unknown:
            named = [self._unknown_name(name) for name in self.unknown[:SHOWN_NAMES]]
            parts.append("Unknown group name(s): " + ", ".join(named) + _more(self.unknown) + ".")
        if self.non_bool:
            parts.append(
                "Not a boolean: "
                + ", ".join(f"'{_cut(n)}'" for n in self.non_bool[:SHOWN_NAMES])
                + _more(self.non_bool)
                + " (each value must be true or false)."
            )
        known = ", ".join(_cut(n) for n in self.known[:SHOWN_KNOWN]) + _more(self.known, SHOWN_KNOWN)
        parts.append(f"The registered groups are: {known if self.known else '(none)'}.")
        active = ", ".join(_cut(n) for n in self.before[:SHOWN_KNOWN]) + _more(self.before, SHOWN_KNOWN)
        parts.append(f"Still active: {active if self.before else '(none)'}.")
        return " ".join(parts)

    def _unknown_name(self, name: str) -> str:
        """An unknown name quoted (cut), with a did-you-mean; ``basic`` says why it cannot be named."""
        if name == BASIC:
            return f"'{name}' (always active, it cannot be toggled)"
        close = self.suggestions(name)
        hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
        return f"'{_cut(name)}'{hint}"

    def to_json(self) -> dict[str, Any]:
        """JSON form (``plan`` of a guarded turn in ``step --json``)."""
        return {
            "accepted": self.accepted,
            "requested": list(self.requested),
            "unknown": list(self.unknown),
            "non_bool": list(self.non_bool),
            "known": list(self.known),
            "before": list(self.before),
            "after": list(self.after),
            "activated": list(self.activated),
            "deactivated": list(self.deactivated),
            "kept": list(self.kept),
            "summary": self.summary(),
        }


SHOWN_NAMES = 5
"""Offending names quoted in a refusal; the rest are counted."""
SHOWN_KNOWN = 20
"""Registered (and active) group names listed in a refusal; the rest are counted."""
NAME_CHARS = 60
"""Longest name quoted whole in a refusal."""


def _cut(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def _more(items: Sequence[str], shown: int = SHOWN_NAMES) -> str:
    extra = len(items) - shown
    return f" and {extra:,} more (the full list is in the plan)" if extra > 0 else ""


def diff_text(activated: Iterable[str], deactivated: Iterable[str], kept: Iterable[str]) -> str:
    """``Activated: a. Deactivated: b. Kept: c.`` with ``(none)`` for empty parts."""

    def names(items: Iterable[str]) -> str:
        items = list(items)
        return ", ".join(items) if items else "(none)"

    return f"Activated: {names(activated)}. Deactivated: {names(deactivated)}. Kept: {names(kept)}."


def diff_groups(
    before: Iterable[str], after: Iterable[str]
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(activated, deactivated, kept) between two active sets, order preserved."""
    before_t, after_t = tuple(before), tuple(after)
    activated = tuple(g for g in after_t if g not in before_t)
    deactivated = tuple(g for g in before_t if g not in after_t)
    kept = tuple(g for g in before_t if g in after_t)
    return activated, deactivated, kept


def plan_activation(
    requested: Mapping[str, Any],
    known_groups: Iterable[str],
    before: Iterable[str],
    meta_tool: str = "reset_tools",
) -> ActivationPlan:
    """Plan one ``reset_tools`` call.

    ``requested``: the model's arguments (the injected ``_agent_state`` already removed);
    ``known_groups``: the registered groups (``basic`` is ignored if present);
    ``before``: the active groups now. ``True`` is a boolean; ``1`` and ``"yes"`` are not.
    ``meta_tool``: the name the summary uses (1.x: ``reset_equipped_tools``).
    """
    known = tuple(dict.fromkeys(g for g in known_groups if g != BASIC))
    before_t = tuple(before)
    names = tuple(requested)
    unknown, non_bool = _refused_names(requested, known)
    if unknown or non_bool:
        return ActivationPlan(
            accepted=False,
            requested=names,
            unknown=unknown,
            non_bool=non_bool,
            known=known,
            before=before_t,
            after=before_t,
            activated=(),
            deactivated=(),
            kept=before_t,
            meta_tool=meta_tool,
        )
    after = tuple(dict.fromkeys(n for n in names if requested[n] is True))
    activated, deactivated, kept = diff_groups(before_t, after)
    return ActivationPlan(
        accepted=True,
        requested=names,
        unknown=(),
        non_bool=(),
        known=known,
        before=before_t,
        after=after,
        activated=activated,
        deactivated=deactivated,
        kept=kept,
        meta_tool=meta_tool,
    )


def _refused_names(requested: Mapping[str, Any], known: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(unknown, non_bool): names no group answers to, and known groups whose value is no boolean."""
    unknown = tuple(n for n in requested if n not in known)
    # bool is checked by type: 1 == True in Python but is not a JSON boolean.
    non_bool = tuple(n for n in requested if n in known and not isinstance(requested[n], bool))
    return unknown, non_bool
