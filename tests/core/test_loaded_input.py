"""A subject is complete when ``load_*`` returns it, and says which files it read (``LoadedInput.paths``).

Output protection (``report -o``, ``inspect --screenshot``) and secret masking use those paths:
no command re-guesses input files from the basenames a report shows.
"""

from __future__ import annotations

import re
import shutil
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.cli.commands.report_document import input_files
from toolscope.core.systems.agentscope.ids import AgentScopeInput
from toolscope.core.systems.agentworks.load_request import StepConfigLoad
from toolscope.core.systems.agentworks.subject import load_agentworks_subject

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_configs"


@pytest.fixture
def mcp_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "mcp"
    shutil.copytree(SAMPLES / "mcp", folder)
    # An override whose server key AgentWorks does not read: its finding must be on the subject at once.
    (folder / "mcp_user.json").write_text('{"mcpServers": {"time": {"command": "python3", "cwd": "/tmp"}}}')
    return folder


def test_agentworks_subject_lists_every_file_behind_it_resolved(mcp_folder: Path, tmp_path: Path) -> None:
    link = tmp_path / "through-a-link"
    link.symlink_to(mcp_folder)
    subject = load_agentworks_subject(StepConfigLoad(link / "step_config.json", snapshot=link / "snapshot.json"))
    # The snapshot stands in for discovery, yet the mcp_config and its override are still inputs:
    # they hold the secrets a report masks and must never be overwritten.
    assert subject.loaded.paths == tuple(
        mcp_folder.resolve() / name
        for name in ("step_config.json", "toolscope.registry.yaml", "mcp.json", "mcp_user.json", "snapshot.json")
    )
    # Complete on return: the override's unknown key is already a config finding.
    assert [f.entry for f in subject.config_findings] == ["cwd"]
    assert subject.discovery is not None and subject.discovery.source.kind == "snapshot"


def test_static_registry_given_by_flag_is_in_paths_and_in_check_args(tmp_path: Path) -> None:
    (tmp_path / "step.json").write_text('{"id": "s", "agent_configs": {}}')
    other = tmp_path / "elsewhere"
    other.mkdir()
    (other / "reg.json").write_text('{"mcp_servers": {"a": ["search"]}}')
    subject = load_agentworks_subject(StepConfigLoad(tmp_path / "step.json", registry=other / "reg.json"))
    assert subject.loaded.paths == ((tmp_path / "step.json").resolve(), (other / "reg.json").resolve())
    assert subject.check_args.endswith(f"--registry {other / 'reg.json'}")
    assert subject.discovery is None and subject.config_findings == ()


def test_toolkit_spec_and_factory_files_are_in_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from toolscope.core.systems.agentscope.subject import load_toolkit_subject

    spec = load_toolkit_subject(str(SAMPLES / "agentscope" / "toolkit.yaml"), kind=AgentScopeInput.TOOLKIT_SPEC)
    assert spec.loaded.paths == ((SAMPLES / "agentscope" / "toolkit.yaml").resolve(),)
    assert spec.config_findings == ()
    factory = tmp_path / "honest_factory_module.py"
    factory.write_text(
        textwrap.dedent("""
        from agentscope.state import AgentState
        from agentscope.tool import Toolkit

        def build():
            return Toolkit(), AgentState()
        """)
    )
    by_file = load_toolkit_subject(f"{factory}:build", kind=AgentScopeInput.TOOLKIT_FACTORY)
    assert by_file.loaded.paths == (factory.resolve(),)
    # package.module:function: the module's file is protected although the report does not list it.
    monkeypatch.chdir(tmp_path)
    by_module = load_toolkit_subject("honest_factory_module:build", kind=AgentScopeInput.TOOLKIT_FACTORY)
    assert by_module.loaded.files == () and by_module.loaded.paths == (factory.resolve(),)


def test_input_files_are_the_subjects_paths_not_look_alikes_in_the_cwd(
    mcp_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file in the current folder that merely shares an input's name is not an input."""
    cwd = tmp_path / "work"
    cwd.mkdir()
    (cwd / "toolscope.registry.yaml").write_text("# my own notes, not the registry\n")
    monkeypatch.chdir(cwd)
    config = str(mcp_folder / "step_config.json")
    snapshot = mcp_folder / "snapshot.json"
    subject = load_agentworks_subject(StepConfigLoad(Path(config), snapshot=snapshot))
    found = [p.resolve() for p in input_files(config, subject, None, snapshot, None, None)]
    assert (cwd / "toolscope.registry.yaml").resolve() not in found
    assert set(found) == set(subject.loaded.paths)
    # Before loading only what the command line names is known (the fail-fast check).
    assert input_files(config, None, None, snapshot, None, None) == [snapshot, Path(config)]


def test_report_may_replace_a_look_alike_but_never_the_input(
    mcp_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cwd = tmp_path / "work"
    cwd.mkdir()
    decoy = cwd / "toolscope.registry.yaml"
    decoy.write_text("# my own notes\n")
    monkeypatch.chdir(cwd)
    args = ["report", str(mcp_folder / "step_config.json"), "--snapshot", str(mcp_folder / "snapshot.json")]
    result = CliRunner().invoke(app, [*args, "-o", str(decoy), "--force", "-f", "md"])
    assert result.exit_code == 0, result.output
    assert decoy.read_text().startswith("# ")
    registry = mcp_folder / "toolscope.registry.yaml"
    before = registry.read_bytes()
    result = CliRunner().invoke(app, [*args, "-o", str(registry), "--force"])
    assert result.exit_code == 2 and "input file" in result.output
    assert registry.read_bytes() == before


def test_no_front_end_probes_or_patches_a_subject() -> None:
    """Subjects are typed (``core.model.subject``): no getattr/hasattr on them, no attributes set after load."""
    probe = re.compile(r"\b(getattr|hasattr)\(\s*(self\.)?\w*subject\b|\bsubject\.\w+\s*[-+|]?=(?!=)")
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for folder in ("core", "cli", "tui")
        for path in (ROOT / folder).rglob("*.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if probe.search(line)
    ]
    assert offenders == []
