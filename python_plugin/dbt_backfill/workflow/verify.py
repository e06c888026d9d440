"""verify: the target's partitions still equal the approved fingerprints."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.errors import BackfillRefused
from dbt_backfill.fingerprint import Fingerprint
from dbt_backfill.packet import Packet, PacketFile
from dbt_backfill.workflow.approval import require_approval
from dbt_backfill.workflow.audit_trail import audited
from dbt_backfill.workflow.placement import refuse_elsewhere
from dbt_backfill.workflow.state import AS_BEFORE, read_state


@dataclass(frozen=True)
class PartitionCheck:
    value: str
    approved: Fingerprint
    actual: Fingerprint
    ledger: Mapping[str, Any] | None = None  # its last recorded writer (partition_ledger._ledger_entry)

    @property
    def ok(self) -> bool:
        return self.approved == self.actual


@dataclass(frozen=True)
class VerifyResult:
    packet: Packet
    checks: tuple[PartitionCheck, ...]
    rolled_back: Mapping[str, Any] | None = None  # {at, by}: the run was rolled back, and the target says so
    backups_dropped: Mapping[str, Any] | None = None  # {at, by}: clean dropped the backups, no rollback is left


def fingerprint_target(runner: DbtRunner, packet: Packet) -> dict[str, tuple[Fingerprint, Mapping[str, Any] | None]]:
    """Each partition's fingerprint now and its ledger entry (who wrote it last), recorded as verified or
    verify_mismatch."""
    invocation = runner.run_operation(
        "fingerprint_partitions",
        {
            **packet.scope_args(),
            "partitions": [p.value for p in packet.partitions],
            "ledger": True,
            "expected": [p.fingerprint.to_dict() for p in packet.partitions],
        },
    )
    result = invocation.first("fingerprints")
    return {
        str(item["value"]): (Fingerprint.from_dict(item["fingerprint"]), item.get("ledger"))
        for item in result["partitions"]
    }


def verify(runner: DbtRunner, opened: PacketFile) -> VerifyResult:
    packet = opened.packet
    refuse_elsewhere(runner, packet)
    return audited(runner, packet.target, packet.run_id, packet.model, lambda: _verify(runner, opened))


def _verify(runner: DbtRunner, opened: PacketFile) -> VerifyResult:
    packet, path = opened.packet, opened.path
    require_approval(packet, "There are no approved fingerprints to verify against. The target is unchanged.")
    events = runner.run_operation("run_history", {"target": packet.target.to_dict(), "run_id": packet.run_id}).first(
        "run_history"
    )["events"]
    rolled_back = _rolled_back(runner, packet, path, events)
    if rolled_back is not None:
        return rolled_back
    backups_dropped = backups_dropped_by_clean(packet, events)
    actual = fingerprint_target(runner, packet)
    checks = tuple(PartitionCheck(p.value, p.fingerprint, *actual[p.value]) for p in packet.partitions)
    failed = [c for c in checks if not c.ok]
    if failed:
        described = "; ".join(
            f"{c.value}: approved {c.approved.describe()}, now {c.actual.describe()}"
            + (f" ({c.ledger['said']})" if c.ledger else "")
            for c in failed
        )
        gone = (
            f" Its backups were dropped by {backups_dropped['how']} at {backups_dropped['at']} (by "
            f"{backups_dropped['by']}), as the audit trail records it: rollback cannot restore the rows before."
            if backups_dropped
            else ""
        )
        raise BackfillRefused(
            "verify_mismatch",
            f"partition(s) {', '.join(c.value for c in failed)} no longer equal "
            f"the approved fingerprints ({described}). verify changes nothing."
            f"{gone}",
            {"partitions": [c.value for c in failed], "backups_dropped": backups_dropped},
        )
    return VerifyResult(packet=packet, checks=checks, backups_dropped=backups_dropped)


def backups_dropped_by_clean(packet: Packet, events: list[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """{at, by} of the last `cleaned` row of the run that dropped any of its backups, or None."""
    backups = {f"{p.backup.schema}.{p.backup.identifier}" for p in packet.partitions}
    for event in reversed(events):
        if event["event"] != "cleaned":
            continue
        detail = event.get("detail") or ""
        dropped = json.loads(detail) if detail.startswith("{") else {"dropped": detail.split(", ")}
        # named database.schema.identifier where the engine has databases; the packet may leave the database out
        if any(
            name == backup or name.endswith("." + backup) for name in dropped.get("dropped", []) for backup in backups
        ):
            # how, from the row's own outcome: the command that dropped them (as rollback names it)
            outcome = event.get("outcome") or ""
            how = (
                "`dbt-backfill clean --drop-backups`"
                if "--drop-backups" in outcome
                else "`dbt-backfill clean --orphans`"
                if "--orphans" in outcome
                else "`dbt-backfill clean --run`"
                if "--run" in outcome
                else "a clean of this run"
            )
            return {"at": str(event["recorded_at"])[:19], "by": dropped.get("by") or "an unrecorded user", "how": how}
    return None


def _rolled_back(runner: DbtRunner, packet: Packet, path: Path, events: list[Mapping[str, Any]]) -> VerifyResult | None:
    """A run the audit trail says was rolled back, whose partitions all hold their rows from before the apply, as
    read now: verify's outcome is that, recorded once as `verified` ("rolled back ..."), not a mismatch alarm."""
    rollbacks = [e for e in events if e["event"] == "rolled_back"]
    if not rollbacks:
        return None
    state = read_state(runner, packet, path)
    if any(p.state != AS_BEFORE and not p.unchanged_by_the_repair for p in state.partitions):
        return None  # not (only) the rollback: judged against the approval as any other run
    last = rollbacks[-1]
    who = (last.get("detail") or "").removeprefix("by ") or "an unrecorded user"
    at = str(last["recorded_at"])[:19]
    runner.run_operation(
        "audit_event",
        {
            "target": packet.target.to_dict(),
            "event": "verified",
            "run_id": packet.run_id,
            "fields": {
                "model": packet.model,
                "outcome": f"rolled back at {at}",
                "detail": f"every partition as before the apply; rolled back by {who}",
            },
        },
    )
    checks = tuple(
        PartitionCheck(p.value, packet.partitions[i].fingerprint, p.fingerprint) for i, p in enumerate(state.partitions)
    )
    return VerifyResult(packet=packet, checks=checks, rolled_back={"at": at, "by": who})
