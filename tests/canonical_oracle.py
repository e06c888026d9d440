"""The canonical text and fingerprint (dbt_backfill/v3), written from the rules in docs/fingerprint.md alone -- the section "The
canonical fingerprint" and its table of engine texts -- and from Python values, not from SQL. It shares no code
with reference_fingerprint.py (which restates the algorithm over ready-made field texts): here each value is
rendered by the documented rule for its type, so a test can check the SQL's rendering of every type against it."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Sequence
from decimal import Decimal
from typing import Any, Callable

NULL_MARKER = "\\N"


def escaped(text: str) -> str:
    """Every type outside the separator-free ones: a backslash doubled, then the field separator escaped."""
    return text.replace("\\", "\\\\").replace("|", "\\|")


# -- types with one text on every engine, written as they are --------------------------------------------------
def integer_text(value: int) -> str:
    return str(value)


def decimal_text(value: Decimal) -> str:
    """Trailing zeros trimmed (12.0 = 12.00 = 12); no exponent; zero has no sign."""
    if value == 0:
        return "0"
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def boolean_text(value: bool) -> str:
    return "true" if value else "false"


def date_text(value: dt.date) -> str:
    return f"{value.year:04d}-{value.month:02d}-{value.day:02d}"


def timestamp_text(value: dt.datetime) -> str:
    text = f"{date_text(value)} {value.hour:02d}:{value.minute:02d}:{value.second:02d}"
    if value.microsecond:
        text += ("." + f"{value.microsecond:06d}").rstrip("0")
    return text


def timestamptz_text(value: dt.datetime) -> str:
    return timestamp_text(value.astimezone(dt.timezone.utc).replace(tzinfo=None)) + "+00"


def uuid_text(value: str) -> str:
    return value.lower()


def binary_text(value: bytes) -> str:
    return value.hex()


# -- engine texts (escaped afterwards) ----------------------------------------------------------------------------
def json_compact(value: Any) -> str:
    """JSON as DuckDB's and Spark's to_json write it: no spaces, `"` and `\\` escaped, other characters as they are."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def postgres_jsonb_text(value: Any) -> str:
    """jsonb's own text: object keys by length, then bytes, each once; `, ` and `: ` between items."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: (len(k.encode()), k.encode()))
        return (
            "{"
            + ", ".join(json.dumps(k, ensure_ascii=False) + ": " + postgres_jsonb_text(value[k]) for k in keys)
            + "}"
        )
    if isinstance(value, list):
        return "[" + ", ".join(postgres_jsonb_text(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def postgres_array_text(values: Sequence[Any]) -> str:
    """A one-dimensional PostgreSQL array: `{a,"b c",NULL}`; an element is quoted (with `"` and `\\` escaped) when it
    is empty, spells NULL, or holds a brace, a comma, a quote, a backslash or white space."""

    def element(value: Any) -> str:
        if value is None:
            return "NULL"
        text = str(value)
        if text == "" or text.upper() == "NULL" or any(c in text for c in '{},"\\ \t\n\r\v\f'):
            return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
        return text

    return "{" + ",".join(element(v) for v in values) + "}"


def interval_text(days: int, seconds: int) -> str:
    """PostgreSQL (IntervalStyle postgres) and DuckDB: `N day(s)` and/or `HH:MM:SS`; a zero interval is 00:00:00."""
    parts = []
    if days:
        parts.append(f"{days} day" + ("s" if days != 1 else ""))
    if seconds or not days:
        parts.append(f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}")
    return " ".join(parts)


def inet_text(address: str, prefix: int) -> str:
    """PostgreSQL's inet as text: the address and its prefix length, /32 included."""
    return f"{address}/{prefix}"


# -- rows and partitions ------------------------------------------------------------------------------------------
def field(value: Any, render: Callable[[Any], str], escape: bool) -> str:
    if value is None:
        return NULL_MARKER
    text = render(value)
    return escaped(text) if escape else text


def row_digest(fields: Sequence[str]) -> str:
    return hashlib.sha256("|".join(fields).encode("utf-8")).hexdigest()


def fingerprint(digests: Sequence[str]) -> str:
    """`<rows>:<exact sum of each row digest's first 15 hex digits>`, hashed."""
    total = sum(int(d[:15], 16) for d in digests)
    return hashlib.sha256(f"{len(digests)}:{total}".encode()).hexdigest()


def optional(value: Any | None, render: Callable[[Any], str]) -> str | None:
    return None if value is None else render(value)
