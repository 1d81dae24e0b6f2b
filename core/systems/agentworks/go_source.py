"""Literal facts read from an AgentWorks Go checkout with tree-sitter (never built, never run).

Each fact is found by the name of the function or variable that holds it (reference
``agentworks-today.md`` §6: files moved 3-4 times, names stayed), and only what is written
as a literal is read: string slices, map keys, ``case`` labels, format strings. What is
not found is said, with the name that was looked for; nothing is guessed. Reading the syntax
trees is ``go_syntax``'s; this module knows which fact lives where.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from .go_syntax import (
    SKIPPED_DIRS,
    GoSource,
    apply_appends,
    block_statements,
    go_string,
    local_lists,
    returned_strings,
    strings_of,
    walk,
)

HUMAN_CALL = "HumanToolNamesForWorkshopMode"


@dataclass(frozen=True)
class GoList:
    """One list read from the source: its names and where they were found."""

    names: tuple[str, ...]
    where: str
    """``file.go: FunctionOrVariable`` (the file relative to the checkout)."""


@dataclass
class GoFacts:
    """What a checkout says, by fact; ``missing`` says what could not be found and where it was looked for."""

    mode_lists: dict[str, GoList] = field(default_factory=dict)
    """``GetToolsForWorkshopMode``: case label (``""`` for the default branch) → the names it returns
    (tools added by a call, such as the human tools, are left out and named in ``mode_calls``)."""
    mode_calls: tuple[str, ...] = ()
    mode_labels: GoList | None = None
    """``canonicalWorkshopMode``'s ``case`` labels."""
    human_tools: GoList | None = None
    system_categories: GoList | None = None
    providers: GoList | None = None
    bridge_tools: GoList | None = None
    denial_formats: GoList | None = None
    """Format strings of the execution denial (``toolNotAllowedError``, or era A's ``CallCustomToolWithSession``)."""
    product: Path | None = None
    """``agentworksproduct/product.yaml`` when the checkout has one."""
    missing: list[str] = field(default_factory=list)
    truncated: bool = False
    unread: list[str] = field(default_factory=list)
    """``file.go: why`` for each Go file (or folder) not read (over the size cap, a pipe, …): a fact
    missing from the files read may be in one of these, so its absence is not concluded."""


def _read_mode_lists(source: GoSource, facts: GoFacts) -> None:
    found = source.function("GetToolsForWorkshopMode")
    if found is None:
        facts.missing.append("mode lists: no func GetToolsForWorkshopMode")
        return
    path, function = found
    body = function.child_by_field_name("body")
    lists = local_lists(body)
    calls: set[str] = set()
    switch = next(walk(body, "expression_switch_statement"), None)
    if switch is None:
        facts.missing.append(f"mode lists: no switch in {source.where(path, 'GetToolsForWorkshopMode')}")
        return
    before = [s for s in block_statements(body) if s.start_byte < switch.start_byte]
    apply_appends(before, lists, calls)
    result = list(lists.get("tools", []))
    where = source.where(path, "GetToolsForWorkshopMode")
    for clause in switch.named_children:
        if clause.type not in {"expression_case", "default_case"}:
            continue
        branch = {**{k: list(v) for k, v in lists.items()}, "tools": list(result)}
        apply_appends(block_statements(clause), branch, calls)
        names = tuple(dict.fromkeys(branch["tools"]))
        if clause.type == "default_case":
            facts.mode_lists[""] = GoList(names, where)
            continue
        labels = clause.child_by_field_name("value")
        for label in labels.named_children if labels is not None else ():
            value = go_string(label)
            if value is not None:
                facts.mode_lists[value] = GoList(names, where)
    facts.mode_calls = tuple(sorted(calls))


def _read_mode_labels(source: GoSource, facts: GoFacts) -> None:
    found = source.function("canonicalWorkshopMode")
    if found is None:
        facts.missing.append("mode canonicalisation: no func canonicalWorkshopMode")
        return
    path, function = found
    labels: list[str] = []
    for clause in walk(function, "expression_case"):
        values = clause.child_by_field_name("value")
        labels += [v for v in (go_string(n) for n in (values.named_children if values else ())) if v is not None]
    facts.mode_labels = GoList(tuple(dict.fromkeys(labels)), source.where(path, "canonicalWorkshopMode"))


def _read_human_tools(source: GoSource, facts: GoFacts) -> None:
    found = source.function("WorkshopHumanToolNames")
    names = returned_strings(found[1]) if found else None
    if found is None or names is None:
        facts.missing.append("human tools: no func WorkshopHumanToolNames returning a []string literal")
        return
    facts.human_tools = GoList(tuple(names), source.where(found[0], "WorkshopHumanToolNames"))


def _read_system_categories(source: GoSource, facts: GoFacts) -> None:
    found = source.function("NewToolFilter")
    if found is not None:
        lists = local_lists(found[1].child_by_field_name("body"))
        if "systemCats" in lists:
            facts.system_categories = GoList(tuple(lists["systemCats"]), source.where(found[0], "NewToolFilter"))
            return
    facts.missing.append("system categories: no systemCats := []string{…} in func NewToolFilter")


def _read_providers(source: GoSource, facts: GoFacts) -> None:
    found = source.variable("cliProviders")
    if found is not None and found[1].type == "composite_literal":
        body = found[1].child_by_field_name("body")
        keys = []
        for element in body.named_children if body is not None else ():
            if element.type == "keyed_element" and element.named_children:
                key = element.named_children[0]
                key = key.named_children[0] if key.type == "literal_element" and key.named_children else key
                value = go_string(key)
                if value is not None:
                    keys.append(value)
        facts.providers = GoList(tuple(keys), source.where(found[0], "cliProviders"))
        return
    facts.missing.append("code-execution providers: no var cliProviders = map[string]…{…}")


