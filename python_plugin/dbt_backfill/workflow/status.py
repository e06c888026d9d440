"""status: what the target's partitions hold now, read from the database — never inferred from how far a command
believes it got. The same read follows every failure or interruption of apply and rollback."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dbt_backfill.causes import classify
from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.errors import BackfillError, BackfillRefused, Interrupted
from dbt_backfill.fingerprint import Fingerprint
from dbt_backfill.packet import Packet
from dbt_backfill.workflow.approve import approval_problem
from dbt_backfill.workflow.placement import refuse_elsewhere

AS_APPROVED, AS_BEFORE, NEITHER = "as approved", "as before", "neither"


@dataclass(frozen=True)
class PartitionState:
    value: str
    state: str  # as approved | as before | neither
    fingerprint: Fingerprint
    unchanged_by_the_repair: bool = False  # the approved rows are the rows before: both states at once

    def to_dict(self) -> dict:
        return {"value": self.value, "state": self.state, "sha256": self.fingerprint.sha256,
                "rows": self.fingerprint.row_count, "unchanged_by_the_repair": self.unchanged_by_the_repair}


@dataclass(frozen=True)
class TargetState:
    packet: Packet
    path: Path
    partitions: tuple[PartitionState, ...] = ()
    unreadable: str | None = None  # why the state could not be read (then partitions is empty)

    @property
    def next_step(self) -> str:
        path = self.path
        if self.unreadable is not None:
            return f"run `dbt-backfill status {path}` when the database answers again"
        states = {p.state for p in self.partitions}
        if NEITHER in states:
            odd = ", ".join(p.value for p in self.partitions if p.state == NEITHER)
            return (f"partition(s) {odd} hold neither the rows before nor the approved rows: something else wrote them "
                    f"(or, on Spark, an overwrite stopped part-way). apply and rollback both refuse them; find the writer, "
                    f"then plan again")
        if approval_problem(self.packet) is not None:
            return f"nothing was applied from this packet; review it, then `dbt-backfill approve {path} --by <name>`"
        if states == {AS_APPROVED}:
            return (f"every partition is as approved: `dbt-backfill verify {path}` records it; "
                    f"`dbt-backfill rollback {path}` restores the rows before")
        if not any(p.state == AS_APPROVED and not p.unchanged_by_the_repair for p in self.partitions):
            return f"nothing is replaced yet: `dbt-backfill apply {path}` applies it"
        return (f"resume with `dbt-backfill apply {path}` (it replaces only the partitions still as before), or "
                f"undo with `dbt-backfill rollback {path}` (it restores those as approved)")

    def to_dict(self) -> dict:
        return {"run_id": self.packet.run_id, "target": str(self.packet.target), "readable": self.unreadable is None,
                "unreadable": self.unreadable, "partitions": [p.to_dict() for p in self.partitions],
                "next": self.next_step}


def read_state(runner: DbtRunner, packet: Packet, path: Path) -> TargetState:
    """Fingerprint (and commit to) every partition the packet names, in an invocation of its own, and say which
    state each is in. Reads only."""
    invocation = runner.run_operation("fingerprint_partitions", {
        **packet.scope_args(), "partitions": [p.value for p in packet.partitions], "commitment": True})
    read = {str(item["value"]): item for item in invocation.first("fingerprints")["partitions"]}
    states = []
    for p in packet.partitions:
        now = Fingerprint.from_dict(read[p.value]["fingerprint"])
        commitment = read[p.value].get("commitment")
        if now == p.fingerprint and commitment == p.commitment:
            state = AS_APPROVED
        elif now == p.target_before and commitment == p.target_before_commitment:
            state = AS_BEFORE
        else:
            state = NEITHER
        states.append(PartitionState(p.value, state, now, not p.changed_by_the_repair))
    return TargetState(packet, path, tuple(states))


def state_after(runner: DbtRunner, packet: Packet, path: Path) -> TargetState:
    """The state read after a failure: never raises. When the database cannot be read, says exactly that."""
    try:
        return read_state(runner, packet, path)
    except (BackfillError, BackfillRefused) as failure:
        cause = classify(str(failure))
        said = cause.says if cause else str(failure).splitlines()[0]
        return TargetState(packet, path, unreadable=said)


def status(runner: DbtRunner, path: Path) -> TargetState:
    packet = Packet.read(path)
    refuse_elsewhere(runner, packet)
    state = state_after(runner, packet, path)
    if state.unreadable is not None:
        raise BackfillError(f"state unknown: {state.unreadable}; run `dbt-backfill status {path}` when it is back.")
    return state


def stopped(runner: DbtRunner, packet: Packet, path: Path, command: str, failure: BaseException) -> BackfillError | BackfillRefused:
    """What to raise when `command` (apply, rollback) was stopped by `failure` after it may have written: the
    failure as the database or the user said it, with the target's state read afresh attached (never a guess from
    how far the command got)."""
    if isinstance(failure, KeyboardInterrupt):
        signal_name = runner.stop_requested
        raised: BackfillError | BackfillRefused = Interrupted(
            f"{command} stopped at {signal_name}, once the partition it was writing had committed. What each "
            f"partition holds now, read afresh, is below." if signal_name and not runner.stopped_at_once else
            f"{command} was stopped at once (a second signal, or one outside a partition's transaction); a "
            f"transaction still open is rolled back by the database. What each partition holds now, read afresh, "
            f"is below.")
    elif isinstance(failure, BackfillRefused):
        raised = failure
    elif failure.cause is not None or failure.last_step is not None:
        step = failure.last_step["doing"] if failure.last_step else "none yet"
        why = failure.cause.says if failure.cause is not None else "the database rejected a statement"
        raised = BackfillError(f"{command} stopped: {why} (its last step begun: {step}). What each partition holds "
                               f"now, read afresh, is below; dbt's error:\n" + "\n".join(failure.database_errors))
        raised.cause = failure.cause
    else:
        raised = failure
    raised.state = state_after(runner, packet, path)
    return raised
