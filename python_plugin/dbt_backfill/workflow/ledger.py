"""partitions: the partition ledger of a model — for each partition, the last writer the audit trail records (a
run's replacement or rollback, a full refresh, or none: the live job or an unknown writer), and whether the
partition, read now, still holds what that writer wrote. The package's partition_ledger operation decides it all;
this reads its result."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dbt_backfill.dbt_runner import DbtRunner


@dataclass(frozen=True)
class LedgerEntry:
    value: str
    rows: int
    sha256: str
    writer: str  # run | full refresh | unrecorded
    run_id: str | None
    event: str | None  # replaced | restored | full_refresh
    at: str | None
    approved_by: str | None
    approval_proof: str | None  # how the approval was proven (keys, logins); None: a typed name
    by: str | None  # who rolled back, or ran the full refresh
    holds_writer: bool  # the partition still holds what its last recorded writer wrote
    said: str  # all of it, in words

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LedgerEntry:
        return cls(
            value=str(data["value"]),
            rows=int(data["rows"]),
            sha256=str(data["sha256"]),
            writer=str(data["writer"]),
            run_id=data.get("run_id"),
            event=data.get("event"),
            at=data.get("at"),
            approved_by=data.get("approved_by"),
            approval_proof=data.get("approval_proof"),
            by=data.get("by"),
            holds_writer=bool(data["holds_writer"]),
            said=str(data["said"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Ledger:
    model: str
    target: str
    partitions: tuple[LedgerEntry, ...]
    no_audit_table: str | None = None  # the audit table looked for, where there is none: nothing is recorded


def read_ledger(runner: DbtRunner, model: str, partitions: str | None = None) -> Ledger:
    """`partitions`: values and inclusive ranges, comma-separated, as plan takes them (the operation expands them);
    None: every partition the audit trail records a write of. Reads only."""
    result = runner.run_operation("partition_ledger", {"model": model, "partitions": partitions}).first("ledger")
    return Ledger(
        model=result["model"],
        target=result["target"],
        partitions=tuple(LedgerEntry.from_dict(entry) for entry in result["partitions"]),
        no_audit_table=result.get("no_audit_table"),
    )
