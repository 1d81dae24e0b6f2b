"""How the app was started: frozen, passed from the CLI (or a test) down to the screen."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .views import DEFAULT_VIEW

if TYPE_CHECKING:
    from textual.widget import Widget

    from ..core.model.subject import Subject


def _default_activation_view(subject: Subject, options: TuiOptions) -> Widget | None:
    """The activation view, only for AgentScope toolkits that offer a step-through session."""
    from ..core.systems.agentscope.capability import StepsActivation
    from .session_feed import feed_for
    from .widgets.activation.view import ActivationView

    # A recorded session or a running agent's turns (``tui.session_feed``).
    feed = feed_for(options)
    if not isinstance(subject, StepsActivation):
        return None
    return ActivationView(
        subject,
        script=options.script,
        run_script=options.run_script,
        config_dir=options.config_dir,
        feed=feed,
        id="activation-view",
    )


@dataclass(frozen=True)
class TuiOptions:
    """Start-up choices that are not part of the loaded input."""

    view: str = DEFAULT_VIEW
    """The view shown first (``tui.views.VIEWS``)."""
    tool: str | None = None
    """Open the checklist on this tool at start."""
    deterministic: bool = False
    """Snapshots and README images: no versions, no directories, no blinking cursor."""
    export_dir: str = "."
    """Where the export key writes its SVG and Markdown."""
    export_png: bool = True
    """The export key also writes a PNG of the SVG (in the background, when Chromium is installed)."""
    script: str | None = None
    """Activation view: a script to load at start (see ``core.systems.agentscope.script``)."""
    run_script: bool = False
    """Activation view: run the whole script at start (headless screenshots)."""
    config_dir: str | None = None
    """The folder of the config file: script paths not found from the current folder are tried there."""
    session: str | None = None
    """Activation view: a recorded AgentScope session to step through (``core.systems.agentscope.session_source``)."""
    session_id: str | None = None
    """With ``session`` naming an app storage database: the session id."""
    follow: str | None = None
    """Activation view: a running agent's tap file to follow live (``core.systems.agentscope.tap``)."""
    activation_factory: Callable[[Any, Any], Any] = _default_activation_view
    """Builds the activation view for a subject and these options (None when it has none)."""

    def activation_view(self, subject: Subject) -> Widget | None:
        """The activation view for this subject, or None."""
        return self.activation_factory(subject, self)
