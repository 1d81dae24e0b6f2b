"""The words shared by CLI, TUI and reports live in ``core.model.presentation`` (their Rich styles in
``cli/styles.py``, the view names in ``tui/views.py``), and nowhere else."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from toolscope.cli import styles
from toolscope.core.model import presentation
from toolscope.core.model.enums import Verdict
from toolscope.core.model.presentation import verdict_counts_text
from toolscope.tui.views import VIEWS, View

ROOT = Path(__file__).resolve().parents[2]
HOMES = {ROOT / "core" / "model" / "presentation.py", ROOT / "cli" / "styles.py", ROOT / "tui" / "views.py"}
TABLES = {
    f"{module.__name__.rsplit('.', 1)[1]}.{name}": frozenset(value)
    for module in (presentation, styles)
    for name, value in vars(module).items()
    if name.isupper() and isinstance(value, dict) and not name.startswith("_") and name != "AS_ANSWER"
}
"""Every table of the module, by the keys it maps: a dict keyed the same way elsewhere is a copy."""
VIEW_NAMES = frozenset(VIEWS)


def _modules() -> Iterator[tuple[Path, ast.Module]]:
    for folder in ("toolscope", "core", "cli", "tui"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path not in HOMES:
                yield path, ast.parse(path.read_text(encoding="utf-8"))


def _docstrings(tree: ast.Module) -> set[int]:
    """ids of the string statements (module, class, function and attribute docstrings): prose may show ✓."""
    out = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)  # a lambda's body is one expression, not statements
        for statement in body if isinstance(body, list) else []:
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                out.add(id(statement.value))
    return out


def _key(node: ast.expr | None) -> object:
    """A dict key as a value: constants, and ``Verdict.X`` as its string."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Verdict":
        return Verdict[node.attr].value
    return object()


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"


def _copies(path: Path, tree: ast.Module) -> list[str]:
    """Marks, tables keyed like presentation's, view-name lists and verdict-count sentences in one module."""
    found = []
    docs = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if "✓" in node.value or "✗" in node.value:
                found.append(f"{_where(path, node)}: mark {node.value!r} (use presentation.MARK)")
        elif isinstance(node, ast.Dict):
            # Words keyed like a table (ranks and other numbers are not words).
            values = [v for v in node.values if isinstance(v, ast.Constant)]
            if not values or any(not isinstance(v.value, str) for v in values):
                continue
            keys = frozenset(_key(k) for k in node.keys)
            found += [f"{_where(path, node)}: a copy of {name}" for name, table in TABLES.items() if keys == table]
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            names = [e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in VIEW_NAMES]
            if len(names) > 1:
                found.append(f"{_where(path, node)}: view names {names} (use views.VIEWS)")
        elif isinstance(node, ast.JoinedStr):
            text = "".join(part.value for part in node.values if isinstance(part, ast.Constant))
            if all(f" {verdict}" in text for verdict in Verdict):
                found.append(f"{_where(path, node)}: a verdict count (use presentation.verdict_counts_text)")
    return found


def test_no_other_module_writes_a_mark_or_copies_a_table() -> None:
    assert [copy for path, tree in _modules() for copy in _copies(path, tree)] == []


def test_the_check_finds_each_kind_of_copy() -> None:
    """A check that cannot fail proves nothing: each kind of copy is found."""
    source = '''"""A docstring may say ✓ pass."""
SYMBOL = {True: "+", False: "-", None: "?"}
STYLE = {Verdict.VISIBLE: "green", "hidden": "red", "unknown": "yellow"}
RANK = {"visible": 0, "hidden": 1, "unknown": 2}
VIEWS = ["pipeline", "activation"]
LINE = f"{a} visible, {b} hidden, {c} unknown"
OK = "✗ no"
'''
    found = sorted(line.split(": ", 1)[1] for line in _copies(ROOT / "x.py", ast.parse(source)))
    assert found == sorted(
        [
            "a copy of presentation.ANSWER_WORD",
            "a copy of presentation.MARK",
            "a copy of presentation.STAGE_CLASS",
            "a copy of styles.STAGE_STYLE",
            "a copy of presentation.STAGE_WORD",
            "a copy of presentation.VERDICT_CLASS",
            "a copy of presentation.VERDICT_LABEL",
            "a copy of styles.VERDICT_STYLE",
            "view names ['pipeline', 'activation'] (use views.VIEWS)",
            "a verdict count (use presentation.verdict_counts_text)",
            "mark '✗ no' (use presentation.MARK)",
        ]
    )


def test_tables_cover_every_answer_and_verdict() -> None:
    for name, keys in TABLES.items():
        assert keys in ({True, False, None}, set(Verdict), {"success", "error", "denied"}), name
    assert [view.tab_title for view in View] == ["Pipeline", "Checklist", "Activation"]
    assert verdict_counts_text({"visible": 1234, "hidden": 5, "unknown": 0}) == "1234 visible, 5 hidden, 0 unknown"
    assert verdict_counts_text({"visible": 1234, "hidden": 5, "unknown": 0}, grouped=True).startswith("1,234 visible")


def test_a_question_over_several_stages_is_no_if_one_fails_unknown_if_one_is_unknown() -> None:
    """The four coding-agent checklists share this rule (it was copied into each)."""
    from toolscope.core.model.presentation import group_answer
    from toolscope.core.model.verdicts import Stage

    def stage(passed: bool | None) -> Stage:
        return Stage(name="layer", passed=passed, code="c", rule="r")

    assert group_answer([]) == (None, "n/a")
    assert group_answer([stage(True), stage(True)]) == (True, "yes")
    assert group_answer([stage(True), stage(None), stage(False)]) == (False, "no")
    assert group_answer([stage(True), stage(None)]) == (None, "unknown")
