"""Name normalization must match mcpagent's Go NormalizeServerName / NormalizeToolName."""

from __future__ import annotations

import pytest

from toolscope.core.systems.agentworks.names import (
    DEFAULT_SYSTEM_CATEGORY_BASES,
    go_lower,
    normalize_server_name,
    normalize_tool_name,
    normalize_tool_names,
    system_categories,
)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("google-sheets", "google_sheets"),
        ("Google_Sheets", "google_sheets"),
        ("GOOGLE-SHEETS", "google_sheets"),
        ("gmail", "gmail"),
        ("a--b", "a__b"),
        ("-", "_"),
        ("", ""),
        (" github ", " github "),  # whitespace is never trimmed
        ("GitHub\t", "github\t"),
        ("NO_SERVERS", "no_servers"),
        ("İstanbul", "istanbul"),  # Go: U+0130 -> 'i', Python's lower() gives 'i̇'
        ("ΟΔΟΣ", "οδοσ"),  # no final-sigma rule
        ("Parallel Search MCP", "parallel search mcp"),
        ("HTTPServer", "httpserver"),  # server names are never camel-split
        ("Ä-Ö", "ä_ö"),
    ],
)
def test_normalize_server_name(raw: str, expected: str) -> None:
    assert normalize_server_name(raw) == expected


TOOL_NAME_CASES = [
    # reference §1.2 table
    ("GetSheetData", "get_sheet_data"),
    ("getSheetData", "get_sheet_data"),
    ("HTTPGet", "h_t_t_p_get"),
    ("read-file", "read_file"),
    ("Read_File", "read_file"),
    # more camelCase edges
    ("get_sheet_data", "get_sheet_data"),
    ("getÄpfel", "getäpfel"),  # only ASCII capitals split
    ("ÄpfelGet", "äpfel_get"),
    ("A", "a"),
    ("AB", "a_b"),
    ("a", "a"),
    ("", ""),
    ("X1Y2", "x1_y2"),
    ("get-SheetData", "get_sheetdata"),  # hyphen becomes '_', so no camel split
    ("Get_SheetData", "get_sheetdata"),
    ("getSheet Data", "get_sheet _data"),  # spaces kept, split before 'D'
    ("* ", "* "),
    ("*", "*"),
    ("İsOK", "is_o_k"),  # U+0130 is not ASCII: no split before it, lowers to 'i'
    ("ΟΔΟΣ", "οδοσ"),
    ("getΣ", "getσ"),
    (" readFile ", " read_file "),
    ("getUrlHTTPS", "get_url_h_t_t_p_s"),
]


@pytest.mark.parametrize(("raw", "expected"), TOOL_NAME_CASES)
def test_normalize_tool_name(raw: str, expected: str) -> None:
    assert normalize_tool_name(raw) == expected


def test_normalize_tool_names_of_a_whole_universe_matches_one_by_one() -> None:
    raws = [raw for raw, _ in TOOL_NAME_CASES] + ["Snake_İ_Name", "a_b-c", "read_FILE", "ΟΔΟΣ_x"]
    assert normalize_tool_names(raws) == tuple(normalize_tool_name(raw) for raw in raws)
    assert normalize_tool_names(raw for raw, _ in TOOL_NAME_CASES) == tuple(e for _, e in TOOL_NAME_CASES)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("ABC", "abc"),
        ("İ", "i"),
        ("İİ", "ii"),
        ("ΣΑΣ", "σασ"),
        ("ΌΣ ΣΑ", "όσ σα"),
        ("ẞ", "ß"),
        ("ǅ", "ǆ"),  # titlecase letter lowers to its lowercase form
        ("K", "k"),  # Kelvin sign
        ("Ω", "ω"),  # Ohm sign
        ("ΣİΣ", "σiσ"),
        ("ß", "ß"),
    ],
)
def test_go_lower_is_per_character_simple_mapping(raw: str, expected: str) -> None:
    assert go_lower(raw) == expected
    assert len(go_lower(raw)) == len(raw)


def test_go_lower_differs_from_python_lower_where_go_does() -> None:
    assert "İ".lower() != go_lower("İ")
    assert "ΟΔΟΣ".lower() == "οδος"  # Python applies the final-sigma rule...
    assert go_lower("ΟΔΟΣ") == "οδοσ"  # ...Go does not


def test_system_categories_at_head() -> None:
    cats = system_categories(DEFAULT_SYSTEM_CATEGORY_BASES)
    for name in (
        "workspace",
        "workspace_tools",
        "workspace_basic",
        "workspace_basic_tools",
        "workspace_browser_tools",
        "workspace_advanced",
        "workspace_git_tools",
        "workspace_image_gen",
        "workspace_image_edit_tools",
        "human_tools",
        "delegation_tools",
        "workflow",
        "workflow_tools",
        "skill_tools",
    ):
        assert name in cats, name
    for name in ("human", "delegation", "skill", "human_tools_tools", "workflow_db", "custom"):
        assert name not in cats, name
    assert len(cats) == 19


def test_system_categories_suffix_rule() -> None:
    assert system_categories(["a", "b_tools"]) == frozenset({"a", "a_tools", "b_tools"})
    assert system_categories([]) == frozenset()
