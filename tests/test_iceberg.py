"""Apache Iceberg on Spark (issue 41, item 2): write-audit-publish, through real dbt invocations on the suite's Iceberg
Spark server (tests/spark_connect.py, catalog "iceberg"). Each approved partition is written on a branch of the run
made at the snapshot main is at (tagged: the backup), audited there by its snapshot id, and published by
fast-forwarding main to that snapshot only while main is still where the audit read it. What this file shows: the
plan's review and written plan say so (check 3 ok, the tag against snapshot expiry); the refusals (an unapproved
packet, an edited one, a stage changed after approval) leave every table as it was; a commit to main between audit
and publish makes the publish refuse, the table left as the other writer left it; the seed scenario through apply,
verify and rollback; a kill at each phase resumes with each partition exactly old or approved, under a reader loop;
clean removes the run's branches and tags. One project and one plan for the module (the suite's budget)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
import yaml
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
from test_spark import TARGET, Contents, plan

pytestmark = [pytest.mark.spark, pytest.mark.iceberg]

RELEASE = "iceberg_release"  # the table whose creation lets a held operation go on (_fault_point)


@pytest.fixture(scope="module")
def iceberg_trips(projects, tmp_path_factory):
    # the target and its downstream model only: every model costs seconds on Spark (the suite's budget)
    project = projects.new("iceberg", tmp_path_factory.mktemp("iceberg")).publish_stale_target("fct_trips daily_fares")
    yield project
    project.close()


@pytest.fixture(scope="module")
def seed_packet(iceberg_trips):
    """The seed's days planned once for the module; every test leaves the target as the plan found it. The target
    deletes merge-on-read, as many Iceberg users configure it: another writer's DELETE then adds a position delete
    and changes no data file's path (_iceberg_partition_changed must still see it)."""
    iceberg_trips.query(
        f"alter table {TARGET} set tblproperties ('write.delete.mode' = 'merge-on-read', "
        "'write.update.mode' = 'merge-on-read')"
    )
    path, packet = plan(iceberg_trips)
    return path, packet


def refs(project) -> dict[str, tuple[str, int]]:
    return {
        name: (kind, snapshot)
        for name, kind, snapshot in project.query(f"select name, type, snapshot_id from {TARGET}.refs")
    }


def approved(project, path) -> None:
    """The packet approved, if a test before has not (each test runs alone too)."""
    if yaml.safe_load(path.read_text()).get("approval") is None:
        assert project.approve(path).returncode == 0


def published(project, packet) -> dict[str, list[tuple]]:
    """Every table a backfill could have written: the target and the run's stages (the backups are markers)."""
    tables = {TARGET: project.rows()}
    for partition in packet["partitions"]:
        tables[partition["stage"]] = project.rows(partition["stage"])
    return tables


def test_the_review_says_check_3_is_ok_and_the_plan_promises_write_audit_publish_with_a_tagged_backup(seed_packet):
    path, packet = seed_packet
    checks = {check["check"]: check for check in packet["review"]["checks"]}
    collision = checks["No collision with the scheduled run"]
    assert collision["severity"] == "ok", collision
    assert "fast-forwarding main from the snapshot its audit read" in collision["finding"]
    assert "by one fast-forward of main to an audited branch snapshot" in checks["Idempotent writes"]["finding"]
    document = path.with_suffix(".md").read_text()
    assert "write-audit-publish by partition" in document
    assert "history.expire.max-snapshot-age-ms" in document and "never removes a tagged snapshot" in document
    for promise in ("SET LOCATION", "pointed back at its old directory", "one transaction per partition"):
        assert promise not in document, promise


