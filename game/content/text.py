"""Text that reaches a screen: names are data, checked when read, and printed safely.

A name (of a unit, a side, a scenario, a player ...) is one line of at most NAME_MAX
characters with no control characters; a description may also hold line breaks and tabs, up
to TEXT_MAX characters. Control characters are what a terminal obeys instead of showing
(ESC starts a sequence that can set the window title, clear the screen or hide text), and
bidirectional overrides reorder what is shown; neither has a place in a name.

`printable(text)` is for output whose source is not checked (a file's path, a message quoting
what a file held): every such character is written as an escape (`\\x1b`), never raw.
"""

from __future__ import annotations

import re
from functools import lru_cache

NAME_MAX = 64
TEXT_MAX = 4000
CONTROLS = ("\x00-\x1f\x7f-\x9f"                       # C0, DEL and C1: Unicode's Cc
            "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidirectional marks, overrides
            "\u2028\u2029"                                 # line and paragraph separators
            "\ud800-\udfff")                               # lone surrogates: undecodable bytes


@lru_cache(maxsize=16)
def _pattern(allowed: str) -> re.Pattern[str]:
    if not allowed:
        return re.compile(f"[{CONTROLS}]")
    return re.compile(f"(?![{re.escape(allowed)}])[{CONTROLS}]")


def is_control(char: str) -> bool:
    """A character a terminal may obey rather than show, or one that reorders a line."""
    return _pattern("").match(char) is not None


def _escape(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:                # a byte of a file name that is not UTF-8
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def first_control(text: str, allowed: str = "") -> int | None:
    """The index of the first control character of `text` not in `allowed`, or None."""
    found = _pattern(allowed).search(text)
    return None if found is None else found.start()


def check_name(value: str) -> str:
    """One line of visible text, at most NAME_MAX characters."""
    if len(value) > NAME_MAX:
        raise ValueError(f"a name is at most {NAME_MAX} characters (this one has {len(value)})")
    if not value.strip():
        raise ValueError("a name needs at least one visible character")
    index = first_control(value)
    if index is not None:
        raise ValueError(f"a name may not hold control characters ({_escape(value[index])} at "
                         f"character {index + 1})")
    return value


def check_glyph(value: str) -> str:
    """A map glyph: any one character a terminal shows (a space too)."""
    if first_control(value) is not None:
        raise ValueError(f"a glyph may not be a control character (got {_escape(value[0])})")
    return value


def check_text(value: str) -> str:
    """A description: lines of visible text, at most TEXT_MAX characters in all."""
    if len(value) > TEXT_MAX:
        raise ValueError(f"a description is at most {TEXT_MAX} characters (this one has "
                         f"{len(value)})")
    index = first_control(value, allowed="\n\t")
    if index is not None:
        raise ValueError(f"a description may not hold control characters "
                         f"({_escape(value[index])} at character {index + 1})")
    return value


def printable(text: str, keep: str = "\n") -> str:
    """`text` with every control character but those in `keep` written as an escape."""
    return _pattern(keep).sub(lambda found: _escape(found.group()), text)


def name_problem(value: object) -> str | None:
    """Why `value` cannot be a name (for names typed into the app or read from a save)."""
    if not isinstance(value, str):
        return "a name is text"
    try:
        check_name(value)
    except ValueError as error:
        return str(error)
    return None
