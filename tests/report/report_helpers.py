"""Helpers for the report tests: the real samples and their golden files (the hand-built
subject is ``hand_subject.HandSubject``, shared with the TUI tests)."""

from __future__ import annotations

from pathlib import Path

from toolscope.cli.commands.subject_options import SubjectOptions

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_configs"
GOLDEN = Path(__file__).resolve().parent / "golden"


# -- the real samples -------------------------------------------------------------
# Each case: golden name → (config, options for make_report). Paths are relative to the
# repository root, as a user would type them there (tests chdir into it).
SAMPLE_CASES: dict[str, tuple[str, dict]] = {
    "seed": (
        "sample_configs/seed/step_config.json",
        {"modes": ["build", "run"], "tools": ["notify_user", "get_pulse_module_state", "notfy_user"]},
    ),
    "realistic": (
        "sample_configs/realistic/step_config.json",
        {
            "subject_options": SubjectOptions(step="collect-issues"),
            "modes": ["workshop", "run"],
            "tools": ["notify_user"],
        },
    ),
    "toolkit": (
        "sample_configs/agentscope/toolkit.yaml",
        {
            "modes": ["default", "explore"],
            "tools": ["web_search"],
            "script": Path("sample_configs/agentscope/typo.json"),
        },
    ),
}


def golden_environment(case: str):
    """Fixed versions, so goldens don't change with the machine's Python or toolscope's version.

    Toolkit reports keep the installed AgentScope's version and probe: their transcript comes
    from that AgentScope too, so their golden files are per AgentScope version.
    """
    from toolscope.core.report.build import current_environment
    from toolscope.core.report.data import Environment

    if case == "toolkit":
        real = current_environment("toolkit_spec")
        return Environment("golden", "3.x", real.agentscope_version, real.reset_tools)
    return Environment("golden", "3.x")


def golden_stem(case: str) -> str:
    """File stem of a case's golden files (toolkit ones carry the AgentScope version)."""
    if case == "toolkit":
        from importlib.metadata import version

        return f"toolkit-agentscope-{version('agentscope')}"
    return case
