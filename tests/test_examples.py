"""Every ``$ toolscope …`` block of the README and the docs prints what it shows, byte for byte.

Run in-process (Typer's runner) at the block's ``COLUMNS``, from the repository's root
(``tests/examples.py`` says how a block is written). A stale block names the command that
rewrites it."""

from __future__ import annotations

import pytest
from examples import REWRITE, Example, all_examples, examples, pages, run

EXAMPLES = all_examples()


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.id for e in EXAMPLES])
def test_the_example_prints_what_it_shows(example: Example) -> None:
    now = run(example)
    assert now == example.shown, f"{example.id} is stale: run {REWRITE} (and read the diff)"


def test_every_system_tour_has_a_tested_example() -> None:
    """The README's tour: one tested block per system and for the capture, each on a shipped sample."""
    readme = [e.args for e in examples(pages()[0])]
    assert any(a[1].startswith("sample_configs/seed/") for a in readme)
    assert any(a[1].startswith("sample_configs/agentscope/") for a in readme)
    assert any(a[1].startswith("claude-code:sample_configs/") for a in readme)
    assert any(a[1].startswith("codex:sample_configs/") for a in readme)
    assert any("--capture" in a for a in readme)


def test_a_block_without_a_width_is_80_columns_and_a_stale_one_is_found(tmp_path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```text\n$ toolscope filter github:create_issue\nnot this\n```\n", "utf-8")
    (example,) = examples(page)
    assert example.columns == 80 and example.args == ["filter", "github:create_issue"]
    assert run(example) != example.shown
