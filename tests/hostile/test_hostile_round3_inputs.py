"""Round 3 of the hostile pass (issue #31), the inputs: special files read as data, a second
recursive parser, wrong-typed values in the CLIs' files, long paths, and silent skips.

The memory cases run the real CLI in a subprocess under ``RLIMIT_AS``, so a regression fails
(MemoryError, exit 70) instead of eating the machine; the pipe cases under a timeout.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_helpers import bad, run_bounded

REPO = Path(__file__).resolve().parents[2]
AGENTWORKS = REPO / "tests" / "core" / "agentworks"
REGISTRY_A = str(AGENTWORKS / "eras" / "allow_list" / "toolscope.registry.yaml")
GO_ERA_A = ("shared", "era_a")
LONG = "/tmp/" + "a" * 5000
MIB = 1024 * 1024


def toolscope_limited(*args: str, memory_mib: int = 450, timeout: float = 60, cwd: Path | None = None):
    """The real CLI in a subprocess with at most ``memory_mib`` of address space, ended after ``timeout``."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_mib * MIB, memory_mib * MIB))

    return subprocess.run(
        [sys.executable, "-m", "toolscope", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=limit,
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"},
    )


def go_checkout(tmp_path: Path, name: str = "go") -> Path:
    checkout = tmp_path / name
    for layer in GO_ERA_A:
        shutil.copytree(AGENTWORKS / "go_fixtures" / layer, checkout, dirs_exist_ok=True)
    return checkout


# -- class 4: special files read as data ---------------------------------------------------------


def test_a_go_file_linked_to_dev_zero_is_named_not_read_without_end(tmp_path):
    checkout = go_checkout(tmp_path)
    (checkout / "zero.go").symlink_to("/dev/zero")
    result = toolscope_limited("registry", "check", REGISTRY_A, "--go-src", str(checkout))
    assert result.returncode in (0, 1), result.stderr[-2000:]
    assert "not read: zero.go: is a character device" in result.stdout


def test_a_go_file_that_is_a_fifo_is_named_and_never_waited_on(tmp_path):
    checkout = go_checkout(tmp_path)
    os.mkfifo(checkout / "pipe.go")
    result = toolscope_limited("registry", "check", REGISTRY_A, "--go-src", str(checkout), timeout=30)
    assert result.returncode in (0, 1), result.stderr[-2000:]
    assert "not read: pipe.go: is a named pipe (FIFO)" in result.stdout


def test_all_go_files_together_have_a_memory_budget(tmp_path):
    """100 files just under the per-file cap (sparse: no disk) are 390 MB, past a 300 MiB address-space
    limit (today: MemoryError, exit 70); the tree's budget stops reading at 128 MiB."""
    from toolscope.core.systems.agentworks.go_syntax import MAX_GO_FILE_BYTES, MAX_GO_TREE_BYTES

    checkout = go_checkout(tmp_path)
    for index in range(100):
        with open(checkout / f"big_{index:03d}.go", "wb") as handle:
            handle.truncate(MAX_GO_FILE_BYTES - 100_000)
    assert 100 * (MAX_GO_FILE_BYTES - 100_000) > 2 * MAX_GO_TREE_BYTES
    result = toolscope_limited("registry", "check", REGISTRY_A, "--go-src", str(checkout), "--json", memory_mib=300)
    assert result.returncode in (0, 1), result.stderr[-2000:]
    data = json.loads(result.stdout)
    unread = [line for line in data["not_found"] if line.startswith("not read: ")]
    assert unread and "together may take at most 128 MiB" in unread[0], data["not_found"]
    assert data["lists"], "the facts in the files read are still compared"


def test_a_capture_into_a_fifo_is_refused_at_once(tmp_path):
    fifo = tmp_path / "capture.jsonl"
    os.mkfifo(fifo)
    for extra in ([], ["--force"]):
        result = toolscope_limited("capture", "-o", str(fifo), *extra, "--", "true", timeout=30)
        assert result.returncode == 2, result.stderr[-2000:]
        assert "is a named pipe (FIFO); this output is written to a regular file" in result.stderr


def test_the_capture_writer_refuses_a_device_even_after_the_check(tmp_path):
    """The writer checks what it opened (fstat), not only what the CLI looked at before."""
    from toolscope.core.capture.writer import CaptureWriter
    from toolscope.core.model.errors import InputError

    with pytest.raises(InputError, match="is a character device"):
        CaptureWriter(Path("/dev/null"))
    link = tmp_path / "out.jsonl"
    link.symlink_to("/dev/null")
    with pytest.raises(InputError, match="is a character device"):
        CaptureWriter(link)


# -- class 5: a second, recursive parser behind a bounded one --------------------------------------


def _product_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "wf"
    shutil.copytree(AGENTWORKS / "eras" / "product_manifest", folder)
    return folder


def test_a_product_yaml_900_deep_is_never_a_crash(tmp_path):
    folder = _product_copy(tmp_path)
    with open(folder / "product.yaml", "a") as handle:
        handle.write("deep: " + "[" * 900 + "]" * 900 + "\n")
    result = run_bounded("check", str(folder / "planning" / "step_config.json"))
    assert result.exit_code in (0, 1), result.output
    assert "toolscope bug" not in result.output


def _codex_project(tmp_path: Path, project_toml: str, home_toml: str = "# none\n") -> tuple[Path, Path]:
    project, home = tmp_path / "proj", tmp_path / "codex-home"
    (project / ".codex").mkdir(parents=True)
    home.mkdir()
    (project / ".codex" / "config.toml").write_text(project_toml)
    (home / "config.toml").write_text(home_toml)
    return project, home


def test_an_untrusted_codex_config_nested_2000_deep_is_bad_input_with_its_place(tmp_path):
    project, home = _codex_project(tmp_path, 'model = "x"\nx = ' + "[" * 2000 + "]" * 2000 + "\n")
    result = run_bounded("tools", f"codex:{project}", "--codex-home", str(home))
    bad(result, ".codex/config.toml: nested too deeply to read", "line 2, column 105: more than 100 levels")


def test_a_deep_codex_override_is_kept_as_text_as_codex_does(tmp_path):
    project, home = _codex_project(tmp_path, "# none\n")
    deep = "[" * 2000 + "]" * 2000
    result = run_bounded("tools", f"codex:{project}", "--codex-home", str(home), "-c", f"x={deep}")
    assert result.exit_code in (0, 1), result.output


# -- class 6: wrong-typed values in the CLIs' own files --------------------------------------------


def _claude_project(tmp_path: Path, claude_json: dict) -> tuple[Path, Path]:
    project, home = tmp_path / "proj", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"t": {"command": "true"}}}))
    (home / ".claude.json").write_text(json.dumps(claude_json))
    return project, home


