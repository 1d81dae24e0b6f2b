"""Literal facts read from an AgentWorks Go checkout with tree-sitter (never built, never run).

Each fact is found by the name of the function or variable that holds it (reference
``agentworks-today.md`` §6: files moved 3-4 times, names stayed), and only what is written
as a literal is read: string slices, map keys, ``case`` labels, format strings. What is
not found is said, with the name that was looked for; nothing is guessed.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAX_GO_FILES = 50_000
"""Go files looked at in one checkout (a bigger tree is reported, not walked to the end)."""
MAX_GO_FILE_BYTES = 4_000_000
SKIPPED_DIRS = frozenset({".git", "vendor", "node_modules", "testdata"})

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


def _parser() -> Any:
    import tree_sitter_go
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_go.language()))


def _go_files(root: Path) -> Iterator[Path]:
    count = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".go") and not name.endswith("_test.go"):
                count += 1
                if count > MAX_GO_FILES:
                    return
                yield Path(folder) / name


def _walk(node: Any, kind: str) -> Iterator[Any]:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == kind:
            yield current
        stack.extend(reversed(current.children))


def _text(node: Any) -> str:
    return node.text.decode("utf-8", "replace")


def go_string(node: Any) -> str | None:
    """The value of a Go string literal node, or None for anything else."""
    if node.type == "raw_string_literal":
        return _text(node)[1:-1]
    if node.type == "interpreted_string_literal":
        try:
            value = ast.literal_eval(_text(node))
        except (ValueError, SyntaxError):
            return None
        return value if isinstance(value, str) else None
    return None


def _strings_of(node: Any) -> list[str]:
    """The string elements of a composite literal body, in order (comments skipped)."""
    out = []
    for element in node.named_children:
        if element.type == "literal_element" and element.named_children:
            value = go_string(element.named_children[0])
            if value is not None:
                out.append(value)
    return out


class _Source:
    """The checkout's Go files, parsed lazily: only files that contain a name asked for."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.parser = _parser()
        self.files: list[tuple[Path, bytes]] = []
        self.truncated = False
        for path in _go_files(root):
            try:
                if path.stat().st_size > MAX_GO_FILE_BYTES:
                    continue
                self.files.append((path, path.read_bytes()))
            except OSError:
                continue
        self.truncated = len(self.files) >= MAX_GO_FILES
        self._trees: dict[Path, Any] = {}

    def _tree(self, path: Path, data: bytes) -> Any:
        tree = self._trees.get(path)
        if tree is None:
            tree = self._trees[path] = self.parser.parse(data)
        return tree

    def where(self, path: Path, name: str) -> str:
        return f"{path.relative_to(self.root).as_posix()}: {name}"

    def function(self, name: str) -> tuple[Path, Any] | None:
        """The first ``func name(...)`` (a plain function, not a method) in the checkout."""
        needle = f"func {name}(".encode()
        for path, data in self.files:
            if needle not in data:
                continue
            for node in _walk(self._tree(path, data).root_node, "function_declaration"):
                ident = node.child_by_field_name("name")
                if ident is not None and _text(ident) == name:
                    return path, node
        return None

    def variable(self, name: str) -> tuple[Path, Any] | None:
        """The value of the first package-level ``var name = …`` in the checkout."""
        needle = f"var {name}".encode()
        for path, data in self.files:
            if needle not in data:
                continue
            for spec in _walk(self._tree(path, data).root_node, "var_spec"):
                names = [_text(n) for n in spec.children_by_field_name("name")]
                value = spec.child_by_field_name("value")
                if name in names and value is not None and value.named_children:
                    return path, value.named_children[0]
        return None


def _local_lists(body: Any) -> dict[str, list[str]]:
    """``name := []string{…}`` locals of a function body, by name."""
    lists: dict[str, list[str]] = {}
    for decl in _walk(body, "short_var_declaration"):
        left = decl.child_by_field_name("left")
        right = decl.child_by_field_name("right")
        if left is None or right is None or len(left.named_children) != 1 or len(right.named_children) != 1:
            continue
        value = right.named_children[0]
        if value.type == "composite_literal" and value.child_by_field_name("body") is not None:
            lists[_text(left.named_children[0])] = _strings_of(value.child_by_field_name("body"))
    return lists


def _appends(statement: Any) -> tuple[str, list[Any]] | None:
    """``x = append(x, a, b...)``: (x, argument nodes after the first)."""
    if statement.type != "assignment_statement":
        return None
    left = statement.child_by_field_name("left")
    right = statement.child_by_field_name("right")
    if left is None or right is None or len(right.named_children) != 1:
        return None
    call = right.named_children[0]
    function = call.child_by_field_name("function") if call.type == "call_expression" else None
    if function is None or _text(function) != "append":
        return None
    args = call.child_by_field_name("arguments")
    items = [a for a in args.named_children if a.type != "comment"] if args is not None else []
    return _text(left), items[1:]


def _apply_appends(statements: list[Any], lists: dict[str, list[str]], calls: set[str]) -> None:
    """Follow ``x = append(x, …)`` statements in order, expanding ``group...`` from ``lists``."""
    for statement in statements:
        found = _appends(statement)
        if found is None:
            continue
        target, items = found
        out = lists.setdefault(target, [])
        for item in items:
            node = item.named_children[0] if item.type == "variadic_argument" and item.named_children else item
            literal = go_string(node)
            if literal is not None:
                out.append(literal)
            elif node.type == "identifier" and _text(node) in lists:
                out.extend(lists[_text(node)])
            elif node.type == "call_expression":
                function = node.child_by_field_name("function")
                calls.add(_text(function).rpartition(".")[2] if function is not None else "?")


