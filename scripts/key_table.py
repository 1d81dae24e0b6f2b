"""The key table of docs/app.md, made from the bindings the app runs with (so it cannot drift).

    python scripts/key_table.py            # print the table
    python scripts/key_table.py --update docs/app.md

``tests/tui/test_tui_key_table.py`` fails when docs/app.md's table (between the
``<!-- keys:start -->`` and ``<!-- keys:end -->`` markers) differs from this output.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from textual.binding import Binding
from textual.keys import format_key

from toolscope.tui.views import View

START, END = "<!-- keys:start -->", "<!-- keys:end -->"


def scopes() -> list[tuple[str, type]]:
    """(where the keys work, the class that binds them), in the order the table lists them."""
    from toolscope.tui.app import ToolscopeApp
    from toolscope.tui.screens.main import MainScreen
    from toolscope.tui.widgets.activation.composer import GroupToggle
    from toolscope.tui.widgets.activation.view import ActivationView
    from toolscope.tui.widgets.checklist_view import ChecklistView
    from toolscope.tui.widgets.pipeline_view import PipelineView
    from toolscope.tui.widgets.tool_grid import ToolGrid

    return [
        ("everywhere", ToolscopeApp),
        ("everywhere", MainScreen),
        (View.PIPELINE.value, PipelineView),
        (f"{View.PIPELINE}: tool list", ToolGrid),
        (View.CHECKLIST.value, ChecklistView),
        (View.ACTIVATION.value, ActivationView),
        (f"{View.ACTIVATION}: group toggle", GroupToggle),
    ]


def _rows() -> list[tuple[str, str, str]]:
    rows: list[tuple[str, str, str]] = []
    for where, owner in scopes():
        keys_by_action: dict[str, list[str]] = {}
        text_by_action: dict[str, str] = {}
        for binding in Binding.make_bindings(owner.__dict__.get("BINDINGS", [])):
            keys_by_action.setdefault(binding.action, []).append(format_key(binding.key))
            text_by_action.setdefault(binding.action, binding.tooltip or binding.description)
        for action, keys in keys_by_action.items():
            rows.append((where, " / ".join(f"`{key}`" for key in keys), text_by_action[action]))
    return rows


def key_table() -> str:
    """The Markdown table of every key: where it works, the keys, what it does."""
    from textual.app import App

    lines = ["| where | key | does |", "|---|---|---|"]
    palette = (
        "everywhere",
        f"`{format_key(App.COMMAND_PALETTE_BINDING)}`",
        "Command palette: every action, modes, tools",
    )
    lines += [
        f"| {where} | {keys} | {text} |".replace("`|`", "`\\|`")
        for where, keys, text in [*_rows()[:2], palette, *_rows()[2:]]
    ]
    return "\n".join(lines) + "\n"


def readme_table(readme: str) -> str | None:
    """The table between the markers in a README's text (None without markers)."""
    match = re.search(re.escape(START) + r"\n(.*?)" + re.escape(END), readme, re.S)
    return match.group(1) if match else None


def update(path: Path) -> None:
    """Rewrite the table between the markers of ``path``."""
    text = path.read_text(encoding="utf-8")
    if readme_table(text) is None:
        raise SystemExit(f"{path}: no {START} … {END} markers")
    new = re.sub(
        re.escape(START) + r"\n.*?" + re.escape(END), lambda _: f"{START}\n{key_table()}{END}", text, flags=re.S
    )
    path.write_text(new, encoding="utf-8")


def main() -> None:
    """Print the table, or update a README's copy of it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", type=Path, help="rewrite the table between the markers in this file")
    args = parser.parse_args()
    if args.update:
        update(args.update)
    else:
        print(key_table(), end="")


if __name__ == "__main__":
    main()
