"""What the target's partitions hold now, read from the database — never inferred from how far a command believes
it got: what status prints, and what follows every failure or interruption of apply and rollback."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from dbt_backfill.causes import classify
from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.errors import BackfillError, BackfillRefused, Interrupted
from dbt_backfill.fingerprint import Fingerprint
from dbt_backfill.packet import Packet
from dbt_backfill.workflow.approval import approval_problem

AS_APPROVED, AS_BEFORE, NEITHER = "as approved", "as before", "neither"
# refusals of apply that hold for the packet as it stands: running it again is refused again
REFUSES_THE_PACKET = frozenset(
    {
        "source_drift",
        "approval_expired",
        "packet_outdated",
        "packet_not_planned",
        "approval_conflict",
        "stage_missing",
        "stage_changed",
        "packet_relations",
        "packet_target_not_the_model",
        "control_changed",
        "target_changed",
        "superseded",
    }
)


@dataclass(frozen=True)
class PartitionState:
    value: str
    state: str  # as approved | as before | neither
    fingerprint: Fingerprint
    unchanged_by_the_repair: bool = False  # the approved rows are the rows before: both states at once
    # the partition ledger's entry (partition_ledger._ledger_entry): its last recorded writer, and whether it still
    # holds what that writer wrote; and this run's own last write there ({event, at, by, ...}), from the audit trail
    ledger: Mapping[str, Any] | None = None
    own_last: Mapping[str, Any] | None = None

    @property
    def written_by_another_run(self) -> bool:
        """It holds what another run wrote last: that run's to undo, not this packet's."""
        return bool(
            self.ledger
            and self.ledger.get("writer") == "run"
            and self.ledger.get("holds_writer")
            and self.ledger.get("event") in ("replaced", "adopted")
            and self.ledger.get("run_id") != self.run_id
        )

    run_id: str | None = None

    def to_dict(self) -> dict:
        return {
            "value": self.value,
            "state": self.state,
            "sha256": self.fingerprint.sha256,
            "rows": self.fingerprint.row_count,
            "unchanged_by_the_repair": self.unchanged_by_the_repair,
            "last_written": dict(self.ledger) if self.ledger else None,
        }


@dataclass(frozen=True)
class TargetState:
    packet: Packet
    path: Path
    partitions: tuple[PartitionState, ...] = ()
    unreadable: str | None = None  # why the state could not be read (then partitions is empty)
    # read with the partitions: the stages an apply of the partitions still as before needs, the backups a rollback
    # of those as approved needs, that no longer exist (a `clean --run`, or someone else, dropped them)
    stages_gone: tuple[str, ...] = ()
    backups_gone: tuple[str, ...] = ()
    refused_as: str | None = None  # the refusal (REFUSES_THE_PACKET) that stopped the command before this read
    read_refused: bool = False  # the read itself was refused (an unsafe session, an untrusted trail), not cut off

    @property
    def next_step(self) -> str:
        """The command to run next, on the state just read: the first of these that applies."""
        for said in (
            self._next_when_unreadable,
            self._next_when_another_run_wrote,
            self._next_when_neither,
            self._next_when_rolled_back,
            self._next_when_refused_or_stages_gone,
        ):
            step = said()
            if step is not None:
                return step
        return self._next_apply_or_rollback()

    def _next_when_unreadable(self) -> str | None:
        if self.unreadable is not None and self.read_refused:
            return f"once what the refusal names is fixed, run `dbt-backfill status {self.path}`"
        if self.unreadable is not None:
            return f"run `dbt-backfill status {self.path}` when the database answers again"
        return None

    def _plan_again(self, partitions: tuple[PartitionState, ...] | list[PartitionState]) -> str:
        return f"`dbt-backfill plan {self.packet.model} --partitions {','.join(p.value for p in partitions)}`"

    def _next_when_another_run_wrote(self) -> str | None:
        """Another run's rows: that run's to undo; what this packet still says of the others follows."""
        later = [p for p in self.partitions if p.written_by_another_run]
        if not later:
            return None
        said = "; ".join(_written_by_another_run(p) for p in later)
        rest = [p for p in self.partitions if p not in later]
        others = "; ".join(
            f"{p.value} {p.state}" + (" (the repair changes nothing there)" if p.unchanged_by_the_repair else "")
            for p in rest
        )
        return (
            f"{said}.{' The other partition(s): ' + others + '.' if rest else ''} To repair from what the "
            f"table holds now, plan again: {self._plan_again(self.partitions)}"
        )

    def _next_when_neither(self) -> str | None:
        odd = [p for p in self.partitions if p.state == NEITHER]
        if not odd:
            return None
        return (
            f"partition(s) {', '.join(p.value for p in odd)} hold neither the rows before nor the approved "
            f"rows: "
            + "; ".join(f"{p.value} {p.ledger['said']}" if p.ledger else p.value for p in odd)
            + f". apply and rollback both refuse them; find the writer, then plan again: {self._plan_again(odd)}"
        )

    def _next_when_rolled_back(self) -> str | None:
        rolled_back = [p for p in self.partitions if p.own_last and p.own_last.get("event") in ("restored", "released")]
        if not (
            rolled_back
            and all(p.state == AS_BEFORE or p.unchanged_by_the_repair for p in self.partitions)
            and not any(p.own_last and p.own_last.get("event") in ("replaced", "adopted") for p in self.partitions)
        ):
            return None
        last = rolled_back[-1].own_last or {}
        return (
            f"run {self.packet.run_id} was rolled back at {last.get('at')} by "
            f"{last.get('by') or 'an unrecorded user'}: every partition holds its rows from before the apply. "
            f"To repair them again, plan again: {self._plan_again(self.partitions)}"
        )

    @property
    def _replaced(self) -> bool:
        return any(p.state == AS_APPROVED and not p.unchanged_by_the_repair for p in self.partitions)

    def _next_when_refused_or_stages_gone(self) -> str | None:
        path, replaced = self.path, self._replaced
        if self.refused_as is not None:
            return f"apply refuses this packet as it stands ({self.refused_as}): do what the refusal says" + (
                f"; `dbt-backfill rollback {path}` restores the partitions as approved"
                if replaced
                else "; nothing is replaced"
            )
        if self.stages_gone and not replaced:
            return (
                f"nothing is replaced yet, and the stage(s) of {', '.join(self.stages_gone)} no longer exist "
                f"(`clean` dropped them, or someone else did): apply refuses this packet. Plan again"
            )
        if self.stages_gone and any(p.state == AS_BEFORE for p in self.partitions):
            return (
                f"the stage(s) of {', '.join(self.stages_gone)} no longer exist: apply cannot resume. Undo with "
                f"`dbt-backfill rollback {path}` (it restores those as approved), then plan again"
            )
        if approval_problem(self.packet) is not None:
            return f"nothing was applied from this packet; review it, then `dbt-backfill approve {path} --by <name>`"
        return None

    def _next_apply_or_rollback(self) -> str:
        path = self.path
        no_rollback = (
            f"; the backups of {', '.join(self.backups_gone)} no longer exist, so those cannot be rolled back"
            if self.backups_gone
            else ""
        )
        if {p.state for p in self.partitions} == {AS_APPROVED}:
            return f"every partition is as approved: `dbt-backfill verify {path}` records it" + (
                no_rollback
                if self.backups_gone
                else f"; `dbt-backfill rollback {path}` restores the rows before from the backups, "
                f"if each still holds them (it checks before it writes)"
            )
        if not self._replaced:
            return f"nothing is replaced yet: `dbt-backfill apply {path}` applies it"
        return (
            f"resume with `dbt-backfill apply {path}` (it replaces only the partitions still as before), or "
            f"undo with `dbt-backfill rollback {path}` (it restores those as approved){no_rollback}"
        )

    def to_dict(self) -> dict:
        return {
            "run_id": self.packet.run_id,
            "target": str(self.packet.target),
            "readable": self.unreadable is None,
            "unreadable": self.unreadable,
            "partitions": [p.to_dict() for p in self.partitions],
            "stages_gone": list(self.stages_gone),
            "backups_gone": list(self.backups_gone),
            "next": self.next_step,
        }


def read_state(runner: DbtRunner, packet: Packet, path: Path) -> TargetState:
    """Fingerprint (and commit to) every partition the packet names, in an invocation of its own, and say which
    state each is in. Reads only."""
    invocation = runner.run_operation(
        "fingerprint_partitions",
        {
            **packet.scope_args(),
            "partitions": [p.value for p in packet.partitions],
            "commitment": True,
            "ledger": True,
            "relations": [ref.to_dict() for p in packet.partitions for ref in (p.stage, p.backup)],
        },
    )
    result = invocation.first("fingerprints")
    read = {str(item["value"]): item for item in result["partitions"]}
    present = {(ref.get("schema"), ref.get("identifier")) for ref in result.get("present", [])}

    def exists(ref) -> bool:
        return (ref.schema, ref.identifier) in present

    states = []
    for p in packet.partitions:
        ledger, own_last = read[p.value].get("ledger"), read[p.value].get("own_last")
        now = Fingerprint.from_dict(read[p.value]["fingerprint"])
        commitment = read[p.value].get("commitment")
        if now == p.fingerprint and commitment == p.commitment:
            state = AS_APPROVED
        elif now == p.target_before and commitment == p.target_before_commitment:
            state = AS_BEFORE
        else:
            state = NEITHER
        states.append(PartitionState(p.value, state, now, not p.changed_by_the_repair, ledger, own_last, packet.run_id))
    by_value = {p.value: p for p in packet.partitions}
    # apply checks every stage before it replaces anything, so any missing stage stops it; a rollback needs the
    # backups of the partitions the repair changed and that are as approved
    return TargetState(
        packet,
        path,
        tuple(states),
        stages_gone=tuple(s.value for s in states if not exists(by_value[s.value].stage)),
        backups_gone=tuple(
            s.value
            for s in states
            if s.state == AS_APPROVED and not s.unchanged_by_the_repair and not exists(by_value[s.value].backup)
        ),
    )


def _written_by_another_run(p: PartitionState) -> str:
    """A partition whose last recorded writer is another run, in words: that run, its approver, when, what this
    packet's rollback does with it, and how to undo that run."""
    ledger = p.ledger or {}
    own = p.own_last.get("event") if p.own_last else None
    ours = (
        "this run replaced it before, so `rollback` of this packet refuses it"
        if own == "replaced"
        else "this run's apply found it holding its approved rows before, so `rollback` of this packet refuses it"
        if own == "adopted"
        else "this run was rolled back there before"
        if own
        else "this run did not replace it, so `rollback` of this packet leaves it alone"
    )
    approver = ledger.get("approved_by") or "an unrecorded approver"
    if ledger.get("approval_proof"):  # how it was proven (the package's _approval_proof); a typed name is the name
        approver += f"; proven by {ledger['approval_proof']}"
    how = "wrote" if ledger.get("event") == "replaced" else "took as its own (it already held its approved rows)"
    cleaned = ledger.get("cleaned") or {}
    undo = (
        f"`{ledger.get('rollback_command')}` undoes that run"
        if ledger.get("rollback_command")
        else f"that run cannot be rolled back there: its backup {ledger.get('backup_gone')} is gone"
        + (f" (clean dropped it at {cleaned.get('at')})" if cleaned else "")
        if ledger.get("backup_gone")
        else "that run cannot be rolled back there"
    )
    return (
        f"{p.value} holds what run {ledger.get('run_id')} (approved by {approver}) {how} at {ledger.get('at')} "
        f"({ours}); {undo}"
    )


