"""apply: replace the approved partitions, one transaction each, stopping at the first mismatch."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.fingerprint import Fingerprint
from dbt_backfill.packet import Packet
from dbt_backfill.workflow.approve import read_approved
from dbt_backfill.workflow.audit import audited


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


def apply(runner: DbtRunner, path: Path) -> ApplyResult:
    """Replace the approved partitions. Rerunning after an interruption resumes: partitions already equal to the
    approval are skipped (never replaced twice), the rest are replaced."""
    packet = Packet.read(path)
    return audited(runner, packet.target, packet.run_id, packet.model, lambda: _apply(runner, path))


def _apply(runner: DbtRunner, path: Path) -> ApplyResult:
    packet = read_approved(path, f"Run `dbt-backfill approve {path} --by <name>` after reviewing it. "
                                 f"The target is unchanged.")
    invocation = runner.run_operation("apply_partitions", {
        **packet.scope_args(),
        "watermark": dict(packet.watermark_config) if packet.watermark_config else None,
        "allow_watermark_move": "watermark_move" in packet.allowances,
        "approval": packet.approval.to_dict(),
        "partitions": packet.partition_args(),
    })
    by_value = {p.value: p for p in packet.partitions}
    replaced = tuple(
        ReplacedPartition(value=str(r["value"]), before=by_value[str(r["value"])].target_before,
                          after=Fingerprint.from_dict(r["fingerprint"]))
        for r in invocation.all("partition_replaced"))
    skipped = tuple(str(r["value"]) for r in invocation.all("partition_skipped"))
    return ApplyResult(packet=packet, replaced=replaced, skipped=skipped)
