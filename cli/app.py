"""The Typer application: ``toolscope capture | explain | tools | check | step | discover | inspect | report``.

Commands are thin: they open a ``Subject`` (see ``toolscope.cli.inputs``), ask it questions
and print. Textual is imported only by ``inspect`` (and the SVG report), AgentScope
only when the input is a toolkit.
"""

from __future__ import annotations

import gc
import sys
import textwrap

import typer

from ..core import __version__
from .help_format import ToolscopeGroup
from .plain_params import PlainGroup


class RootGroup(PlainGroup, ToolscopeGroup):
    """``toolscope``: plain parameter values (``plain_params``), help wrapped between words."""


def root_help() -> str:
    """The top-level ``--help``: every modelled system (the registry's) and what CONFIG is for it,
    then ``capture`` and the exit codes. The systems' lines are laid out here (``\\b``: Click
    keeps them as they are), each summary wrapped to fit 80 columns."""
    from ..core.systems.registry import systems

    width = max(len(system.title) for system in systems()) + 2
    lines = []
    for system in systems():
        wrapped = textwrap.wrap(system.summary, 76 - width) or [""]
        lines.append(f"  {system.title:<{width}}{wrapped[0]}")
        lines += [f"  {'':<{width}}{more}" for more in wrapped[1:]]
    return (
        "Why doesn't my agent have tool X? Per-tool visibility verdicts, stage by stage, "
        "with the rule that decided and the fix. CONFIG is one of:\n\n\b\n" + "\n".join(lines) + "\n\n"
        "toolscope capture records what a model really received (a local model endpoint); "
        "--capture FILE compares that with the prediction.\n\n"
        "Exit codes: 0 ok (explain: the tool is visible), 1 a negative answer (tool hidden, "
        "a check or expectation failed), 2 bad input or usage, 3 the user's code failed, 70 a toolscope bug, "
        "74 capture could not record every request, "
        "141 stdout's reader went away (| head)."
    )


app = typer.Typer(
    name="toolscope",
    cls=RootGroup,
    help=root_help(),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"toolscope {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version_callback, is_eager=True, help="Print the version."
    ),
) -> None:
    """Toolscope."""


def _register_commands() -> None:
    """Every command (``--help`` lists them in this order): named here, not by import side effects.

    The command modules never import this one (no cycle): each defines its function, and
    this is the one place that says which commands exist and what they are called.
    """
    from .commands import capture, check, discover, explain, filter, inspect, mcp, report, serve, step, tools

    app.command(
        "capture",
        cls=capture.CaptureCommand,
        short_help="A local model endpoint that records what every request carried.",
    )(capture.capture_command)
    app.command("check", short_help="Invariant checks and expectations, for CI.")(check.check_command)
    app.command("discover", short_help="Connect to every MCP server and list its tools.")(discover.discover_command)
    app.command("explain", short_help="Why one tool is or is not usable, and the fix.")(explain.explain_command)
    app.command(
        "filter",
        short_help="Ask AgentWorks' ToolFilter about tools and servers directly.",
        epilog="A QUERY starting with '-' goes after --: toolscope filter --selected-tools a:* -- a:-x",
    )(filter.filter_command)
    app.command("inspect", short_help="Open the interactive terminal app (or take a screenshot).")(
        inspect.inspect_command
    )
    app.command("mcp", short_help="Serve why_not, tools and check to an agent (an MCP server on stdio).")(
        mcp.mcp_command
    )
    app.command("report", short_help="Write a shareable report: Markdown, HTML, JSON, SVG or PNG.")(
        report.report_command
    )
    app.command("serve", short_help="Serve the interactive app to a web browser (textual-serve).")(serve.serve_command)
    app.command("step", short_help="Step a reset_tools script: stock vs guarded, turn by turn.")(step.step_command)
    app.command("tools", short_help="Every tool: a mark per stage, the verdict, the rule.")(tools.tools_command)
    from .commands import registry

    registry_app = typer.Typer(
        cls=ToolscopeGroup,
        no_args_is_help=True,
        help="Registry maintenance: check it against AgentWorks' Go source.",
    )
    registry_app.command("check", short_help="The registry's lists against the Go source's (drift).")(
        registry.registry_check_command
    )
    app.add_typer(registry_app, name="registry", short_help="Check a registry against AgentWorks' Go source.")


