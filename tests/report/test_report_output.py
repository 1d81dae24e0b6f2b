"""Where a report goes: stdout, atomic files, --force, never over an input, clear errors."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.outputs.output_file import write_output as write_report

SEED = "sample_configs/seed/step_config.json"


def run(*args: str):
    return CliRunner().invoke(app, ["report", *args])


@pytest.fixture
def seed_copy(tmp_path: Path) -> Path:
    """The seed sample copied to a scratch folder (config + its registry next to it)."""
    folder = tmp_path / "seed"
    shutil.copytree(Path(__file__).resolve().parents[2] / "sample_configs" / "seed", folder)
    return folder


def test_dash_writes_stdout(in_repo: Path) -> None:
    """`-o -` (the default) prints the report."""
    result = run(SEED, "-o", "-", "-f", "md")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("# toolscope report: ")
    assert "notify\\_user" in result.stdout


def test_writes_a_file_and_refuses_to_replace_it_without_force(tmp_path: Path, in_repo: Path) -> None:
    """A file is written; a second run refuses (exit 2) and leaves it; --force replaces it."""
    out = tmp_path / "report.json"
    assert run(SEED, "-o", str(out)).exit_code == 0  # format from the suffix
    first = out.read_bytes()
    assert json.loads(first)["schema"] == "toolscope.report/2"
    out.write_text("keep me")
    result = run(SEED, "-o", str(out))
    assert result.exit_code == 2
    assert "already exists" in result.stderr and "--force" in result.stderr
    assert out.read_text() == "keep me"
    result = run(SEED, "-o", str(out), "--force")
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == first
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"], "no temporary files left behind"


@pytest.mark.parametrize("target", ["step_config.json", "toolscope.registry.yaml"])
def test_refuses_to_write_over_an_input_file(seed_copy: Path, target: str) -> None:
    """Even with --force: the config, and the registry found next to it, are inputs."""
    victim = seed_copy / target
    before = victim.read_bytes()
    result = run(str(seed_copy / "step_config.json"), "-o", str(victim), "--force", "-f", "md")
    assert result.exit_code == 2
    assert "input file" in result.stderr
    assert victim.read_bytes() == before


def test_refuses_an_input_file_reached_by_another_path(seed_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Paths are compared resolved: ./x/../step_config.json is still the config."""
    monkeypatch.chdir(seed_copy)
    (seed_copy / "x").mkdir()
    result = run("step_config.json", "-o", "x/../toolscope.registry.yaml", "--force")
    assert result.exit_code == 2 and "input file" in result.stderr


def test_refuses_to_write_over_the_script(in_repo: Path, tmp_path: Path) -> None:
    """The --script file is an input too."""
    script = tmp_path / "typo.json"
    shutil.copy("sample_configs/agentscope/typo.json", script)
    before = script.read_bytes()
    result = run(
        "sample_configs/agentscope/toolkit.yaml", "--script", str(script), "-o", str(script), "--force", "-f", "json"
    )
    assert result.exit_code == 2 and "input file" in result.stderr
    assert script.read_bytes() == before


def test_missing_output_folder_is_a_clear_error(tmp_path: Path, in_repo: Path) -> None:
    """Exit 2, naming the folder; nothing is created."""
    out = tmp_path / "no" / "such" / "report.md"
    result = run(SEED, "-o", str(out))
    assert result.exit_code == 2
    assert "does not exist" in result.stderr and str(tmp_path / "no" / "such") in result.stderr
    assert not (tmp_path / "no").exists()


def test_bad_options_exit_2(in_repo: Path, tmp_path: Path) -> None:
    """Unknown format, bad size, unknown mode, --script on a step config: exit 2, no traceback."""
    for args, words in (
        (["-f", "pdf"], "md, html, json, svg"),
        (["-f", "svg", "--size", "huge"], "120x36"),
        (["-m", "nosuchmode"], "nosuchmode"),
        (["--script", "sample_configs/agentscope/typo.json"], "AgentScope toolkits"),
    ):
        result = run(SEED, *args)
        assert result.exit_code == 2, (args, result.output)
        assert words in result.stderr
        assert "Traceback" not in result.output


def test_timestamp_only_when_asked(in_repo: Path) -> None:
    """No time in the report unless --timestamp."""
    plain = json.loads(run(SEED, "-f", "json").stdout)
    stamped = json.loads(run(SEED, "-f", "json", "--timestamp").stdout)
    assert plain["generated_at"] is None
    assert stamped["generated_at"].endswith("Z")
    assert "generated at" in run(SEED, "-f", "md", "--timestamp").stdout


DETERMINISM_CASES = {
    "seed": [SEED, "-m", "build", "-m", "run", "-t", "notify_user"],
    "toolkit+script": [
        "sample_configs/agentscope/my_agent.py:build_toolkit",
        "--script",
        "sample_configs/agentscope/typo.json",
        "-m",
        "default",
        "-m",
        "bypass",
        "-t",
        "web_search",
    ],
}


@pytest.mark.parametrize("case", sorted(DETERMINISM_CASES))
@pytest.mark.parametrize("fmt", ["md", "json", "html"])
def test_deterministic(fmt: str, case: str, in_repo: Path, tmp_path: Path) -> None:
    """Two runs give byte-identical reports (files and stdout alike)."""
    args = [*DETERMINISM_CASES[case], "-f", fmt]
    first, second = tmp_path / f"a.{fmt}", tmp_path / f"b.{fmt}"
    assert run(*args, "-o", str(first)).exit_code == 0
    assert run(*args, "-o", str(second)).exit_code == 0
    assert first.read_bytes() == second.read_bytes()
    assert run(*args).stdout_bytes == first.read_bytes()


def test_no_absolute_paths_in_reports(seed_copy: Path) -> None:
    """Given absolute paths, the report still names files without the machine's folders."""
    for fmt in ("md", "json", "html"):
        result = run(
            str(seed_copy / "step_config.json"), "--registry", str(seed_copy / "toolscope.registry.yaml"), "-f", fmt
        )
        assert result.exit_code == 0, result.output
        assert str(seed_copy) not in result.stdout


def test_write_report_is_atomic_on_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """If the rename fails, the old file is intact and no temporary file is left."""
    out = tmp_path / "r.md"
    out.write_text("old")

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    from toolscope.core.model.errors import InputError

    with pytest.raises(InputError, match="No space left"):
        write_report("new", str(out), force=True)
    assert out.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["r.md"]


def test_new_file_gets_normal_permissions(tmp_path: Path) -> None:
    """The temporary file's 0600 is not what the user gets."""
    out = tmp_path / "r.md"
    write_report("x", str(out), force=False)
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask


def test_summary_counts_are_words_not_placeholders() -> None:
    """ "1 error(s)" and "1 tool(s) change" read as unfinished; counts agree with their nouns."""
    from toolscope.core.model.counts import count_of

    assert [count_of(n, "tool") for n in (0, 1, 2, 50005)] == ["0 tools", "1 tool", "2 tools", "50,005 tools"]
    assert count_of(2, "entry", "entries") == "2 entries"
    golden = Path(__file__).parent / "golden"
    for name in ("seed.md", "realistic.md", "seed.json", "realistic.json"):
        assert not re.findall(r"\d[\d,]* [\w-]+\(s\)", (golden / name).read_text()), name
    assert "Invariant checks: 1 error, 0 warnings." in (golden / "seed.md").read_text()
    assert "1 tool changes visibility between the modes." in (golden / "seed.md").read_text()
