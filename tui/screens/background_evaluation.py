"""Evaluations in a worker thread, so the screen keeps drawing while an AgentScope toolkit's
calls or a slow MCP client run."""

from __future__ import annotations

from functools import partial

from textual.widget import Widget
from textual.worker import WorkerCancelled, WorkerFailed

from ...core.model.errors import ToolscopeError
from ...core.model.verdict_state import Evaluator, VerdictState
from ...core.model.verdicts import Evaluation
from ...core.text.safe_text import inert


class BackgroundEvaluation:
    """Runs ``evaluator`` on ``owner``'s workers, one evaluation at a time (a newer one cancels
    the older), and turns an input error into a toast on ``owner``."""

    def __init__(self, owner: Widget, evaluator: Evaluator) -> None:
        self.owner = owner
        self.evaluator = evaluator

    async def evaluate(self, state: VerdictState, title: str) -> Evaluation | None:
        """``state``'s evaluation; None (and a toast titled ``title``) when it failed or was superseded."""
        worker = self.owner.run_worker(
            partial(self.evaluator.evaluate, state),
            thread=True,
            exclusive=True,
            exit_on_error=False,
            group="evaluation",
        )
        try:
            return await worker.wait()
        except WorkerCancelled:
            return None
        except WorkerFailed as failed:
            if not isinstance(failed.error, ToolscopeError):
                raise failed.error from None  # a toolscope bug: the app reports it and exits
            self.owner.notify(inert(failed.error.render()), title=title, severity="error", markup=False)
            return None
