"""approve: bind a person's approval to the exact content of a packet (its SHA-256)."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from dbt_backfill.errors import BackfillError, BackfillRefused
from dbt_backfill.packet import Approval, Packet


def approval_problem(packet: Packet) -> str | None:
    """Why the packet's approval does not hold, or None when it does."""
    if packet.approval is None:
        return "the packet is not approved"
    if packet.approval.packet_sha256 != packet.sha256():
        return (f"the approval is for packet sha256 {packet.approval.packet_sha256[:12]}…, but this packet is "
                f"{packet.sha256()[:12]}…: it was edited after approval, or the approval was copied from another run")
    return None


def read_approved(path: Path, consequence: str) -> Packet:
    """The packet at `path`, whose approval must hold; else BackfillRefused saying why and `consequence`."""
    packet = Packet.read(path)
    problem = approval_problem(packet)
    if problem:
        raise BackfillRefused("not_approved", f"{problem}. {consequence}")
    return packet


def refuse_failed_gates(packet: Packet) -> None:
    """A packet whose reconciliation gates failed at plan time is for review only: nothing approves or applies it."""
    if packet.failed_gates:
        described = "; ".join(f"{g['check']} on {g['partition']}" for g in packet.failed_gates)
        raise BackfillRefused("gate_failed", f"the packet's reconciliation gate(s) failed at plan time ({described}): "
                                             f"it is for review only. Fix the cause and plan again. The target is "
                                             f"unchanged.")


def approve(path: Path, by: str, now: dt.datetime | None = None) -> Packet:
    by = (by or "").strip()
    if not by:
        raise BackfillError("--by must name the person approving. The packet is unchanged.")
    packet = Packet.read(path)
    refuse_failed_gates(packet)
    if packet.approval is not None:
        problem = approval_problem(packet)
        if problem:
            raise BackfillRefused("approval_invalid", f"{problem}. Plan again and approve the new packet; the target "
                                                      f"is unchanged.")
        raise BackfillError(f"the packet is already approved by {packet.approval.approved_by} at "
                            f"{packet.approval.approved_at}. The packet is unchanged.")
    now = now or dt.datetime.now(dt.timezone.utc)
    approved = packet.approved(Approval(approved_by=by, approved_at=now.isoformat(timespec="seconds"),
                                        packet_sha256=packet.sha256()))
    approved.write(Path(path))
    return approved
