"""Help that reads like a CLI's: arguments and option values named by words (CONFIG,
TOOL, FILE), never by Python types (``<list[str]>``) or braces (``{config}``).

Typer renders an argument as ``{name}`` in the usage line and adds its Python type in
the Arguments section; this command class names each argument by its metavar (or its
name in capitals) in both places. Options get their words from ``metavar=``. Help pages
are wrapped between words only (``help_wrap``).
"""

from __future__ import annotations

import re
from typing import Any

from typer.core import TyperCommand, TyperGroup

from .help_wrap import WholeWordContext
from .system_options import panel_order


def _is_argument(param: Any) -> bool:
    # Typer ships its own copy of Click: compare by kind, not by class.
    return param.param_type_name == "argument"


def argument_word(param: Any) -> str:
    """``CONFIG``, ``[QUERY]...``: the argument's metavar, else its name in capitals."""
    word = param.metavar or (param.name or "ARG").upper()
    if param.metavar is None:
        if not param.required:
            word = f"[{word}]"
        if param.nargs != 1:
            word += "..."
    return word


# Option values named by what they are, where the option's own name is not that word.
OPTION_WORDS = {
    "registry": "FILE",
    "snapshot": "FILE",
    "script": "FILE",
    "screenshot": "FILE",
    "output": "FILE",
    "export_dir": "DIR",
    "drift_from": "SNAPSHOT",
    "expect": "visible|hidden:NAME",
    "step": "ID",
    "session_id": "ID",
    "size": "COLSxROWS",
    "timeout": "SECONDS",
    "fmt": "FORMAT",
    "groups": "GROUP,...",
    "workflow": "FILE",
    "capture": "FILE",
    "session": "FILE",
    "home": "DIR",
    "managed_dir": "DIR",
    "client_home": "DIR",
    "codex_home": "DIR",
    "codex_system_dir": "DIR",
    "client_args": "FLAGS",
    "codex_config": "KEY=VALUE",
    "go_src": "DIR",
}


def option_word(param: Any) -> str:
    """``FILE``, ``MODE``: what an option's value is, in capitals."""
    name = param.name or "value"
    return OPTION_WORDS.get(name, name.upper())


class ToolscopeCommand(TyperCommand):
    """A Typer command whose help names arguments by words."""

    context_class = WholeWordContext

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """``[OPTIONS] CONFIG TOOL``."""
        pieces = [self.options_metavar] if self.options_metavar else []
        return pieces + [argument_word(p) for p in self.get_params(ctx) if _is_argument(p)]

    def format_options(self, ctx: Any, formatter: Any) -> None:
        """The Arguments section, the command's own Options, then one section per system.

        An option declared with ``rich_help_panel`` (its system's title: ``Codex``) is listed
        under that heading, so a newcomer sees which options belong to which input."""
        arguments = [
            _argument_record(p) for p in self.get_params(ctx) if _is_argument(p) and not getattr(p, "hidden", False)
        ]
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments)
        for heading, records in option_sections(self.get_params(ctx), ctx):
            with formatter.section(heading):
                formatter.write_dl(records)


def _argument_record(param: Any) -> tuple[str, str]:
    """(word, help) of an argument; ``[required]`` after the help when it is."""
    help_text = getattr(param, "help", None) or ""
    if param.required:
        help_text = f"{help_text}  [required]" if help_text else "[required]"
    return argument_word(param), help_text


class ToolscopeGroup(TyperGroup):
    """A command group whose help is wrapped between words."""

    context_class = WholeWordContext


# "Port to listen on (default: a free one)": the help already says what the default means.
_STATES_ITS_DEFAULT = re.compile(r"\bdefault:", re.IGNORECASE)


def _name_value(param: Any) -> None:
    """Give an option that takes a value its word (``FILE``), unless it has one."""
    if param.metavar is None and not getattr(param, "is_flag", False) and not getattr(param, "count", False):
        param.metavar = option_word(param)


def option_sections(params: list[Any], ctx: Any) -> list[tuple[str, list[tuple[str, str]]]]:
    """(heading, help records) per help panel, in ``panel_order()`` (others after, as they appear)."""
    sections: dict[str, list[tuple[str, str]]] = {panel: [] for panel in panel_order()}
    for param in (p for p in params if not _is_argument(p)):
        _name_value(param)
        if _STATES_ITS_DEFAULT.search(getattr(param, "help", None) or ""):
            param.show_default = False  # not a second note, "[default: 0]", after its own
        record = param.get_help_record(ctx)
        if record is not None:
            sections.setdefault(getattr(param, "rich_help_panel", None) or "Options", []).append(record)
    return [(heading, records) for heading, records in sections.items() if records]
