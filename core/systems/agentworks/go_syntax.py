"""A Go checkout's source as tree-sitter syntax trees, and the literals read from them.

The files are walked (bounded: ``MAX_GO_FILES``, ``MAX_GO_FILE_BYTES`` each and
``MAX_GO_TREE_BYTES`` together, read the checked way of ``core.inputs``) and parsed lazily, only
those that contain a name asked for; a file not read is named in ``GoSource.unread``, so that
nothing is concluded absent from a file that was never looked at. The helpers read what is written as a literal:
string literals, ``[]string{…}`` bodies, ``x := []string{…}`` locals, ``x = append(x, …)``
chains. Nothing is built or run; ``go_source`` turns these into facts.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MAX_GO_FILES = 50_000
"""Go files looked at in one checkout (a bigger tree is reported, not walked to the end)."""
MAX_GO_FILE_BYTES = 4_000_000
MAX_GO_TREE_BYTES = 128 * 1024 * 1024
"""All Go files of one checkout together (a file past this is not read, and said)."""
MAX_PARSED_BYTES = 32 * 1024 * 1024
"""Source bytes whose syntax trees are kept at once (trees take several times their source)."""
SKIPPED_DIRS = frozenset({".git", "vendor", "node_modules", "testdata"})


def go_parser() -> Any:
    """A tree-sitter parser for Go (imported here: only ``--go-src`` needs it)."""
    import tree_sitter_go
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_go.language()))


def go_files(root: Path, unread: list[tuple[Path, str]] | None = None) -> Iterator[Path]:
    """The checkout's Go files, tests and vendored or hidden folders left out, at most ``MAX_GO_FILES``
    (a folder that cannot be listed is added to ``unread``)."""
    count = 0

    def not_listed(exc: OSError) -> None:
        if unread is not None:
            unread.append((Path(exc.filename or root), f"folder not listed: {exc.strerror or exc}"))

    for folder, dirs, files in os.walk(root, onerror=not_listed):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".go") and not name.endswith("_test.go"):
                count += 1
                if count > MAX_GO_FILES:
                    return
                yield Path(folder) / name


def walk(node: Any, kind: str) -> Iterator[Any]:
    """Every node of this kind under ``node``, in source order (a stack: deep trees do not recurse)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == kind:
            yield current
        stack.extend(reversed(current.children))


def text_of(node: Any) -> str:
    """The node's source text."""
    return node.text.decode("utf-8", "replace")


def go_string(node: Any) -> str | None:
    """The value of a Go string literal node, or None for anything else."""
    if node.type == "raw_string_literal":
        return text_of(node)[1:-1]
    if node.type == "interpreted_string_literal":
        try:
            value = ast.literal_eval(text_of(node))
        except (ValueError, SyntaxError):
            return None
        return value if isinstance(value, str) else None
    return None


def strings_of(node: Any) -> list[str]:
    """The string elements of a composite literal body, in order (comments skipped)."""
    out = []
    for element in node.named_children:
        if element.type == "literal_element" and element.named_children:
            value = go_string(element.named_children[0])
            if value is not None:
                out.append(value)
    return out


