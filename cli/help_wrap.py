"""Help wrapped at spaces only: ``--keep-messages``, ``toolscope-capture-DATE-TIME.jsonl`` and a
``[default: 127.0.0.1]`` note are never split across two lines.

Click wraps help text with ``textwrap``'s defaults, which break a line after any hyphen
(``--keep-`` / ``messages``) and cut words longer than the line. Here a line breaks only
between words; a word longer than the line stays whole and overflows it.

This is toolscope's adapter to the Click that Typer vendors (``typer._click``, Typer pinned
exactly): ``WholeWordContext`` (Typer's public ``Context``) names ``WholeWordFormatter`` as its
``formatter_class``, and that formatter replaces ``write_text`` and ``write_dl``, the two
methods every paragraph and definition list of a help page goes through.
``tests/test_private_apis.py`` fails when one of them changes shape.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

import typer

_NO_BREAK = "\xa0"  # textwrap splits on ASCII whitespace only: this space holds a note together
_DEFAULT_NOTE = re.compile(r"\[default: [^\]]*\]")


def _hold_together(text: str) -> str:
    return _DEFAULT_NOTE.sub(lambda note: note.group().replace(" ", _NO_BREAK), text)


def _fill(text: str, width: int, indent: str) -> str:
    wrapper = textwrap.TextWrapper(
        width,
        initial_indent=indent,
        subsequent_indent=indent,
        replace_whitespace=False,
        break_on_hyphens=False,
        break_long_words=False,
    )
    return wrapper.fill(_hold_together(text)).replace(_NO_BREAK, " ")


def wrap_help(text: str, width: int, indent: str = "") -> str:
    """Click's paragraphs (split at empty lines; one whose first line is ``\\b`` is kept as
    written, indented), each filled to ``width`` after ``indent``, breaking between words only."""
    paragraphs: list[tuple[str, bool, list[str]]] = []  # (own indent, kept as written, lines)
    for line in text.expandtabs().splitlines():
        if not line:
            paragraphs.append(("", False, []))
        elif not paragraphs or not paragraphs[-1][2]:
            stripped = line.lstrip()
            paragraphs[-1:] = [(" " * (len(line) - len(stripped)), stripped == "\b", [stripped])]
        else:
            paragraphs[-1][2].append(line)
    rendered = []
    for own_indent, as_written, lines in (p for p in paragraphs if p[2]):
        if as_written:
            rendered.append("\n".join(indent + own_indent + line for line in lines[1:]))
        else:
            rendered.append(_fill(" ".join(lines), width, indent + own_indent))
    return "\n\n".join(rendered)


class WholeWordFormatter(typer.Context.formatter_class):  # type: ignore[misc, valid-type]
    """Click's help formatter, its paragraphs and definition lists wrapped between words."""

    def write_text(self, text: str) -> None:
        """A paragraph at the current indent."""
        self.write(wrap_help(text, self.width, " " * self.current_indent) + "\n")

    def write_dl(self, rows: Sequence[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        """Terms and their help in two columns, as Click lays them out."""
        rows = list(rows)
        first_col = min(max((len(term) for term, _ in rows), default=0), col_max) + col_spacing
        margin = " " * (first_col + self.current_indent)
        for term, help_text in rows:
            self.write(f"{'':>{self.current_indent}}{term}")
            if not help_text:
                self.write("\n")
                continue
            if len(term) <= first_col - col_spacing:
                self.write(" " * (first_col - len(term)))
            else:
                self.write("\n" + margin)
            lines = wrap_help(help_text, max(self.width - first_col - 2, 10)).splitlines() or [""]
            self.write(lines[0] + "\n")
            for line in lines[1:]:
                self.write(f"{margin}{line}\n")


class WholeWordContext(typer.Context):
    """A command context whose help pages are wrapped between words."""

    formatter_class = WholeWordFormatter
