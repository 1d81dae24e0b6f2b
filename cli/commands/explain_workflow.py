"""``toolscope explain CONFIG TOOL`` on a step config with several steps and no ``--step``.

One table, a row per step: the verdict, the first stage that does not pass, and the fix
(or why it is visible). ``--step ID`` gives one step's whole checklist. Exit 1 when the
tool is hidden or unknown in any step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from ...core.model.enums import Verdict
from ...core.model.errors import EXIT_NEGATIVE

if TYPE_CHECKING:
    from ...core.systems.agentworks.subject import AgentWorksSubject


def explain_workflow(subjects: list[AgentWorksSubject], tool: str, mode: str | None, as_json: bool) -> None:
    """Answer for ``tool`` in every step, in one mode."""
    from ..render.explain_workflow import print_workflow_human, print_workflow_json

    resolved = subjects[0].resolve_mode(mode)
    answers = []
    for subject in subjects:
        answers.append((subject, subject.checklist(tool, resolved)))
        subject.release()  # the checklist holds what the answer needs
    (print_workflow_json if as_json else print_workflow_human)(subjects, tool, resolved, answers)
    if any(c.outcome != Verdict.VISIBLE for _s, c in answers):
        raise typer.Exit(EXIT_NEGATIVE)