def _statements(block: Any) -> list[Any]:
    """The statements of a block or case clause (tree-sitter-go nests them in a statement_list)."""
    out: list[Any] = []
    for child in block.named_children:
        if child.type == "statement_list":
            out.extend(c for c in child.named_children if c.type != "comment")
        elif child.type not in {"comment", "expression_list"}:
            out.append(child)
    return out


def _read_mode_lists(source: _Source, facts: GoFacts) -> None:
    found = source.function("GetToolsForWorkshopMode")
    if found is None:
        facts.missing.append("mode lists: no func GetToolsForWorkshopMode")
        return
    path, function = found
    body = function.child_by_field_name("body")
    lists = _local_lists(body)
    calls: set[str] = set()
    switch = next(_walk(body, "expression_switch_statement"), None)
    if switch is None:
        facts.missing.append(f"mode lists: no switch in {source.where(path, 'GetToolsForWorkshopMode')}")
        return
    before = [s for s in _statements(body) if s.start_byte < switch.start_byte]
    _apply_appends(before, lists, calls)
    result = list(lists.get("tools", []))
    where = source.where(path, "GetToolsForWorkshopMode")
    for clause in switch.named_children:
        if clause.type not in {"expression_case", "default_case"}:
            continue
        branch = {**{k: list(v) for k, v in lists.items()}, "tools": list(result)}
        _apply_appends(_statements(clause), branch, calls)
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


def _read_mode_labels(source: _Source, facts: GoFacts) -> None:
    found = source.function("canonicalWorkshopMode")
    if found is None:
        facts.missing.append("mode canonicalisation: no func canonicalWorkshopMode")
        return
    path, function = found
    labels: list[str] = []
    for clause in _walk(function, "expression_case"):
        values = clause.child_by_field_name("value")
        labels += [v for v in (go_string(n) for n in (values.named_children if values else ())) if v is not None]
    facts.mode_labels = GoList(tuple(dict.fromkeys(labels)), source.where(path, "canonicalWorkshopMode"))


def _returned_strings(function: Any) -> list[str] | None:
    for statement in _walk(function, "return_statement"):
        for literal in _walk(statement, "composite_literal"):
            body = literal.child_by_field_name("body")
            if body is not None:
                return _strings_of(body)
    return None


def _read_human_tools(source: _Source, facts: GoFacts) -> None:
    found = source.function("WorkshopHumanToolNames")
    names = _returned_strings(found[1]) if found else None
    if found is None or names is None:
        facts.missing.append("human tools: no func WorkshopHumanToolNames returning a []string literal")
        return
    facts.human_tools = GoList(tuple(names), source.where(found[0], "WorkshopHumanToolNames"))


def _read_system_categories(source: _Source, facts: GoFacts) -> None:
    found = source.function("NewToolFilter")
    if found is not None:
        lists = _local_lists(found[1].child_by_field_name("body"))
        if "systemCats" in lists:
            facts.system_categories = GoList(tuple(lists["systemCats"]), source.where(found[0], "NewToolFilter"))
            return
    facts.missing.append("system categories: no systemCats := []string{…} in func NewToolFilter")


def _read_providers(source: _Source, facts: GoFacts) -> None:
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


def _read_bridge_tools(source: _Source, facts: GoFacts) -> None:
    found = source.variable("bridgeTools")
    if found is not None and found[1].type == "composite_literal":
        body = found[1].child_by_field_name("body")
        names = []
        for element in body.named_children if body is not None else ():
            inner = element.named_children[0] if element.type == "literal_element" and element.named_children else None
            if inner is not None and inner.type == "literal_value":
                first = _strings_of(inner)
                if first:
                    names.append(first[0])
        facts.bridge_tools = GoList(tuple(names), source.where(found[0], "bridgeTools"))
        return
    facts.missing.append("bridge tools: no var bridgeTools = []struct{…}{…}")


def _read_denials(source: _Source, facts: GoFacts) -> None:
    for name in ("toolNotAllowedError", "CallCustomToolWithSession"):
        found = source.function(name)
        if found is None:
            continue
        formats = []
        for literal in (*_walk(found[1], "interpreted_string_literal"), *_walk(found[1], "raw_string_literal")):
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
    source = _Source(root)
    facts = GoFacts(truncated=source.truncated)
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


def read_all_go_facts(roots: list[Path]) -> GoFacts:
    """The facts of several checkouts (the app and mcpagent live apart): the first checkout that has a
    fact gives it; a fact is missing only when no checkout has it."""
    from ..model.errors import InputError, Problem

    merged = GoFacts()
    missing: dict[str, str] = {}
    for root in roots:
        if not root.is_dir():
            raise InputError(str(root), "not a folder", [Problem("--go-src", "expected a Go checkout's folder")])
        facts = read_go_facts(root)
        for name in (
            "mode_lists",
            "mode_calls",
            "mode_labels",
            "human_tools",
            "system_categories",
            "providers",
            "bridge_tools",
            "denial_formats",
            "product",
        ):
            if not getattr(merged, name) and getattr(facts, name):
                setattr(merged, name, getattr(facts, name))
        merged.truncated = merged.truncated or facts.truncated
        for line in facts.missing:
            missing.setdefault(line.partition(":")[0], line)
    found = {
        "mode lists": bool(merged.mode_lists),
        "mode canonicalisation": merged.mode_labels is not None,
        "human tools": merged.human_tools is not None,
        "system categories": merged.system_categories is not None,
        "code-execution providers": merged.providers is not None,
        "bridge tools": merged.bridge_tools is not None,
        "denial texts": merged.denial_formats is not None,
        "product manifest": merged.product is not None,
    }
    merged.missing = [line for key, line in missing.items() if not found.get(key, False)]
    return merged
