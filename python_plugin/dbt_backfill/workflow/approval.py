"""Whether a packet's approval holds, and whether its plan allows any approval at all: what approve, apply,
rollback, verify and status each ask before they act."""

from __future__ import annotations

from dbt_backfill.errors import BackfillRefused
from dbt_backfill.packet import Approval, Packet


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


def require_approval(packet: Packet, consequence: str) -> Approval:
    """The packet's approval, which must hold; else BackfillRefused saying why and `consequence`."""
    problem = approval_problem(packet)
    if problem or packet.approval is None:
        raise BackfillRefused("not_approved", f"{problem}. {consequence}")
    return packet.approval


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
