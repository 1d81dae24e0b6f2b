"""The tap users add to their agent, in one line (see ``toolscope.core.systems.agentscope.tap``)::

from toolscope.tap import SessionTap
agent = Agent(..., middlewares=[SessionTap("/tmp/agent.tap.jsonl")])
"""

from toolscope.core.systems.agentscope.tap import SessionTap

__all__ = ["SessionTap"]
