"""What a new user reads at 80 columns (#22): marks, words, did-you-means and wrapped errors."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from toolscope.cli.app import app

SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs"
SEED = str(SAMPLES / "seed" / "step_config.json")
REALISTIC = str(SAMPLES / "realistic" / "step_config.json")
TOOLKIT = str(SAMPLES / "agentscope" / "toolkit.yaml")


def run(*args: str, width: int = 80):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": str(width)})


def row(out: str, tool: str) -> str:
    return next(line for line in out.splitlines() if line[2:].startswith(tool + " "))


def test_tools_hidden_marks_rows_as_the_tui_does() -> None:
    """``!`` for a registered tool a later gate blocks (with a fix), ``·`` for one hidden by design,
    and a legend saying which is which."""
    out = run("tools", REALISTIC, "--step", "pulse-check", "--hidden").stdout
    assert row(out, "record_run_concern").startswith("! ")
    assert row(out, "get_prompt").startswith("· ")
    assert row(out, "create_issue").startswith("  ")
    legend = " ".join(out.split())
    assert "! registered, then blocked later" in legend and "· hidden by design" in legend


def test_tools_marks_an_inactive_group_as_by_design() -> None:
    out = run("tools", TOOLKIT).stdout
    assert row(out, "web_search").startswith("· ")
    assert "!" not in out


def test_serve_refuses_bad_input_before_it_listens(tmp_path: Path) -> None:
    """#22 item 11: a typo is exit 2 in the terminal, not a page that closes at once."""
    result = run("serve", str(tmp_path / "nope.json"), "--port", "0")
    assert result.exit_code == 2 and "nope.json" in result.output
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("serve", SEED, "--port", str(port))
    assert result.exit_code == 2 and "cannot listen there" in result.output


def test_step_finds_a_script_beside_the_config_as_the_tui_does(tmp_path: Path, monkeypatch) -> None:
    """#22 item 8: ``step -s typo.json`` from anywhere finds the script next to the toolkit,
    like the TUI's ``l typo.json``; a near miss gets a did-you-mean naming the file there."""
    monkeypatch.chdir(tmp_path)
    found = run("step", TOOLKIT, "-s", "typo.json")
    assert found.exit_code == 0, found.output
    assert "script typo.json" in found.output
    missing = run("step", TOOLKIT, "-s", "typ.json")
    assert missing.exit_code == 2
    assert "did you mean " + str(SAMPLES / "agentscope" / "typo.json") in " ".join(missing.output.split())


def test_missing_files_and_directories_get_a_did_you_mean(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(SAMPLES.parent)
    typo = run("tools", "sample_configs/sed/step_confg.json")
    assert typo.exit_code == 2
    assert "did you mean sample_configs/seed/step_config.json?" in typo.output
    folder = run("tools", "codex:sample_configs/realistc")
    assert folder.exit_code == 2 and "did you mean codex:sample_configs/realistic?" in folder.output
    far = run("tools", "nothing/like/this.json")
    assert far.exit_code == 2 and "did you mean" not in far.output


def test_a_wrong_mode_gets_a_did_you_mean() -> None:
    result = run("tools", SEED, "--mode", "biuld")
    assert result.exit_code == 2 and "unknown mode 'biuld' (did you mean build?)" in result.output


def test_a_registry_given_as_the_config_is_recognised() -> None:
    result = run("tools", str(SAMPLES / "seed" / "toolscope.registry.yaml"))
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    assert "is a toolscope registry, not a config" in text
    assert "did you mean " + SEED + "?" in text


def test_explain_is_short_and_says_each_rule_once() -> None:
    """#22 item 9: at 80 columns explain printed every stage's rule twice (the stages, then the
    checklist quoting them) in about 50 lines. Now: a mark per stage, each rule once."""
    import json

    data = json.loads(run("explain", SEED, "notify_user", "--json").stdout)
    out = run("explain", SEED, "notify_user").stdout
    assert len(out.splitlines()) <= 40, out
    flat = " ".join(out.split())
    for stage in data["stages"]:
        sentence = " ".join(stage["rule"].split())
        assert flat.count(sentence) <= 1, sentence
    assert "✓ registered ✗ allow-listed ✗ discoverable ✗ callable" in flat
    assert "(unchanged)" not in out  # the app's rewrite is shown when it changes a list


def test_error_lines_are_word_wrapped_at_the_terminal_width() -> None:
    """#22 item 9: the README promises no word broken in the middle; errors were one long line
    that the terminal broke anywhere ("bui|ld")."""
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "toolscope", "tools", SEED, "--mode", "biuld"],
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "COLUMNS": "60"},
        timeout=60,
    )
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) > 2
    assert all(len(line) <= 60 for line in lines), lines
    assert all(line.startswith("  ") for line in lines[1:])  # under the error line
    assert " ".join(result.stderr.split()).count("build") >= 3  # whole words, never split


LARGE = str(SAMPLES / "agentscope" / "large_toolkit.yaml")


def test_offered_and_visible_are_two_words_for_two_counts() -> None:
    """#22 item 2: the toolkit stage the model's schemas come from is *offered*; the verdict
    *visible* means usable. file_delete is offered but denied: 19 offered, 18 visible."""
    import json

    out = run("tools", LARGE, width=120).stdout
    assert "OFFERED" in out.splitlines()[out.splitlines().index(next(ln for ln in out.splitlines() if "TOOL" in ln))]
    assert "18 visible, 74 hidden, 0 unknown · 19 offered" in out
    explained = " ".join(run("explain", LARGE, "file_delete").stdout.split())
    assert "✓ registered ✓ offered ✗ callable" in explained and "HIDDEN" in explained
    # JSON values are unchanged: the stage id stays "visible"; the schema says what it means.
    data = json.loads(run("tools", LARGE, "--json").stdout)
    assert data["stages"] == ["registered", "visible", "callable"]
    schema = json.loads((SAMPLES.parent / "core" / "schemas" / "tools-2.schema.json").read_text())
    assert "offered" in schema["$defs"]["StageId"]["description"]
    assert "usable" in schema["$defs"]["Verdict"]["description"]


def test_a_header_never_says_listed_live_when_no_server_was_started() -> None:
    """Claude Code's sample without --snapshot: every server is hidden before the connection
    stage (approval, disabled, an unread file), so nothing is listed; the header said "tools listed
    live"."""
    claude = SAMPLES / "claude-code"
    out = run("tools", f"claude-code:{claude / 'project'}", "--home", str(claude / "home"), width=200).stdout
    header = next(line for line in out.splitlines() if line.startswith("Claude Code project"))
    assert header.endswith("· no MCP server to start") and "live" not in header, header
