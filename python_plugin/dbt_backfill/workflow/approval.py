"""Whether a packet's approval holds, and whether its plan allows any approval at all: what approve, apply,
rollback, verify and status each ask before they act."""

from __future__ import annotations

import datetime as dt
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from dbt_backfill.errors import BackfillError, BackfillRefused
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
        at = _instant(said)
    except ValueError:
        return f"the approval's time {said!r} is not a time: the approval block was edited"
    now = now or dt.datetime.now(dt.timezone.utc)
    if at > now + CLOCK_SKEW:
        return f"the approval is dated {said}, after now: the approval block was edited"
    if packet.expires_at:
        if at > _instant(packet.expires_at):
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
    """A packet written for review only (its reconciliation gates failed, or its review judged a check BLOCK): nothing
    approves or applies it. The package judged it and worded it when it planned (macros/review/_review_refusal.sql),
    recorded in the packet's review, and apply_backfill says the same; a packet without that record (written before
    it, or emptied) is refused on its verdict, which the same review gave."""
    refusal = packet.review.get("refusal")
    if refusal:
        raise BackfillRefused(str(refusal["reason"]), str(refusal["message"]))
    # no record, or an emptied one: the verdict decides, in the words of macros/review/_blocked_packet_refusal.sql
    if packet.review.get("verdict") == "BLOCK":
        raise BackfillRefused(
            "review_blocked",
            f"the review judged the plan BLOCK ({packet.review.get('reason')}). The packet is for review only: approve "
            f"and apply refuse it. Fix the cause and plan again. The target is unchanged.",
        )


# ---- approvals proven by a key (issue 55): OpenSSH's signatures, as `git commit -S` makes them with gpg.format=ssh

SIGNATURE_NAMESPACE = "dbt-backfill"  # ssh-keygen -n: a signature made for git or anything else never verifies here
ALLOWED_SIGNERS = Path(".dbt-backfill") / "allowed_signers"  # in the dbt project: git's allowed_signers format


@dataclass(frozen=True)
class KeyApproval:
    """One approval proven by a key: who the project's allowed-signers file says holds it, and when it was given."""

    principal: str
    key: str  # the key's SHA256 fingerprint, as ssh-keygen prints it
    approved_at: str
    path: Path

    def to_dict(self) -> dict[str, str]:
        return {"principal": self.principal, "key": self.key, "approved_at": self.approved_at}


def approvals_dir(packet_path: Path) -> Path:
    """Where a packet's signed approvals live: beside it, so they are committed and reviewed with it."""
    return packet_path.with_name(packet_path.name + ".approvals")


def signed_text(packet: Packet, approved_at: str) -> bytes:
    """What an approver signs: the run, the packet's SHA-256 and the approval's time (so neither can be edited)."""
    return (
        f"dbt-backfill approval\nrun_id: {packet.run_id}\npacket_sha256: {packet.sha256()}\n"
        f"approved_at: {approved_at}\n"
    ).encode()


def _ssh_keygen(*args: str, data: bytes) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["ssh-keygen", *args], input=data, capture_output=True, timeout=60, check=False)
    except FileNotFoundError:
        raise BackfillError(
            "ssh-keygen (OpenSSH) is not on PATH: it signs and verifies approvals. Install OpenSSH (it comes with "
            "git on most machines). The target is unchanged."
        ) from None


def _verify_time(approved_at: str) -> str:
    """An approval's time as ssh-keygen's verify-time: a key listed with valid-before still proves what it signed
    before then, and nothing after."""
    at = dt.datetime.fromisoformat(approved_at)
    at = at if at.tzinfo else at.replace(tzinfo=dt.timezone.utc)
    return at.astimezone(dt.timezone.utc).strftime("%Y%m%d%H%M%SZ")


