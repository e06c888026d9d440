"""What each command prints: text for a person, and the JSON document of `--json`. Every sentence here renders a
result the workflow read from the target or its audit trail; nothing here reads or decides."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dbt_backfill.errors import BackfillError, BackfillRefused, Interrupted
from dbt_backfill.fingerprint import Fingerprint
from dbt_backfill.packet import Packet, plan_document_path
from dbt_backfill.shown import shown
from dbt_backfill.workflow.apply import ApplyResult
from dbt_backfill.workflow.approve import Approved, Revoked
from dbt_backfill.workflow.cascade import CascadeStep
from dbt_backfill.workflow.clean import Cleaned
from dbt_backfill.workflow.ledger import Ledger
from dbt_backfill.workflow.plan import NothingToChange, PlanResult
from dbt_backfill.workflow.rollback import RollbackResult
from dbt_backfill.workflow.run_relations import FoundRelation
from dbt_backfill.workflow.stale import StaleScan
from dbt_backfill.workflow.state import TargetState
from dbt_backfill.workflow.verify import VerifyResult

SEVERITY = {"block": "BLOCK", "warn": "WARN", "unknown": "UNKNOWN", "ok": "ok"}
JSON = dict[str, Any]


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    widths = [max(len(str(x)) for x in column) for column in zip(headers, *rows)]

    def line(cells: Sequence[Any]) -> str:
        return "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def _short(value: Any) -> str:
    text = str(value)
    return text[:12] + "…" if len(text) == 64 else text


def _totals(fingerprint: Fingerprint) -> str:
    return ", ".join(f"{k} {v}" for k, v in fingerprint.totals.items()) or "-"


def _compressed(values: Sequence[str], shown_at_most: int = 12) -> str:
    """Values as a person reads a long list: the first ones, then how many more."""
    listed = ", ".join(shown(v) for v in values[:shown_at_most])
    return listed + (f" and {len(values) - shown_at_most} more" if len(values) > shown_at_most else "")


# --- failures ---------------------------------------------------------------------------------------------------


def failure_line(failure: BaseException) -> str:
    if isinstance(failure, BackfillRefused):
        return f"refused: {failure}"
    if isinstance(failure, Interrupted):
        return f"interrupted: {failure}"
    if isinstance(failure, BackfillError):
        return f"error: {failure}"
    return "interrupted (Ctrl-C): the command stopped."  # outside apply and rollback, which read the state first


def failure_json(failure: BaseException) -> JSON:
    if isinstance(failure, BackfillRefused):
        return {"status": "refused", "reason": failure.reason, "message": str(failure), "details": failure.details}
    if isinstance(failure, Interrupted):
        return {"status": "interrupted", "message": str(failure)}
    if isinstance(failure, BackfillError):
        return {"status": "error", "cause": failure.cause.kind if failure.cause else None, "message": str(failure)}
    return {"status": "interrupted"}


# --- the target's state -----------------------------------------------------------------------------------------


def state_text(state: TargetState) -> str:
    """The state table, as read from the database (or that it could not be read), and the next command."""
    if state.unreadable is not None and state.read_refused:
        # the same refusal stops the read: said once, above, not again as an outage
        return f"State not read: the refusal above stops that read too. Next: {state.next_step}."
    if state.unreadable is not None:
        return (
            f"State unknown: {state.unreadable}, so what the target holds could not be read. Run "
            f"`dbt-backfill status {state.path}` when it is back."
        )
    rows = [
        [
            p.value,
            p.state + (" (= as before)" if p.unchanged_by_the_repair and p.state == "as approved" else ""),
            str(p.fingerprint.row_count),
            p.fingerprint.short,
        ]
        for p in state.partitions
    ]
    return (
        f"State of {state.packet.target}, read now:\n"
        + table(["partition", "state", "rows", "sha256"], rows)
        + f"\nNext: {state.next_step}."
    )


def state_json(state: TargetState) -> JSON:
    return {"status": "read", **state.to_dict()}


# --- plan -------------------------------------------------------------------------------------------------------


def partitions_line(expanded: Sequence[str], partitions_file: Path | None) -> str:
    """What the partitions given came to, said before the plan runs (ranges, quotes, or a file)."""
    source = f" (from {partitions_file})" if partitions_file else ""
    return f"Partitions: {len(expanded)} value(s), {expanded[0]} … {expanded[-1]}{source}."


def nothing_to_change_json(result: NothingToChange) -> JSON:
    return {
        "status": "nothing_to_change",
        "model": result.model,
        "run_id": result.run_id,
        "partitions": list(result.partitions),
        "message": result.message,
    }


def plan_json(result: PlanResult) -> JSON:
    return {
        "status": "planned",
        "packet": str(result.path),
        "packet_sha256": result.packet.sha256(),
        "plan_document": str(plan_document_path(result.path)),
        **result.packet.to_dict(),
    }


def plan_text(result: PlanResult) -> str:
    packet, path = result.packet, result.path
    return "\n".join(
        [
            *_plan_header(packet, result.skipped_in_ranges),
            _plan_table(packet),
            *_already_equal(packet),
            *_column_notes(packet),
            *_changed_rows(packet),
            *_review(packet),
            f"Packet written: {path}  (sha256 {packet.sha256()[:12]}…); the written plan: {plan_document_path(path)}",
            f"Nothing in the target has changed. Review the packet, then: dbt-backfill approve {path} --by <name>",
            f"Apply by {packet.expires_at} (meta.backfill.approval_ttl after the plan): later, apply refuses this "
            f"packet and it must be planned again.",
        ]
    )


def _plan_header(packet: Packet, skipped_in_ranges: Sequence[str]) -> list[str]:
    lines = [f"Backfill plan {packet.run_id} for {packet.model} ({packet.target}), by {packet.partition_by}"]
    if skipped_in_ranges:
        lines.append(
            f"Left out of the range(s): {len(skipped_in_ranges)} value(s) with no rows in the target or in the "
            f"model's output, found before anything was built: {_compressed(skipped_in_ranges)}"
        )
    lines.append(
        f"Source pinned: {len(packet.source['relations'])} relation(s) read twice before and once after the "
        f"builds, unchanged: {', '.join(packet.source['relations']) or 'none'}"
    )
    lines.append(_input_windows(packet.source.get("windows") or {}))
    if packet.watermark:
        lines.append(_watermark(packet))
    for name, allowance in packet.allowances.items():
        if name == "empty_partitions":
            lines.append(f"Allowed to empty partition(s) {', '.join(allowance['partitions'])}: {allowance['reason']}")
    return lines


def _watermark(packet: Packet) -> str:
    assert packet.watermark is not None
    before, after = packet.watermark["before"], packet.watermark["after"]
    where = before.get("column") or before.get("relation") or "query"
    if after is None:
        outcome = "apply checks it is unchanged with every partition it replaces"
    elif packet.watermark["raised"]:
        outcome = f"{_short(after['value'])} after: RAISED, allowed ({packet.allowances['watermark_move']['reason']})"
    else:
        outcome = f"{_short(after['value'])} after, untouched"
    return f"Live job's watermark ({before['kind']} {where}): {_short(before['value'])} before; {outcome}"


def _input_windows(windows: Mapping[str, Any]) -> str:
    """The plan's one line on what its builds read of the inputs (the packet's source.windows)."""
    if windows.get("mode") != "windowed":
        return f"Input windows: none ({windows.get('why') or 'not recorded'})"
    inputs = ", ".join(f"{i['relation']} by {i['event_time']}" for i in windows["inputs"])
    whole = f"; read whole: {', '.join(windows['whole'])}" if windows.get("whole") else ""
    return (
        f"Input windows ({windows['declared_by']}: {windows['before']} day(s) before, {windows['after']} after): "
        f"{inputs}{whole}; {windows.get('evidence') or 'evidence not recorded'}"
    )


def _plan_table(packet: Packet) -> str:
    headers = ["partition", "rows", "totals", "build a sha256", "build b sha256", "a = b", "target rows"]
    rows = []
    for p in packet.partitions:
        a, b = p.builds["a"], p.builds["b"]
        changes = f"+{p.changes.added} -{p.changes.removed} ~{p.changes.changed}"
        if packet.exclude_columns and p.changes.excluded is not None:
            changes += f" (~{p.changes.excluded} unchecked)"  # excluded columns apply rewrites: _column_notes says so
        rows.append(
            [
                p.value,
                str(a.row_count),
                _totals(a),
                a.short,
                b.short,
                "yes" if a == b else "NO",
                str(p.target_before.row_count),
                _totals(p.target_before),
                changes,
            ]
        )
    return table([*headers, "target totals", "changes"], rows)


def _column_notes(packet: Packet) -> list[str]:
    """What the plan says of its columns (the package's words): excluded ones written unchecked, run-level ones."""
    notes = packet.column_notes or {}
    return [notes[kind]["said"] for kind in ("excluded", "run_level") if notes.get(kind)]


def _already_equal(packet: Packet) -> list[str]:
    """The partitions that already hold exactly their build (fingerprint and commitment): apply skips them."""
    equal = [
        p.value
        for p in packet.partitions
        if p.fingerprint.sha256 == p.target_before.sha256 and not p.changed_by_the_repair
    ]
    said = f"Already equal to its build, apply will skip it (nothing to write there): {', '.join(equal)}"
    return [said] if equal else []


def _changed_rows(packet: Packet) -> list[str]:
    """A sample of the changed rows, then (as the written plan lists them) the keys the repair adds or removes."""
    lines = []
    key = ", ".join(packet.business_key)
    samples = [(p.value, s) for p in packet.partitions for s in p.changes.sample]
    if samples:
        lines.append("Changed rows (sample):")
        for value, sample in samples:
            changes = ", ".join(
                f"{shown(c)}{' (unchecked)' if c in packet.exclude_columns else ''} {shown(v['old'])} -> {shown(v['new'])}"
                for c, v in sample["columns"].items()
            )
            lines.append(f"  {shown(value)}  {key}={shown(sample['key'])}: {changes}")
    for kind in ("Added", "Removed"):
        listed = [
            (p.value, keys, p.changes.added if kind == "Added" else p.changes.removed)
            for p in packet.partitions
            for keys in [p.changes.added_keys if kind == "Added" else p.changes.removed_keys]
            if keys
        ]
        if listed:
            lines.append(f"{kind} keys (sample):")
            for value, keys, count in listed:
                more = f" (of {count})" if count > len(keys) else ""
                lines.append(f"  {shown(value)}  {key}: {', '.join(shown(k) for k in keys)}{more}")
    return lines


def _review(packet: Packet) -> list[str]:
    lines = [f"Review: {packet.review['verdict']} — {packet.review['reason']}"]
    for check in packet.review["checks"]:
        lines.append(f"  {check['number']}. {SEVERITY[check['severity']]:<7} {check['check']}: {check['finding']}")
    if packet.cost.get("over"):
        lines.append(f"Cost warning: {'; '.join(packet.cost['over'])}")
    if packet.downstream:
        lines.append("Downstream (in order): " + ", ".join(f"{d['model']} ({_mapping(d)})" for d in packet.downstream))
    return lines


def _mapping(downstream: Mapping[str, Any]) -> str:
    reach = downstream.get("reach") or {}
    if downstream["mapping"] != "same_partitions" or not reach.get("declared_by"):
        return str(downstream["mapping"])
    sides = ", ".join(f"{reach[side]} {side}" for side in ("before", "after") if reach.get(side))
    return f"same_partitions, reach {sides or '0'} by {reach['declared_by']}"


# --- approve ----------------------------------------------------------------------------------------------------


def approved_json(approved: Approved) -> JSON:
    return {"status": "approved", "recorded": approved.not_recorded is None, **approved.approval.to_dict()}


def _apply_command(packet: Packet, path: Path) -> str:
    """`dbt-backfill apply <packet>`, with the plan's --vars where the packet records vars it does not pass on by
    itself (Packet.vars_passed_on): a value dbt masked stays masked here, for the operator to fill in."""
    if packet.dbt_vars is None or packet.vars_passed_on() is not None:
        return f"dbt-backfill apply {path}"
    return f"dbt-backfill apply {path} --vars {shlex.quote(packet.dbt_vars)}"


def approved_text(approved: Approved, path: Path) -> str:
    approval, review = approved.approval, approved.packet.review
    written = approved.written_plan
    reviewed = (
        f" The written plan {written.path} (sha256 {written.sha256}) "
        + (
            "names this packet's SHA-256."
            if written.names_the_packet
            else "does NOT name this packet's SHA-256: it is not this packet's plan."
        )
        if written
        else ""
    )
    if not approved.told_the_target:
        trail = (
            " The first apply records the approval in the audit trail; given offline, it counts as given when the "
            "run was planned."
        )
    elif approved.not_recorded is None:
        trail = f" Recorded in the audit trail of {approved.packet.target}."
    else:
        trail = (
            f" Not recorded in the audit trail ({approved.not_recorded}): the first apply records it, and it then counts "
            "as given when the run was planned."
        )
    verdict = f" Its review: {review.get('verdict')} ({review.get('reason')})" + (
        f"; approved despite it: {approval.despite}." if approval.despite else "."
    )
    signed = approved.signed
    if approved.given_by is not None:
        return (
            f"Approval of run {approved.packet.run_id} recorded as given by the role {approved.given_by} (the "
            f"database's own attribution): a further approval of packet sha256 {approval.packet_sha256}, approved by "
            f"{approval.approved_by}. Next: {_apply_command(approved.packet, path)}"
        )
    if signed is not None and approved.further:
        return (
            f"Signed by {signed.principal} (key {signed.key}) at {signed.approved_at}: a further approval of packet "
            f"sha256 {approval.packet_sha256}, approved by {approval.approved_by}. Written to {signed.path}. "
            f"Next: {_apply_command(approved.packet, path)}"
        )
    proven = f" Signed by the key {signed.key}, written to {signed.path}." if signed else ""
    return (
        f"Approved by {approval.approved_by}: packet sha256 {approval.packet_sha256}.{proven}"
        f"{verdict}{reviewed}{trail} Any later edit voids this approval. Apply by {approved.packet.expires_at}. "
        f"Next: {_apply_command(approved.packet, path)}"
    )


# --- apply ------------------------------------------------------------------------------------------------------


def applied_json(result: ApplyResult, steps: Sequence[CascadeStep], left: Sequence[CascadeStep]) -> JSON:
    return {
        "status": "applied_downstream_stale" if left else "applied",
        "run_id": result.packet.run_id,
        "skipped": list(result.skipped),
        "checkpoints": list(result.checkpoints),
        "replaced": [
            {"value": r.value, "before": r.before.to_dict(), "after": r.after.to_dict()} for r in result.replaced
        ],
        "cascade": [
            {"model": s.model, "outcome": s.outcome, "detail": s.detail, "packet": str(s.packet) if s.packet else None}
            for s in steps
        ],
        "downstream_not_rebuilt": [] if steps else list(result.downstream_not_rebuilt),
    }


def applied_text(result: ApplyResult, steps: Sequence[CascadeStep], packet_path: Path) -> str:
    packet = result.packet
    if result.replaced:
        lines = [
            f"Applied {packet.run_id} to {packet.target}: each partition replaced whole and equal to the approved "
            f"fingerprint when read back."
        ]
    else:
        lines = [
            f"Applied {packet.run_id} to {packet.target}: nothing replaced, every partition already equals the "
            f"approval (read now)."
        ]
    if result.skipped:
        lines.append(
            f"Already equal to the approval, skipped (nothing to change there, or an earlier apply got this "
            f"far): {', '.join(result.skipped)}"
        )
    lines += [f"  {shown(value)}: {note}" for value, note in result.skipped_notes.items()]
    for checkpoint in result.checkpoints:
        control = f"; control {checkpoint['control']} unchanged" if checkpoint.get("control") else ""
        lines.append(
            f"Checkpoint after the {checkpoint['label']}: {', '.join(checkpoint['partitions'])} read back equal "
            f"to the approval{control}"
        )
    if result.replaced:
        headers = ["partition", "rows before", "totals before", "rows after", "totals after", "sha256"]
        rows = [
            [
                r.value,
                str(r.before.row_count),
                _totals(r.before),
                str(r.after.row_count),
                _totals(r.after),
                r.after.short,
            ]
            for r in result.replaced
        ]
        lines.append(table(headers, rows))
    for step in steps:
        where = f" (packet {step.packet})" if step.packet else ""
        lines.append(f"Cascade: {step.model} {step.outcome.replace('_', ' ')}: {step.detail}{where}")
    if not steps and result.downstream_not_rebuilt:
        lines.append(_downstream_not_rebuilt(result, packet_path))
    return "\n".join(lines)


def _downstream_not_rebuilt(result: ApplyResult, packet_path: Path) -> str:
    """A plain apply changed partitions that downstream tables read: the package's words, and the CLI's way on. The
    cascade rebuilds only the models its plan could scope; the others it compares with a full build and names their
    repair, each with why the plan could not scope it (a new user's run: "rebuilds each" was said of models it
    never rebuilds)."""
    listed = {d["model"]: d for d in result.packet.downstream}
    rebuilt = [m for m in result.downstream_not_rebuilt if listed.get(m, {}).get("mapping") == "same_partitions"]
    compared = [
        f"{m} ({listed.get(m, {}).get('reason') or 'its scope unknown to the plan'})"
        for m in result.downstream_not_rebuilt
        if m not in rebuilt
    ]
    does = ([f"rebuilds {', '.join(rebuilt)} behind its own gates"] if rebuilt else []) + (
        [f"compares {', '.join(compared)} with a full build and names the repair of what differs"] if compared else []
    )
    return (
        f"{result.downstream_said} Next: `dbt-backfill apply {packet_path} --cascade` {' and '.join(does)} (the "
        f"partitions applied here are skipped)."
    )


def downstream_left_text(left: Sequence[CascadeStep]) -> str:
    """The root is applied and stays so; a downstream model still differs from a full build of it."""
    return f"root applied, downstream left to you: {'; '.join(f'{s.model}: {s.detail}' for s in left)}."


# --- verify, rollback -------------------------------------------------------------------------------------------


def verified_json(result: VerifyResult) -> JSON:
    return {
        "status": "rolled_back" if result.rolled_back else "verified",
        "rolled_back": result.rolled_back,
        "backups_dropped": result.backups_dropped,
        "partitions": [{"value": c.value, "fingerprint": c.actual.to_dict()} for c in result.checks],
    }


def verified_text(result: VerifyResult) -> str:
    target = result.packet.target
    if result.rolled_back:
        lines = [
            f"Rolled back at {result.rolled_back['at']} by {result.rolled_back['by']} (the audit trail): every "
            f"partition of {target} holds its rows from before the apply, as read now."
        ]
    else:
        lines = [f"Verified {target}: every partition equals its approved fingerprint."]
        dropped = result.backups_dropped
        if dropped:
            lines.append(
                f"Its backups were dropped by {dropped['how']} at {dropped['at']} (by {dropped['by']}), as the "
                f"audit trail records it: this run can no longer be rolled back."
            )
    rows = [[c.value, str(c.actual.row_count), _totals(c.actual), c.actual.short] for c in result.checks]
    lines.append(table(["partition", "rows", "totals", "sha256"], rows))
    return "\n".join(lines)


def rolled_back_json(result: RollbackResult) -> JSON:
    return {
        "status": "rolled_back",
        "restored": list(result.restored),
        "skipped": list(result.skipped),
        "not_this_runs": dict(result.not_this_runs),
        "downstream_still_applied": [dict(run) for run in result.downstream_still_applied],
    }


def rolled_back_text(result: RollbackResult) -> str:
    already = "; already as before: " + ", ".join(result.skipped) if result.skipped else ""
    lines = [
        f"Rolled back {result.packet.run_id} on {result.packet.target}: restored "
        f"{', '.join(result.restored) or 'nothing'}, each equal to its fingerprint before the apply{already}."
    ]
    lines += [f"Left {shown(value)} as it is, {why}." for value, why in result.not_this_runs.items()]
    if result.downstream_said:
        lines.append(result.downstream_said)
    return "\n".join(lines)


# --- clean ------------------------------------------------------------------------------------------------------


def cleaned_json(cleaned: Cleaned) -> JSON:
    return {
        "status": "cleaned",
        "dropped": list(cleaned.dropped),
        "deleted_directories": list(cleaned.deleted_directories),
        "made_impossible": list(cleaned.made_impossible),
    }


def cleaned_text(cleaned: Cleaned) -> str:
    lines = [f"Dropped {len(cleaned.dropped)} relation(s): {', '.join(cleaned.dropped) or 'none'}"]
    if cleaned.deleted_directories:
        lines.append(
            f"Deleted {len(cleaned.deleted_directories)} directory(ies) the table no longer reads: "
            f"{', '.join(cleaned.deleted_directories)}"
        )
    lines.extend(f"Note: {said}." for said in cleaned.made_impossible)
    return "\n".join(lines)


def runs_cleaned_json(found: Sequence[FoundRelation], dropped: bool) -> JSON:
    return {"status": "cleaned" if dropped else "listed", "relations": [f.to_dict() for f in found]}


def run_cleaned_text(run_id: str, found: Sequence[FoundRelation]) -> str:
    dropped = [f.relation for f in found if f.action == "dropped"]
    none_left = "" if found else " (the audit trail records no relations of this run, or none is left)"
    lines = [f"Run {run_id}: dropped {len(dropped)} relation(s): {', '.join(dropped) or 'none'}{none_left}"]
    lines += [f"  kept {f.relation} ({f.kind}): {f.reason}" for f in found if f.action == "keep"]
    return "\n".join(lines)


def orphans_text(found: Sequence[FoundRelation], older_than: str) -> str:
    if not found:
        return "No relation dbt-backfill created is left in the stage schemas the audit trail records."
    rows = [
        [f.run_id, f.model, f.relation, f.kind, "would drop" if f.action == "drop" else f.action, f.reason or ""]
        for f in found
    ]
    lines = [table(["run", "model", "relation", "kind", "action", "why kept"], rows)]
    listed = [f for f in found if f.action == "drop"]
    if listed:
        lines.append(
            f"{len(listed)} relation(s) no packet needs. Drop them with: dbt-backfill clean --orphans "
            f"--older-than {older_than} --yes"
        )
    return "\n".join(lines)


# --- history, partitions ----------------------------------------------------------------------------------------


def history_text(result: Mapping[str, Any], model: str | None, run_id: str | None, since: str | None) -> str:
    if not result["audits"]:
        return (
            f"No audit table ({', '.join(result['looked_in']) or 'no model declares meta.backfill'}): nothing "
            f"is recorded {'for ' + model if model else 'here'} (nothing was planned, or the table was dropped)."
        )
    events = result["events"]
    lines = [
        f"Audit trail in {', '.join(result['audits'])}{' for ' + model if model else ''}"
        f"{', run ' + run_id if run_id else ''}{', since ' + since if since else ''}: {len(events)} event(s)."
    ]
    if events:
        # the role that wrote each row, where the engine has roles (PostgreSQL): what the checks believe it by
        attributed = any(e.get("recorded_by") for e in events)
        # a new user read "approved by" beside a rollback's "by" as the approver of the rollback: the run's approver,
        # and who did the row's own act where it records one (a rollback, a clean, a full refresh)
        headers = ["recorded at", "run", "model", "event", "partition", "run approved by", "done by", "outcome"]
        rows = [
            [e["recorded_at"][:19], e["run_id"] or "", e["model"] or "", e["event"]]
            + [shown(e["partition_value"] or ""), e["approved_by"] or "", e.get("who") or ""]
            + [e.get("shown") or ""]  # the outcome within 60 characters, never cut inside a value (_shortened)
            + ([shown(e.get("recorded_by") or "")] if attributed else [])
            for e in events
        ]
        lines.append(table(headers + (["recorded by"] if attributed else []), rows))
    return "\n".join(lines)


def ledger_json(ledger: Ledger) -> JSON:
    return {
        "status": "read",
        "model": ledger.model,
        "target": ledger.target,
        "partitions": [entry.to_dict() for entry in ledger.partitions],
        "no_audit_table": ledger.no_audit_table,
    }


def ledger_text(ledger: Ledger) -> str:
    headers = ["partition", "rows", "sha256", "last written", "holds it", "as the audit trail and the table say"]
    rows = [
        [
            shown(e.value),
            str(e.rows),
            e.sha256[:12],
            e.at or "",
            "yes" if e.holds_writer else "no" if e.writer == "run" else "-",
            e.said,
        ]
        for e in ledger.partitions
    ]
    missing = (
        f"\nNo audit table ({ledger.no_audit_table}): nothing is recorded for {ledger.model} (nothing was planned, or "
        "the table was dropped)."
        if ledger.no_audit_table
        else ""
    )
    return (
        f"Partitions of {ledger.model} ({ledger.target}), read now, with their last recorded writer:\n"
        + table(headers, rows)
        + missing
    )


def stale_json(scan: StaleScan) -> JSON:
    return dict(scan.document)


def stale_text(scan: StaleScan) -> str:
    """What the scan read and found: the partitions that differ, a row each, then the notes and the plan that repairs
    them (a command that runs on the state just read)."""
    head = (
        f"{scan.model} ({scan.target}), read at {scan.read_at[:19]} UTC: {scan.scanned} partition(s) looked at "
        f"({scan.looked_at}), {scan.compared} compared with what the model builds now, "
        f"{scan.scanned - scan.compared} unchanged since what vouches for them."
    )
    lines = [head]
    if scan.stale:
        lines.append(f"{len(scan.stale)} stale:")
        rows = [
            [
                shown(s.value),
                "missing" if s.kind == "missing" else f"{s.target.rows} rows, {s.target.sha256[:12]}",
                f"{s.model.rows} rows, {s.model.sha256[:12]}",
                f"+{s.added} -{s.removed} ~{s.changed}",
                "; ".join(s.why),
            ]
            for s in scan.stale
        ]
        lines.append(table(["partition", "target", "model builds", "by key", "why it was compared"], rows))
    else:
        lines.append("Nothing is stale.")
    if scan.windows:
        lines.append(f"Windows: {scan.windows}.")
    lines.extend(f"Note: {note}." for note in scan.notes)
    if scan.repair:
        if scan.repair.get("first"):
            lines.append(f"First: {scan.repair['first']}.")
        lines.append(f"Next: {scan.repair['cli']}")
    return "\n".join(lines)


def revoked_json(revoked: Revoked) -> JSON:
    return {
        "run_id": revoked.packet.run_id,
        "removed": [str(p) for p in revoked.removed],
        "revoked_by_role": revoked.by_role,
    }


def revoked_text(revoked: Revoked, path: Path) -> str:
    said = []
    if revoked.removed:
        said.append(f"Removed {len(revoked.removed)} file(s) of the key's approval beside {path}: commit the removal.")
    if revoked.by_role:
        said.append(f"The approval recorded by the role {revoked.by_role} for run {revoked.packet.run_id} is revoked.")
    return " ".join(said) + " It counts for nothing from now on; apply counts the approvals that remain."


def approve_json(done: Approved | Revoked) -> JSON:
    """What `approve` did, machine-readable: an approval, or one withdrawn (--revoke)."""
    return revoked_json(done) if isinstance(done, Revoked) else approved_json(done)


def approve_text(done: Approved | Revoked, path: Path) -> str:
    return revoked_text(done, path) if isinstance(done, Revoked) else approved_text(done, path)
