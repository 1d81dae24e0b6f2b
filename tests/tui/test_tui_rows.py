"""Row selection, mode comparison and completion: the pure helpers behind the views."""

from __future__ import annotations

from tui_subjects import table_subject

from toolscope.tui.completion import complete
from toolscope.tui.rows import GroupRow, RowIndex, RowQuery, compare, is_registered_but_hidden


def test_registered_but_hidden_tools_come_first() -> None:
    evaluation = table_subject().evaluate("run")
    rows = RowIndex(evaluation).select(RowQuery())
    assert [t.name for t in rows[:2]] == ["notify_user", "write_file"]
    assert all(is_registered_but_hidden(t) for t in rows[:2])
    assert rows[2].name == "create_issue"  # hidden, but at the first gate


def test_filter_terms_match_name_namespace_and_verdict() -> None:
    index = RowIndex(table_subject().evaluate("build"))
    assert [t.name for t in index.select(RowQuery("issue"))] == ["create_issue", "list_issues"]
    assert [t.name for t in index.select(RowQuery("github hidden"))] == ["create_issue"]
    assert [t.name for t in index.select(RowQuery("HUMAN"))] == ["human_feedback", "notify_user"]
    assert list(index.select(RowQuery("nothing-like-this"))) == []


def test_only_hidden_and_grouping() -> None:
    index = RowIndex(table_subject().evaluate("run"))
    hidden = index.select(RowQuery(only_hidden=True))
    assert {t.name for t in hidden} == {"notify_user", "write_file", "create_issue"}
    grouped = index.select(RowQuery(grouped=True))
    headings = [r for r in grouped if isinstance(r, GroupRow)]
    assert [h.namespace for h in headings][:2] == ["human_tools", "workspace"]
    assert headings[0].total == 2 and headings[0].hidden == 1


def test_compare_counts_moves_between_modes() -> None:
    subject = table_subject()
    change = compare(subject.evaluate("build"), subject.evaluate("run"))
    assert change.changed == {("human_tools", "notify_user"), ("workspace", "write_file")}
    assert change.summary("build", "run") == "mode build → run: 2 tools became hidden"
    back = compare(subject.evaluate("run"), subject.evaluate("build"))
    assert back.summary("run", "build") == "mode run → build: 2 tools became visible"


def test_completion_ranks_exact_prefix_substring_then_letters() -> None:
    names = ("notify_user", "notify", "human_feedback", "user_notes", "list-issues")
    assert complete("notify", names) == ["notify", "notify_user"]
    assert complete("ntfusr", names) == ["notify_user"]
    assert complete("list_iss", names) == ["list-issues"]
    assert complete("user", names)[0] == "user_notes"
    assert complete("", names) == []


def test_typing_on_and_deleting_give_the_same_rows_as_a_fresh_index() -> None:
    """The incremental narrowing must never lose rows when the user deletes or toggles."""
    evaluation = table_subject().evaluate("run")
    index = RowIndex(evaluation)
    for text, only_hidden in [
        ("i", False),
        ("is", False),
        ("iss x", False),
        ("is", False),
        ("", True),
        ("u", True),
        ("u", False),
        ("", False),
    ]:
        expected = list(RowIndex(evaluation).select(RowQuery(text, only_hidden)))
        assert list(index.select(RowQuery(text, only_hidden))) == expected, (text, only_hidden)


def test_hidden_by_design_sorts_after_real_problems_with_a_quiet_mark() -> None:
    """#22 item 3: in pulse-check the real problem (record_run_concern, not allow-listed) comes
    before get_prompt / get_resource, which code-execution mode leaves out on purpose; only the
    real problems are alerts (``!``), the by-design ones are marked ``·``."""
    from tui_helpers import REPO

    from toolscope.cli.inputs import open_subject
    from toolscope.tui.rows import is_hidden_by_design

    subject = open_subject(str(REPO / "sample_configs" / "realistic" / "step_config.json"), step="pulse-check")
    index = RowIndex(subject.evaluate("workshop"))
    names = [t.name for t in index.select(RowQuery(only_hidden=True))]
    assert names.index("record_run_concern") < names.index("get_prompt")
    assert names[-2:] == ["get_prompt", "get_resource"]
    alerts = [t.name for t in index.alerts()]
    assert "record_run_concern" in alerts and "get_prompt" not in alerts
    by_design = [t for t in index.select(RowQuery()) if is_hidden_by_design(t)]
    assert [t.name for t in by_design] == ["get_prompt", "get_resource"]


def test_an_inactive_group_is_by_design_not_an_alert() -> None:
    """#22 item 3: every tool of an inactive group used to get ``!``; its fix is a reset_tools call."""
    from tui_helpers import REPO

    from toolscope.cli.inputs import open_subject
    from toolscope.tui.rows import is_hidden_by_design

    subject = open_subject(str(REPO / "sample_configs" / "agentscope" / "toolkit.yaml"))
    rows = list(RowIndex(subject.evaluate(None)).select(RowQuery()))
    web = [t for t in rows if t.namespace == "web_search"]
    assert web and all(is_hidden_by_design(t) and not is_registered_but_hidden(t) for t in web)
