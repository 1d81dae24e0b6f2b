"""The did-you-mean helpers in core/text/suggest.py, and that every front end goes through them."""

from __future__ import annotations

import re
from pathlib import Path

from toolscope.core.text.suggest import close_matches, did_you_mean

CORE = Path(__file__).resolve().parents[2] / "core"


def test_close_matches_orders_best_first_and_respects_n() -> None:
    assert close_matches("lst", ["list", "last", "unrelated"], n=2) == ("list", "last")
    assert close_matches("lst", ["last", "list"], n=1) == ("list",)


def test_close_matches_respects_cutoff() -> None:
    assert close_matches("qqqq", ["list", "read"], n=3) == ()
    assert close_matches("read_fil", ["read_file"], n=3, cutoff=0.95) == ()
    assert close_matches("read_fil", ["read_file"], n=3) == ("read_file",)


def test_did_you_mean_puts_the_normalized_match_first() -> None:
    assert did_you_mean("Read-File", ["write_file", "read-file"])[0] == "read-file"


def test_no_module_outside_suggest_calls_difflib() -> None:
    """Spelling suggestions have one home, so their wording and thresholds cannot drift apart."""
    offenders = [
        str(path.relative_to(CORE.parent))
        for path in CORE.rglob("*.py")
        if path.name != "suggest.py" and re.search(r"\bdifflib\b", path.read_text(encoding="utf-8"))
    ]
    for front in ("cli", "tui"):
        offenders += [
            str(path.relative_to(CORE.parent))
            for path in (CORE.parent / front).rglob("*.py")
            if re.search(r"\bdifflib\b", path.read_text(encoding="utf-8"))
        ]
    assert offenders == []


def test_a_name_inside_a_longer_one_is_found_by_the_substring_rule_alone() -> None:
    # Too far for the edit distance (1 for a 6-letter name) and too unlike for the ratio (0.43):
    # only the substring branch finds it, after the closer names.
    assert did_you_mean("search", ["mcp_web_search_v2_tool", "unrelated"]) == ("mcp_web_search_v2_tool",)
    assert did_you_mean("search", ["mcp_web_search_v2_tool", "serch"]) == ("serch", "mcp_web_search_v2_tool")
    assert did_you_mean("abc", ["xxabcxxxxxxxxx"]) == ()  # names under 4 letters are not looked for inside others


def test_edit_distance_orders_before_the_ratio_and_ties_by_name() -> None:
    assert did_you_mean("notify_usr", ["notify_user", "notify_users", "notify_usr_x"]) == (
        "notify_user",  # distance 1
        "notify_users",  # distance 2, then by name
        "notify_usr_x",
    )
    assert did_you_mean("notfyx", ["notify_user", "zzz"]) == ("notify_user",)  # the ratio's last resort


def test_an_unknown_name_among_50000_is_answered_quickly() -> None:
    import time

    names = [f"get_issue_{i}_{j}" for i in range(500) for j in range(100)]
    start = time.process_time()
    assert did_you_mean("get_isue_7_3", names)[0] == "get_issue_7_3"
    assert time.process_time() - start < 0.5  # the hand-written Levenshtein took about 1 s
