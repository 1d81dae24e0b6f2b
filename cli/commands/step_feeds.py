"""Where ``toolscope step`` gets its reset_tools calls: a script, a recorded session, or a capture.

Each opener loads its input (a bad file fails before the toolkit is built) and the toolkit,
and returns the subject with what the lanes stepped through.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...core.comparison.predict import SubjectComparison
    from ...core.model.enums import InputKind
    from ...core.systems.agentscope.subject import ToolkitSubject
    from ...core.systems.agentscope.v1.subject import ToolkitSubjectV1


def open_capture_replay(
    toolkit: str, kind: InputKind, capture: Path, groups: list[str] | None
) -> tuple[ToolkitSubject | ToolkitSubjectV1, SubjectComparison]:
    """Load the capture (first: a bad file fails before the toolkit is built) and the toolkit; compare."""
    from ...core.capture.observed_file import load_capture
    from ...core.comparison.predict import compare_subject
    from ...core.systems.agentscope.subject import load_toolkit_subject
    from ..replay_progress import replay_progress

    observed = load_capture(capture)
    subject = load_toolkit_subject(toolkit, kind=kind, groups=groups)
    with replay_progress("request"):
        return subject, compare_subject(subject, observed, None)


def open_replay(
    toolkit: str, kind: InputKind, session: Path, session_id: str | None, groups: list[str] | None
) -> tuple[ToolkitSubject | ToolkitSubjectV1, Any]:
    """Load the toolkit and the session, pick the starting groups, replay. Returns the subject and the SessionReplay."""
    from ...core.systems.agentscope.session_replay import replay_session
    from ...core.systems.agentscope.session_source import load_session
    from ...core.systems.agentscope.subject import load_toolkit_subject

    recorded = load_session(session, session_id=session_id)
    subject = load_toolkit_subject(toolkit, kind=kind, groups=groups)
    return subject, replay_session(subject.built, recorded, groups_given=groups is not None)


def open_script(
    toolkit: str, kind: InputKind, script: Path, groups: list[str] | None
) -> tuple[ToolkitSubject | ToolkitSubjectV1, Any, Path]:
    """Load the script (found beside the toolkit when not from the cwd) and the toolkit; step every call.
    Returns the subject, the stepped session and the script's path."""
    from ...core.systems.agentscope.script import load_script, script_for_config
    from ...core.systems.agentscope.subject import load_toolkit_subject

    script = script_for_config(script, toolkit)
    steps = load_script(script)
    subject = load_toolkit_subject(toolkit, kind=kind, groups=groups)
    stepper = subject.session(steps)
    stepper.run_all()
    return subject, stepper, script
