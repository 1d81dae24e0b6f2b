"""The report core stays a core module: no Textual, Rich, Typer or AgentScope on import."""

from __future__ import annotations

import subprocess
import sys


def test_report_core_imports_no_front_end() -> None:
    code = (
        "import sys\n"
        "import toolscope.core.report.build, toolscope.core.report.markdown, toolscope.core.report.html\n"
        "import toolscope.core.report.json_report, toolscope.core.outputs.output_file, toolscope.core.report.adapters\n"
        "bad = [m for m in ('textual', 'rich', 'typer', 'agentscope', 'mcp') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""
