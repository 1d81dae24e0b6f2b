"""#36 in the app: ``?`` says when a view key has no view for this input, the filter's hint names
one of the input's own stages, and the Claude Code header names the version modelled in words. Each
failed on the code before (the help listed "Activation" plainly for a step config; the hint named
allow-listed for a toolkit; the header showed the raw key ``claude_code_model``)."""

from __future__ import annotations

import io

from tui_helpers import REPO, make_app


def _help_text(app) -> str:
    from rich.console import Console

    from toolscope.tui.widgets.help_panel import GlobalFirstKeys

    console = Console(width=300, file=io.StringIO(), color_system=None, record=True)
    console.print(app.screen.query_one(GlobalFirstKeys).render())
    return console.export_text()


async def test_help_says_a_step_config_has_no_activation_view() -> None:
    app = make_app(mode="build")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        lines = {line.split()[0]: line for line in _help_text(app).splitlines() if line.split()}
        assert "Activation (none for this input" in lines["3"], lines["3"]
        assert "none for this input" not in lines["1"] and "none for this input" not in lines["2"]


async def test_the_filter_hint_names_the_inputs_own_stage() -> None:
    from textual.widgets import Input

    toolkit = make_app(REPO / "sample_configs" / "agentscope" / "toolkit.yaml")
    async with toolkit.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        hint = toolkit.screen.query_one("#filter", Input).placeholder
        assert "offered" in hint and "allow-listed" not in hint, hint
    seed = make_app(mode="build")
    async with seed.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert "allow-listed" in seed.screen.query_one("#filter", Input).placeholder


async def test_the_claude_code_header_names_the_version_modelled_in_words() -> None:
    """The header showed the raw key ``claude_code_model 2.1.332``, and the kind ``claude_code``."""
    import contextlib

    from tui_helpers import static_text

    from toolscope.cli.client_options import ClientOptions
    from toolscope.cli.inputs import open_subject
    from toolscope.tui.app import ToolscopeApp
    from toolscope.tui.options import TuiOptions
    from toolscope.tui.widgets.input_header import InputHeader

    sample = REPO / "sample_configs" / "claude-code"
    with contextlib.chdir(REPO):
        subject = open_subject(
            f"claude-code:{sample}/project",
            snapshot=sample / "snapshot.json",
            client=ClientOptions(home=sample / "home", client_args="-p"),
        )
    app = ToolscopeApp(subject, None, TuiOptions(deterministic=True, export_png=False))  # type: ignore[arg-type]
    async with app.run_test(size=(160, 36)) as pilot:
        await pilot.pause()
        header = static_text(app.screen.query_one(InputHeader))
        # Neither the raw key claude_code_model nor the raw kind claude_code (shown before the label).
        assert "modelled on Claude Code 2.1.332" in header and "claude_code" not in header, header


async def test_every_coding_agent_header_names_the_version_modelled_in_words() -> None:
    """OpenCode and Gemini CLI showed ``opencode_model`` / ``gemini_cli_model`` too."""
    import contextlib

    from tui_helpers import static_text

    from toolscope.cli.client_options import ClientOptions
    from toolscope.cli.inputs import open_subject
    from toolscope.tui.app import ToolscopeApp
    from toolscope.tui.options import TuiOptions
    from toolscope.tui.widgets.input_header import InputHeader

    samples = REPO / "sample_configs"
    cases = (
        (f"opencode:{samples}/opencode/notes-app", None, ClientOptions(), "modelled on OpenCode 1.18.33"),
        (
            f"gemini-cli:{samples}/gemini-cli/project",
            samples / "gemini-cli" / "snapshot.json",
            ClientOptions(home=samples / "gemini-cli" / "home", client_args="-p"),
            "modelled on Gemini CLI 0.61.0",
        ),
    )
    for target, snapshot, client, expected in cases:
        with contextlib.chdir(REPO):
            subject = open_subject(target, snapshot=snapshot, client=client)
        app = ToolscopeApp(subject, None, TuiOptions(deterministic=True, export_png=False))  # type: ignore[arg-type]
        async with app.run_test(size=(300, 36)) as pilot:
            await pilot.pause()
            header = static_text(app.screen.query_one(InputHeader))
            assert expected in header and "_model" not in header and "_cli " not in header, header
