"""Shell-quote the commands toolscope suggests, so that pasting one runs exactly that.

A tool named ``$(touch /tmp/x)`` or a mode named ``run;rm -rf ~`` comes out as one quoted
word. Words with control or invisible characters use bash's ``$'…'`` form with escapes:
the line stays inert on screen and still names the same tool when pasted into bash or zsh.
"""

from __future__ import annotations

import re
import shlex

_NEEDS_ANSI_C = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


def _ansi_c(word: str) -> str:
    out = []
    for char in word:
        code = ord(char)
        if char in "\\'":
            out.append("\\" + char)
        elif _NEEDS_ANSI_C.match(char):
            out.append(f"\\x{code:02x}" if code < 0x80 else f"\\u{code:04x}")  # \\u: a character, not a byte
        else:
            out.append(char)
    return "$'" + "".join(out) + "'"


def shell_quote(word: str) -> str:
    """One shell word for ``word``: unchanged when safe, else quoted."""
    if _NEEDS_ANSI_C.search(word):
        return _ansi_c(word)
    return shlex.quote(word)


def shell_join(words: list[str] | tuple[str, ...]) -> str:
    """A command line of quoted words."""
    return " ".join(shell_quote(word) for word in words)


def is_command(line: str) -> bool:
    """True for a suggested command line (printed whole, never wrapped)."""
    return line.startswith("toolscope ")
