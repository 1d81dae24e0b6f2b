"""The docs' key table (docs/app.md) is the one the live bindings make (regenerate: python scripts/key_table.py --update docs/app.md)."""

from __future__ import annotations

import importlib.util
import sys

from tui_helpers import REPO, SIZE, make_app

# A development script, not part of the installed package: loaded from scripts/.
_spec = importlib.util.spec_from_file_location("key_table", REPO / "scripts" / "key_table.py")
assert _spec is not None and _spec.loader is not None
_key_table_module = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("key_table", _key_table_module)
_spec.loader.exec_module(_key_table_module)
key_table = _key_table_module.key_table
readme_table = _key_table_module.readme_table


def test_the_readme_key_table_matches_the_bindings() -> None:
    table = readme_table((REPO / "docs" / "app.md").read_text(encoding="utf-8"))
    assert table == key_table(), "run: python scripts/key_table.py --update docs/app.md"


async def test_every_key_the_running_app_shows_is_in_the_table() -> None:
    """What the footer and F1 list (live, per focused widget) is a subset of the table."""
    from textual.keys import format_key

    table = key_table()
    app = make_app(mode="build")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for keys in ([], ["slash"], ["escape", "2"], ["m"]):
            await pilot.press(*keys)
            await pilot.pause()
            for key, active in app.screen.active_bindings.items():
                if active.binding.show or active.binding.action in ("toggle_help", "quit"):
                    assert f"`{format_key(key)}`" in table, key
