"""Load the user's own toolkit from ``package.module:function`` or ``path/to/file.py:function``.

The function may be sync or async and returns a ``Toolkit`` or ``(Toolkit, AgentState)``.
It runs in-process: for the dotted form the current directory (the user's project) is put
on ``sys.path``; for the file form, the file's directory is.

Errors, kept apart on purpose (toolscope's bugs never masquerade as the user's):

- module or file not found, attribute missing, not callable, a factory that needs
  arguments, wrong return type → ``InputError`` (exit 2);
- the user's module raising while it is imported, or the factory raising →
  ``UserCodeError`` (exit 3) showing their exception type, message, file and line. That
  includes any ``BaseException`` but ``KeyboardInterrupt``: a ``sys.exit(0)`` in their code
  must not end toolscope with exit 0 and no output (a false green in CI).

While their module is imported and the factory runs, their ``print()`` output goes to
stderr, so ``--json`` stdout stays a JSON document.

Public API::

    load_factory(target: str) -> BuiltToolkit
    run_factory(target: str) -> Any                    # the unchecked result (AgentScope 1.x)
    parse_target(target: str) -> tuple[str, str]        # (module or file, attribute path)
    call_factory(func, what, user_root) -> Any           # their exceptions → UserCodeError
    UserExitError(UserCodeError)                        # their sys.exit(...)
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Awaitable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from ...inputs.input_files import record_input
from ...model.errors import InputError, Problem, UserCodeError
from ...text.suggest import close_matches
from .aio import run_sync
from .spec import BuiltToolkit
from .user_code import check_toolkit_shape, deadline, remember_factory

EXPECTED = "a Toolkit, or a (Toolkit, AgentState) tuple"


class UserExitError(UserCodeError):
    """The user's code called ``sys.exit`` (raised SystemExit): theirs, exit 3."""

    def render(self) -> str:
        """Say ``called sys.exit(CODE)`` instead of ``raised SystemExit: CODE``."""
        text = super().render()
        code = self.exc.code if isinstance(self.exc, SystemExit) else None
        raised = f"your code raised {type(self.exc).__name__}: {self.exc}"
        return text.replace(raised, f"your code called sys.exit({code!r}) (raised SystemExit)", 1)


def user_failure(what: str, exc: BaseException, user_root: Path | None) -> UserCodeError:
    """The UserCodeError for an exception that escaped the user's code."""
    from .aio import EscapedFromLoop
    from .user_code import FactoryTimedOut

    if isinstance(exc, EscapedFromLoop):  # sys.exit / KeyboardInterrupt in an async factory or tool
        exc = exc.original
    if isinstance(exc, SystemExit):
        return UserExitError(what, exc, user_root)
    if isinstance(exc, FactoryTimedOut):
        return UserTimeoutError(what, exc, user_root)
    return UserCodeError(what, exc, user_root)


class UserTimeoutError(UserCodeError):
    """The user's factory ran past ``TOOLSCOPE_FACTORY_TIMEOUT``: theirs, exit 3."""

    def render(self) -> str:
        """Say ``did not finish within …`` instead of ``raised FactoryTimedOut``."""
        text = super().render()
        return text.replace(f"your code raised {type(self.exc).__name__}: ", "", 1)


@contextlib.contextmanager
def user_code_output() -> Iterator[None]:
    """Send the user's stdout to stderr while their code runs (keeps ``--json`` clean)."""
    with contextlib.redirect_stdout(sys.stderr):
        yield


def parse_target(target: str) -> tuple[str, str]:
    """Split ``module:attr`` / ``file.py:attr``; InputError when there is no ``:attr``."""
    where, sep, attr = target.rpartition(":")
    if not sep or not where or not attr:
        raise InputError(
            target,
            "not a toolkit factory",
            [Problem("", "expected 'package.module:function' or 'path/to/file.py:function'")],
        )
    return where, attr


def _import_file(path: Path, target: str) -> ModuleType:
    if not path.is_file():
        raise InputError(target, "no such file", [Problem("", f"{path} does not exist")])
    root = path.resolve().parent
    record_input(path)  # the user's code is an input: no output may overwrite it
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))  # sibling modules of their file stay importable
    name = f"toolscope_user_{path.stem}_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise InputError(target, "cannot load this file as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except KeyboardInterrupt:
        sys.modules.pop(name, None)
        raise
    except BaseException as exc:  # SystemExit too: their exit is their failure, not ours
        sys.modules.pop(name, None)
        raise user_failure(f"importing {path}", exc, root) from None
    return module


def _import_dotted(dotted: str, target: str) -> ModuleType:
    cwd = str(Path.cwd())
    if cwd not in sys.path:
        sys.path.insert(0, cwd)  # the user's project directory
    try:
        module = importlib.import_module(dotted)
    except ModuleNotFoundError as exc:
        # Missing *their* module is bad input; a missing import inside their module is
        # their code failing.
        parts = dotted.split(".")
        prefixes = {".".join(parts[: i + 1]) for i in range(len(parts))}
        if exc.name in prefixes:
            raise InputError(
                target,
                "module not found",
                [Problem("", f"no module named '{exc.name}' (searched the current directory and sys.path)")],
            ) from None
        raise UserCodeError(f"importing {dotted}", exc, Path.cwd()) from None
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # SystemExit too (see the module docstring)
        raise user_failure(f"importing {dotted}", exc, Path.cwd()) from None
    module_file = getattr(module, "__file__", None)
    if module_file:
        record_input(Path(module_file))
    return module


