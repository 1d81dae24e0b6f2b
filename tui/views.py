"""The TUI's views, in tab order: their names, titles and keys (no Textual here: the CLI's
``inspect --view`` reads them too)."""

from __future__ import annotations

from enum import StrEnum


class View(StrEnum):
    """The TUI's views, in tab order (``inspect --view``; keys 1, 2, 3)."""

    PIPELINE = "pipeline"
    CHECKLIST = "checklist"
    ACTIVATION = "activation"

    @property
    def tab_title(self) -> str:
        """The tab's title without its key: ``Pipeline``."""
        return self.value.capitalize()

    @property
    def key(self) -> str:
        """The key that brings the view to the front: its place in the tab order (``1``)."""
        return str(list(View).index(self) + 1)

    @property
    def tab_label(self) -> str:
        """The tab's title with its key: ``1 Pipeline``."""
        return f"{self.key} {self.tab_title}"


VIEWS: tuple[View, ...] = tuple(View)
DEFAULT_VIEW = View.PIPELINE
"""The first view when none is asked for."""

NO_ACTIVATION_VIEW = (
    "An AgentWorks step config has no activation view: its tools are chosen before the run "
    "(selected_servers, selected_tools, the mode's allow-list), not switched on by reset_tools "
    f"calls during it. The activation view is for AgentScope toolkits. Here: {View.PIPELINE.tab_label}, "
    f"{View.CHECKLIST.tab_label}."
)
"""What 3 says on a step config."""


def explained_absence(view: str, step_config: bool) -> str | None:
    """Why this input has no ``view``, when that is worth a key (3 on a step config says why
    there is no activation view); None when the key is simply hidden."""
    return NO_ACTIVATION_VIEW if view == View.ACTIVATION and step_config else None
