"""The README's and the docs' ``$ toolscope …`` examples, run and compared with what they show.

An example is a fenced ``text`` block whose first line is ``$ toolscope ARGS``, optionally followed
by ``# N columns`` (the terminal width it was made at; 80 when not said); the lines after it are the
output, stdout and stderr as a terminal shows them, byte for byte. Each runs in-process through
Typer's runner from the repository's root, with ``COLUMNS=N`` and none of the variables that would
make it depend on the machine (``tests/test_examples.py``).

    python -m tests.examples            # list the stale examples (exit 1 when one is)
    python -m tests.examples --rewrite  # write the current output into every stale block
"""

from __future__ import annotations

import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
REWRITE = "python -m tests.examples --rewrite"
DEFAULT_COLUMNS = 80
# The environment an example runs in: the width it names, no colour, and nothing of the user's
# own setup that would change an answer (Claude Code and Codex read these).
UNSET = ("ENABLE_TOOL_SEARCH", "CODEX_HOME", "ANTHROPIC_MODEL", "CLAUDE_CONFIG_DIR", "FORCE_COLOR", "TERM")
_BLOCK = re.compile(r"^```text\n(\$ toolscope [^\n]*)\n(.*?)^```$", re.S | re.M)
_COLUMNS = re.compile(r"\s+#\s*(\d+) columns\s*$")


@dataclass(frozen=True)
class Example:
    """One block: where it is, the command line and the output it shows."""

    path: Path
    line: int
    command: str
    shown: str
    start: int
    """Offset of the shown output in the file."""

    @property
    def columns(self) -> int:
        found = _COLUMNS.search(self.command)
        return int(found.group(1)) if found else DEFAULT_COLUMNS

    @property
    def args(self) -> list[str]:
        return shlex.split(_COLUMNS.sub("", self.command).removeprefix("$ toolscope "))

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"


def pages() -> list[Path]:
    """The README and every page of the docs."""
    return [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]


def examples(path: Path) -> list[Example]:
    text = path.read_text("utf-8")
    return [
        Example(path, text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2), m.start(2))
        for m in _BLOCK.finditer(text)
    ]


def all_examples() -> list[Example]:
    return [example for path in pages() for example in examples(path)]


def run(example: Example) -> str:
    """What the command prints now, as the block would show it."""
    import os

    from typer.testing import CliRunner

    from toolscope.cli.app import app

    env: dict[str, str | None] = {name: None for name in UNSET}
    env |= {"COLUMNS": str(example.columns), "NO_COLOR": "1"}
    cwd = Path.cwd()
    os.chdir(REPO)
    try:
        result = CliRunner().invoke(app, example.args, env=env)
    finally:
        os.chdir(cwd)
    return result.output


def rewrite(path: Path) -> list[str]:
    """Write the current output into each stale block of ``path``; the ids of those rewritten."""
    text = path.read_text("utf-8")
    stale = []
    for example in reversed(examples(path)):
        now = run(example)
        if now != example.shown:
            stale.append(example.id)
            text = text[: example.start] + now + text[example.start + len(example.shown) :]
    if stale:
        path.write_text(text, "utf-8")
    return stale[::-1]


def main(argv: list[str]) -> int:
    if "--rewrite" in argv:
        for path in pages():
            for done in rewrite(path):
                print(f"rewrote {done}")
        return 0
    stale = [e.id for e in all_examples() if run(e) != e.shown]
    for found in stale:
        print(f"stale: {found}")
    if stale:
        print(f"run: {REWRITE}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
