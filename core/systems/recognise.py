"""What CONFIG is, told by asking each system of the registry, without importing anything heavy.

In order:

1. a system's ``prefix`` (``codex:DIR``); a near miss (``claude:DIR``) is exit 2 with a
   did-you-mean naming the real prefix;
2. a system's ``sniff_target`` (``package.module:function``: a toolkit factory);
3. a plain folder: the systems whose ``markers`` are in it (``.codex/`` → Codex); the only one
   found is used, several or none are exit 2 naming the prefixes to choose from;
4. a file: each system's ``sniff_document`` on its top-level object, then its ``misfit`` (a
   file that is none of them but that a system can name: a registry given as CONFIG), then the
   files of another kind toolscope reads elsewhere (``wrong_kind``: an ``mcpServers`` config, a
   capture, a ``reset_tools`` script), each named with the command that takes it.

Public API::

    recognise(target) -> Recognised (.system, .kind, .path)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..inputs.documents import load_document
from ..model.errors import InputError, Problem
from ..text.suggest import close_matches
from .contract import System
from .registry import by_prefix, seen_in, systems

__all__ = ["Recognised", "recognise"]


@dataclass(frozen=True)
class Recognised:
    """CONFIG as one system's input."""

    system: System
    kind: str
    path: Path
    """The file or folder it names (a prefix removed)."""


def recognise(target: str) -> Recognised:
    """The system and input kind of CONFIG (InputError, exit 2, when no system takes it)."""
    found = by_prefix(target)
    if found is not None:
        return Recognised(found[0], found[0].input_kinds[0], found[1])
    path = Path(target)
    _refuse_near_miss(target)
    for system in systems():
        kind = system.sniff_target(target, path) if system.sniff_target is not None else None
        if kind is not None:
            return Recognised(system, kind, path)
    if path.is_dir():
        return _by_markers(target, path)
    return _by_document(target, path)


def _refuse_near_miss(target: str) -> None:
    """``claude:DIR`` → did you mean ``claude-code:DIR``? (only when the rest is a folder or empty,
    so ``package.module:function`` stays a factory)."""
    head, sep, rest = target.partition(":")
    if not sep or not head or (rest and not Path(rest).is_dir()):
        return
    names = {s.prefix.removesuffix(":"): s for s in systems() if s.prefix}
    close = close_matches(head.lower(), names, n=1, cutoff=0.6)
    if not close:
        return
    raise InputError(
        target,
        f"{head}: is not a prefix toolscope knows",
        [Problem("", f"did you mean {close[0]}:{rest}? ({names[close[0]].title})"), _prefix_list()],
    )


def _prefix_list() -> Problem:
    known = [f"{s.prefix}DIR ({s.title})" for s in systems() if s.prefix]
    return Problem("", "prefixes: " + ", ".join(known))


def _by_markers(target: str, folder: Path) -> Recognised:
    """A plain folder: the only system whose files are in it."""
    found = seen_in(folder)
    if len(found) == 1:
        system = found[0][0]
        return Recognised(system, system.input_kinds[0], folder)
    if found:
        seen = "; ".join(f"{s.title} ({', '.join(m)})" for s, m in found)
        problems = [Problem("", f"found the files of {seen}")]
        problems += [Problem("", f"choose one: {s.prefix}{target}") for s, _ in found]
        raise InputError(target, "is a folder with the files of several agents", problems)
    raise InputError(
        target,
        "is a folder, and toolscope sees no agent's files in it",
        [Problem("", "looked for: " + _markers_wanted()), _prefix_list()],
    )


def _markers_wanted() -> str:
    return "; ".join(f"{', '.join(s.markers)} ({s.title})" for s in systems() if s.prefix and s.markers)


def _parsed(target: str, path: Path) -> Any:
    """The file's one document; a file that is not one (a capture's JSON lines) named for what it is."""
    try:
        return load_document(path, "config file").data
    except InputError:
        from .wrong_kind import unparsed_misfit  # only on a bad file: --help never loads it

        misfit = unparsed_misfit(target, path) if path.is_file() else None
        if misfit is not None:
            raise misfit from None
        raise


def _by_document(target: str, path: Path) -> Recognised:
    data = _parsed(target, path)
    if isinstance(data, dict):
        for system in systems():
            kind = system.sniff_document(data) if system.sniff_document is not None else None
            if kind is not None:
                return Recognised(system, kind, path)
        for system in systems():
            error = system.misfit(target, path, data) if system.misfit is not None else None
            if error is not None:
                raise error
    from .wrong_kind import document_misfit

    misfit = document_misfit(target, path, data)
    if misfit is not None:
        raise misfit
    hints = [s.document_hint for s in systems() if s.document_hint]
    raise InputError(target, "not a config toolscope knows", [Problem("", "expected " + ", ".join(hints))])