@pytest.mark.parametrize("command", ["tools", "check", "report"])
def test_claude_json_projects_of_the_wrong_type_is_file_place_and_expected(tmp_path, command):
    project, home = _claude_project(tmp_path, {"projects": 5})
    result = run_bounded(command, f"claude-code:{project}", "--home", str(home))
    bad(result, ".claude.json: not a valid Claude Code state file", "projects: expected an object (got 5)")


def test_claude_project_state_of_the_wrong_type_names_the_key_path(tmp_path):
    project, home = _claude_project(tmp_path, {})
    (home / ".claude.json").write_text(json.dumps({"projects": {str(project): {"hasTrustDialogAccepted": "yes"}}}))
    result = run_bounded("tools", f"claude-code:{project}", "--home", str(home))
    bad(result, f"projects.{project}.hasTrustDialogAccepted: expected true or false")


def test_codex_enabled_tools_of_numbers_is_file_place_and_expected(tmp_path):
    project, home = _codex_project(tmp_path, "", '[mcp_servers.t]\ncommand = "true"\nenabled_tools = [1]\n')
    result = run_bounded("tools", f"codex:{project}", "--codex-home", str(home))
    bad(
        result,
        "config.toml: not a valid Codex user config",
        "mcp_servers.t.enabled_tools[0]: expected a string (got 1)",
    )


def test_codex_requirements_of_the_wrong_type_is_bad_input(tmp_path):
    project, home = _codex_project(tmp_path, "# none\n")
    system = tmp_path / "etc-codex"
    system.mkdir()
    (system / "requirements.toml").write_text("[mcp_servers.t]\nidentity = 5\n")
    result = run_bounded("tools", f"codex:{project}", "--codex-home", str(home), "--codex-system-dir", str(system))
    bad(result, "requirements.toml: not a valid Codex requirements", "mcp_servers.t.identity: expected an object")


def test_client_home_settings_deny_of_the_wrong_type_is_bad_input(tmp_path):
    home = tmp_path / "client-home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"permissions": {"deny": 5}}))
    result = run_bounded("check", str(REPO / "sample_configs" / "seed" / "steps.json"), "--client-home", str(home))
    bad(result, "settings.json: not a valid Claude Code settings", "permissions.deny: expected a list (got 5)")


def test_inline_settings_of_the_wrong_type_is_bad_input(tmp_path):
    project, home = _claude_project(tmp_path, {})
    args = "--settings '" + json.dumps({"enabledMcpjsonServers": "t"}) + "'"
    result = run_bounded("tools", f"claude-code:{project}", "--home", str(home), "--client-args", args)
    bad(result, "--client-args --settings: not a valid --settings", "enabledMcpjsonServers: expected a list")