def _principals(signers: Path, signature: Path, approved_at: str) -> list[str]:
    """The principals to try for the key that made `signature`: the one ssh-keygen finds for it (the first line that
    lists the key, valid at the approval's time), then every other principal the file names. find-principals stops at
    the first line and ignores its namespaces, so a key listed first for git alone (`namespaces="git"`) would hide its
    line for dbt-backfill; `-Y verify` decides each (key, namespace, validity). None when no line lists the key."""
    found = _ssh_keygen(
        "-Y", "find-principals", "-f", str(signers), "-s", str(signature), "-O",
        f"verify-time={_verify_time(approved_at)}", data=b"",
    )  # fmt: skip
    if found.returncode != 0:
        return []
    named = [
        line.split()[0]
        for line in signers.read_text(errors="replace").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    listed = [p for field in found.stdout.decode().split() + named for p in field.split(",") if p]
    return list(dict.fromkeys(listed))


def _verified_key(signers: Path, principal: str, signature: Path, text: bytes, approved_at: str) -> str | None:
    """The fingerprint of the key, when `signature` is `principal`'s over exactly `text`; else None."""
    checked = _ssh_keygen(
        "-Y", "verify", "-f", str(signers), "-I", principal, "-n", SIGNATURE_NAMESPACE, "-s", str(signature),
        "-O", f"verify-time={_verify_time(approved_at)}", data=text,
    )  # fmt: skip
    said = re.search(r"key (SHA256:\S+)", (checked.stdout + checked.stderr).decode())
    return said.group(1) if checked.returncode == 0 and said else None


def _verified_principal(signers: Path, signature: Path, text: bytes, approved_at: str) -> tuple[str, str] | None:
    """(principal, key fingerprint): the first principal listed for the key whose line verifies `signature` over
    exactly `text` at the approval's time; None when none does. One signature is one person, counted once."""
    for principal in _principals(signers, signature, approved_at):
        key = _verified_key(signers, principal, signature, text, approved_at)
        if key is not None:
            return principal, key
    return None


def sign_approval(packet_path: Path, packet: Packet, key: Path, project_dir: Path, approved_at: str) -> KeyApproval:
    """Sign the packet's approval with `key` (an SSH private key), refused unless the project's allowed-signers file
    lists it; written beside the packet as <principal>-<key>.sig, and .txt: the text it signed, to be read in review
    (not .yml, which a job that applies the packets a merge added would take for one)."""
    signers = project_dir / ALLOWED_SIGNERS
    if not signers.is_file():
        raise BackfillError(
            f"{signers} does not exist: list each approver's public key there (git's allowed_signers format, "
            f"`<principal> <key>`) before signing. The packet is unchanged."
        )
    text = signed_text(packet, approved_at)
    made = _ssh_keygen("-Y", "sign", "-f", str(key), "-n", SIGNATURE_NAMESPACE, data=text)
    if made.returncode != 0:
        raise BackfillError(
            f"ssh-keygen could not sign with {key}: {made.stderr.decode().strip()}. The packet is unchanged."
        )
    folder = approvals_dir(packet_path)
    folder.mkdir(exist_ok=True)
    pending = folder / ".signing.sig"
    pending.write_bytes(made.stdout)
    verified = _verified_principal(signers, pending, text, approved_at)
    if verified is None:
        pending.unlink()
        raise BackfillRefused(
            "signer_not_listed",
            f"the key {key} is not listed in {signers}: its holder is not one who may approve. The packet is "
            f"unchanged.",
        )
    principal, fingerprint = verified
    # one file per principal and key: a principal's second key signs beside the first (and counts once)
    safe = re.sub(r"[^A-Za-z0-9@._-]", "_", principal) + "-" + re.sub(r"[^A-Za-z0-9]", "", fingerprint[7:])[:8]
    signature = folder / f"{safe}.sig"
    pending.replace(signature)
    signature.with_suffix(".txt").write_bytes(text)
    return KeyApproval(principal, fingerprint, approved_at, signature)


def verified_approvals(packet_path: Path, packet: Packet, project_dir: Path) -> tuple[KeyApproval, ...]:
    """Every signed approval beside the packet, each verified by ssh-keygen against the project's allowed-signers
    file over this packet's run and SHA-256 at the approval's time. One that does not verify refuses the command:
    a signature is never silently left out (BackfillRefused, exit 3)."""
    folder = approvals_dir(packet_path)
    if not folder.is_dir():
        return ()
    signers = project_dir / ALLOWED_SIGNERS
    found: list[KeyApproval] = []
    for signature in sorted(folder.glob("*.sig")):
        said = signature.with_suffix(".txt")
        try:
            approved_at = re.search(r"^approved_at: (\S+)$", said.read_text(), re.M).group(1)  # type: ignore[union-attr]
            _verify_time(approved_at)
        except (OSError, ValueError, AttributeError):
            raise _unverified(signature, f"{said.name} beside it does not say when it was given") from None
        problem = _time_problem(packet, approved_at)
        if problem:
            raise _unverified(signature, problem)
        principals = _principals(signers, signature, approved_at) if signers.is_file() else []
        if not principals:
            raise _unverified(
                signature,
                f"{signers} lists no key that made it (not listed, no longer listed, or not at {approved_at})",
            )
        verified = _verified_principal(signers, signature, signed_text(packet, approved_at), approved_at)
        if verified is None:
            raise _unverified(
                signature,
                f"it was not made over this packet (run {packet.run_id}, sha256 {packet.sha256()[:12]}…, approved at "
                f"{approved_at}): it signs another packet, or what it signed was edited",
            )
        found.append(KeyApproval(verified[0], verified[1], approved_at, signature))
    return tuple(found)


def _instant(text: str) -> dt.datetime:
    at = dt.datetime.fromisoformat(text)
    return at if at.tzinfo else at.replace(tzinfo=dt.timezone.utc)


def _time_problem(packet: Packet, approved_at: str) -> str | None:
    """A signed time no approval can have: after now, after the packet's deadline, or before its plan (a key retired
    with valid-before would otherwise approve a later packet by signing an earlier time)."""
    at = _instant(approved_at)
    if at > dt.datetime.now(dt.timezone.utc) + CLOCK_SKEW:
        return f"it is dated {approved_at}, after now"
    if at < _instant(packet.created_at):
        return f"it is dated {approved_at}, before the packet was planned ({packet.created_at})"
    if packet.expires_at and at > _instant(packet.expires_at):
        return f"it is dated {approved_at}, after the packet's deadline {packet.expires_at}"
    return None


def _unverified(signature: Path, why: str) -> BackfillRefused:
    return BackfillRefused(
        "signature_invalid",
        f"the signed approval {signature} does not hold: {why}. Remove it, or have the approver sign this packet "
        f"again (`dbt-backfill approve PACKET --sign KEY`). The target is unchanged.",
        {"signature": str(signature)},
    )


def refuse_unsigned_name(approval: Approval, signatures: tuple[KeyApproval, ...]) -> None:
    """Where keys prove the approval, the name the audit trail records with it is one of theirs, never the approval
    block's typed text (which no signature covers)."""
    principals = sorted({s.principal for s in signatures})
    if principals and approval.approved_by not in principals:
        raise BackfillRefused(
            "approval_invalid",
            f"the approval names {approval.approved_by}, who signed nothing beside this packet (signed by "
            f"{', '.join(principals)}): the approval block was edited. Approve again with `dbt-backfill approve "
            f"PACKET --sign KEY`. The target is unchanged.",
        )


def key_fingerprint(key: Path) -> str:
    """The SHA256 fingerprint ssh-keygen gives a key (a private key's is its public half's)."""
    shown = _ssh_keygen("-l", "-f", str(key), data=b"")
    words = shown.stdout.decode().split()
    if shown.returncode != 0 or len(words) < 2:
        raise BackfillError(f"{key} is not an SSH key ssh-keygen can read. The packet is unchanged.")
    return words[1]


def withdraw_signatures(packet_path: Path, key: Path) -> tuple[Path, ...]:
    """Remove the approvals `key` signed beside the packet (its .sig and .txt): the files sign_approval named for it."""
    tag = re.sub(r"[^A-Za-z0-9]", "", key_fingerprint(key)[7:])[:8]
    removed: list[Path] = []
    for signature in sorted(approvals_dir(packet_path).glob(f"*-{tag}.sig")):
        for made in (signature, signature.with_suffix(".txt")):
            if made.exists():
                made.unlink()
                removed.append(made)
    return tuple(removed)
