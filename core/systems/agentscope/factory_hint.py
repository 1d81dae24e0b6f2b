"""A ``.py`` given as CONFIG without ``:function``: name the file's candidate factories (parsed, never run)."""

from __future__ import annotations

import ast
from pathlib import Path

from ...inputs.input_files import read_text
from ...model.errors import InputError, Problem


def factory_needs_function(target: str, path: Path) -> InputError:
    """The error, listing the public top-level functions (those callable without arguments first)."""
    text, _ = read_text(path, "Python file")
    try:
        tree = ast.parse(text, filename=str(path))
    except SyntaxError as exc:
        return InputError(
            target, "a toolkit factory needs :function", [Problem(f"line {exc.lineno}", "not valid Python")]
        )
    defined = [
        node
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_")
    ]
    # A factory is called without arguments: prefer functions that can be.
    callable_bare = [
        n.name
        for n in defined
        if len(n.args.posonlyargs) + len(n.args.args) <= len(n.args.defaults)
        and all(d is not None for d in n.args.kw_defaults)
    ]
    functions = callable_bare or [n.name for n in defined]
    hint = (
        "candidate functions: " + ", ".join(f"{target}:{name}" for name in functions)
        if functions
        else "the file defines no public top-level function"
    )
    return InputError(
        target,
        "a .py file is a toolkit factory and needs :function (path/to/file.py:function)",
        [Problem("", hint)],
    )
