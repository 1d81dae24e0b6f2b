"""Mutation check for core: apply each mutant below to a copy of the repository, run the tests
that should notice, and print which mutants survived and the score (killed / all).

A mutant is one small change a plausible bug would make (a branch dropped, a comparison
turned, a cache key shortened). The copy lives in a temporary folder and is imported ahead of
the installed package (``PYTHONPATH``), so the checkout is never modified and the run can go
beside other work. Add a mutant with the tests that must kill it; a survivor is a missing test.

    python scripts/mutation_check.py [--only NAME,...] [--list]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TIMEOUT = 300  # seconds per mutant: a mutant that hangs the tests counts as killed


@dataclass(frozen=True)
class Mutant:
    """``original`` (which must occur exactly once in ``path``) replaced by ``mutated``."""

    name: str
    path: str
    original: str
    mutated: str
    tests: tuple[str, ...]


MUTANTS = (
    Mutant(
        "did_you_mean without its substring branch",
        "core/text/suggest.py",
        "if (wanted in form or form in wanted) and index not in close",
        "if False",
        ("tests/core/test_suggest.py",),
    ),
    Mutant(
        "did_you_mean with a smaller edit distance",
        "core/text/suggest.py",
        "max(1, min(3, len(wanted) // 4))",
        "max(1, min(3, len(wanted) // 8))",
        ("tests/core/test_suggest.py",),
    ),
    Mutant(
        "toolkit rows kept when the toolkit's groups change",
        "core/systems/agentscope/subject.py",
        "if not _same_objects(current, self._rows_groups):",
        "if False:",
        ("tests/agentscope/test_as_subject.py",),
    ),
    Mutant(
        "toolkit rows keyed without the active groups",
        "core/systems/agentscope/subject.py",
        "key = (mode, groups)",
        "key = (mode,)",
        ("tests/agentscope/test_as_subject.py",),
    ),
    Mutant(
        "an unknown verdict turned into hidden",
        "core/model/tool_verdict.py",
        "return Verdict.HIDDEN if stage.passed is False else Verdict.UNKNOWN",
        "return Verdict.HIDDEN",
        ("tests/core/test_verdicts.py",),
    ),
    Mutant(
        "an unknown stage read as a pass",
        "core/model/tool_verdict.py",
        "if stage.passed is not True:",
        "if stage.passed is False:",
        ("tests/core/test_verdicts.py",),
    ),
    Mutant(
        "line separators left out of the unsafe characters",
        "core/text/safe_text.py",
        "    (0x2028, 0x202E),\n",
        "    (0x202A, 0x202E),\n",
        ("tests/core/test_safe_text.py",),
    ),
    Mutant(
        "newlines kept in single-line text",
        "core/text/safe_text.py",
        '.replace("\\n", "\\\\n")',
        "",
        ("tests/core/test_safe_text.py",),
    ),
    Mutant(
        "shell words with unsafe characters quoted as plain words",
        "core/text/shell.py",
        "    if UNSAFE.search(word):\n",
        "    if False:\n",
        ("tests/core/test_safe_text.py",),
    ),
    Mutant(
        "one-line items joined on one line",
        "core/outputs/json_text.py",
        'out(f",\\n{pad}" if index else "")',
        'out(", " if index else "")',
        ("tests/core/test_json_text.py",),
    ),
    Mutant(
        "specific selected_tools entries matched without normalizing the tool name",
        "core/systems/agentworks/filter_entries.py",
        'self.tool_keys.setdefault(norm_ns + ":" + normalize_tool_name(tool), entry)',
        'self.tool_keys.setdefault(norm_ns + ":" + tool, entry)',
        ("tests/core/agentworks/test_tool_filter.py",),
    ),
    Mutant(
        "secrets in a server's args not collected",
        "core/mcp/config_secrets.py",
        "into.update(scan_args(value)[1])",
        "pass",
        ("tests/mcp/test_mcp_config.py",),
    ),
    Mutant(
        "the system slice left out of every mode's allow-list",
        "core/systems/agentworks/mode_table.py",
        'table.setdefault(tool, "the system slice (modes.system)")',
        "pass",
        ("tests/core/agentworks/test_universe.py", "tests/core/agentworks/test_pipeline.py"),
    ),
    Mutant(
        "a stage result repeated instead of shared",
        "core/schemas/tools_json.py",
        "index = self.index.get(stage)",
        "index = None",
        ("tests/report/test_report_json_v2.py",),
    ),
)


def copy_repository(target: Path) -> Path:
    """The tracked files (as they are in the working tree) under ``target``, its ``toolscope/``
    folder made the whole package (links to ``cli``, ``core`` and ``tui`` inside it), so that
    with ``target`` first on the path every ``toolscope`` import is the copy's."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    for name in filter(None, files.decode().split("\0")):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    for folder in ("cli", "core", "tui"):
        (target / "toolscope" / folder).symlink_to(target / folder)
    return target


