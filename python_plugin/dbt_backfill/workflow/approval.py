"""Whether a packet's approval holds, and whether its plan allows any approval at all: what approve, apply,
rollback, verify and status each ask before they act."""

from __future__ import annotations

import datetime as dt

from dbt_backfill.errors import BackfillRefused
from dbt_backfill.packet import Approval, Packet

# a clock this far ahead of the machine's is a clock, not an edit
CLOCK_SKEW = dt.timedelta(minutes=5)


def approval_problem(packet: Packet, now: dt.datetime | None = None) -> str | None:
    """Why the packet's approval does not hold, or None when it does. The approval's time is the file's text, so it
    orders nothing (the audit trail dates approvals: DECISIONS row 133), but a time no approver could have written
    (in the future, after the packet's deadline, unreadable) is an edit."""
    if packet.approval is None:
        return "the packet is not approved"
    if packet.approval.packet_sha256 != packet.sha256():
        return (
            f"the approval is for packet sha256 {packet.approval.packet_sha256[:12]}…, but this packet is "
            f"{packet.sha256()[:12]}…: it was edited after approval, or the approval was copied from another run"
        )
    said = packet.approval.approved_at
    try:
        at = dt.datetime.fromisoformat(said)
        at = at if at.tzinfo else at.replace(tzinfo=dt.timezone.utc)
    except ValueError:
        return f"the approval's time {said!r} is not a time: the approval block was edited"
    now = now or dt.datetime.now(dt.timezone.utc)
    if at > now + CLOCK_SKEW:
        return f"the approval is dated {said}, after now: the approval block was edited"
    if packet.expires_at:
        deadline = dt.datetime.fromisoformat(packet.expires_at)
        deadline = deadline if deadline.tzinfo else deadline.replace(tzinfo=dt.timezone.utc)
        if at > deadline:
            return (
                f"the approval is dated {said}, after the packet's deadline {packet.expires_at}: no approval given "
                "after it counts, and one dated so was edited"
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