def test_an_unapproved_an_edited_packet_and_a_stage_changed_after_approval_are_refused_and_nothing_changes(
    iceberg_trips, seed_packet
):
    path, packet = seed_packet
    before = published(iceberg_trips, packet)
    refs_before = refs(iceberg_trips)

    unapproved = iceberg_trips.backfill("apply", str(path))
    assert unapproved.returncode == 3, unapproved.output
    assert "not approved" in unapproved.stderr and "target is unchanged" in unapproved.stderr

    assert iceberg_trips.approve(path).returncode == 0
    edited_path = path.with_name("edited.yml")
    edited = yaml.safe_load(path.read_text())
    edited["partitions"] = edited["partitions"][:1]
    edited_path.write_text(yaml.safe_dump(edited, sort_keys=False))
    result = iceberg_trips.backfill("apply", str(edited_path))
    assert result.returncode == 3, result.output
    assert "edited after approval" in result.stderr and "target is unchanged" in result.stderr

    # a row added to an approved stage (a parquet table): its new file is taken away again afterwards
    stage = packet["partitions"][1]["stage"]
    stage_dir = Path(
        next(
            row[1] for row in iceberg_trips.query(f"describe table extended {stage}") if row[0] == "Location"
        ).removeprefix("file:")
    )
    files = set(stage_dir.rglob("*"))
    iceberg_trips.query(f"insert into {stage} select * from {stage} where trip_id = 1008")
    result = iceberg_trips.backfill("apply", str(path))
    assert result.returncode == 3, result.output
    assert "stage of partition 2026-03-02 changed after approval" in result.stderr
    assert "target is unchanged" in result.stderr
    assert iceberg_trips.rows() == before[TARGET] and refs(iceberg_trips) == refs_before  # not a commit, not a ref
    for added in set(stage_dir.rglob("*")) - files:
        added.unlink()
    iceberg_trips.query(f"refresh table {stage}")
    assert published(iceberg_trips, packet) == before


def test_a_commit_to_main_between_audit_and_publish_makes_the_publish_refuse_and_nothing_is_mixed(
    iceberg_trips, seed_packet
):
    """The apply held after the first partition's branch is written and audited, just before its publish; the
    scheduled run commits a row to main (another day); the apply goes on: the publish refuses, naming both snapshots,
    and the table is exactly as the other writer left it — its row there, nothing of the backfill."""
    path, packet = seed_packet
    approved(iceberg_trips, path)
    contents = Contents(iceberg_trips, packet)
    before = published(iceberg_trips, packet)
    main_before = refs(iceberg_trips)["main"][1]

    row = ", ".join(
        "9999" if c == "trip_id" else "date'2026-02-20'" if c == "trip_date" else f"`{c}`" for c in contents.columns
    )
    returncode, stdout, stderr = apply_while_another_writer_commits(
        iceberg_trips,
        path,
        "iceberg_before_publish",
        RELEASE,
        lambda: iceberg_trips.query(f"insert into {TARGET} select {row} from {TARGET} where trip_id = 1001"),
    )
    main_other = refs(iceberg_trips)["main"][1]  # the other writer's snapshot: nothing has committed since

    assert returncode == 3, stdout + stderr
    assert (
        f"partition 2026-03-01 was not published: main moved from snapshot {main_before} (the one the audit read as "
        f"before) to {main_other}: another writer committed to the table after the audit" in stderr
    ), stderr
    assert "nothing of this partition was published and main is as the other writer left it" in stderr
    assert refs(iceberg_trips)["main"][1] == main_other
    other_row = [r for r in iceberg_trips.rows() if 9999 in r]
    assert len(other_row) == 1
    assert sorted(iceberg_trips.rows(), key=repr) == sorted(before[TARGET] + other_row, key=repr)
    assert contents.now() == dict.fromkeys(contents.old, "old")
    assert (
        published(iceberg_trips, packet)[packet["partitions"][0]["stage"]] == before[packet["partitions"][0]["stage"]]
    )
    iceberg_trips.query(f"delete from {TARGET} where trip_id = 9999")
    assert iceberg_trips.rows() == before[TARGET]


def test_a_writer_committing_between_the_read_of_the_partition_and_its_backup_makes_the_apply_refuse_unchanged(
    iceberg_trips, seed_packet
):
    """Kept as the backup and replaced by the apply, a commit in that instant would be lost: the backup is checked
    against what apply just read, and refuses (tests/spark_phases.py)."""
    path, packet = seed_packet
    approved(iceberg_trips, path)
    stderr = a_writer_between_the_read_and_the_backup(
        iceberg_trips, path, Contents(iceberg_trips, packet), TARGET, RELEASE
    )
    assert "main is now at snapshot " in stderr, stderr


def test_a_commit_to_the_partition_after_its_publish_before_its_check_is_left_as_it_left_it_and_the_apply_refuses(
    iceberg_trips, seed_packet
):
    """The check after the publish reads the partition unlike the approval because another writer committed to it on
    main in between: the undo (`iceberg__undo_replacement`) finds the partition's files changed since the snapshot it published
    and leaves it as that writer left it, rather than publish the tagged rows over it; the apply refuses and says so."""
    path, packet = seed_packet
    approved(iceberg_trips, path)
    contents = Contents(iceberg_trips, packet)
    main_before = refs(iceberg_trips)["main"][1]
    stderr = a_writer_between_the_write_and_its_check(iceberg_trips, path, contents, TARGET, RELEASE)
    assert "another writer changed the partition after snapshot " in stderr, stderr
    # the table as planned, for what follows
    iceberg_trips.query(f"call spark_catalog.system.rollback_to_snapshot('{TARGET}', {main_before})")
    iceberg_trips.query(f"refresh table {TARGET}")
    assert contents.now() == dict.fromkeys(contents.old, "old")


