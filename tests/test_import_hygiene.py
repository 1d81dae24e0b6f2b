"""core never imports textual, typer, rich or agentscope; the CLI on step configs never imports AgentScope."""

from __future__ import annotations

import subprocess
import sys

import pytest

CORE_MODULES = [
    "toolscope.core",
    "toolscope.core.verdicts",
    "toolscope.core.agentworks.subject",
    "toolscope.core.agentworks.pipeline",
    "toolscope.core.agentscope",
    "toolscope.core.agentscope.planner",
    "toolscope.core.agentscope.subject",
    "toolscope.core.mcp.discovery",
    "toolscope.core.mcp.snapshot",
    "toolscope.core.mcp.agentscope_clients",
]


def imported_after(code: str) -> set[str]:
    script = code + "\nimport sys\nprint('\\n'.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    return set(out.split())


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_imports_no_ui_and_no_agentscope(module: str):
    modules = imported_after(f"import {module}")
    for forbidden in ("textual", "typer", "rich", "agentscope", "mcp"):
        assert forbidden not in modules, f"{module} imported {forbidden}"


def test_cli_on_a_step_config_never_imports_agentscope_or_textual(tmp_path):
    from pathlib import Path

    step = Path(__file__).resolve().parent.parent / "sample_configs" / "seed" / "step_config.json"
    code = (
        "import sys\n"
        "from toolscope.app import app\n"
        f"try:\n    app(['tools', {str(step)!r}, '--json'])\n"
        "except SystemExit:\n    pass\n"
        "print('MODULES', *[m for m in ('agentscope', 'textual', 'mcp') if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out.strip().splitlines()[-1] == "MODULES"