_register_commands()


def _use_word_metavars() -> None:
    # Every command's help names its arguments by words (see help_format).
    from typer.core import TyperCommand

    from .help_format import ToolscopeCommand

    commands = [*app.registered_commands]
    for group in app.registered_groups:
        commands += group.typer_instance.registered_commands if group.typer_instance else []
    for info in commands:
        if info.cls is None or info.cls is TyperCommand:
            info.cls = ToolscopeCommand


_use_word_metavars()


def only_the_invoked_command(argv: list[str]) -> None:
    """When ``argv`` starts with a command's name, keep only that command registered.

    Typer builds every registered command (signature, type hints, parameters) before it
    looks at the arguments: most of a second's hundredth for commands that will not run.
    With one command left, the usage lines, errors and help of that command are the same;
    anything else (``--help``, ``--version``, a misspelled name) builds them all as before.
    """
    name = argv[0] if argv else None
    chosen = [info for info in app.registered_commands if info.name == name]
    if len(chosen) == 1:
        app.registered_commands[:] = chosen
    elif any(group.name == name for group in app.registered_groups):
        app.registered_commands.clear()


def main() -> None:
    """Console-script entry point."""
    from . import closed_stdout, signals

    signals.install()
    only_the_invoked_command(sys.argv[1:])
    # A command runs once and exits: what importing made lives until then, so the cyclic
    # collector need not walk it again on each full collection (a 50,000-tool universe
    # triggers several while it is built). Frozen objects are never collected, only skipped.
    gc.freeze()
    status: object = 130  # KeyboardInterrupt unless app() says otherwise
    try:
        try:
            app()
        except SystemExit as exc:
            # Rich and Typer answer a closed stdout with exit 1 (a negative answer here).
            if closed_stdout.caused_by_closed_stdout(exc):
                closed_stdout.stop_quietly()
            closed_stdout.flush_or_stop()
            if exc.code in (None, 0, 1) and signals.received() is None:
                # An answer was printed (1: a check failed): was all of it read? Not after
                # SIGTERM: the process ends by that signal whatever the reader does, and
                # waiting for one that is slow to read only delays the stop (serve: 0.5 s).
                closed_stdout.stop_if_reader_left_early()
            raise
        except BrokenPipeError as exc:
            if closed_stdout.caused_by_closed_stdout(exc):
                closed_stdout.stop_quietly()
            raise
    except SystemExit as exc:
        status = exc.code
        raise
    except BaseException:
        status = 130 if sys.exc_info()[0] is KeyboardInterrupt else 1
        raise
    finally:
        # The process ends here: the interpreter's last garbage collection would walk every
        # object still alive (a 50,000-tool universe, the terminal app and its modules) just
        # before teardown frees them anyway. Frozen, it skips them (~40 ms for inspect
        # --screenshot on the seed config, ~90 ms on 50,000 tools).
        gc.freeze()
        _stop_shared_loop(status)
        signals.end_by_received_signal()


def _stop_shared_loop(status: object) -> None:
    """Stop AgentScope's loop thread before the interpreter finalizes (see core.systems.agentscope.aio).

    When a user's coroutine ignores cancellation, finalizing would kill that thread inside
    whatever C or Rust code it runs and abort the process (exit 134): end without
    finalizing instead, with the status the command chose (or the signal that arrived).
    """
    import os

    aio = sys.modules.get("toolscope.core.systems.agentscope.aio")
    if aio is None or aio.shutdown():
        return
    from . import signals

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    signals.end_by_received_signal()
    code = status if isinstance(status, int) else (0 if status is None else 1)
    os._exit(code)
