"""approve: bind a person's approval to the exact content of a packet (its SHA-256)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.errors import BackfillError, BackfillRefused
from dbt_backfill.packet import Approval, Packet, PacketFile, file_sha256, plan_document_path
from dbt_backfill.workflow.approval import (
    KeyApproval,
    approval_problem,
    refuse_blocked,
    sign_approval,
    withdraw_signatures,
)
from dbt_backfill.workflow.placement import refuse_elsewhere
from dbt_backfill.workflow.state import why_unreadable


@dataclass(frozen=True)
class WrittenPlan:
    """The written plan beside the packet, as approve read it: its bytes' SHA-256, and whether it names the SHA-256
    of the packet just approved (else it is another packet's plan)."""

    path: Path
    sha256: str
    names_the_packet: bool


@dataclass(frozen=True)
class Signing:
    """approve --sign: the SSH private key, and the dbt project whose allowed-signers file must list it."""

    key: Path
    project_dir: Path


@dataclass(frozen=True)
class Approved:
    packet: Packet
    approval: Approval
    not_recorded: str | None  # why the audit trail does not hold the approval yet (the first apply records it)
    told_the_target: bool  # approve was told where the target is, and tried to record it there
    written_plan: WrittenPlan | None  # None when the packet has no written plan beside it
    signed: KeyApproval | None = None  # approve --sign: the approval the key proves
    further: bool = False  # the packet was approved already: this is one more approver's signature or login
    given_by: str | None = None  # the role the warehouse recorded a further approval as (approve_backfill)


def approve(
    opened: PacketFile,
    by: str | None,
    now: dt.datetime | None = None,
    runner: DbtRunner | None = None,
    despite: str | None = None,
    signing: Signing | None = None,
) -> Approved:
    """Write the approval into the packet, and read the written plan beside it. With `runner` (approve was told where the target is), the packet must be planned for that target, and the
    approval is recorded there before the packet file is written: a refusal there (no plan wrote this content, the
    run is approved already) leaves the file as it was. When the database cannot take the row, the file is written
    and the first apply records the approval."""
    by = (by or "").strip()
    packet = opened.packet
    if not by and signing is None and (runner is None or packet.approval is None):
        raise BackfillError("--by must name the person approving (or --sign KEY prove it). The packet is unchanged.")
    if runner is not None:
        refuse_elsewhere(runner, packet)
    refuse_blocked(packet)
    now = now or dt.datetime.now(dt.timezone.utc)
    if packet.approval is not None:
        return _further(opened, packet.approval, by, now, runner, signing)
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
    signed = _signed(opened.path, packet, signing, now, by) if signing is not None else None
    approval = Approval(
        approved_by=signed.principal if signed else by,
        approved_at=now.isoformat(timespec="seconds"),
        packet_sha256=packet.sha256(),
        despite=despite if verdict != "SAFE TO RUN" else None,
    )
    approved = packet.approved(approval)
    not_recorded = record_approval(runner, approved, approval, signed) if runner is not None else None
    approved.write(opened.path)
    return Approved(approved, approval, not_recorded, runner is not None, written_plan(opened.path, approval), signed)


def _signed(path: Path, packet: Packet, signing: Signing, now: dt.datetime, by: str) -> KeyApproval:
    """The approval signed with the key; --by, when given too, must be the principal the key is listed for."""
    signed = sign_approval(path, packet, signing.key, signing.project_dir, now.isoformat(timespec="seconds"))
    if by and by != signed.principal:
        signed.path.unlink()
        signed.path.with_suffix(".txt").unlink()
        raise BackfillError(
            f"--by {by} is not who the key is listed for ({signed.principal}): a signed approval is the key "
            f"holder's. The packet is unchanged."
        )
    return signed


def _further(
    opened: PacketFile, approval: Approval, by: str, now: dt.datetime, runner: DbtRunner | None, signing: Signing | None
) -> Approved:
    """A packet approved already: one more approver (a policy may require several), by a key or by their own login;
    the approval block stays the first's. Else it is refused as approved."""
    packet = opened.packet
    problem = approval_problem(packet)
    if problem:
        raise BackfillRefused(
            "approval_invalid", f"{problem}. Plan again and approve the new packet; the target is unchanged."
        )
    plan = written_plan(opened.path, approval)
    if signing is not None:
        return Approved(packet, approval, None, False, plan, _signed(opened.path, packet, signing, now, by), True)
    if runner is not None:
        # proven by their own login: the warehouse names the role (approve_backfill)
        given = runner.run_operation(
            "approve_backfill",
            {
                "run_id": packet.run_id,
                "approved_sha256": packet.sha256(),
                "approved_by": by or None,
                "target_relation": packet.target.to_dict(),
            },
        ).first("approval_given")
        return Approved(packet, approval, None, True, plan, further=True, given_by=str(given["by"]))
    raise BackfillError(
        f"the packet is already approved by {approval.approved_by} at {approval.approved_at}. The packet is unchanged."
    )


def approve_command(
    opened: PacketFile,
    by: str | None,
    key: Path | None,
    revoke_it: bool,
    despite: str | None,
    runner: DbtRunner | None,
    project_dir: Path,
) -> Approved | Revoked:
    """`dbt-backfill approve`: approve (signed with `key` when given), or, with --revoke, withdraw an approval."""
    signing = Signing(key, project_dir) if key else None
    if revoke_it:
        return revoke(opened, signing, runner, by)
    return approve(opened, by, runner=runner, despite=despite, signing=signing)


def written_plan(packet_path: Path, approval: Approval) -> WrittenPlan | None:
    """The written plan plan saved beside the packet, if it is there (the plan's .md)."""
    document = plan_document_path(packet_path)
    if not document.exists():
        return None
    return WrittenPlan(document, file_sha256(document), approval.packet_sha256 in document.read_text(errors="replace"))


def record_approval(
    runner: DbtRunner, packet: Packet, approval: Approval, signed: KeyApproval | None = None
) -> str | None:
    """The `approved` row, with the approval's own time and approver; None when recorded, else why the database
    could not take it. A refusal (no plan of the target wrote this packet; the run's approval is recorded already)
    is raised. The first apply records an approval not recorded yet: one row per run, either way."""
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
                    # the ledger dates an approval by this row's own time only when it says so (issue 55)
                    "detail": f"approved at {approval.approved_at} (recorded when approved"
                    + (
                        f"; signed by {signed.principal} (key {signed.key}, signed {signed.approved_at}))"
                        if signed
                        else ")"
                    ),
                },
            },
        )
    except BackfillRefused:
        raise
    except BackfillError as failure:
        return why_unreadable(failure)
    return None


