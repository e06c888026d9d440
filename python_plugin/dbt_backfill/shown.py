"""How a value from the data or the user appears in anything printed: escaped and cut, so that it can neither move
the terminal's cursor, forge a line, nor flood the output. The floor every other module may import."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

PLAIN = re.compile(r"[A-Za-z0-9_ .:+\-/,@…]*")


def shown(value: Any, width: int = 80) -> str:
    """A data value as the terminal shows it: as it is when plain, else JSON-quoted (a newline, a control or escape
    character cannot move the cursor or forge a line); at most `width` characters, then "…"."""
    if value is None:
        return "NULL"
    text = str(value)
    cut = text[:width] + ("…" if len(text) > width else "")
    if PLAIN.fullmatch(cut):
        return cut
    # JSON escapes the C0 controls; DEL, the C1 controls (\x9b starts a terminal sequence too) and the invisible
    # format characters (bidirectional overrides) are escaped the same way
    return controls_escaped(json.dumps(cut, ensure_ascii=False))


def controls_escaped(text: str) -> str:
    """`text` with every control and invisible format character (a newline, an escape, DEL, the C1 controls, a
    bidirectional override) written as its \\uXXXX escape: a line that can neither move the cursor nor forge
    another line, for text that is shown whole (the progress line) rather than quoted."""
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) in ("Cc", "Cf") else c for c in text)


def quoted(value: str, width: int = 80) -> str:
    """A value in a sentence: 'as typed' in single quotes when plain, else as shown() escapes and cuts it."""
    text = shown(value, width)
    return f"'{text}'" if text == value else text
