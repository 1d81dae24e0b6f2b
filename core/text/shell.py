"""Shell-quote the commands toolscope suggests, so that pasting one runs exactly that.

A tool named ``$(touch /tmp/x)`` or a mode named ``run;rm -rf ~`` comes out as one quoted
word. Words with an unsafe character (``core.text.safe_text``'s one definition, tabs and
newlines included) use bash's ``$'…'`` form with escapes:
the line stays inert on screen and still names the same tool when pasted into bash or zsh.
"""

from __future__ import annotations

import shlex

from .safe_text import UNSAFE


def _ansi_c(word: str) -> str:
    out = []
    for char in word:
        code = ord(char)
        if char in "\\'":
            out.append("\\" + char)
        elif UNSAFE.match(char):
            # \u and \U escape a character; \x80 and up would be a raw byte to bash
            out.append(f"\\x{code:02x}" if code < 0x80 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(char)
    return "$'" + "".join(out) + "'"


def shell_quote(word: str) -> str:
    """One shell word for ``word``: unchanged when safe, else quoted."""
    if UNSAFE.search(word):
        return _ansi_c(word)
    return shlex.quote(word)


def shell_join(words: list[str] | tuple[str, ...]) -> str:
    """A command line of quoted words."""
    return " ".join(shell_quote(word) for word in words)


def is_command(line: str) -> bool:
    """True for a suggested command line (printed whole, never wrapped)."""
    return line.startswith("toolscope ")


def _shell_words(line: str) -> list[str]:
    """Split a command line printed by ``shell_join`` at the spaces between words (not those
    inside quotes). Each word is the line's own text, quotes and escapes kept."""
    words: list[str] = []
    start: int | None = None  # where the current word began
    index = 0
    while index < len(line):
        if line[index] == " ":
            if start is not None:
                words.append(line[start:index])
                start = None
            index += 1
            continue
        if start is None:
            start = index
        index = _token_end(line, index)
    if start is not None:
        words.append(line[start:])
    return words


def _token_end(line: str, index: int) -> int:
    """The index after the character, or the quoted part ('…', "…", $'…'), at ``index``; an
    unclosed quote runs to the end of the line."""
    if line.startswith("$'", index):
        return _ansi_c_quote_end(line, index + 2)
    if line[index] in "'\"":
        close = line.find(line[index], index + 1)
        return len(line) if close < 0 else close + 1
    return index + 1


def _ansi_c_quote_end(line: str, index: int) -> int:
    """The index after the ' closing a $'…' part whose text starts at ``index`` (\\x escapes skipped)."""
    while index < len(line):
        if line[index] == "\\" and index + 1 < len(line):
            index += 2
        elif line[index] == "'":
            return index + 1
        else:
            index += 1
    return len(line)


def wrap_command(line: str, width: int) -> list[str]:
    """``line`` broken between words into lines of at most ``width`` characters, each but
    the last ending with `` \\``: pasted into a shell, it is still the one command."""
    if len(line) <= width:
        return [line]
    lines: list[str] = []
    current = ""
    for word in _shell_words(line):
        candidate = f"{current} {word}" if current else word
        if current and len(candidate) + 2 > width:
            lines.append(current + " \\")
            current = "  " + word
        else:
            current = candidate
    lines.append(current)
    return lines
