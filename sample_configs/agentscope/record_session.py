"""Record the sample session: a real AgentScope ``Agent`` with a scripted offline model.

The model asks for the web tools, searches, fetches a page, then means to switch to
"search only" and misspells the group: ``reset_tools({"web_serch": true})``. On
agentscope 2.0.6 that clears every group (2.0.6 cleared before validating), so the two
page_fetch calls that follow get "doesn't exist" and the model tells the user it has no
page_fetch tool. On 2.0.7+ the typo is refused and nothing is lost.

Re-record the shipped sample (agentscope 2.0.6 needs mcp<2, in a venv of its own)::

    python3.11 -m venv .venv-as206 && .venv-as206/bin/pip install -e . "agentscope==2.0.6" "mcp<2"
    .venv-as206/bin/python sample_configs/agentscope/record_session.py sample_configs/agentscope/session_typo.json

Other forms (``--format msgs`` writes a JSON array of Msg, ``--format jsonl`` one Msg per
line), and the live tap (``--tap FILE``: the agent gets ``SessionTap(FILE)`` as a
middleware; ``--delay S`` pauses before each model call so a follower can watch).
No network, no API key: the model is a script.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TOOLKIT = HERE / "toolkit.yaml"


def turn(text: str | None, name: str, args: dict[str, Any], call_id: str) -> list[Any]:
    """One model reply: an optional text block, then one tool call."""
    from agentscope.message import TextBlock, ToolCallBlock

    blocks: list[Any] = [TextBlock(text=text)] if text else []
    return blocks + [ToolCallBlock(id=call_id, name=name, input=json.dumps(args))]


def scripted_turns() -> list[list[Any]]:
    """What the model says, one list of blocks per model call."""
    from agentscope.message import TextBlock

    return [
        turn("I need the web tools for this.", "reset_tools", {"web_search": True, "scraping": True}, "call-1"),
        turn(None, "web_search", {"query": "example.org pages"}, "call-2"),
        turn(None, "page_fetch", {"url": "https://example.org/a"}, "call-3"),
        turn("Page a is read; I only need search from here on.", "reset_tools", {"web_serch": True}, "call-4"),
        turn(None, "page_fetch", {"url": "https://example.org/b"}, "call-5"),
        turn("That failed; trying the other page.", "page_fetch", {"url": "https://example.org/c"}, "call-6"),
        turn(None, "note_write", {"text": "Only page a could be read."}, "call-7"),
        [TextBlock(text="I don't have a page_fetch tool any more, so I could only read page a.")],
    ]


def drop_turns() -> list[list[Any]]:
    """A loss on every version: the model keeps only scraping, then calls page_fetch."""
    from agentscope.message import TextBlock

    return [
        turn("Web tools, please.", "reset_tools", {"web_search": True, "scraping": True}, "a1"),
        turn(None, "web_search", {"query": "secret-query-value"}, "a2"),
        turn("Scraping only now.", "reset_tools", {"scraping": True}, "a3"),
        turn(None, "page_fetch", {"url": "https://example.org/private"}, "a4"),
        [TextBlock(text="I can't fetch pages.")],
    ]


SCENARIOS = {"typo": scripted_turns, "drop": drop_turns}


def scripted_model(turns: list[list[Any]], delay: float = 0.0, observe: Any = None) -> Any:
    """A ChatModelBase that replays ``turns`` (no network). ``observe(messages, tools)``, when
    given, sees what each model call received (the tests record what the model was offered)."""
    from agentscope.credential import CredentialBase
    from agentscope.formatter import OpenAIChatFormatter
    from agentscope.message import TextBlock
    from agentscope.model import ChatModelBase, ChatResponse, ChatUsage

    class ScriptedModel(ChatModelBase):
        def __init__(self) -> None:
            super().__init__(
                credential=CredentialBase(),
                model="scripted",
                parameters=ChatModelBase.Parameters(),
                stream=False,
                max_retries=0,
            )
            self.formatter = OpenAIChatFormatter()  # the Agent reads formatter.supported_input_media_types
            self.turns = list(turns)

        async def _call_api(self, model_name, messages, tools=None, tool_choice=None, **kwargs):
            if delay:
                await asyncio.sleep(delay)
            if observe is not None:
                observe(messages, tools)
            blocks = self.turns.pop(0) if self.turns else [TextBlock(text="(script exhausted)")]
            return ChatResponse(
                content=blocks, is_last=True, usage=ChatUsage(input_tokens=0, output_tokens=0, time=0.0)
            )

    return ScriptedModel()


async def run_agent(
    toolkit_path: Path = TOOLKIT,
    middlewares: list[Any] | None = None,
    delay: float = 0.0,
    turns: Any = None,
    max_iters: int = 20,
) -> Any:
    """Run the scripted conversation on a real Agent; returns the agent (its state holds the session)."""
    from agentscope.agent import Agent, ReActConfig
    from agentscope.message import UserMsg

    from toolscope.core.systems.agentscope.spec import load_toolkit_spec

    built = load_toolkit_spec(toolkit_path)
    agent = Agent(
        name="researcher",
        system_prompt="You research web pages.",
        model=scripted_model(turns if turns is not None else scripted_turns(), delay),
        toolkit=built.toolkit,
        state=built.state.model_copy(deep=True),
        middlewares=middlewares or [],
        react_config=ReActConfig(max_iters=max_iters),
    )
    await agent.reply(UserMsg(name="user", content="Read the example.org pages a, b and c and note what you find."))
    return agent


def write_session(agent: Any, out: Path, form: str) -> None:
    """Save the agent's session: an AgentState dump, a JSON array of Msg, or JSONL."""
    if form == "state":
        out.write_text(agent.state.model_dump_json(indent=2) + "\n", encoding="utf-8")
        return
    messages = [m.model_dump(mode="json") for m in agent.state.context]
    if form == "msgs":
        out.write_text(json.dumps(messages, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    else:
        out.write_text("".join(json.dumps(m, ensure_ascii=False) + "\n" for m in messages), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Record the session to OUT (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, nargs="?", help="where to write the session")
    parser.add_argument("--format", choices=("state", "msgs", "jsonl"), default="state")
    parser.add_argument("--tap", type=Path, help="also record through toolscope's SessionTap to this file")
    parser.add_argument(
        "--scenario",
        choices=sorted(SCENARIOS),
        default="typo",
        help="typo (the sample) or drop (lost on every version)",
    )
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to wait before each model call")
    args = parser.parse_args(argv)
    middlewares = []
    if args.tap is not None:
        from toolscope.tap import SessionTap

        middlewares.append(SessionTap(args.tap))
    agent = asyncio.run(run_agent(middlewares=middlewares, delay=args.delay, turns=SCENARIOS[args.scenario]()))
    if args.out is not None:
        write_session(agent, args.out, args.format)
    print("activated_groups at the end:", agent.state.tool_context.activated_groups, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