def _resolve_attr(module: ModuleType, attr: str, target: str, shown: str) -> Any:
    """Follow ``a.b`` from the module; ``shown`` names the module as the user wrote it."""
    obj: Any = module
    owner = shown  # not the synthetic module name a file import gets
    for part in attr.split("."):
        if not hasattr(obj, part):
            names = [n for n in dir(obj) if not n.startswith("_")]
            close = close_matches(part, names, n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise InputError(target, "attribute not found", [Problem("", f"'{part}' is not defined in {owner}{hint}")])
        obj = getattr(obj, part)
        owner = f"{owner}:{part}" if owner == shown else f"{owner}.{part}"
    if not callable(obj):
        raise InputError(
            target,
            "not callable",
            [Problem("", f"'{attr}' is a {type(obj).__name__}, expected a function returning {EXPECTED}")],
        )
    _check_no_arguments(obj, target)
    return obj


def _check_no_arguments(func: Any, target: str) -> None:
    """InputError when the factory cannot be called without arguments (toolscope passes none).

    Checked before the call, so a signature mismatch is not reported as their code raising
    TypeError. Callables without an introspectable signature are left to the call.
    """
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):
        return
    try:
        signature.bind()
    except TypeError:
        needed = [
            p.name
            for p in signature.parameters.values()
            if p.default is inspect.Parameter.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        ]
        raise InputError(
            target,
            "the factory needs arguments",
            [
                Problem(
                    "",
                    f"factory {target} must take no arguments (it requires: {', '.join(needed)}); toolscope calls it as {target.rpartition(':')[2]}()",
                )
            ],
        ) from None


def call_factory(func: Any, what: str, user_root: Path | None) -> Any:
    """Call the user's function (sync or async); their exceptions become UserCodeError."""
    from .stderr_tail import tail_stderr

    failure: UserCodeError | None = None
    # MCP servers the factory starts write their reasons to our stderr: keep the tail.
    with tail_stderr() as tail:
        try:
            with user_code_output(), deadline():
                result = func()
                if inspect.isawaitable(result):
                    result = run_sync(_awaited(result))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # SystemExit too (see the module docstring)
            failure = user_failure(what, exc, user_root)
    if failure is not None:
        failure.add_process_output(tail.lines())
        raise failure from None
    return result


def check_result(result: Any, target: str) -> tuple[Any, Any]:
    """Accept a Toolkit or (Toolkit, AgentState); anything else is an InputError."""
    from agentscope.state import AgentState
    from agentscope.tool import Toolkit

    toolkit, state = result, None
    if isinstance(result, tuple):
        if len(result) != 2:
            raise InputError(
                target,
                "wrong return type",
                [Problem("", f"returned a tuple of {len(result)} items, expected {EXPECTED}")],
            )
        toolkit, state = result
    if not isinstance(toolkit, Toolkit):
        raise InputError(
            target, "wrong return type", [Problem("", f"returned {type(toolkit).__name__}, expected {EXPECTED}")]
        )
    if state is not None and not isinstance(state, AgentState):
        raise InputError(
            target,
            "wrong return type",
            [Problem("", f"the tuple's second item is {type(state).__name__}, expected an AgentState")],
        )
    return toolkit, state if state is not None else AgentState()


def load_factory(target: str) -> BuiltToolkit:
    """Import and call the factory; returns the user's Toolkit and state."""
    toolkit, state = check_result(run_factory(target), target)
    check_toolkit_shape(toolkit, target)
    origins: dict[tuple[str, str], str] = {}
    group_origins = {}
    for group in toolkit.tool_groups:
        group_origins[group.name] = f"{target}: group '{group.name}'"
        for tool in group.tools:
            origins.setdefault((group.name, tool.name), f"{target}: group '{group.name}'")
    return BuiltToolkit(toolkit, state, target, origins, group_origins, f"AgentScope toolkit from {target}")


def run_factory(target: str) -> Any:
    """Import and call the factory; returns what it returned, unchecked (1.x checks its own).

    The working directory is the user's only while their code runs: a factory that calls
    ``os.chdir`` must not move where ``report -o out.md`` writes (it wrote elsewhere and
    printed "wrote out.md") nor where a relative ``--session`` is read.
    """
    working_directory = os.getcwd()
    try:
        return _run_factory(target)
    finally:
        with contextlib.suppress(OSError):
            if os.getcwd() != working_directory:
                os.chdir(working_directory)


def _run_factory(target: str) -> Any:
    from .user_code_guard import guard_process_exit, protect_stdout

    protect_stdout()
    guard_process_exit()
    where, attr = parse_target(target)
    if where.endswith(".py") or "/" in where or "\\" in where:
        path = Path(where)
        user_root: Path | None = path.resolve().parent
        remember_factory(target, user_root)
        with user_code_output(), _import_deadline(target, user_root):
            module = _import_file(path, target)
    else:
        user_root = Path.cwd()
        remember_factory(target, user_root)
        with user_code_output(), _import_deadline(target, user_root):
            module = _import_dotted(where, target)
    func = _resolve_attr(module, attr, target, where)
    return call_factory(func, f"toolkit factory {target}", user_root)


@contextlib.contextmanager
def _import_deadline(target: str, user_root: Path | None) -> Iterator[None]:
    """The user's module gets the factory's deadline to import (its top level is their code too)."""
    from .user_code import FactoryTimedOut

    try:
        with deadline():
            yield
    except FactoryTimedOut as exc:
        raise user_failure(f"importing {target}", exc, user_root) from None


async def _awaited(awaitable: Awaitable[Any]) -> Any:
    """A coroutine for any awaitable (a factory may return a Future or a custom awaitable)."""
    return await awaitable