def tests_fail(tests: tuple[str, ...], repo: Path, env: dict[str, str]) -> bool:
    """Run the tests in the copy (serially, stopping at the first failure); True when one failed."""
    options = ["-q", "-x", "-o", "addopts=", "-p", "no:cacheprovider"]
    try:
        run = subprocess.run(
            [sys.executable, "-m", "pytest", *options, *tests], cwd=repo, env=env, capture_output=True, timeout=TIMEOUT
        )
    except subprocess.TimeoutExpired:
        return True
    return run.returncode != 0


def killed(mutant: Mutant, repo: Path, env: dict[str, str]) -> bool:
    """Apply the mutant, run its tests, restore the file; True when a test failed."""
    path = repo / mutant.path
    original = path.read_text(encoding="utf-8")
    if original.count(mutant.original) != 1:
        raise SystemExit(f"{mutant.name}: the original text is not in {mutant.path} exactly once")
    path.write_text(original.replace(mutant.original, mutant.mutated), encoding="utf-8")
    try:
        return tests_fail(mutant.tests, repo, env)
    finally:
        path.write_text(original, encoding="utf-8")


def main() -> int:
    """Run every mutant (or ``--only`` those named) and print the score."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated parts of mutant names")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    args = parser.parse_args()
    wanted = [part.strip() for part in args.only.split(",") if part.strip()]
    mutants = [m for m in MUTANTS if not wanted or any(part in m.name for part in wanted)]
    if args.list:
        print("\n".join(f"{m.name}  ({m.path})" for m in mutants))
        return 0
    with tempfile.TemporaryDirectory(prefix="toolscope-mutants-") as tmp:
        repo = copy_repository(Path(tmp))
        env = {**os.environ, "PYTHONPATH": tmp, "PYTHONDONTWRITEBYTECODE": "1"}
        check = subprocess.run(
            [sys.executable, "-c", "import toolscope.core.text.suggest as m; print(m.__file__)"],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        if not check.stdout.startswith(tmp):  # the copy must be what the tests import
            raise SystemExit(f"the copy is not imported first: {check.stdout.strip()}")
        # Unmutated, the tests must pass: else every mutant would look killed.
        if tests_fail(tuple(sorted({t for m in mutants for t in m.tests})), repo, env):
            raise SystemExit("the mutants' tests fail on the unmutated copy: fix them first")
        survivors = []
        for mutant in mutants:
            start = time.monotonic()
            dead = killed(mutant, repo, env)
            print(f"{'killed  ' if dead else 'SURVIVED'} {mutant.name} ({time.monotonic() - start:.0f} s)", flush=True)
            if not dead:
                survivors.append(mutant.name)
    score = (len(mutants) - len(survivors)) / len(mutants)
    print(f"mutation score: {len(mutants) - len(survivors)}/{len(mutants)} killed ({score:.0%})")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
