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
    functions = _candidates(tree)
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


def _candidates(tree: ast.Module) -> list[str]:
    """The public top-level functions; a factory is called without arguments: those that can be, if any."""
    defined = [
        node
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_")
    ]
    return [n.name for n in defined if _callable_bare(n)] or [n.name for n in defined]


def _callable_bare(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether every parameter has a default (keyword-only ones included)."""
    args = function.args
    positional = len(args.posonlyargs) + len(args.args)
    return positional <= len(args.defaults) and all(d is not None for d in args.kw_defaults)
