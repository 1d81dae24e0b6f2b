"""The main screen's keys (modes, views, export, Escape); each has an id for the keymap."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from ..views import VIEWS

MAIN_BINDINGS: list[BindingType] = [
    Binding("m", "next_mode", "Mode", tooltip="Switch to the next mode; changed tools get Δ", id="next-mode"),
    Binding(
        "M", "previous_mode", "Previous mode", show=False, tooltip="Switch to the previous mode", id="previous-mode"
    ),
    *(Binding(view.key, f"show_view('{view}')", view.tab_title, show=False, id=f"view-{view}") for view in VIEWS),
    Binding("e", "export", "Export", tooltip="Save the screen as SVG and the view as Markdown", id="export"),
    # Shown (footer, F1) only while it does something: the help panel is open, a text box
    # or the candidate list has the focus, or the pipeline's filter holds text.
    Binding(
        "escape",
        "back",
        "Back",
        tooltip="Close the help; else clear the filter; else leave the text box; else back to the step list",
        id="back",
    ),
]
