"""The probe's answer must match what the installed version actually does."""

from __future__ import annotations

import pytest
from agentscope_version import agentscope_version

pytestmark = pytest.mark.agentscope


def test_probe_matches_the_installedagentscope_version() -> None:
    from toolscope.core.systems.agentscope.probe import run_probe

    probe = run_probe()
    version = agentscope_version()
    import agentscope

    assert probe.agentscope_version == agentscope.__version__
    if version == (2, 0, 6):
        assert probe.refused_call_changes_state is True
        assert probe.unknown_names_stored is True
        assert probe.refusal_reported_as_error is False
        assert (probe.coerces_yes, probe.coerces_one) == (False, False)
        assert "clears before validating" in probe.summary()
        assert "stores unknown group names" in probe.summary()
    if version >= (2, 0, 7):
        assert probe.refused_call_changes_state is False
        assert probe.unknown_names_stored is False
        assert probe.refusal_reported_as_error is True
        assert "validates before applying" in probe.summary()
    if version >= (2, 0, 11):
        assert probe.coerces_yes and probe.coerces_one
        assert 'coerces "yes" and "1"' in probe.summary()


def test_probe_matches_direct_observation(seed_built, call) -> None:
    """Independent of version tables: the probe agrees with the seed toolkit's own behaviour."""
    import asyncio

    from toolscope.core.systems.agentscope.probe import probe_stock_reset_tools

    probe = probe_stock_reset_tools()

    async def observe() -> tuple[bool, bool]:
        state = seed_built.state
        await call(seed_built.toolkit, state, {"web_serch": True})
        stored = "web_serch" in state.tool_context.activated_groups
        state.tool_context.activated_groups[:] = ["scraping"]
        await call(seed_built.toolkit, state, {"web_search": "yes"})
        coerced = state.tool_context.activated_groups == ["web_search"]
        return stored, coerced

    stored, coerced = asyncio.run(observe())
    assert probe.unknown_names_stored is stored
    assert probe.coerces_yes is coerced
    assert probe.to_json()["summary"] == probe.summary()


async def test_probe_runs_inside_a_running_loop() -> None:
    from toolscope.core.systems.agentscope.probe import run_probe

    assert run_probe().agentscope_version
