"""Delta Lake on Spark (issue 41, item 1): each approved partition replaced by ONE Delta commit, `INSERT INTO ...
REPLACE WHERE <partition> SELECT ... FROM <the checked copy> VERSION AS OF <n>`, through the same package and CLI on a
project whose models are `file_format: delta`. What this file shows, on one published project and one plan shared by
the module: the plan promises a commit, not a transaction nor a swap, and check 3 is ok (the commit detects a
conflicting writer); the refusals (an unapproved packet, an edited one, a stage changed after approval) leave every
published table as it was; a writer that commits to the partition between the check and the write is detected, and
one side fails, nothing mixed; an apply killed at each phase leaves each partition old or approved and a rerun
resumes; readers (a loop through the kills and the rollbacks: PARTITION_READS_REQUIRED) see old or new, never neither;
rollback restores the version before the write, checked against the before-commitment; verify passes; clean drops
the copies and the clones; and the plan warns when the table's retention would let VACUUM take the backup inside the
approval's window."""

from __future__ import annotations

import pytest
import yaml
from dbt_backfill.demo import BACKFILL_DAYS
from spark_phases import (
    PARTITION_READS_REQUIRED,
    PartitionReaders,
    a_writer_between_the_read_and_the_backup,
    a_writer_between_the_write_and_its_check,
    apply_while_another_writer_commits,
    cycle_until_read,
    kill_apply_at_each_phase,
    kill_rollback_after_its_first_partition,
    resume_the_killed_apply,
    roll_back_the_rest,
)
from test_spark import TARGET, Contents

pytestmark = [pytest.mark.spark, pytest.mark.delta]

RELEASE = "dbt_backfill_release"  # the table whose creation lets a held fault point go on (_fault_point)


@pytest.fixture(scope="module")
def delta_trips(projects, tmp_path_factory):
    # the target and its downstream model only: every model costs seconds on Spark (the suite's budget)
    project = projects.new("delta", tmp_path_factory.mktemp("delta")).publish_stale_target("fct_trips daily_fares")
    yield project
    project.close()


@pytest.fixture(scope="module")
def seed_packet(delta_trips):
    """The seed's days planned once for the module; every test below applies, refuses or rolls back this packet. The
    target keeps replaced files one day (delta.deletedFileRetentionDuration), less than the approval's 7 days: the
    plan must say a VACUUM could take the backup inside that window. And it deletes by deletion vectors, as
    Databricks' new tables do: another writer's DELETE then changes a partition's rows without changing any data
    file's path (_delta_partition_changed must still see it)."""
    delta_trips.query(
        f"alter table {TARGET} set tblproperties ('delta.deletedFileRetentionDuration' = 'interval 1 days', "
        "'delta.enableDeletionVectors' = 'true')"
    )
    out = delta_trips.dir / "backfills" / "seed.yml"
    result = delta_trips.plan("fct_trips", BACKFILL_DAYS, "--out", str(out))
    assert result.returncode == 0, result.output
    return out, yaml.safe_load(out.read_text())


def published(project) -> dict[str, list[tuple]]:
    """Every published table's rows (the models' and the source's): what a refusal must leave as it was."""
    # trip_events_volatile reads now(): a different answer on every read, by design (the volatile-source refusal's)
    tables = [f"analytics.{t}" for t in project.tables_in("analytics") if "volatile" not in t] + ["raw.trip_events"]
    return {table: project.rows(table) for table in tables}


def approved(project, path) -> None:
    """The packet approved, if a test before has not (each test runs alone too)."""
    if yaml.safe_load(path.read_text()).get("approval") is None:
        assert project.approve(path).returncode == 0


