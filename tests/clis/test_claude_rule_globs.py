"""Permission-rule globs as Claude Code 2.1.332 matched them (``experiments/x_c_claude_rule_globs.py``:
user servers gh (delete_repo, delete_issue, list_repos), ghx (delete_repo), other (y); one deny rule
per run; the tools missing from the first request). The lane re-runs the binary on the same setups
(``claude_matrix.py``, cases ``deny_glob_*``)."""

from __future__ import annotations

import pytest

from toolscope.core.systems.claude_code.permissions import rule_matches

TOOLS = [
    ("gh", "mcp__gh__delete_repo"),
    ("gh", "mcp__gh__delete_issue"),
    ("gh", "mcp__gh__list_repos"),
    ("ghx", "mcp__ghx__delete_repo"),
    ("other", "mcp__other__y"),
]
EVERY = {name for _, name in TOOLS}

OBSERVED = {
    "mcp__gh__delete_*": {"mcp__gh__delete_repo", "mcp__gh__delete_issue"},
    "mcp__gh__delete_?epo": set(),
    "mcp__gh__[d]elete_repo": set(),
    "mcp__*__delete_repo": {"mcp__gh__delete_repo", "mcp__ghx__delete_repo"},
    "mcp__g*": {n for s, n in TOOLS if s.startswith("g")},
    "mcp__gh*": {n for s, n in TOOLS if s.startswith("gh")},
    "mcp__gh": {n for s, n in TOOLS if s == "gh"},
    "mcp__gh__*": {n for s, n in TOOLS if s == "gh"},
    "mcp__*": EVERY,
    "*": EVERY,
}


@pytest.mark.parametrize("rule", OBSERVED)
def test_rule_removes_what_the_binary_removed(rule: str) -> None:
    assert {name for server, name in TOOLS if rule_matches(rule, server, name)} == OBSERVED[rule]
