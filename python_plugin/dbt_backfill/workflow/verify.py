"""verify: the target's partitions still equal the approved fingerprints."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.errors import BackfillRefused
from dbt_backfill.fingerprint import Fingerprint
from dbt_backfill.packet import Packet
from dbt_backfill.workflow.approve import read_approved
from dbt_backfill.workflow.audit import audited
from dbt_backfill.workflow.placement import refuse_elsewhere


@dataclass(frozen=True)
class PartitionCheck:
    value: str
    approved: Fingerprint
    actual: Fingerprint

    @property
    def ok(self) -> bool:
        return self.approved == self.actual


@dataclass(frozen=True)
class VerifyResult:
    packet: Packet
    checks: tuple[PartitionCheck, ...]


def fingerprint_target(runner: DbtRunner, packet: Packet) -> dict[str, Fingerprint]:
    invocation = runner.run_operation("fingerprint_partitions", {
        **packet.scope_args(), "partitions": [p.value for p in packet.partitions],
        "expected": [p.fingerprint.to_dict() for p in packet.partitions]})
    result = invocation.first("fingerprints")
    return {str(item["value"]): Fingerprint.from_dict(item["fingerprint"]) for item in result["partitions"]}


def verify(runner: DbtRunner, path: Path) -> VerifyResult:
    packet = Packet.read(path)
    refuse_elsewhere(runner, packet)
    return audited(runner, packet.target, packet.run_id, packet.model, lambda: _verify(runner, path))


def _verify(runner: DbtRunner, path: Path) -> VerifyResult:
    packet = read_approved(path, "There are no approved fingerprints to verify against. The target is unchanged.")
    actual = fingerprint_target(runner, packet)
    checks = tuple(PartitionCheck(p.value, p.fingerprint, actual[p.value]) for p in packet.partitions)
    failed = [c for c in checks if not c.ok]
    if failed:
        described = "; ".join(f"{c.value}: approved {c.approved.describe()}, now {c.actual.describe()}" for c in failed)
        raise BackfillRefused("verify_mismatch", f"partition(s) {', '.join(c.value for c in failed)} no longer equal "
                                                 f"the approved fingerprints ({described}). verify changes nothing.",
                              {"partitions": [c.value for c in failed]})
    return VerifyResult(packet=packet, checks=checks)