@dataclass(frozen=True)
class Revoked:
    """approve --revoke: what was withdrawn, the key's files beside the packet and the login's recorded approval."""

    packet: Packet
    removed: tuple[Path, ...]  # the signature files removed (--sign KEY)
    by_role: str | None  # the role whose recorded approval now counts for nothing (--target …)


def revoke(opened: PacketFile, signing: Signing | None, runner: DbtRunner | None, by: str | None = None) -> Revoked:
    """Withdraw an approval: the signatures `signing.key` made beside the packet, and, told where the target is, the
    approval recorded with this login (approve_backfill revoke: true). The packet's approval block is left as it is:
    the policy counts proofs, and a typed name alone was never one."""
    packet = opened.packet
    if signing is None and runner is None:
        raise BackfillError(
            "--revoke needs --sign KEY (the signatures that key made here) or the target (--target …: the approval "
            "recorded with your login). Nothing was changed."
        )
    removed = withdraw_signatures(opened.path, signing.key) if signing is not None else ()
    if signing is not None and not removed and runner is None:
        raise BackfillError(f"no approval signed by {signing.key} is beside {opened.path}. Nothing was changed.")
    by_role = None
    if runner is not None:
        refuse_elsewhere(runner, packet)
        by_role = str(
            runner.run_operation(
                "approve_backfill",
                {
                    "run_id": packet.run_id,
                    "approved_sha256": packet.sha256(),
                    "approved_by": by or None,
                    "target_relation": packet.target.to_dict(),
                    "revoke": True,
                },
            ).first("approval_revoked")["by"]
        )
    return Revoked(packet, removed, by_role)
