"""The canonical fingerprint of a partition, as a value. The SQL that computes it lives in the dbt package
(macros/fingerprint); this module compares, serialises and prints it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Fingerprint:
    row_count: int
    null_keys: int
    duplicate_keys: int | None  # counted where keys are judged (the plan's builds); None elsewhere
    totals: Mapping[str, str] = field(default_factory=dict)  # exact decimal text, never float
    sha256: str = ""
    algorithm: str = ""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Fingerprint:
        return cls(
            row_count=int(data["row_count"]),
            null_keys=int(data["null_keys"]),
            duplicate_keys=None if data.get("duplicate_keys") is None else int(data["duplicate_keys"]),
            totals={str(k): str(v) for k, v in (data.get("totals") or {}).items()},
            sha256=str(data["sha256"]),
            algorithm=str(data["algorithm"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "row_count": self.row_count,
            "null_keys": self.null_keys,
            "duplicate_keys": self.duplicate_keys,
            "totals": dict(self.totals),
            "sha256": self.sha256,
            "algorithm": self.algorithm,
        }

    def __eq__(self, other: object) -> bool:
        """Equal rows, as the package's _same_fingerprint decides: every field, the totals as exact text;
        duplicate_keys only where both sides counted it (equal rows imply equal keys)."""
        if not isinstance(other, Fingerprint):
            return NotImplemented
        mine, theirs = self.to_dict(), other.to_dict()
        if mine["duplicate_keys"] is None or theirs["duplicate_keys"] is None:
            mine.pop("duplicate_keys"), theirs.pop("duplicate_keys")
        return mine == theirs

    def __hash__(self) -> int:
        return hash(self.sha256)

    @property
    def short(self) -> str:
        return self.sha256[:12]

    def describe(self) -> str:
        totals = ", ".join(f"{k} {v}" for k, v in self.totals.items())
        return f"{self.row_count} rows{', ' + totals if totals else ''}, sha256 {self.short}…"