def test_the_plan_promises_one_delta_commit_per_partition_and_check_3_is_ok(seed_packet):
    path, packet = seed_packet
    checks = {check["check"]: check for check in packet["review"]["checks"]}
    assert packet["review"]["checks"][0]["severity"] == "ok"  # Delta's write unit: partitioned by trip_date alone
    collision = checks["No collision with the scheduled run"]
    assert collision["severity"] == "ok", collision
    assert (
        "the target is a Delta table: each partition is replaced by one commit that Delta fails" in collision["finding"]
    )
    assert "by one Delta commit" in checks["Idempotent writes"]["finding"]
    document = path.with_suffix(".md").read_text()
    assert "INSERT INTO ... REPLACE WHERE <partition> commit" in document
    for promise in ("SET LOCATION", "one transaction per partition", "its transaction rolls back", "Spark has no lock"):
        assert promise not in document, promise
    reversible = checks["Bounded, verifiable, reversible"]
    assert reversible["severity"] == "warn", reversible
    assert reversible["finding"].startswith(
        "analytics.fct_trips keeps replaced data files and versions for less than the approval holds ("
    ), reversible
    assert "delta.deletedFileRetentionDuration = interval 1 days. A VACUUM or log cleanup" in reversible["finding"]
    assert "delta.logRetentionDuration" not in reversible["finding"]  # 30 days by default: long enough


def test_an_unapproved_an_edited_packet_and_a_stage_changed_after_approval_are_refused(delta_trips, seed_packet):
    path, packet = seed_packet
    before = published(delta_trips)

    unapproved = delta_trips.backfill("apply", str(path))
    assert unapproved.returncode == 3, unapproved.output
    assert "the packet is not approved" in unapproved.stderr and "target is unchanged" in unapproved.stderr

    assert delta_trips.approve(path).returncode == 0
    edited = yaml.safe_load(path.read_text())
    edited["partitions"][0]["fingerprint"]["totals"]["fare"] = "999.00"
    edited_path = path.with_name("edited.yml")
    edited_path.write_text(yaml.safe_dump(edited, sort_keys=False))
    refused = delta_trips.backfill("apply", str(edited_path))
    assert refused.returncode == 3, refused.output
    assert "edited after approval" in refused.stderr and "unchanged" in refused.stderr.splitlines()[0]
    edited_path.unlink()

    # the approved stage of the third day changed, then put back (the approval stands again)
    stage = packet["partitions"][2]["stage"]
    delta_trips.backend.update(stage, "fare = fare + 1", "trip_id = 1010")
    changed = delta_trips.backfill("apply", str(path))
    assert changed.returncode == 3, changed.output
    assert "the stage of partition 2026-03-03 changed after approval" in changed.stderr
    assert "The target is unchanged" in changed.stderr
    assert published(delta_trips) == before
    delta_trips.backend.update(stage, "fare = fare - 1", "trip_id = 1010")


def test_a_writer_committing_to_the_partition_between_the_check_and_the_write_makes_the_apply_refuse_nothing_mixed(
    delta_trips, seed_packet
):
    """The apply holds right before its commit of the first day (fault point delta_before_commit); another writer
    (the live job, say) deletes a trip of that day — by a deletion vector: no data file's path changes; the apply
    goes on, commits, finds that commit in the table's history between the version its check read and the one its
    own commit read, takes its commit back and refuses. The day holds the other writer's rows, whole; nothing else
    changed."""
    path, _ = seed_packet
    approved(delta_trips, path)
    before = published(delta_trips)
    [(version, *_)] = delta_trips.query(f"describe history {TARGET} limit 1")
    returncode, stdout, stderr = apply_while_another_writer_commits(
        delta_trips,
        path,
        "delta_before_commit",
        RELEASE,
        lambda: delta_trips.query(f"delete from {TARGET} where trip_id = 1001"),
    )
    assert returncode == 3, stdout + stderr
    assert (
        "another writer committed to partition 2026-03-01 of analytics.fct_trips after the check read version "
        in stderr
    ), stderr
    assert "were taken back by a new commit that put the partition back as the other writer left it" in stderr
    after = published(delta_trips)
    # the writer's delete stands, and nothing else changed: every other row of the target, and every other table
    assert after[TARGET] == [row for row in before[TARGET] if 1001 not in row]
    assert {t: rows for t, rows in after.items() if t != TARGET} == {t: r for t, r in before.items() if t != TARGET}
    # the day as planned again, for what follows
    delta_trips.query(f"insert into {TARGET} select * from {TARGET} version as of {version} where trip_id = 1001")
    assert published(delta_trips) == before


