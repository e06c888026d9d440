"""apply: replace the approved partitions, one transaction each, stopping at the first mismatch."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dbt_backfill.dbt_runner import DbtRunner, Invocation
from dbt_backfill.errors import BackfillError, BackfillRefused
from dbt_backfill.fingerprint import Fingerprint
from dbt_backfill.packet import Approval, Packet, PacketFile
from dbt_backfill.workflow.approval import (
    KeyApproval,
    refuse_blocked,
    refuse_unsigned_name,
    require_approval,
    verified_approvals,
)
from dbt_backfill.workflow.audit_trail import audited, record_if_refused
from dbt_backfill.workflow.placement import refuse_elsewhere
from dbt_backfill.workflow.state import stopped


@dataclass(frozen=True)
class ReplacedPartition:
    value: str
    before: Fingerprint
    after: Fingerprint


@dataclass(frozen=True)
class ApplyResult:
    packet: Packet
    replaced: tuple[ReplacedPartition, ...]
    skipped: tuple[str, ...] = ()  # already equal to the approval (an earlier apply was interrupted after them)
    checkpoints: tuple[Mapping[str, Any], ...] = ()  # {label, partitions, control} after the canary and each batch
    # {value: who}: skipped partitions whose rows another run wrote (the same rows this packet approved)
    skipped_notes: Mapping[str, str] = field(default_factory=dict)

    # the tables downstream that read a partition this apply changed, and those partitions, as the package said
    # (_downstream_not_rebuilt): an apply without --cascade leaves them as they were
    downstream_not_rebuilt: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    downstream_said: str | None = None  # the package's sentence naming them
    # the approvals its keys proved (verified beside the packet; a cascade's child is covered by its root's)
    signatures: tuple[KeyApproval, ...] = ()


def apply(
    runner: DbtRunner,
    opened: PacketFile,
    batch_size: int | None = None,
    allow_source_drift: str | None = None,
    covered_by: tuple[KeyApproval, ...] | None = None,
) -> ApplyResult:
    """Replace the approved partitions: the canary first, then batches (the packet's batch size unless
    `batch_size` is given), with a checkpoint after each. Rerunning after an interruption resumes: partitions
    already equal to the approval are skipped (never replaced twice), the rest are replaced. Refused after the
    packet's deadline, or when the source moved since the plan unless `allow_source_drift` gives the reason.
    `covered_by`: a cascade's child is approved by its root, whose verified signatures cover it."""
    packet = opened.packet
    refuse_elsewhere(runner, packet)
    return audited(
        runner,
        packet.target,
        packet.run_id,
        packet.model,
        lambda: _apply(runner, opened, batch_size, allow_source_drift, covered_by),
    )


def _apply(
    runner: DbtRunner,
    opened: PacketFile,
    batch_size: int | None,
    allow_source_drift: str | None,
    covered_by: tuple[KeyApproval, ...] | None = None,
) -> ApplyResult:
    packet, path = opened.packet, opened.path
    approval = require_approval(
        packet, f"Run `dbt-backfill approve {path} --by <name>` after reviewing it. The target is unchanged."
    )
    refuse_blocked(packet)
    # approvals proven by a key, each verified here (the warehouse cannot run OpenSSH); the model's policy, read
    # by the package from the project, decides whether they suffice (_refuse_unproven_approval)
    signatures = covered_by if covered_by is not None else verified_approvals(path, packet, runner.options.project_dir)
    if covered_by is None:
        refuse_unsigned_name(approval, signatures)
    if batch_size is not None and batch_size < 1:
        raise BackfillError(f"--batch-size must be at least 1, got {batch_size}. The target is unchanged.")
    try:
        with runner.stopping_only_between(("partition_replaced", "partition_skipped", "checkpoint")):
            invocation = _replace(runner, packet, approval, signatures, batch_size, allow_source_drift)
    except (BackfillError, BackfillRefused, KeyboardInterrupt) as failure:
        # recorded here: the caller's `audited` sees it inside StoppedShort, with the state read after it
        record_if_refused(runner, packet.target, packet.run_id, packet.model, failure)
        raise stopped(runner, packet, path, "apply", failure) from None
    by_value = {p.value: p for p in packet.partitions}
    replaced = tuple(
        ReplacedPartition(
            value=str(r["value"]),
            before=by_value[str(r["value"])].target_before,
            after=Fingerprint.from_dict(r["fingerprint"]),
        )
        for r in invocation.all("partition_replaced")
    )
    skipped = tuple(str(r["value"]) for r in invocation.all("partition_skipped"))
    left = invocation.first("applied").get("downstream_not_rebuilt") or {}
    return ApplyResult(
        packet=packet,
        replaced=replaced,
        skipped=skipped,
        checkpoints=tuple(invocation.all("checkpoint")),
        skipped_notes={str(r["value"]): r["note"] for r in invocation.all("partition_skipped") if r.get("note")},
        downstream_not_rebuilt=tuple(left.get("models") or ()),
        changed=tuple(str(v) for v in left.get("changed") or ()),
        downstream_said=left.get("said"),
        signatures=signatures,
    )


def _replace(
    runner: DbtRunner,
    packet: Packet,
    approval: Approval,
    signatures: tuple[KeyApproval, ...],
    batch_size: int | None,
    allow_source_drift: str | None,
) -> Invocation:
    return runner.run_operation(
        "apply_partitions",
        {
            **packet.scope_args(),
            "watermark": dict(packet.watermark_config) if packet.watermark_config else None,
            "allow_watermark_move": "watermark_move" in packet.allowances,
            "approval": {
                **approval.to_dict(),
                "signatures": [s.to_dict() for s in signatures],
                # a cascade's child: its root's approvals given with a login count for it (_refuse_unproven_approval)
                **({"cascade_of": dict(packet.cascade_of)} if packet.cascade_of else {}),
            },
            "partitions": packet.partition_args(),
            "control": dict(packet.control) if packet.control else None,
            "batch_size": batch_size or packet.batch_size,
            "packet_sha256": packet.sha256(),
            "source": dict(packet.source),
            "allow_source_drift": (allow_source_drift or "").strip() or None,
            "downstream": [dict(d) for d in packet.downstream],
        },
    )