# -- class 7: long paths ---------------------------------------------------------------------------


def _long_path_cases(tmp_path: Path) -> list[list[str]]:
    project, home = _claude_project(tmp_path, {})
    step = str(AGENTWORKS / "eras" / "allow_list" / "step_config.json")
    return [
        ["tools", f"claude-code:{LONG}"],
        ["tools", f"codex:{LONG}"],
        ["tools", LONG],
        ["tools", f"claude-code:{project}", "--home", LONG],
        ["tools", f"claude-code:{project}", "--home", str(home), "--client-args", f"--mcp-config {LONG}"],
        ["tools", f"codex:{project}", "--codex-home", LONG],
        ["registry", "check", REGISTRY_A, "--go-src", LONG],
        ["tools", step, "--step", "build", "--workflow", LONG],
    ]


def test_paths_longer_than_the_system_allows_are_bad_input_everywhere(tmp_path):
    for args in _long_path_cases(tmp_path):
        result = run_bounded(*args)
        bad(result, "the path is too long (5,0")
        assert len(result.output) < 2000, "the path is clipped in the message"


# -- class 12: silent skips ------------------------------------------------------------------------


def _workflow_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "wf"
    shutil.copytree(AGENTWORKS / "eras" / "allow_list", folder)
    return folder


@pytest.mark.parametrize("shape", ["folder", "fifo", "loop"])
def test_a_workflow_json_that_cannot_be_read_is_said_never_skipped(tmp_path, shape):
    folder = _workflow_folder(tmp_path)
    target = folder / "workflow.json"
    if shape == "folder":
        target.mkdir()
        needle = "is a directory"
    elif shape == "fifo":
        os.mkfifo(target)
        needle = "is a named pipe (FIFO)"
    else:
        target.symlink_to(folder / "loop.json")
        (folder / "loop.json").symlink_to(target)
        needle = "is a symbolic link loop"
    result = run_bounded("tools", str(folder / "step_config.json"), "--step", "build")
    bad(result, "workflow.json", needle)


def test_a_go_file_over_the_cap_is_named_and_its_facts_are_not_concluded_absent(tmp_path):
    from toolscope.core.systems.agentworks.go_syntax import MAX_GO_FILE_BYTES

    checkout = go_checkout(tmp_path)
    holder = checkout / "app" / "step_based_workflow" / "interactive_workshop_manager.go"
    with open(holder, "a") as handle:
        handle.write("\n// " + "x" * MAX_GO_FILE_BYTES + "\n")
    result = run_bounded("registry", "check", REGISTRY_A, "--go-src", str(checkout), "--json")
    data = json.loads(result.stdout)
    modes = next(line for line in data["not_found"] if line.startswith("mode lists:"))
    assert "not concluded absent" in modes, data["not_found"]
    assert any(
        line.startswith("not read: app/step_based_workflow/interactive_workshop_manager.go: is 4,")
        for line in data["not_found"]
    ), data["not_found"]


def test_a_huge_workshop_mode_is_shown_clipped(tmp_path):
    folder = _workflow_folder(tmp_path)
    elsewhere = tmp_path / "workflow.json"
    elsewhere.write_text(json.dumps({"execution_defaults": {"workshop_mode": "x" * 5_000_000}}))
    for command in ("tools", "check", "report"):
        result = run_bounded(command, str(folder / "step_config.json"), "--step", "build", "--workflow", str(elsewhere))
        assert result.exit_code in (0, 1), result.output
        assert "is not a workshop mode" in result.output
        assert len(result.output) < 20_000, f"{command}: {len(result.output):,} characters"


# -- the one checked open, for hashes and headers too ---------------------------------------------


def test_hashes_and_headers_use_the_checked_open(tmp_path):
    """A script, session, snapshot or config is hashed (and a session's header read) through the same
    checked open as every read: a pipe is refused at once, a device is never read, any size is hashed."""
    from toolscope.core.inputs.input_files import file_sha256, read_head
    from toolscope.core.model.errors import InputError
    from toolscope.core.systems.agentscope.sqlite_files import is_wal

    fifo = tmp_path / "session.db"
    os.mkfifo(fifo)
    for call in (lambda: file_sha256(fifo), lambda: read_head(fifo, 20), lambda: file_sha256(Path("/dev/zero"))):
        with pytest.raises(InputError, match="named pipe|character device"):
            call()
    assert is_wal(fifo) is False
    big = tmp_path / "big.db"
    with open(big, "wb") as handle:
        handle.truncate(200 * MIB)  # over the read cap: hashed in pieces, never held whole
    assert file_sha256(big) == "72abf2ca8f36943ebe2e49ca3a51d409ca5f0bfcffab6c9d25643c17c32889da"  # 200 MiB of zeros
