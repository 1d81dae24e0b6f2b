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
