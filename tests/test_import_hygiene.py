"""core never imports textual, typer, rich or agentscope; the CLI on step configs never imports AgentScope."""

from __future__ import annotations

import subprocess
import sys

import pytest

CORE_MODULES = [
    "toolscope.core",
    "toolscope.core.model.verdicts",
    "toolscope.core.systems.agentworks.subject",
    "toolscope.core.systems.agentworks.pipeline",
    "toolscope.core.systems.agentscope",
    "toolscope.core.systems.agentscope.planner",
    "toolscope.core.systems.agentscope.subject",
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
        "from toolscope.cli.app import app\n"
        f"try:\n    app(['tools', {str(step)!r}, '--json'])\n"
        "except SystemExit:\n    pass\n"
        "print('MODULES', *[m for m in ('agentscope', 'textual', 'mcp') if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out.strip().splitlines()[-1] == "MODULES"


def _modules_after_cli(args: list[str]) -> set[str]:
    # A fresh interpreter runs the CLI as the console script does, then lists sys.modules.
    code = (
        "import sys\n"
        "from toolscope.cli.app import app\n"
        f"try:\n    app({args!r})\n"
        "except SystemExit:\n    pass\n"
        "print('MODULES', *sorted(sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    line = [ln for ln in out.splitlines() if ln.startswith("MODULES")][-1]
    return set(line.split()[1:])


def _under(modules: set[str], *packages: str) -> list[str]:
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in packages))


def test_explain_on_a_step_config_imports_no_report_mcp_textual_or_agentscope_module():
    from pathlib import Path

    step = Path(__file__).resolve().parent.parent / "sample_configs" / "seed" / "step_config.json"
    modules = _modules_after_cli(["explain", str(step), "notify_user", "--mode", "build"])
    assert "toolscope.core.systems.agentworks.pipeline" in modules  # it did run
    # The CLI reads the view names (``inspect --view``) from tui/views.py, which imports no Textual.
    tui_views = {"toolscope.tui", "toolscope.tui.views"}
    heavy = _under(
        modules, "toolscope.core.report", "toolscope.core.mcp", "toolscope.tui", "textual", "agentscope", "mcp"
    )
    assert [m for m in heavy if m not in tui_views] == []


def test_help_imports_no_engine_no_pydantic_models_and_no_rich_tables():
    modules = _modules_after_cli(["--help"])
    assert "toolscope.cli.commands.report" in modules  # every command is registered
    # The registry's declarations (each system's system.py and ids.py: data) may be read; no engine.
    engines = _under(modules, "toolscope.core.systems", "toolscope.core.report", "toolscope.core.mcp")
    declarations = {"toolscope.core.systems", "toolscope.core.systems.registry", "toolscope.core.systems.contract"}
    declarations |= {"toolscope.core.systems.shared_options", "toolscope.core.systems.recognise"}
    declarations |= {"toolscope.core.systems.coding_cli.options"}  # --client-args, declared once for both CLIs
    packages = {f"toolscope.core.systems.{p}" for p in ("agentworks", "agentscope", "agentscope.v1", "claude_code")}
    packages |= {
        "toolscope.core.systems.codex",
        "toolscope.core.systems.coding_cli",
        "toolscope.core.systems.gemini_cli",
        "toolscope.core.systems.opencode",
    }  # their __init__: docstrings
    assert [m for m in engines if m not in declarations | packages and not m.endswith((".system", ".ids"))] == []
    assert "toolscope.core.systems.agentworks.pipeline" not in modules
    assert _under(modules, "pydantic.main", "rich.table", "yaml", "textual", "agentscope") == []
