"""Plain command-line values without pydantic: a command starts at the speed of its imports.

Typer (0.2x) converts every parameter value through a pydantic ``TypeAdapter`` it builds
on first use. For ``toolscope explain`` that is about half of the run: the adapters import
pydantic's model machinery and build a schema for each of the command's half-dozen
options, to turn a string into a string. toolscope's options are plain: ``str`` and
``Path`` (no path checks), their ``| None`` and ``list[...]`` forms. ``PlainGroup`` gives
those a direct conversion with the same result when the command is looked up; every other
parameter (numbers, flags, anything with options) keeps Typer's own conversion, and so
does a value that is not a ``str`` (Typer then decides, as before).

This module is toolscope's one use of Typer internals (``typer._coercion.RuntimeParam``,
``build_runtime_param``, ``_TyperParameter._runtime_param``), with Typer pinned exactly;
``tests/test_private_apis.py`` fails when one changes. With a Typer that has none of them,
``PlainGroup`` is a plain ``TyperGroup`` and nothing changes but the speed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, get_args, get_origin

from typer.core import TyperGroup

try:  # Typer 0.2x: the pydantic-based conversion this module short-cuts
    from typer._coercion import RuntimeParam, build_runtime_param
except ImportError:  # pragma: no cover - other Typer versions convert their own way
    RuntimeParam = None  # type: ignore[assignment,misc]

# A flag's value is converted by nobody: Typer passes bools through, and a missing value
# is None before any conversion. Only string values of str and Path options are converted here.
_PLAIN: dict[Any, Any] = {str: str, Path: Path, bool: None}


def _plain_kind(parameter: Any) -> Any:
    """``str``, ``Path`` or ``bool`` when the parameter is one of those (or a list of them) with no options."""
    descriptor = getattr(parameter, "type_descriptor", None)
    if descriptor is None or descriptor.file_annotation is not None:
        return None
    info = descriptor.parameter_info
    if info.parser is not None or info.path_type is not None or info.resolve_path or info.allow_dash or info.exists:
        return None
    annotation = descriptor.annotation
    if get_origin(annotation) is list:
        (annotation,) = get_args(annotation)
    return annotation if annotation in _PLAIN else None


if RuntimeParam is not None:

    class _PlainValue(RuntimeParam):  # type: ignore[misc, valid-type]
        """A str or Path option's string value converted directly; anything else goes to Typer."""

        def __init__(self, parameter: Any, convert: Any) -> None:
            super().__init__(parameter_info=parameter.type_descriptor.parameter_info, annotation=Any)
            object.__setattr__(self, "_descriptor", parameter.type_descriptor)
            object.__setattr__(self, "_convert", convert)

        _convert: Any
        _descriptor: Any

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            convert = self._convert
            if convert is not None:
                # A string from the command line, or a default already of the option's type.
                if isinstance(value, (str, convert)):
                    return convert(value)
                if isinstance(value, (list, tuple)) and all(isinstance(item, (str, convert)) for item in value):
                    return [convert(item) for item in value]
            return build_runtime_param(self._descriptor)._coerce_value(value, param=param, ctx=ctx)


def _install(parameters: list[Any]) -> None:
    if RuntimeParam is None:
        return
    for parameter in parameters:
        if getattr(parameter, "_runtime_param", "absent") is not None:
            continue  # not a Typer parameter, or its conversion is already built
        kind = _plain_kind(parameter)
        if kind is not None:
            parameter._runtime_param = _PlainValue(parameter, _PLAIN[kind])


class PlainGroup(TyperGroup):
    """The root command group: its plain parameters and the looked-up command's skip pydantic."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """The group's own options (``--version``, ``--help``) first get their direct conversion."""
        _install(self.get_params(ctx))
        return super().parse_args(ctx, args)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The subcommand, its plain parameters given a direct conversion."""
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _install(command.get_params(ctx))  # the help option is created once and cached
        return command