def test_apply_killed_at_each_phase_resumes_old_or_approved_and_rollback_verify_clean_under_a_reader_loop(
    iceberg_trips, seed_packet
):
    """SIGKILL of apply after the branch is written (main untouched), after the first publish (before its check),
    and before the second partition's audit row; the rerun resumes; verify; rollback killed after its first
    restore, rerun; then apply and rollback again until the readers (two sessions, tests/spark_phases.py) have read
    a replaced partition PARTITION_READS_REQUIRED times, each day old or approved, never neither; then clean removes
    the run's branches and tags."""
    path, packet = seed_packet
    approved(iceberg_trips, path)
    contents = Contents(iceberg_trips, packet)
    days = list(contents.old)
    assert contents.changed == days[:2]
    with PartitionReaders(iceberg_trips, contents, TARGET, refresh=True) as readers:
        kill_apply_at_each_phase(iceberg_trips, path, contents)
        resume_the_killed_apply(iceberg_trips, path, contents)
        totals = iceberg_trips.query(
            f"select count(*), sum(fare) from {TARGET} where trip_date in ('{days[0]}', '{days[1]}', '{days[2]}')"
        )[0]
        assert totals == (13, Decimal("349.00"))
        verified = iceberg_trips.backfill("verify", str(path))
        assert verified.returncode == 0, verified.output
        # the backups: a tag per replaced partition at the snapshot before it, named by its marker
        tags = {name: snapshot for name, (kind, snapshot) in refs(iceberg_trips).items() if kind == "TAG"}
        for partition in packet["partitions"][:2]:
            backup = partition["backup_relation"]
            marker = iceberg_trips.query(f"select tag, snapshot_id from {backup['schema']}.{backup['identifier']}")
            assert marker == [(backup["identifier"], tags[backup["identifier"]])]

        kill_rollback_after_its_first_partition(iceberg_trips, path, contents, readers)
        roll_back_the_rest(iceberg_trips, path, contents)

        cycles = cycle_until_read(iceberg_trips, path, readers)
    print(
        f"reader loop: {readers.summary()} through 3 killed applies, a resumed apply, a killed rollback, a rollback "
        f"and {cycles} more apply/rollback cycles"
    )
    assert readers.partition_reads >= PARTITION_READS_REQUIRED
    assert readers.anomalies == [] and readers.failures == []

    cleaned = iceberg_trips.backfill("clean", str(path))
    assert cleaned.returncode == 0, cleaned.output
    assert set(refs(iceberg_trips)) == {"main"}  # every branch and tag of the run gone
    assert [t for t in iceberg_trips.tables_in("analytics_backfill") if packet["run_id"] in t] == []
    assert contents.now() == dict.fromkeys(days, "old")


def test_a_target_partitioned_by_a_transform_is_refused_at_apply_and_left_unchanged(iceberg_trips, seed_packet):
    """days(...) groups many values in one partition: write_unit_problem says so, which the plan's review quotes as a
    BLOCK (as test_spark.py shows for a Hive table) and apply as its refusal, before anything — shown at apply, one
    invocation instead of a plan."""
    path, _ = seed_packet
    approved(iceberg_trips, path)
    with iceberg_trips.backend.session() as spark:
        columns = spark.table(TARGET).columns
        spark.sql(
            "create table analytics.fct_trips_days using iceberg partitioned by (days(updated_at)) "
            f"as select {', '.join(columns)} from {TARGET}"
        )
        spark.sql(f"drop table {TARGET}")
        spark.sql(f"alter table analytics.fct_trips_days rename to {TARGET}")
    before = iceberg_trips.rows()

    result = iceberg_trips.backfill("apply", str(path))

    assert result.returncode == 3, result.output
    assert (
        "analytics.fct_trips is partitioned by (days(updated_at)): an Iceberg transform such as days(ts) or "
        "bucket(n, col) puts many values of a column in one partition" in result.stderr
    ), result.stderr
    assert "The target is unchanged" in result.stderr
    assert iceberg_trips.rows() == before
