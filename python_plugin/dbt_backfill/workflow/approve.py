"""approve: bind a person's approval to the exact content of a packet (its SHA-256)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from dbt_backfill.causes import classify
from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.errors import BackfillError, BackfillRefused
from dbt_backfill.packet import Approval, Packet
from dbt_backfill.workflow.placement import refuse_elsewhere


def approval_problem(packet: Packet) -> str | None:
    """Why the packet's approval does not hold, or None when it does."""
    if packet.approval is None:
        return "the packet is not approved"
    if packet.approval.packet_sha256 != packet.sha256():
        return (
            f"the approval is for packet sha256 {packet.approval.packet_sha256[:12]}…, but this packet is "
            f"{packet.sha256()[:12]}…: it was edited after approval, or the approval was copied from another run"
        )
    return None


def read_approved(path: Path, consequence: str) -> Packet:
    """The packet at `path`, whose approval must hold; else BackfillRefused saying why and `consequence`."""
    packet = Packet.read(path)
    problem = approval_problem(packet)
    if problem:
        raise BackfillRefused("not_approved", f"{problem}. {consequence}")
    return packet


def refuse_blocked(packet: Packet) -> None:
    """A packet whose reconciliation gates failed at plan time, or whose review judged a check BLOCK, is for review
    only: nothing approves or applies it."""
    if packet.failed_gates:
        described = "; ".join(f"{g['check']} on {g['partition']}" for g in packet.failed_gates)
        raise BackfillRefused(
            "gate_failed",
            f"the packet's reconciliation gate(s) failed at plan time ({described}): "
            f"it is for review only. Fix the cause and plan again. The target is "
            f"unchanged.",
        )
    if packet.blocking_checks:
        described = "; ".join(f"{c['check']}: {c['finding']}" for c in packet.blocking_checks)
        raise BackfillRefused(
            "review_blocked",
            f"the plan's review judged this packet BLOCK ({described}): it is for "
            f"review only. Fix the cause and plan again. The target is unchanged.",
        )


def approve(
    path: Path, by: str, now: dt.datetime | None = None, runner: DbtRunner | None = None, despite: str | None = None
) -> tuple[Packet, str | None]:
    """Write the approval into the packet: (the approved packet, why it is not recorded in the audit trail or None).
    With `runner` (approve was told where the target is), the packet must be planned for that target, and the
    approval is recorded there before the packet file is written: a refusal there (no plan wrote this content, the
    run is approved already) leaves the file as it was. When the database cannot take the row, the file is written
    and the first apply records the approval."""
    by = (by or "").strip()
    if not by:
        raise BackfillError("--by must name the person approving. The packet is unchanged.")
    packet = Packet.read(path)
    if runner is not None:
        refuse_elsewhere(runner, packet)
    refuse_blocked(packet)
    if packet.approval is not None:
        problem = approval_problem(packet)
        if problem:
            raise BackfillRefused(
                "approval_invalid", f"{problem}. Plan again and approve the new packet; the target is unchanged."
            )
        raise BackfillError(
            f"the packet is already approved by {packet.approval.approved_by} at "
            f"{packet.approval.approved_at}. The packet is unchanged."
        )
    despite = (despite or "").strip() or None
    verdict = packet.review.get("verdict")
    if verdict == "RESTRUCTURE FIRST" and not despite:
        raise BackfillRefused(
            "restructure_first",
            f"the plan's review judged this packet RESTRUCTURE FIRST "
            f"({packet.review.get('reason')}). Approve it only knowing why: "
            f'--despite "<reason>" (recorded with the approval). The packet '
            f"is unchanged.",
        )
    now = now or dt.datetime.now(dt.timezone.utc)
    approved = packet.approved(
        Approval(
            approved_by=by,
            approved_at=now.isoformat(timespec="seconds"),
            packet_sha256=packet.sha256(),
            despite=despite if verdict != "SAFE TO RUN" else None,
        )
    )
    not_recorded = record_approval(runner, approved) if runner is not None else "approve was not told the target"
    approved.write(Path(path))
    return approved, not_recorded


def record_approval(runner: DbtRunner, packet: Packet) -> str | None:
    """The `approved` row, with the approval's own time and approver; None when recorded, else why the database
    could not take it. A refusal (no plan of the target wrote this packet; the run's approval is recorded already)
    is raised. The first apply records an approval not recorded yet: one row per run, either way."""
    approval = packet.approval
    try:
        runner.run_operation(
            "audit_event",
            {
                "target": packet.target.to_dict(),
                "event": "approved",
                "run_id": packet.run_id,
                "fields": {
                    "model": packet.model,
                    "packet_sha256": approval.packet_sha256,
                    "approved_by": approval.approved_by,
                    "outcome": (
                        f"despite {packet.review.get('verdict')}: {approval.despite}" if approval.despite else None
                    ),
                    "detail": f"approved at {approval.approved_at}",
                },
            },
        )
    except BackfillRefused:
        raise
    except BackfillError as failure:
        cause = classify(str(failure))
        return cause.says if cause else str(failure).splitlines()[0]
    return None
