"""The app's rewrite of ``enabled_custom_tools`` before filtering (``prepareCustomTools``).

Each resulting entry remembers where it came from, so a rule sentence can say
"appended by the app's profile rules" instead of pointing at a line the user never wrote.
"""

from __future__ import annotations

from dataclasses import dataclass

from .registry import Profile
from .step_config import LoadedStep


@dataclass(frozen=True, slots=True)
class EnabledEntry:
    """One effective ``enabled_custom_tools`` entry and its origin."""

    entry: str
    origin: str
    """``file: steps[0].agent_configs.enabled_custom_tools[2]`` or ``registry: profile.append``."""
    from_step: bool


def effective_enabled_entries(step: LoadedStep, profile: Profile, registry_name: str) -> tuple[EnabledEntry, ...]:
    """Apply the profile rules: defaults when empty, else drop legacy, append the always-on entries."""
    raw = step.step.agent_configs.enabled_custom_tools
    if not raw:
        return tuple(
            EnabledEntry(e, f"{registry_name}: profile.defaults (the step's list is empty)", False)
            for e in profile.defaults
        )
    entries = [
        EnabledEntry(entry, step.where("enabled_custom_tools", index), True)
        for index, entry in enumerate(raw)
        if not _is_legacy(entry, profile)
    ]
    return tuple(_append_always_on(entries, profile, registry_name))


def _append_always_on(entries: list[EnabledEntry], profile: Profile, registry_name: str) -> list[EnabledEntry]:
    """The profile's appends: one per prefix no entry has, then each fixed entry not already there."""
    present = {e.entry for e in entries}
    for prefix, entry in profile.append_unless_prefix.items():
        if not any(e.entry.startswith(prefix) for e in entries):
            entries.append(EnabledEntry(entry, f"{registry_name}: profile.append_unless_prefix.{prefix}", False))
            present.add(entry)
    for entry in profile.append:
        if entry not in present:
            entries.append(EnabledEntry(entry, f"{registry_name}: profile.append", False))
            present.add(entry)
    return entries


def _is_legacy(entry: str, profile: Profile) -> bool:
    return any(entry.startswith(prefix) for prefix in profile.drop_prefixes)


def dropped_entries(step: LoadedStep, profile: Profile) -> tuple[tuple[int, str], ...]:
    """(index, entry) of step entries the profile drops as legacy."""
    return tuple(
        (index, entry)
        for index, entry in enumerate(step.step.agent_configs.enabled_custom_tools)
        if _is_legacy(entry, profile)
    )
