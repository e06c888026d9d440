"""clean: drop what dbt-backfill created in the stage schema. With a packet: the run's stages, and its backups once
no rollback needs them (or with --drop-backups). Without one: a run by its id, or every run's relations that no
packet needs (orphans: failed, refused and killed plans, expired packets), found from the audit trail."""

from __future__ import annotations

import re
from dataclasses import dataclass

from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.errors import BackfillError
from dbt_backfill.packet import PacketFile
from dbt_backfill.workflow.audit_trail import who_runs
from dbt_backfill.workflow.placement import refuse_elsewhere
from dbt_backfill.workflow.run_relations import FoundRelation, clean_relations, with_what_is_left

DURATION = re.compile(r"\s*(\d+)\s*([dhm])\s*")
HOURS_PER = {"d": 24.0, "h": 1.0, "m": 1 / 60}


@dataclass(frozen=True)
class Cleaned:
    """What a clean by packet did: the relations it dropped, and (Spark) the directories it deleted with them: a
    written copy's or a backup's that the table no longer reads."""

    dropped: tuple[str, ...]
    deleted_directories: tuple[str, ...]
    made_impossible: tuple[str, ...] = ()  # the earlier runs' rollbacks it made impossible, in words


def clean(runner: DbtRunner, opened: PacketFile, drop_backups: bool = False, by: str | None = None) -> Cleaned:
    packet = opened.packet
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
        raise with_what_is_left(runner, packet.run_id, failure) from None
    cleaned = invocation.first("cleaned")
    return Cleaned(
        tuple(cleaned["dropped"]),
        tuple(cleaned.get("deleted_directories") or ()),
        tuple(cleaned.get("made_impossible") or ()),
    )


def parse_older_than(text: str) -> float:
    """`7d`, `12h`, `30m` as hours."""
    match = DURATION.fullmatch(text or "")
    if not match:
        raise BackfillError(f"--older-than takes a duration such as 7d, 12h or 30m, not {text!r}. Nothing was dropped.")
    return int(match.group(1)) * HOURS_PER[match.group(2)]


def clean_runs(
    runner: DbtRunner,
    run_id: str | None,
    older_than: str,
    drop: bool,
    drop_backups: bool = False,
    by: str | None = None,
) -> list[FoundRelation]:
    """`clean --run RUN_ID` (drops that run's relations) or `clean --orphans` (lists those of every run no packet
    needs, planned longer ago than `older_than`; drops them with `drop`)."""
    hours = parse_older_than(older_than)
    return clean_relations(
        runner, run_id=run_id, older_than_hours=hours, drop=bool(run_id) or drop, drop_backups=drop_backups, by=by
    )