def test_a_writer_committing_between_the_read_of_the_partition_and_its_backup_makes_the_apply_refuse_unchanged(
    delta_trips, seed_packet
):
    """Kept as the backup and replaced by the apply, a commit in that instant would be lost: the backup is checked
    against what apply just read, and refuses (tests/spark_phases.py)."""
    path, packet = seed_packet
    approved(delta_trips, path)
    stderr = a_writer_between_the_read_and_the_backup(delta_trips, path, Contents(delta_trips, packet), TARGET, RELEASE)
    assert "the table is now at version " in stderr, stderr


def test_a_writer_committing_after_the_write_before_its_check_is_left_as_it_left_it_and_the_apply_refuses(
    delta_trips, seed_packet
):
    """The check after our commit reads the partition unlike the approval because another writer committed to it in
    between: the undo finds that commit (the partition's files differ from ours) and leaves the day as that writer
    left it, rather than write the version before ours over it; the apply refuses and says so."""
    path, packet = seed_packet
    approved(delta_trips, path)
    contents = Contents(delta_trips, packet)
    [(version, *_)] = delta_trips.query(f"describe history {TARGET} limit 1")
    stderr = a_writer_between_the_write_and_its_check(delta_trips, path, contents, TARGET, RELEASE)
    assert "another writer changed the partition after Delta commit " in stderr, stderr
    delta_trips.query(f"restore table {TARGET} to version as of {version}")  # the table as planned, for what follows
    assert contents.now() == dict.fromkeys(contents.old, "old")


def test_an_apply_killed_at_each_phase_resumes_rollback_restores_and_readers_never_see_neither(
    delta_trips, seed_packet
):
    """SIGKILL of apply after the copy is written (before the commit), after the commit before its check, and after
    the check before the audit row; a rerun resumes; verify passes; rollback killed after its first commit, rerun;
    then apply and rollback again until the readers (two sessions, tests/spark_phases.py) have read a replaced
    partition PARTITION_READS_REQUIRED times; then clean drops the copies and the clones, and the table's own files
    stay."""
    path, packet = seed_packet
    approved(delta_trips, path)
    contents = Contents(delta_trips, packet)
    days = list(contents.old)
    with PartitionReaders(delta_trips, contents, TARGET) as readers:
        kill_apply_at_each_phase(delta_trips, path, contents)
        resume_the_killed_apply(delta_trips, path, contents)
        verified = delta_trips.backfill("verify", str(path))
        assert verified.returncode == 0, verified.output

        kill_rollback_after_its_first_partition(delta_trips, path, contents, readers)
        roll_back_the_rest(delta_trips, path, contents)

        cycles = cycle_until_read(delta_trips, path, readers)
    print(
        f"reader loop: {readers.summary()} through 3 killed applies, a resumed apply, a killed rollback, a rollback "
        f"and {cycles} more apply/rollback cycles"
    )
    assert readers.partition_reads >= PARTITION_READS_REQUIRED
    assert readers.anomalies == [] and readers.failures == []
    assert contents.now() == dict.fromkeys(days, "old")
    # every commit the backfill made is one WRITE of one partition (REPLACE WHERE, its predicate recorded)
    history = delta_trips.query(f"describe history {TARGET}")
    writes = [row for row in history if row[4] == "WRITE" and row[5].get("mode") == "Overwrite"]
    assert writes and all("trip_date" in row[5]["predicate"] for row in writes)

    before = published(delta_trips)
    cleaned = delta_trips.backfill("clean", str(path))
    assert cleaned.returncode == 0, cleaned.output
    assert [t for t in delta_trips.tables_in("analytics_backfill") if packet["run_id"] in t] == []
    assert published(delta_trips) == before  # dropping the clones deleted none of the table's files
