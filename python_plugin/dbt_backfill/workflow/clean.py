"""clean: drop what dbt-backfill created in the stage schema. With a packet: the run's stages, and its backups once
no rollback needs them (or with --drop-backups). Without one: a run by its id, or every run's relations that no
packet needs (orphans: failed, refused and killed plans, expired packets), found from the audit trail."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.errors import BackfillError, BackfillRefused, restated
from dbt_backfill.packet import Packet
from dbt_backfill.workflow.audit import who_runs
from dbt_backfill.workflow.placement import refuse_elsewhere

DURATION = re.compile(r"\s*(\d+)\s*([dhm])\s*")
HOURS_PER = {"d": 24.0, "h": 1.0, "m": 1 / 60}


@dataclass(frozen=True)
class FoundRelation:
    run_id: str
    model: str
    relation: str
    kind: str  # build a | build b | backup | stages
    action: str  # drop (listed only) | dropped | keep
    reason: str | None  # why it is kept

    def to_dict(self) -> dict:
        return {
            "run_id": self.run_id,
            "model": self.model,
            "relation": self.relation,
            "kind": self.kind,
            "action": self.action,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Cleaned:
    """What a clean by packet did: the relations it dropped, and (Spark) the directories it deleted with them: a
    written copy's or a backup's that the table no longer reads."""

    dropped: tuple[str, ...]
    deleted_directories: tuple[str, ...]


def clean(runner: DbtRunner, path: Path, drop_backups: bool = False, by: str | None = None) -> Cleaned:
    packet = Packet.read(path)
    refuse_elsewhere(runner, packet)
    try:
        invocation = runner.run_operation(
            "clean_run",
            {
                **packet.scope_args(),
                "partitions": packet.partition_args(),
                "drop_backups": drop_backups,
                "packet_sha256": packet.sha256(),
                "cleaned_by": who_runs(by),
            },
        )
    except BackfillError as failure:
        raise _with_what_is_left(runner, packet.run_id, failure) from None
    cleaned = invocation.first("cleaned")
    return Cleaned(tuple(cleaned["dropped"]), tuple(cleaned.get("deleted_directories") or ()))


def _with_what_is_left(runner: DbtRunner, run_id: str, failure: BackfillError) -> BackfillError:
    """A drop the database refused (a view someone built on a stage, a lost connection): what of the run still
    exists, read in an invocation of its own — not what the code believes the failed statement undid."""
    try:
        left = [f.relation for f in clean_relations(runner, run_id=run_id, drop=False)]
        read = (
            f"Read afterwards, run {run_id} still has {len(left)} relation(s): {', '.join(left)}."
            if left
            else f"Read afterwards, run {run_id} has no relation left."
        )
    except (BackfillError, BackfillRefused):
        read = (
            f"What is left could not be read; `dbt-backfill clean --run {run_id}` lists it when the database answers."
        )
    first, _, rest = str(failure).partition("\n")
    return restated(failure, f"{first} {read}\n{rest}".rstrip())


def parse_older_than(text: str) -> float:
    """`7d`, `12h`, `30m` as hours."""
    match = DURATION.fullmatch(text or "")
    if not match:
        raise BackfillError(f"--older-than takes a duration such as 7d, 12h or 30m, not {text!r}. Nothing was dropped.")
    return int(match.group(1)) * HOURS_PER[match.group(2)]


def clean_relations(
    runner: DbtRunner,
    run_id: str | None = None,
    older_than_hours: float = 24.0,
    drop: bool = False,
    drop_backups: bool = False,
    by: str | None = None,
) -> list[FoundRelation]:
    """The relations of one run (`run_id`) or of every run (orphans) that the audit trail says dbt-backfill created,
    each with what is (or, with drop=False, would be) done to it; dropped with drop=True."""
    try:
        invocation = runner.run_operation(
            "clean_orphans",
            {
                "run_id": run_id,
                "older_than_hours": older_than_hours,
                "drop": drop,
                "drop_backups": drop_backups,
                "cleaned_by": who_runs(by),
            },
        )
    except BackfillError as failure:
        if drop and run_id is not None:
            raise _with_what_is_left(runner, run_id, failure) from None
        raise
    return [FoundRelation(**item) for item in invocation.first("orphans")["relations"]]