def state_after(runner: DbtRunner, packet: Packet, path: Path) -> TargetState:
    """The state read after a failure: never raises. When the database cannot be read, says exactly that."""
    try:
        return read_state(runner, packet, path)
    except (BackfillError, BackfillRefused) as failure:
        return TargetState(
            packet, path, unreadable=why_unreadable(failure), read_refused=isinstance(failure, BackfillRefused)
        )


def why_unreadable(failure: BaseException) -> str:
    cause = classify(str(failure))
    return cause.says if cause else str(failure).splitlines()[0]


class StoppedShort(Exception):
    """apply or rollback stopped by `failure` after it may have written; `state`: the target read afresh since."""

    def __init__(self, failure: BackfillError | BackfillRefused, state: TargetState) -> None:
        super().__init__(str(failure))
        self.failure = failure
        self.state = state


def stopped(runner: DbtRunner, packet: Packet, path: Path, command: str, failure: BaseException) -> StoppedShort:
    """What to raise when `command` (apply, rollback) was stopped by `failure` after it may have written: the
    failure as the database or the user said it, with the target's state read afresh (never a guess from how far
    the command got)."""
    if isinstance(failure, KeyboardInterrupt):
        signal_name = runner.stop_requested
        raised: BackfillError | BackfillRefused = Interrupted(
            f"{command} stopped at {signal_name}, once the partition it was writing had committed. What each "
            f"partition holds now, read afresh, is below."
            if signal_name and not runner.stopped_at_once
            else f"{command} was stopped at once (a second signal, or one outside a partition's transaction); a "
            f"transaction still open is rolled back by the database. What each partition holds now, read afresh, "
            f"is below."
        )
    elif isinstance(failure, BackfillRefused):
        raised = failure
        if command == "apply" and failure.reason in REFUSES_THE_PACKET:
            return StoppedShort(raised, replace(state_after(runner, packet, path), refused_as=failure.reason))
    elif not isinstance(failure, BackfillError):
        raise TypeError(f"stopped() takes a dbt-backfill failure or KeyboardInterrupt, not {failure!r}")
    elif failure.cause is not None or failure.last_step is not None:
        step = failure.last_step["doing"] if failure.last_step else "none yet"
        why = failure.cause.says if failure.cause is not None else "the database rejected a statement"
        raised = BackfillError(
            f"{command} stopped: {why} (its last step begun: {step}). What each partition holds "
            f"now, read afresh, is below; dbt's error:\n" + "\n".join(failure.database_errors)
        )
        raised.cause = failure.cause
    else:
        raised = failure
    return StoppedShort(raised, state_after(runner, packet, path))
