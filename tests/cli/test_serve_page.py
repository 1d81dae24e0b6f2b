"""``toolscope serve``'s page (``cli/serve_page/app_index.html``) is textual-serve's own template
plus toolscope's focus script, minus its Google Fonts stylesheet (a request to a third party from a
page on 127.0.0.1, which fails offline; only the intro dialog used the font), nothing else: when a textual-serve release changes its template,
this fails and says to copy the new one (the page in the browser is
tests/browser/test_serve_in_chromium.py)."""

from __future__ import annotations

import re
from pathlib import Path

import textual_serve

from toolscope.cli.web_server import PAGE_TEMPLATES

GOOGLE_FONTS = """
    <link
      rel="stylesheet"
      href="https://fonts.googleapis.com/css?family=Roboto%20Mono"
    />
"""
OURS = re.compile(r"    <!-- toolscope: begin .*?<!-- toolscope: end -->\n", re.DOTALL)


def test_the_page_is_textual_serves_template_plus_the_focus_script() -> None:
    page = (PAGE_TEMPLATES / "app_index.html").read_text(encoding="utf-8")
    theirs = (Path(textual_serve.__file__).parent / "templates" / "app_index.html").read_text(encoding="utf-8")
    added = OURS.findall(page)
    assert len(added) == 1, "the focus script is marked once, toolscope: begin … end"
    assert ".xterm-helper-textarea" in added[0] and ".focus()" in added[0]
    assert not re.search(r"""(?:href|src|url)\s*[=(]\s*["']?(?:https?:)?//""", page), "nothing from another host"
    assert GOOGLE_FONTS in theirs, "textual-serve's template no longer loads Google Fonts: copy it again"
    assert OURS.sub("", page) == theirs.replace(GOOGLE_FONTS, "\n"), (
        "textual-serve's templates/app_index.html changed: copy it to cli/serve_page/ and put the "
        "toolscope block back before </body>"
    )
