"""apply: replace the approved partitions, one transaction each, stopping at the first mismatch."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.fingerprint import Fingerprint
from dbt_backfill.packet import Packet
from dbt_backfill.workflow.approve import read_approved


@dataclass(frozen=True)
class ReplacedPartition:
    value: str
    before: Fingerprint
    after: Fingerprint


@dataclass(frozen=True)
class ApplyResult:
    packet: Packet
    replaced: tuple[ReplacedPartition, ...]


def apply(runner: DbtRunner, path: Path) -> ApplyResult:
    packet = read_approved(path, f"Run `dbt-backfill approve {path} --by <name>` after reviewing it. "
                                 f"The target is unchanged.")
    invocation = runner.run_operation("apply_partitions", {
        **packet.scope_args(),
        "run_id": packet.run_id,
        "watermark": dict(packet.watermark_config) if packet.watermark_config else None,
        "allow_watermark_move": "watermark_move" in packet.allowances,
        "partitions": [
            {"value": p.value, "stage": p.stage.to_dict(), "backup": p.backup.to_dict(),
             "fingerprint": p.fingerprint.to_dict()}
            for p in packet.partitions
        ],
    })
    by_value = {p.value: p for p in packet.partitions}
    replaced = tuple(
        ReplacedPartition(value=str(r["value"]), before=by_value[str(r["value"])].target_before,
                          after=Fingerprint.from_dict(r["fingerprint"]))
        for r in invocation.all("partition_replaced"))
    return ApplyResult(packet=packet, replaced=replaced)
