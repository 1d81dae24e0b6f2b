"""The ``?`` / F1 panel: Textual's HelpPanel with the keys listed global first.

Textual's key panel lists the focused widget's keys first: on the Pipeline view at 80x24 that
is the list's Home/End/PgUp/j/k, and the keys that work everywhere (views, mode, export, help,
quit) fall below the fold. k9s's and lazygit's help pages open on the global keys, then the
view's, then the list's. This panel draws the same live bindings (``Screen.active_bindings``,
public) in that order, one section per owner, with Textual's own styles: no private Textual
name is needed.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich import box
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import HelpPanel, KeyPanel, Markdown, Static


def sections_global_first(active: Iterable[tuple[DOMNode, Binding]]) -> list[tuple[DOMNode, list[Binding]]]:
    """The bindings grouped by the node that owns them: the screen's (views, mode, export), the
    app's (help, quit), then the focused widget's ancestors outside in, the widget itself last.

    ``active`` comes focused widget first, then its ancestors, the screen, the app (the order
    Textual resolves a key in). Within a section toolscope's own keys (each has an ``id``) come
    before Textual's built-in ones (tab, copy). System bindings are left out, as Textual's
    panel does.
    """
    sections: dict[DOMNode, list[Binding]] = {}
    for namespace, binding in active:
        if not binding.system:
            sections.setdefault(namespace, []).append(binding)
    chain = list(reversed(sections.items()))  # the app, the screen, ..., the focused widget

    def place(section: tuple[DOMNode, list[Binding]]) -> int:
        node = section[0]
        if isinstance(node, Screen):
            return -2
        if isinstance(node, App):
            return -1
        return chain.index(section)

    return [(node, sorted(bindings, key=lambda b: b.id is None)) for node, bindings in sorted(chain, key=place)]


def _view_missing(screen: Screen, action: str) -> bool:
    """``show_view('activation')`` on a screen whose input has no such view (a step config's 3)."""
    views = getattr(screen, "views", None)
    if not action.startswith("show_view(") or views is None:
        return False
    return not views.has_view(action.removeprefix("show_view(").strip("')\""))


class GlobalFirstKeys(Static):
    """The key table: one section per owner, global ones first (Textual's table, reordered)."""

    COMPONENT_CLASSES = {
        "bindings-table--key",
        "bindings-table--description",
        "bindings-table--divider",
        "bindings-table--header",
    }

    DEFAULT_CSS = """
    GlobalFirstKeys { width: auto; height: auto; }
    """

    def render(self) -> Table:
        """The live bindings of the screen, as Textual's key panel draws them."""
        active = [(entry.node, entry.binding) for entry in self.screen.active_bindings.values()]
        key_style = self.get_component_rich_style("bindings-table--key")
        description_style = self.get_component_rich_style("bindings-table--description")
        header_style = self.get_component_rich_style("bindings-table--header")
        transparent = self.get_component_styles("bindings-table--divider").color.a == 0
        table = Table(
            padding=(0, 0),
            show_header=False,
            box=box.SIMPLE if transparent else box.HORIZONTALS,
            border_style=self.get_component_rich_style("bindings-table--divider"),
        )
        table.add_column("", justify="right")
        for namespace, bindings in sections_global_first(active):
            if namespace.BINDING_GROUP_TITLE:
                table.add_row("", Text(namespace.BINDING_GROUP_TITLE, style=header_style, end=""))
            # One row per action, its keys together (f1 and ? both open this panel).
            by_action: dict[str, list[Binding]] = {}
            for binding in bindings:
                by_action.setdefault(binding.action, []).append(binding)
            for same_action in by_action.values():
                keys = " ".join(dict.fromkeys(self.app.get_key_display(binding) for binding in same_action))
                first = same_action[0]
                description = Text.from_markup(first.description, end="", style=description_style)
                if _view_missing(self.screen, first.action):
                    description.append(" (none for this input: the key says why)", "dim")
                if first.tooltip:
                    description.append((" " if first.description else "") + first.tooltip, "dim")
                table.add_row(Text(keys, style=key_style), description)
            table.add_section()
        return table


class GlobalFirstKeyPanel(KeyPanel):
    """Textual's key panel (its CSS, its refresh when the bindings change) with our table."""

    def compose(self) -> ComposeResult:
        yield GlobalFirstKeys(shrink=True, expand=False)


class ToolscopeHelpPanel(HelpPanel):
    """The focused widget's help text, then its keys, global ones first."""

    def compose(self) -> ComposeResult:
        yield Markdown(id="widget-help")
        yield GlobalFirstKeyPanel(id="keys-help")
