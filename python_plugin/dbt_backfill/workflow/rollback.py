"""rollback: restore every replaced partition from its backup, one transaction each, and check each against the
plan's target_before fingerprint."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.errors import BackfillError, BackfillRefused
from dbt_backfill.packet import Packet
from dbt_backfill.workflow.approve import read_approved
from dbt_backfill.workflow.audit import audited, who_runs
from dbt_backfill.workflow.placement import refuse_elsewhere
from dbt_backfill.workflow.status import stopped


@dataclass(frozen=True)
class RollbackResult:
    packet: Packet
    restored: tuple[str, ...]
    skipped: tuple[str, ...]  # already as before the apply (never replaced, or restored earlier)
    # {value: why}: partitions this run never replaced that hold what another run wrote (the ledger says which)
    not_this_runs: Mapping[str, str] = field(default_factory=dict)


def rollback(runner: DbtRunner, path: Path, by: str | None = None) -> RollbackResult:
    """`by`: who rolls back (default: the OS user), recorded with every `rolled_back` row."""
    packet = Packet.read(path)
    refuse_elsewhere(runner, packet)
    return audited(runner, packet.target, packet.run_id, packet.model, lambda: _rollback(runner, path, who_runs(by)))


def _rollback(runner: DbtRunner, path: Path, who: str) -> RollbackResult:
    packet = read_approved(path, "Only an approved, unedited packet can be rolled back. The target is unchanged.")
    try:
        with runner.stopping_only_between(("partition_restored", "partition_skipped")):
            invocation = runner.run_operation(
                "rollback_partitions",
                {
                    **packet.scope_args(),
                    "approval": packet.approval.to_dict(),
                    "partitions": packet.partition_args(),
                    "packet_sha256": packet.sha256(),
                    "rolled_back_by": who,
                },
            )
    except (BackfillError, BackfillRefused, KeyboardInterrupt) as failure:
        raise stopped(runner, packet, path, "rollback", failure) from None
    skipped = invocation.all("partition_skipped")
    return RollbackResult(
        packet=packet,
        restored=tuple(str(r["value"]) for r in invocation.all("partition_restored")),
        skipped=tuple(str(r["value"]) for r in skipped if not r.get("note")),
        not_this_runs={str(r["value"]): r["note"] for r in skipped if r.get("note")},
    )
