"""The canonical fingerprint algorithm (dbt_backfill/v3) written out in Python from its documentation, to check
the SQL byte for byte. Input: rows as lists of canonical texts (None for NULL), columns in name order."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from decimal import Decimal


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def field(value: str | None) -> str:
    """NULL -> \\N; a text value escapes \\ and the separator |."""
    if value is None:
        return "\\N"
    return value.replace("\\", "\\\\").replace("|", "\\|")


def row_digest(row: Sequence[str | None]) -> str:
    return _sha("|".join(field(v) for v in row))


def rows_summary(rows: Sequence[Sequence[str | None]]) -> str:
    """'<rows>:<exact sum of each row digest's first 15 hex digits>' -- a partition's, or a bucket's."""
    return f"{len(rows)}:{sum(int(row_digest(row)[:15], 16) for row in rows)}"


def partition_sha256(rows: Sequence[Sequence[str | None]]) -> str:
    return _sha(rows_summary(rows))


def commitment_bucket_digits(row_count: int) -> int:
    digits = 0
    while digits < 4 and row_count > 4096 * 16**digits:
        digits += 1
    return digits


def commitment(rows: Sequence[Sequence[str | None]]) -> str:
    """dbt_backfill/commitment-v1: sha256 over the sorted row digests, per bucket of their first k hex digits."""
    digests = sorted(row_digest(row) for row in rows)
    digits = commitment_bucket_digits(len(digests))
    buckets: dict[str, list[str]] = {}
    for digest in digests:
        buckets.setdefault(digest[:digits], []).append(digest)
    body = ",".join(f"{bucket}={_sha(''.join(members))}" for bucket, members in sorted(buckets.items()))
    return _sha(f"c1:{len(digests)}:{digits}:{body}")


def exact_total(values: Sequence[float | int | None], is_float: bool) -> str:
    """An additive column's total: the exact sum, as decimal text; a float column's as the sum of the decimals its
    values' shortest texts spell (Python's repr), trailing zeros trimmed. NULLs add nothing; no rows total 0."""
    total = sum((Decimal(repr(v)) if is_float else Decimal(v) for v in values if v is not None), Decimal(0))
    text = format(total, "f")
    if is_float and "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
