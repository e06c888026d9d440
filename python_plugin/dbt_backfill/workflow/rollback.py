"""rollback: restore every replaced partition from its backup, one transaction each, and check each against the
plan's target_before fingerprint."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.errors import BackfillError, BackfillRefused
from dbt_backfill.packet import Packet, PacketFile
from dbt_backfill.workflow.approval import refuse_unsigned_name, require_approval, verified_approvals
from dbt_backfill.workflow.audit_trail import audited, record_if_refused, who_runs
from dbt_backfill.workflow.placement import refuse_elsewhere
from dbt_backfill.workflow.state import stopped


@dataclass(frozen=True)
class RollbackResult:
    packet: Packet
    restored: tuple[str, ...]
    skipped: tuple[str, ...]  # already as before the apply (never replaced, or restored earlier)
    # {value: why}: partitions this run never replaced that hold what another run wrote (the ledger says which)
    not_this_runs: Mapping[str, str] = field(default_factory=dict)
    # runs downstream still holding rows built from what was just restored, and the package's words naming each with
    # the command that rolls it back (_downstream_still_applied); none when none
    downstream_still_applied: tuple[Mapping[str, object], ...] = ()
    downstream_said: str | None = None


def rollback(runner: DbtRunner, opened: PacketFile, by: str | None = None) -> RollbackResult:
    """`by`: who rolls back (default: the OS user), recorded with every `rolled_back` row."""
    packet = opened.packet
    refuse_elsewhere(runner, packet)
    return audited(runner, packet.target, packet.run_id, packet.model, lambda: _rollback(runner, opened, who_runs(by)))


def _rollback(runner: DbtRunner, opened: PacketFile, who: str) -> RollbackResult:
    packet, path = opened.packet, opened.path
    approval = require_approval(
        packet, "Only an approved, unedited packet can be rolled back. The target is unchanged."
    )
    # a rollback writes too: the model's policy counts the same proven approvals as apply (_refuse_unproven_approval)
    signatures = verified_approvals(path, packet, runner.options.project_dir)
    refuse_unsigned_name(approval, signatures)
    try:
        with runner.stopping_only_between(("partition_restored", "partition_skipped")):
            invocation = runner.run_operation(
                "rollback_partitions",
                {
                    **packet.scope_args(),
                    "approval": {**approval.to_dict(), "signatures": [s.to_dict() for s in signatures]},
                    "partitions": packet.partition_args(),
                    "packet_sha256": packet.sha256(),
                    "rolled_back_by": who,
                    "downstream": [dict(d) for d in packet.downstream],
                },
            )
    except (BackfillError, BackfillRefused, KeyboardInterrupt) as failure:
        # recorded here: the caller's `audited` sees it inside StoppedShort, with the state read after it
        record_if_refused(runner, packet.target, packet.run_id, packet.model, failure)
        raise stopped(runner, packet, path, "rollback", failure) from None
    skipped = invocation.all("partition_skipped")
    left = invocation.first("rolled_back").get("downstream_still_applied") or {}
    return RollbackResult(
        packet=packet,
        restored=tuple(str(r["value"]) for r in invocation.all("partition_restored")),
        skipped=tuple(str(r["value"]) for r in skipped if not r.get("note")),
        not_this_runs={str(r["value"]): r["note"] for r in skipped if r.get("note")},
        downstream_still_applied=tuple(left.get("runs") or ()),
        downstream_said=left.get("said"),
    )
