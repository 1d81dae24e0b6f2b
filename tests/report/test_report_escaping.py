"""Untrusted text stays text: HTML is escaped, Markdown inert and ASCII, markup never parsed."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from toolscope.core.report.build import build_report
from toolscope.core.report.data import Environment
from toolscope.core.report.html import render_html
from toolscope.core.report.json_report import render_json
from toolscope.core.report.markdown import md, render_markdown

ENV = Environment("test", "3.x")
HOSTILE = ("<script", "<img", "<b>", "</script")  # raw tags; the words themselves may stay as text


def _report(subject):
    return build_report(subject, ["build", "run"], ["<script>alert(1)</script>", "notify_user"], environment=ENV)


class _Elements(HTMLParser):
    """Collects every element and attribute the browser would see."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += attrs

    def handle_data(self, data):
        self.text.append(data)


def test_html_escapes_every_input_text(hostile_subject) -> None:
    """<script>, "><img onerror=…> and Rich markup from names, rules, labels stay text."""
    page = render_html(_report(hostile_subject))
    parser = _Elements()
    parser.feed(page)
    assert "script" not in parser.tags and "img" not in parser.tags
    allowed = {
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "h1",
        "h2",
        "h3",
        "section",
        "ul",
        "ol",
        "li",
        "p",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "strong",
        "span",
        "div",
        "code",
        "details",
        "summary",
        "footer",
        "wbr",  # a line-break opportunity inside long names
    }
    assert set(parser.tags) <= allowed
    assert not [name for name, _ in parser.attrs if name.startswith("on")]
    assert {name for name, _ in parser.attrs} <= {"lang", "charset", "name", "content", "class", "open"}
    # The hostile strings are there — as text the reader sees literally.
    text = "".join(parser.text)
    assert "<script>alert(1)</script>" in text
    assert '"><img src=x onerror=alert(3)>' in text
    assert "[bold red]rich[/bold red]" in text
    assert "[bold red]pwn[/] | cell\nbreak" in text
    assert "\x1b" not in page and "\\x1b[31m" in text  # terminal escapes shown, not sent
    assert "\u202e" not in page and "\\u202e" in text  # bidi override shown, not applied


def test_html_is_self_contained(hostile_subject) -> None:
    """No scripts, no external requests: no src/href, no url(), no @import."""
    page = render_html(_report(hostile_subject))
    parser = _Elements()
    parser.feed(page)
    # Only our own attributes, none of which can fetch anything.
    assert not {name for name, _ in parser.attrs} & {"src", "href", "srcset", "action", "style", "background"}
    assert {"link", "script", "img", "iframe", "object", "embed"}.isdisjoint(parser.tags)
    css = page.split("<style>", 1)[1].split("</style>", 1)[0].lower()
    for needle in ("url(", "@import", "http", "<"):
        assert needle not in css, needle
    assert page.lower().startswith("<!doctype html>") and "@media print" in css


def test_markdown_is_inert_utf8(hostile_subject) -> None:
    """No raw HTML from inputs, no terminal codes, @mentions defused; UTF-8 text as it
    reads (a plain-text viewer shows no character references)."""
    from markdown_it import MarkdownIt

    text = render_markdown(_report(hostile_subject))
    assert "\x1b" not in text
    for needle in HOSTILE:  # never unescaped: a backslash before every "<"
        assert not re.search(r"(?<!\\)" + re.escape(needle), text), needle
    assert "\\<script\\>alert(1)\\</script\\>" in text
    # Rendered by a CommonMark renderer that passes raw HTML through: still no element from the inputs.
    parser = _Elements()
    parser.feed(MarkdownIt("commonmark", {"html": True}).enable("table").render(text))
    assert not {"script", "img", "b", "iframe"} & set(parser.tags)
    assert not [name for name, _ in parser.attrs if name.startswith("on")]
    assert "@everyone" not in text and "&#64;everyone" in text
    assert "café" in text and "&#x" not in text
    assert "\\[bold red\\]rich\\[/bold red\\]" in text


def test_markdown_tables_keep_their_shape(hostile_subject) -> None:
    """A '|' or newline in a name or description cannot add or split cells."""
    text = render_markdown(_report(hostile_subject))
    for block in re.findall(r"((?:^\|.*\|\n)+)", text, flags=re.M):
        rows = block.splitlines()
        widths = {len(re.findall(r"(?<!\\)\|", row)) for row in rows}
        assert len(widths) == 1, rows


def test_md_escape_unit() -> None:
    """The escaper on its own: block starts, inline markup, entities."""
    assert md("# title") == "\\# title"
    assert md("- item") == "\\- item"
    assert md("1. one") == "1\\. one"
    assert md("0.1.0") == "0.1.0" and md("3.11.7") == "3.11.7"  # not a list item: no backslash
    assert md("#hashtag") == "#hashtag" and md("-x") == "-x"
    assert md("==") == "\\=="
    assert md("a|b") == "a\\|b"
    assert md("[x](javascript:alert(1))") == "\\[x\\](javascript:alert(1))"
    assert md("**bold** _it_ `code` ~~s~~") == "\\*\\*bold\\*\\* \\_it\\_ \\`code\\` \\~\\~s\\~\\~"
    assert md("a\nb") == "a\\\\nb"
    assert md("<b>&amp;") == "\\<b\\>\\&amp;"
    assert md("x · y") == "x · y"


def test_json_keeps_text_verbatim(hostile_subject) -> None:
    """JSON is data: names are exact (escaping is the consumer's job), but control characters
    are JSON-escaped and secrets are still masked."""
    import json

    document = json.loads(render_json(_report(hostile_subject)))
    names = {t["tool"] for t in document["modes"][0]["tools"]}
    assert "<script>alert(1)</script>" in names
