"""``toolscope capture -- COMMAND``: the environment that points clients at the server, and running the command.

The base-URL variables set (each read by the client named, checked in its source):

* ``OPENAI_BASE_URL`` = ``URL/v1``: the official openai SDKs (Python, Node) and Codex CLI's
  built-in ``openai`` provider (``codex-rs/core/src/model_provider_info.rs``);
* ``OPENAI_API_BASE`` = ``URL/v1``: LangChain's ``ChatOpenAI`` and openai-python before 1.0;
* ``ANTHROPIC_BASE_URL`` = ``URL``: the official anthropic SDKs and Claude Code;
* ``GOOGLE_GEMINI_BASE_URL`` = ``URL``: the official google-genai SDKs (Python
  ``google/genai/_base_url.py``, JS) and Gemini CLI.

Without ``--upstream`` nothing leaves the machine, so a missing ``OPENAI_API_KEY`` /
``ANTHROPIC_API_KEY`` / ``GEMINI_API_KEY`` (unless ``GOOGLE_API_KEY``, which google-genai
reads first, is set) is set to a placeholder (the SDKs refuse to start without one); with
``--upstream`` the user's own keys pass through untouched.

The command runs in toolscope's process group (so an interactive CLI keeps the terminal);
Ctrl+C reaches it from the terminal, and a SIGTERM (or a Ctrl+C sent to toolscope alone)
is passed on; a command still running ``GRACE_SECONDS`` later is killed with its children.
Its processes are listed before it is signalled, so the children of a shell that dies at once
(``sh -c 'agent & wait'``) get the signal too, and SIGKILL at the end of the grace period.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence

import psutil

from ..model.errors import InputError

GRACE_SECONDS = 5.0
PLACEHOLDER_KEY = "toolscope-capture-no-key"


def client_environment(url: str, *, upstream: bool) -> dict[str, str]:
    """The variables to set for clients to talk to the server at ``url`` (no trailing slash)."""
    env = {
        "OPENAI_BASE_URL": f"{url}/v1",
        "OPENAI_API_BASE": f"{url}/v1",
        "ANTHROPIC_BASE_URL": url,
        "GOOGLE_GEMINI_BASE_URL": url,
    }
    if not upstream:
        for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"):
            if not os.environ.get(key) and not (key == "GEMINI_API_KEY" and os.environ.get("GOOGLE_API_KEY")):
                env[key] = PLACEHOLDER_KEY
    return env


def exit_status(returncode: int) -> int:
    """A child's status as a shell reports it: ``128 + N`` when signal N ended it."""
    return 128 - returncode if returncode < 0 else returncode


def run_command(
    argv: Sequence[str], extra_env: Mapping[str, str], received: Callable[[], int | None] = lambda: None
) -> int:
    """Run ``argv`` with ``extra_env`` added; wait for it; its exit status (``exit_status``).

    KeyboardInterrupt (Ctrl+C, or SIGTERM routed through ``cli.signals``) while waiting:
    the command gets SIGINT/SIGTERM, up to ``GRACE_SECONDS`` to end, then SIGKILL (with
    everything it started); its status is returned all the same. ``received`` names the
    signal that caused the interrupt (the CLI's ``signals.received``; None: Ctrl+C).
    """
    env = {**os.environ, **extra_env}
    try:
        child = subprocess.Popen(list(argv), env=env)
    except FileNotFoundError:
        raise InputError(argv[0], "command not found") from None
    except PermissionError:
        raise InputError(argv[0], "is not executable") from None
    except OSError as exc:
        raise InputError(argv[0], f"cannot run it: {exc.strerror or exc}") from None
    try:
        return exit_status(child.wait())
    except KeyboardInterrupt:
        _end(child, received() or signal.SIGINT)
        return exit_status(child.returncode)


def _end(child: subprocess.Popen[bytes], signum: int) -> None:
    deadline = time.monotonic() + GRACE_SECONDS
    # The command's processes, known before it is signalled: a shell that dies of the signal
    # leaves its background children to init, where nothing can tell them from others.
    tree = _descendants(child.pid)
    if signum == signal.SIGINT:
        # A Ctrl+C at the terminal reached the command too: give it a moment before a second one.
        try:
            child.wait(timeout=1.0)
        except (subprocess.TimeoutExpired, KeyboardInterrupt):
            pass
    while child.poll() is None and time.monotonic() < deadline:
        tree |= _descendants(child.pid)
        try:
            child.send_signal(signum)
        except ProcessLookupError:
            break
        try:
            child.wait(timeout=max(0.05, min(1.0, deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            continue
        except KeyboardInterrupt:
            continue  # a second Ctrl+C: keep ending the command, do not leave it behind
    if child.poll() is None:
        tree |= _descendants(child.pid)
        _kill_tree(child.pid)
        child.wait(timeout=5)
    _end_left(tree, signum, deadline)


def _descendants(pid: int) -> set[psutil.Process]:
    """Every process under ``pid`` now (psutil remembers each one's start: a reused pid is not it)."""
    try:
        return set(psutil.Process(pid).children(recursive=True))
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return set()


def _living(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return False


def _end_left(tree: set[psutil.Process], signum: int, deadline: float) -> None:
    """The command has ended: its processes still running get ``signum``, the rest of the grace, then SIGKILL."""
    left = [p for p in tree if _living(p)]
    for process in left:
        with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
            process.send_signal(signum)
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = [p for p in left if _living(p)]
    for process in left:
        with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
            process.kill()


def _kill_tree(pid: int) -> None:
    """SIGKILL ``pid`` and every process under it (psutil: a reused pid is never signalled).

    The command goes first: killed after its children, a shell waiting on them would end on
    its own and its status would read as a clean exit."""
    try:
        root = psutil.Process(pid)
        targets = [root, *root.children(recursive=True)]
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return
    for target in targets:
        with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
            target.kill()
