"""Fixtures of the report tests (helpers live in ``report_helpers`` and ``hand_subject``: a conftest is not
importable by name)."""

from __future__ import annotations

import pytest
from hand_subject import HandSubject, make_tool

from toolscope.core.model.enums import Severity
from toolscope.core.model.verdicts import Finding, LoadedInput
from toolscope.core.systems.agentworks.ids import AgentWorksFinding, AgentWorksInput


@pytest.fixture
def hostile_subject() -> HandSubject:
    """A subject whose names, descriptions and rules carry markup, HTML and secrets."""
    loaded = LoadedInput(
        kind=AgentWorksInput.STEP_CONFIG,
        label='step_config.json <script>alert("label")</script>',
        files=(("step_config.json", "a" * 64), ("/home/someone/secret/toolscope.registry.yaml", "b" * 64)),
        step="step-1",
        registry="/home/someone/secret/toolscope.registry.yaml",
        mode="build",
        extra=(("api_token", "tok-SHOULD-NOT-LEAK-1"), ("server", "github via ghp_SECRETVALUE123")),
    )
    tools = [
        make_tool(
            "<script>alert(1)</script>",
            "evil",
            "allow_listed",
            rule='not in mode "build"; "><img src=x onerror=alert(2)>',
            description="[bold red]pwn[/] | cell\nbreak @everyone",
        ),
        make_tool('"><img src=x onerror=alert(3)>', "evil|ns", "registered", description="@everyone # heading"),
        make_tool("[bold red]rich[/bold red]", "github", None, description="uses ghp_SECRETVALUE123 as token"),
        make_tool("notify_user", "human", "allow_listed", rule='not in system slice nor in mode "build"'),
        make_tool("caf\u00e9\x1b[31m", "unicode", None, description="\u5de5\u5177 \u202e"),
    ]
    run_tools = [make_tool(t.name, t.namespace, None, description=t.description) for t in tools[:3]] + [tools[3]]
    findings = [
        Finding(
            AgentWorksFinding.REGISTERED_NOT_ALLOW_LISTED,
            'notify_user is registered but in no mode | "<b>"',
            tool="notify_user",
            entry="human:*",
            source="step_config.json: selected_tools[0]",
        ),
        Finding(
            AgentWorksFinding.DEAD_RULE, "entry [red]x[/red] matches nothing", entry="x", severity=Severity.WARNING
        ),
    ]
    return HandSubject(loaded, {"build": tools, "run": run_tools}, findings)
