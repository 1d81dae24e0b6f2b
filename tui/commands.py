"""Palette entries that depend on the data: jump to a tool's checklist by name."""

from __future__ import annotations

from functools import partial

from textual.command import Hit, Hits, Provider
from textual.content import Content

from ..core.text.safe_text import inert
from .completion import complete
from .views import View


class ToolProvider(Provider):
    """``checklist: NAME`` for every tool whose name matches what was typed."""

    async def search(self, query: str) -> Hits:
        """Tool names matching the query (fuzzy), at most 20."""
        from .screens.main import MainScreen

        screen = self.screen
        if not isinstance(screen, MainScreen) or len(query.strip()) < 2:
            return
        matcher = self.matcher(query)
        for name in complete(query, screen.subject.all_tool_names(), limit=20):
            title = f"checklist: {inert(name, single_line=True)}"
            # Plain Content, never Matcher.highlight: that parses the candidate as markup.
            yield Hit(
                max(matcher.match(title), 0.1),
                Content(title),
                partial(self._open, screen, name),
                text=title,
                help="Walk the checklist for this tool",
            )

    @staticmethod
    def _open(screen, name: str) -> None:  # MainScreen
        screen.action_show_view(View.CHECKLIST)
        screen.checklist_view.ask(name)
