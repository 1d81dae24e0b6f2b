"""#36 in the app: the Claude Code header names the version modelled in words (it failed on the
code before: the raw key ``claude_code_model``)."""

from __future__ import annotations

from tui_helpers import REPO


async def test_the_claude_code_header_names_the_version_modelled_in_words() -> None:
    """The header showed the raw key ``claude_code_model 2.1.332``."""
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
        assert "modelled on Claude Code 2.1.332" in header and "claude_code_model" not in header, header
