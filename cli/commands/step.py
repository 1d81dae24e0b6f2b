"""``toolscope step TOOLKIT --script S``: a reset_tools script, stock vs guarded, turn by turn.

Every call goes through the real ``toolkit.call_tool`` twice: once against the installed
stock meta tool, once against it wrapped by GroupActivationGuard. The stock lane's header
says which behaviour the installed AgentScope has, probed on a throwaway state.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from ...core.model.enums import InputKind
from ...core.model.errors import InputError
from ...core.systems.agentworks.ids import AgentWorksInput
from ..output import handle_errors
from .common import CaptureOpt, GroupsOpt, JsonOpt, SessionIdOpt, SessionOpt, split_groups


@dataclass(frozen=True)
class StepRequest:
    """What ``toolscope step`` was asked: the toolkit, one feed of calls, and how to print."""

    toolkit: str
    kind: InputKind
    script: Path | None
    session: Path | None
    session_id: str | None
    capture: Path | None
    groups: list[str] | None
    as_json: bool

    def check(self) -> None:
        """Exit 2 unless exactly one feed is given (and --session-id only with --session)."""
        given = (("--script", self.script), ("--session", self.session), ("--capture", self.capture))
        feeds = [name for name, value in given if value]
        if not feeds:
            raise InputError(
                "",
                "step needs calls to step through: --script SCRIPT (a reset_tools script), --session SESSION "
                "or --capture FILE",
            )
        if len(feeds) > 1:
            raise InputError(feeds[1], f"give either {feeds[0]} or {feeds[1]}, not both")
        if self.session_id is not None and self.session is None:
            raise InputError(
                "--session-id", "--session-id goes with --session (a database, or a tap holding several runs)"
            )


@handle_errors
def step_command(
    toolkit: Annotated[str, typer.Argument(help="Toolkit spec (YAML/JSON) or module:function / file.py:function.")],
    script: Annotated[
        Path | None, typer.Option("--script", "-s", help="Script: a JSON/YAML list of reset_tools calls.")
    ] = None,
    session: SessionOpt = None,
    session_id: SessionIdOpt = None,
    groups: GroupsOpt = None,
    capture: CaptureOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Step reset_tools calls (a script, a recorded session, or a capture's) through the stock and the guarded meta tool."""
    from ..input_kind import detect_kind

    kind = detect_kind(toolkit)
    if kind == AgentWorksInput.STEP_CONFIG:
        raise InputError(toolkit, "step works on AgentScope toolkits", [])
    request = StepRequest(toolkit, kind, script, session, session_id, capture, split_groups(groups), as_json)
    request.check()
    # Exit 0 whatever the lanes or the comparison say, like every step (check --capture is the one that fails).
    if capture is not None:
        _step_capture(request)
    elif session is not None:
        _step_session(request)
    else:
        _step_script(request)


def _step_capture(request: StepRequest) -> None:
    from ...core.systems.agentscope.probe import probe_stock_reset_tools
    from ..render.step_capture import print_capture_human, print_capture_json
    from .step_feeds import open_capture_replay

    assert request.capture is not None
    subject, result = open_capture_replay(request.toolkit, request.kind, request.capture, request.groups)
    probe = probe_stock_reset_tools()
    (print_capture_json if request.as_json else print_capture_human)(subject, result, probe)


def _step_session(request: StepRequest) -> None:
    from ...core.systems.agentscope.probe import probe_stock_reset_tools
    from ..render.step_session import print_session_human, print_session_json
    from ..replay_progress import replay_progress
    from .step_feeds import open_replay

    assert request.session is not None
    with replay_progress():
        subject, replay = open_replay(
            request.toolkit, request.kind, request.session, request.session_id, request.groups
        )
    probe = probe_stock_reset_tools()
    (print_session_json if request.as_json else print_session_human)(subject, replay, probe)


def _step_script(request: StepRequest) -> None:
    from ...core.systems.agentscope.probe import probe_stock_reset_tools
    from ..render.step import print_script_human, print_script_json
    from .step_feeds import open_script

    assert request.script is not None
    subject, stepper, script = open_script(request.toolkit, request.kind, request.script, request.groups)
    probe = probe_stock_reset_tools()
    (print_script_json if request.as_json else print_script_human)(subject, stepper, probe, script.name)
