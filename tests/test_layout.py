"""The folders are the map: every package says what lives in it, and its imports read from the source tree.

Inside ``cli/``, ``core/`` and ``tui/`` every import of toolscope's own code is relative, so a
dependency grapher, an editor or a type checker pointed at the checkout (no install, no
package-dir mapping) resolves each one to a file; this test resolves them the same way.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FOLDERS = ("cli", "core", "tui")


def _sources() -> list[Path]:
    return sorted(path for folder in FOLDERS for path in (REPO / folder).rglob("*.py"))


def _imports(path: Path) -> list[ast.ImportFrom | ast.Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]


def _resolves(path: Path, node: ast.ImportFrom) -> bool:
    base = path.parent
    for _ in range(node.level - 1):
        base = base.parent
    if REPO not in (base, *base.parents):
        return False
    target = base.joinpath(*node.module.split(".")) if node.module else base
    if node.module and not ((target / "__init__.py").is_file() or target.with_suffix(".py").is_file()):
        return False
    if not node.module or (target / "__init__.py").is_file():
        # ``from . import x``: x is a module of that package, or a name its __init__ defines.
        init = target / "__init__.py"
        defined = set()
        if init.is_file():
            for child in ast.parse(init.read_text(encoding="utf-8")).body:
                targets = child.targets if isinstance(child, ast.Assign) else []
                defined |= {t.id for t in targets if isinstance(t, ast.Name)}
                if isinstance(child, ast.AnnAssign) and isinstance(child.target, ast.Name):
                    defined.add(child.target.id)
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    defined.add(child.name)
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    defined |= {(a.asname or a.name).split(".")[0] for a in child.names}
        for alias in node.names:
            module = target / alias.name
            if not ((module / "__init__.py").is_file() or module.with_suffix(".py").is_file() or alias.name in defined):
                return False
    return True


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_own_import_inside_the_package_is_relative_and_resolves_in_the_tree(folder: str) -> None:
    absolute, unresolved = [], []
    for path in _sources():
        if path.parts[len(REPO.parts)] != folder:
            continue
        where = path.relative_to(REPO)
        for node in _imports(path):
            if isinstance(node, ast.Import):
                absolute += [f"{where}:{node.lineno}" for a in node.names if a.name.split(".")[0] == "toolscope"]
            elif node.level == 0:
                if (node.module or "").split(".")[0] == "toolscope":
                    absolute.append(f"{where}:{node.lineno}")
            elif not _resolves(path, node):
                unresolved.append(f"{where}:{node.lineno} from {'.' * node.level}{node.module or ''}")
    assert absolute == []
    assert unresolved == []


def test_the_resolver_notices_a_broken_relative_import(tmp_path: Path) -> None:
    """A check that cannot fail proves nothing."""
    bad = REPO / "core" / "model" / "verdicts.py"
    node = ast.parse("from ..nowhere import thing").body[0]
    assert isinstance(node, ast.ImportFrom) and not _resolves(bad, node)
    good = ast.parse("from ..text.safe_text import inert").body[0]
    assert isinstance(good, ast.ImportFrom) and _resolves(bad, good)


def test_every_package_has_a_docstring_that_says_what_lives_there() -> None:
    thin = []
    for folder in ("entry", *FOLDERS):
        for init in sorted((REPO / folder).rglob("__init__.py")):
            doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
            if len(doc.split()) < 8:
                thin.append(str(init.relative_to(REPO)))
    assert thin == []


def test_the_root_package_holds_only_the_entry_point_and_the_tap() -> None:
    """entry/ installs as ``toolscope``; no folder at the checkout's root is named toolscope (it would shadow the install)."""
    assert not (REPO / "toolscope").exists()
    assert sorted(p.name for p in (REPO / "entry").iterdir() if p.name != "__pycache__") == [
        "__init__.py",
        "__main__.py",
        "launch.py",
        "py.typed",
        "tap.py",
    ]


def test_the_version_is_the_one_in_pyproject() -> None:
    from toolscope import __version__

    assert __version__ == tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
