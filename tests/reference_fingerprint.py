"""The canonical fingerprint algorithm (dbt_backfill/v1) written out in Python from its documentation, to check
the SQL byte for byte. Input: rows as lists of canonical texts (None for NULL), the key's column positions."""
from __future__ import annotations

import hashlib
from collections import defaultdict
from typing import Optional, Sequence


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def field(value: Optional[str]) -> str:
    """NULL -> \\N; a text value escapes \\ and the separator |."""
    if value is None:
        return "\\N"
    return value.replace("\\", "\\\\").replace("|", "\\|")


def partition_sha256(rows: Sequence[Sequence[Optional[str]]], key: Sequence[int] = ()) -> str:
    buckets: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        digest = _sha("|".join(field(v) for v in row))
        bucket = _sha("|".join(field(row[i]) for i in key))[:3] if key else digest[:3]
        buckets[bucket].append(digest)
    lines = [f"{b}:{len(d)}:{_sha(''.join(sorted(d)))}" for b, d in sorted(buckets.items())]
    return _sha("\n".join(lines))
