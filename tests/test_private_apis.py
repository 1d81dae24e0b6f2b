"""Every private name of another package that toolscope uses, and the exact pin of that package.

Each hook lives in one adapter module: Typer's in ``cli/plain_params.py`` and ``cli/help_wrap.py``, Rich's in
``cli/inert_console.py``, Textual's in ``tui/textual_private.py`` (the MCP SDK's are in
``core/mcp``). A release that renames one fails here, not silently in a user's terminal.
"""

from __future__ import annotations

import inspect
import io
import re
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("package", ["typer", "rich", "textual"])
def test_each_package_with_a_private_hook_is_pinned_exactly(package: str) -> None:
    dependencies = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    pins = [d for d in dependencies if re.match(rf"{package}(?![\w-])", d)]  # not textual-serve
    assert len(pins) == 1 and re.fullmatch(rf"{package}==[\d.]+", pins[0]), pins


def test_typer_still_converts_through_the_runtime_param_the_hook_replaces(monkeypatch: pytest.MonkeyPatch) -> None:
    import typer
    from typer import _coercion
    from typer.testing import CliRunner

    from toolscope.cli import plain_params

    assert plain_params.RuntimeParam is _coercion.RuntimeParam  # the hook is active, not the fallback
    app = typer.Typer(cls=plain_params.PlainGroup)

    @app.command()
    def show(name: str = typer.Option("x")) -> None:
        print(f"name={name}")

    @app.command()
    def other() -> None:
        pass

    converted: list[object] = []
    real = plain_params._PlainValue._coerce_value
    monkeypatch.setattr(
        plain_params._PlainValue,
        "_coerce_value",
        lambda self, value, *a, **k: (converted.append(value), real(self, value, *a, **k))[1],
    )
    result = CliRunner().invoke(app, ["show", "--name", "y"])
    assert result.exit_code == 0 and "name=y" in result.output
    assert "y" in converted  # Typer asked the hook's RuntimeParam, through _runtime_param


def test_typer_still_makes_help_with_the_context_formatter_class_whose_methods_help_wrap_replaces() -> None:
    import typer
    from typer.core import TyperCommand

    from toolscope.cli import help_wrap

    base = typer.Context.formatter_class
    assert help_wrap.WholeWordFormatter.__mro__[1] is base
    assert list(inspect.signature(base.write_text).parameters) == ["self", "text"]
    assert list(inspect.signature(base.write_dl).parameters) == ["self", "rows", "col_max", "col_spacing"]
    assert {"width", "current_indent"} <= set(vars(base(width=40)))

    command = TyperCommand("x", context_settings={}, rich_markup_mode=None)
    ctx = help_wrap.WholeWordContext(command)
    formatter = ctx.make_formatter()
    assert type(formatter) is help_wrap.WholeWordFormatter  # Click still asks formatter_class
    formatter.width = 24
    formatter.write_text("Nothing unless --keep-messages")
    formatter.write_dl([("--port", "A free one unless --keep-messages")])  # 14 columns of help
    assert formatter.getvalue() == (
        "Nothing unless\n--keep-messages\n--port  A free one\n        unless\n        --keep-messages\n"
    )


def test_rich_still_renders_every_print_through_render_buffer() -> None:
    from rich.console import Console
    from rich.text import Text

    from toolscope.cli.inert_console import InertConsole

    assert list(inspect.signature(Console._render_buffer).parameters) == ["self", "buffer"]
    out = io.StringIO()
    InertConsole(file=out, force_terminal=False).print(Text("a\x1b[2Jb"))
    assert out.getvalue() == "a\\x1b[2Jb\n"


def test_textual_still_has_the_footer_key_and_the_key_names() -> None:
    from toolscope.tui.textual_private import FooterKey, character_to_key

    assert {"key_display", "description", "action"} <= set(inspect.signature(FooterKey.__init__).parameters) | set(
        vars(FooterKey)
    ) | {name for name in dir(FooterKey)}
    assert character_to_key("?") == "question_mark" and character_to_key("a") == "a"


@pytest.mark.agentscope
def test_agentscope_meta_tool_still_compiles_its_template_and_schema_where_the_cache_hooks_in() -> None:
    """``core/systems/agentscope/meta_tool_cache.py`` replaces ``Template`` in AgentScope's private
    ``_meta`` module and wraps ``ResetTools.input_schema``: still there, still used, same answers."""
    import importlib

    import agentscope
    from agentscope.tool import ResetTools, ToolGroup

    from toolscope.core.systems.agentscope import meta_tool_cache

    module = importlib.import_module(meta_tool_cache.PRIVATE_TEMPLATE[0])
    assert module.ResetTools is ResetTools
    # The stock call compiles the template through the module-level name the cache replaces.
    assert "Template(self.response_template)" in inspect.getsource(ResetTools.call)
    installed = meta_tool_cache.install()
    assert installed == (agentscope.__version__ in meta_tool_cache.TESTED), agentscope.__version__
    if not installed:
        pytest.skip(f"agentscope {agentscope.__version__} is not in the cache's tested range: AgentScope left as is")
    template = getattr(module, meta_tool_cache.PRIVATE_TEMPLATE[1])
    source = "{% for g in groups %}{{ g.name }}{% endfor %}"
    assert template(source) is template(source)  # compiled once
    [stock] = meta_tool_cache.ORIGINAL_SCHEMA
    groups = [ToolGroup(name="web", description="search the web"), ToolGroup(name="notes", description="take notes")]
    tool = ResetTools(groups=groups, response_template=source)
    assert tool.input_schema == stock.fget(tool) and tool.input_schema is not tool.input_schema
    groups.append(ToolGroup(name="mail", description="send mail"))  # the toolkit's list grows later
    assert tool.input_schema == stock.fget(tool) and "mail" in tool.input_schema["properties"]