class GoSource:
    """The checkout's Go files, parsed lazily: only files that contain a name asked for."""

    def __init__(self, root: Path) -> None:
        from ...inputs.input_files import ReadBudget, read_bytes
        from ...model.errors import InputError

        self.root = root
        self.parser = go_parser()
        self.files: list[tuple[Path, bytes]] = []
        self.unread: list[tuple[Path, str]] = []
        """Go files (and folders) that were not read, with why: nothing is concluded absent from them."""
        budget = ReadBudget(MAX_GO_TREE_BYTES, "all Go files of a checkout")
        for path in go_files(root, self.unread):
            try:
                self.files.append((path, read_bytes(path, "Go file", MAX_GO_FILE_BYTES, budget)))
            except InputError as exc:
                self.unread.append((path, exc.summary))
        self.truncated = len(self.files) + len(self.unread) >= MAX_GO_FILES
        self._trees: dict[Path, tuple[Any, int]] = {}

    def _tree(self, path: Path, data: bytes) -> Any:
        found = self._trees.pop(path, None)
        tree = found[0] if found else self.parser.parse(data)
        self._trees[path] = (tree, len(data))  # the most recently used last
        while sum(size for _tree, size in self._trees.values()) > MAX_PARSED_BYTES and len(self._trees) > 1:
            del self._trees[next(iter(self._trees))]
        return tree

    def where(self, path: Path, name: str) -> str:
        """``file.go: name``, the file relative to the checkout."""
        return f"{path.relative_to(self.root).as_posix()}: {name}"

    def function(self, name: str) -> tuple[Path, Any] | None:
        """The first ``func name(...)`` (a plain function, not a method) in the checkout."""
        needle = f"func {name}(".encode()
        for path, data in self.files:
            if needle not in data:
                continue
            for node in walk(self._tree(path, data).root_node, "function_declaration"):
                ident = node.child_by_field_name("name")
                if ident is not None and text_of(ident) == name:
                    return path, node
        return None

    def variable(self, name: str) -> tuple[Path, Any] | None:
        """The value of the first package-level ``var name = …`` in the checkout."""
        needle = f"var {name}".encode()
        for path, data in self.files:
            if needle not in data:
                continue
            for spec in walk(self._tree(path, data).root_node, "var_spec"):
                names = [text_of(n) for n in spec.children_by_field_name("name")]
                value = spec.child_by_field_name("value")
                if name in names and value is not None and value.named_children:
                    return path, value.named_children[0]
        return None


def local_lists(body: Any) -> dict[str, list[str]]:
    """``name := []string{…}`` locals of a function body, by name."""
    lists: dict[str, list[str]] = {}
    for decl in walk(body, "short_var_declaration"):
        left = decl.child_by_field_name("left")
        right = decl.child_by_field_name("right")
        if left is None or right is None or len(left.named_children) != 1 or len(right.named_children) != 1:
            continue
        value = right.named_children[0]
        if value.type == "composite_literal" and value.child_by_field_name("body") is not None:
            lists[text_of(left.named_children[0])] = strings_of(value.child_by_field_name("body"))
    return lists


def append_statement(statement: Any) -> tuple[str, list[Any]] | None:
    """``x = append(x, a, b...)``: (x, argument nodes after the first)."""
    if statement.type != "assignment_statement":
        return None
    left = statement.child_by_field_name("left")
    right = statement.child_by_field_name("right")
    if left is None or right is None or len(right.named_children) != 1:
        return None
    call = right.named_children[0]
    function = call.child_by_field_name("function") if call.type == "call_expression" else None
    if function is None or text_of(function) != "append":
        return None
    args = call.child_by_field_name("arguments")
    items = [a for a in args.named_children if a.type != "comment"] if args is not None else []
    return text_of(left), items[1:]


def apply_appends(statements: list[Any], lists: dict[str, list[str]], calls: set[str]) -> None:
    """Follow ``x = append(x, …)`` statements in order, expanding ``group...`` from ``lists``."""
    for statement in statements:
        found = append_statement(statement)
        if found is None:
            continue
        target, items = found
        out = lists.setdefault(target, [])
        for item in items:
            node = item.named_children[0] if item.type == "variadic_argument" and item.named_children else item
            literal = go_string(node)
            if literal is not None:
                out.append(literal)
            elif node.type == "identifier" and text_of(node) in lists:
                out.extend(lists[text_of(node)])
            elif node.type == "call_expression":
                function = node.child_by_field_name("function")
                calls.add(text_of(function).rpartition(".")[2] if function is not None else "?")


def block_statements(block: Any) -> list[Any]:
    """The statements of a block or case clause (tree-sitter-go nests them in a statement_list)."""
    out: list[Any] = []
    for child in block.named_children:
        if child.type == "statement_list":
            out.extend(c for c in child.named_children if c.type != "comment")
        elif child.type not in {"comment", "expression_list"}:
            out.append(child)
    return out


def returned_strings(function: Any) -> list[str] | None:
    """The first ``[]string{…}`` literal a ``return`` gives, or None."""
    for statement in walk(function, "return_statement"):
        for literal in walk(statement, "composite_literal"):
            body = literal.child_by_field_name("body")
            if body is not None:
                return strings_of(body)
    return None