def _read_bridge_tools(source: GoSource, facts: GoFacts) -> None:
    found = source.variable("bridgeTools")
    if found is not None and found[1].type == "composite_literal":
        body = found[1].child_by_field_name("body")
        names = []
        for element in body.named_children if body is not None else ():
            inner = element.named_children[0] if element.type == "literal_element" and element.named_children else None
            if inner is not None and inner.type == "literal_value":
                first = strings_of(inner)
                if first:
                    names.append(first[0])
        facts.bridge_tools = GoList(tuple(names), source.where(found[0], "bridgeTools"))
        return
    facts.missing.append("bridge tools: no var bridgeTools = []struct{…}{…}")


def _read_denials(source: GoSource, facts: GoFacts) -> None:
    for name in ("toolNotAllowedError", "CallCustomToolWithSession"):
        found = source.function(name)
        if found is None:
            continue
        formats = []
        for literal in (*walk(found[1], "interpreted_string_literal"), *walk(found[1], "raw_string_literal")):
            value = go_string(literal)
            if value and ("%q" in value or "tool_not" in value) and "not" in value:
                formats.append(value)
        if formats:
            facts.denial_formats = GoList(tuple(formats), source.where(found[0], name))
            return
    facts.missing.append("denial texts: no format strings in func toolNotAllowedError or CallCustomToolWithSession")


def _find_product(root: Path, facts: GoFacts) -> None:
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        if Path(folder).name == "agentworksproduct" and "product.yaml" in files:
            facts.product = Path(folder) / "product.yaml"
            return
    facts.missing.append("product manifest: no agentworksproduct/product.yaml")


def read_go_facts(root: Path) -> GoFacts:
    """Every §6 fact the checkout at ``root`` has, and what it lacks."""
    source = GoSource(root)
    facts = GoFacts(truncated=source.truncated, unread=[_unread_line(root, p, why) for p, why in source.unread])
    for read in (
        _read_mode_lists,
        _read_mode_labels,
        _read_human_tools,
        _read_system_categories,
        _read_providers,
        _read_bridge_tools,
        _read_denials,
    ):
        read(source, facts)
    _find_product(root, facts)
    return facts


_FACT_FIELDS = (
    "mode_lists",
    "mode_calls",
    "mode_labels",
    "human_tools",
    "system_categories",
    "providers",
    "bridge_tools",
    "denial_formats",
    "product",
)


def _unread_line(root: Path, path: Path, why: str) -> str:
    try:
        shown = path.relative_to(root).as_posix()
    except ValueError:
        shown = str(path)
    return f"{shown}: {why.removeprefix('not read: ')}"


MAX_UNREAD_SHOWN = 20
"""Unread files named one by one in the report; the rest are counted."""


def unread_lines(facts: GoFacts) -> list[str]:
    """The report's lines for the files not read, and why each missing fact is not concluded absent."""
    if not facts.unread:
        return []
    count = len(facts.unread)
    lines = [f"not read: {line}" for line in facts.unread[:MAX_UNREAD_SHOWN]]
    if count > MAX_UNREAD_SHOWN:
        lines.append(f"not read: {count - MAX_UNREAD_SHOWN:,} more Go files")
    return lines


def read_all_go_facts(roots: list[Path]) -> GoFacts:
    """The facts of several checkouts (the app and mcpagent live apart): the first checkout that has a
    fact gives it; a fact is missing only when no checkout has it."""
    merged = GoFacts()
    missing: dict[str, str] = {}
    for root in roots:
        _check_root(root)
        facts = read_go_facts(root)
        for name in _FACT_FIELDS:
            if not getattr(merged, name) and getattr(facts, name):
                setattr(merged, name, getattr(facts, name))
        merged.truncated = merged.truncated or facts.truncated
        merged.unread += facts.unread
        for line in facts.missing:
            missing.setdefault(line.partition(":")[0], line)
    found = _found_facts(merged)
    merged.missing = [_not_concluded(line, len(merged.unread)) for key, line in missing.items() if not found.get(key)]
    return merged


def _check_root(root: Path) -> None:
    """InputError unless ``root`` is a folder (a path too long or a link loop included)."""
    import stat

    from ...inputs.input_files import checked_path
    from ...model.errors import InputError, Problem

    info = checked_path(root, "Go checkout's folder")
    if info is None or not stat.S_ISDIR(info.st_mode):
        raise InputError(str(root), "not a folder", [Problem("--go-src", "expected a Go checkout's folder")])


def _not_concluded(line: str, unread: int) -> str:
    """A missing fact's line, saying it may be in a Go file that was not read (when one was not)."""
    if not unread or line.startswith("product manifest:"):  # found by folder name, not in a Go file
        return line
    files = f"{unread:,} Go file{'' if unread == 1 else 's'}"
    return f"{line} in the files read; not concluded absent: {files} could not be read (listed below), and it may be in one of them"


def _found_facts(facts: GoFacts) -> dict[str, bool]:
    """Each fact by the name its ``missing`` line starts with: whether some checkout had it."""
    return {
        "mode lists": bool(facts.mode_lists),
        "mode canonicalisation": facts.mode_labels is not None,
        "human tools": facts.human_tools is not None,
        "system categories": facts.system_categories is not None,
        "code-execution providers": facts.providers is not None,
        "bridge tools": facts.bridge_tools is not None,
        "denial texts": facts.denial_formats is not None,
        "product manifest": facts.product is not None,
    }
