"""What Spark does not give and what dbt-backfill does instead, through real dbt invocations on the suite's local
Spark: no lock and no multi-statement transaction (the review says so and the plan does not promise one); a swap
instead of an overwrite — each partition written to a directory of its own, checked there, and made the table's
partition by one catalog operation — which readers see whole (a reader loop through apply and rollback), which a
kill at any phase leaves whole (a rerun resumes, rollback swaps back), and whose directories clean deletes once
nothing reads them; and a target that cannot be swapped partition by partition, blocked by the plan's review.
Spark also runs the seed scenario, the refusals, the guards and the canonical fingerprint with the other engines;
this file holds only what is Spark's own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from dbt_backfill.demo import BACKFILL_DAYS
from spark_phases import (
    PARTITION_READS_REQUIRED,
    PartitionReaders,
    cycle_until_read,
    kill_apply_at_each_phase,
    kill_rollback_after_its_first_partition,
    resume_the_killed_apply,
    roll_back_the_rest,
)
from test_tampering import refused

pytestmark = pytest.mark.spark

TARGET = "analytics.fct_trips"


@pytest.fixture(scope="module")
def spark_trips(projects, tmp_path_factory):
    project = projects.new("spark", tmp_path_factory.mktemp("spark")).publish_stale_target()
    yield project
    project.close()


@pytest.fixture(scope="module")
def seed_packet(spark_trips):
    """The seed's days planned once for the module: the review test reads it, the kill and reader test applies it."""
    return plan(spark_trips)


def plan(project):
    out = project.dir / "backfills" / f"seed-{len(project.packets())}.yml"
    result = project.plan("fct_trips", BACKFILL_DAYS, "--out", str(out))
    assert result.returncode == 0, result.output
    return out, yaml.safe_load(out.read_text())


def day_rows(project, relation: str, columns: list[str], day: str) -> list[tuple]:
    return sorted(project.query(f"select {', '.join(columns)} from {relation} where trip_date = '{day}'"), key=repr)


def locations(project, relation: str) -> dict[str, str]:
    """Each partition's directory as the catalog names it, by its value."""
    found = {}
    with project.backend.session() as spark:
        for (spec,) in spark.sql(f"show partitions {relation}").collect():
            column, value = spec.split("=", 1)
            rows = spark.sql(f"describe table extended {relation} partition ({column} = '{value}')").collect()
            found[value] = next(row[1] for row in rows if row[0] == "Location")
    return found


def local(location: str) -> Path:
    return Path(location.removeprefix("file:"))


class Contents:
    """Each backfilled day's rows as the plan found them (old) and as approved (its stage: the approved build)."""

    def __init__(self, project, packet):
        self.project = project
        with project.backend.session() as spark:
            self.columns = spark.table(TARGET).columns
        self.old = {p["value"]: day_rows(project, TARGET, self.columns, p["value"]) for p in packet["partitions"]}
        self.approved = {
            p["value"]: day_rows(project, p["stage"], self.columns, p["value"]) for p in packet["partitions"]
        }
        # the days the repair changes (the seed's third day is already right: its build equals it)
        self.changed = [day for day in self.old if self.old[day] != self.approved[day]]

    def now(self) -> dict[str, str]:
        """'old' or 'approved' per day, read now in one query; anything else fails, and so does a key twice."""
        index = self.columns.index("trip_date")
        rows = self.project.query(f"select {', '.join(self.columns)} from {TARGET}")
        assert len(rows) == len({row[self.columns.index("trip_id")] for row in rows}), "a key twice"
        states = {}
        for day in self.old:
            found = sorted((row for row in rows if str(row[index]) == day), key=repr)
            states[day] = "old" if found == self.old[day] else "approved" if found == self.approved[day] else "MIXED"
        assert "MIXED" not in states.values(), states
        return states


def test_the_review_says_spark_has_no_lock_and_the_plan_promises_a_swap_not_a_transaction(seed_packet):
    path, packet = seed_packet
    checks = {check["check"]: check for check in packet["review"]["checks"]}

    collision = checks["No collision with the scheduled run"]
    assert collision["severity"] == "warn"
    assert "Spark has no lock" in collision["finding"]
    assert "pause the model's scheduled job" in collision["safe_alternative"]
    assert "backfill_lock" not in collision["safe_alternative"]  # a PostgreSQL pre-hook would do nothing here
    assert packet["review"]["verdict"] == "RESTRUCTURE FIRST"
    assert "by one partition-location swap" in checks["Idempotent writes"]["finding"]

    document = path.with_suffix(".md").read_text()
    assert "ALTER TABLE ... PARTITION ... SET LOCATION" in document
    assert "Spark has no multi-statement transaction" in document
    for promise in (
        "one transaction per partition",
        "inside the partition's transaction",
        "inside every transaction",
        "its transaction rolls back",
        "by one INSERT OVERWRITE statement",
    ):
        assert promise not in document, promise
    assert "pointed back at its old directory" in document
    # what can take the backup away is said before anyone approves
    assert "a later static INSERT OVERWRITE of the partition by another job deletes that directory" in document


def test_under_an_approval_policy_a_typed_name_leads_to_no_write_on_spark(spark_trips, seed_packet):
    """Issue 55 on Spark, which has no roles: under a policy the approval must be proven by a listed key, and the
    check runs where apply writes (apply_partitions), before anything is read or written. A copy of the seed's
    packet approved by a typed name is refused with exit 3, and the table is unchanged."""
    path, _ = seed_packet
    typed = path.with_name("typed-name.yml")
    shutil.copy(path, typed)
    assert spark_trips.approve(typed).returncode == 0
    project_file = spark_trips.dir / "dbt_project.yml"
    declared = project_file.read_text()
    before = spark_trips.rows(TARGET)
    try:
        project_file.write_text(
            declared + "\nvars:\n  dbt_backfill_approval: {signers: [dana@example.com], required: 1}\n"
        )
        result = spark_trips.backfill("apply", str(typed))
    finally:
        project_file.write_text(declared)
    refused(
        result,
        "fct_trips's approval policy requires 1 approval(s) by distinct people (keys listed for dana@example.com); "
        "this packet has 0: the approval by Dana Owner is a typed name, which proves no one.",
    )
    assert spark_trips.rows(TARGET) == before


def test_an_apply_killed_at_each_phase_leaves_each_partition_old_or_approved_and_readers_never_see_neither(
    spark_trips, seed_packet
):
    """One approved packet through everything a swap can meet: SIGKILL of apply after the new directory is written,
    between the swap and its fingerprint, and after the swap; a rerun resumes; rollback killed after its swap back,
    rerun; all of it, and apply and rollback cycles after it until PARTITION_READS_REQUIRED reads of a swapped
    partition, under a reader loop (two sessions that stay open, as notebooks' would); then clean deletes the
    directories nothing reads and keeps the ones the table reads."""
    path, packet = seed_packet
    assert spark_trips.approve(path).returncode == 0
    contents = Contents(spark_trips, packet)
    days = list(contents.old)
    assert contents.changed == days[:2]
    old_locations = locations(spark_trips, TARGET)

    # the source pin: a new row in the source is a change (apply refuses, nothing written); the same rows again are
    # no change (the approval stands)
    source_dir = local(
        next(row[1] for row in spark_trips.query("describe table extended raw.trip_events") if row[0] == "Location")
    )
    source_files = set(source_dir.rglob("*"))
    spark_trips.query(
        "insert into raw.trip_events values (950, 1006, date'2026-03-02', 31.00, 'corrected', "
        "timestamp'2026-03-25 08:00:00')"
    )
    drifted = spark_trips.backfill("apply", str(path))
    assert drifted.returncode == 3, drifted.output
    assert (
        "the source changed since the plan (raw.trip_events: 19 rows, state " in drifted.stderr
        and "20 rows, state" in drifted.stderr
    ), drifted.stderr
    assert contents.now() == dict.fromkeys(days, "old")
    for added in set(source_dir.rglob("*")) - source_files:  # the correction's file taken away again
        added.unlink()

    # readers from here to the end of the last rollback (tests/spark_phases.py); each read reads both partitions
    # whose directories are swapped (the third day's build equals it: never swapped, always checked)
    with PartitionReaders(spark_trips, contents, TARGET) as readers:
        kill_apply_at_each_phase(spark_trips, path, contents)
        # the old directories were never touched: the backups name them
        for day in days:
            assert any(local(old_locations[day]).glob("*.parquet")), day

        resume_the_killed_apply(spark_trips, path, contents)
        # an orphans clean after a resumed apply: the killed runs swapped before any partition_replaced row, and the
        # rerun recorded those partitions as skipped; the backups (the old directories) are kept all the same
        orphans = spark_trips.backfill("clean", "--orphans", "--older-than", "0m", "--yes")
        assert orphans.returncode == 0, orphans.output
        assert "an apply of the run began: a rollback may need it" in orphans.stdout, orphans.stdout
        for day in days:
            assert any(local(old_locations[day]).glob("*.parquet")), day
        swapped = locations(spark_trips, TARGET)
        for day in days[:2]:
            assert "/_backfill/" in swapped[day] and swapped[day] != old_locations[day]
        assert swapped[days[2]] == old_locations[days[2]]

        kill_rollback_after_its_first_partition(spark_trips, path, contents, readers)
        roll_back_the_rest(spark_trips, path, contents)
        assert locations(spark_trips, TARGET) == old_locations  # swapped back: the very directories from before

        cycles = cycle_until_read(spark_trips, path, readers)
    print(
        f"reader loop: {readers.summary()} through 4 killed and 2 whole applies and rollbacks, then {cycles} "
        "apply/rollback cycles"
    )
    assert readers.partition_reads >= PARTITION_READS_REQUIRED
    assert readers.anomalies == [] and readers.failures == []
    assert contents.now() == dict.fromkeys(days, "old")

    # clean: the rollback needs nothing; the written directories are read by nothing and go, the old ones stay
    written = {day: local(swapped[day]).parent for day in days[:2]}  # <stage>_w/<time>, holding <column>=<day>
    assert all(path.exists() for path in written.values())
    # someone points the second day's written copy at the control partition's directory: clean must not follow it
    control = packet["control"]["value"]
    second = next(p for p in packet["partitions"] if p["value"] == days[1])
    spark_trips.query(
        f"alter table {second['stage']}_w partition (trip_date = '{days[1]}') set location "
        f"'{locations(spark_trips, TARGET)[control]}'"
    )
    cleaned = spark_trips.backfill("clean", str(path))
    assert cleaned.returncode == 0, cleaned.output
    assert "Deleted 1 directory(ies) the table no longer reads" in cleaned.stdout
    assert not any(written[days[0]].parent.rglob("*.parquet"))  # every attempt's directory of the first day is gone
    assert any(local(locations(spark_trips, TARGET)[control]).glob("*.parquet"))  # the control's is not
    for day in days:  # the old directories, which the table reads again, stay
        assert any(local(old_locations[day]).glob("*.parquet")), day
    assert contents.now() == dict.fromkeys(days, "old")
    assert [t for t in spark_trips.tables_in("analytics_backfill") if packet["run_id"] in t] == []


def test_a_target_not_partitioned_by_the_partition_column_is_refused_at_apply_and_left_unchanged(
    spark_trips, seed_packet
):
    path, _ = seed_packet
    if yaml.safe_load(path.read_text()).get("approval") is None:  # approved by the test above, when it ran
        assert spark_trips.approve(path).returncode == 0
    # the same rows in a table without partitions: fingerprints still match the plan, a swap has no partition to move
    with spark_trips.backend.session() as spark:
        spark.sql("create table analytics.fct_trips_flat using parquet as select * from analytics.fct_trips")
        spark.sql("drop table analytics.fct_trips")
        spark.sql("alter table analytics.fct_trips_flat rename to analytics.fct_trips")
    before = spark_trips.rows()

    result = spark_trips.backfill("apply", str(path))

    assert result.returncode == 3, result.output
    assert "analytics.fct_trips is not partitioned: on Spark a backfill replaces a partition" in result.stderr
    assert "The target is unchanged" in result.stderr
    assert spark_trips.rows() == before


def test_a_stale_scan_is_refused_on_spark_and_names_what_to_run_instead(spark_trips):
    """Its session table would be a view Spark evaluates later, under the pinned session (docs/DECISIONS.md row 112):
    refused before anything is read, in both paths' words."""
    before = spark_trips.rows()
    result = spark_trips.backfill("stale", "fct_trips")
    assert result.returncode == 1, result.output
    assert result.stderr.startswith(
        "error: stale scans run on PostgreSQL and DuckDB; on spark compare a partition with `dbt-backfill plan MODEL "
        "--partitions VALUE`, which reports it unchanged when it is not stale. Nothing was read."
    ), result.stderr
    assert spark_trips.rows() == before


def test_a_target_not_partitioned_by_the_partition_column_alone_is_a_block_in_the_plan(spark_trips):
    """Partitioned by another column: the plan's review says BLOCK with the reason. An unpartitioned table gets the
    same check's other sentence (`is not partitioned`), which the apply-time refusal above shows."""
    with spark_trips.backend.session() as spark:
        rows = spark.sql("select * from analytics.fct_trips")
        columns = [c for c in rows.columns if c != "status"] + ["status"]
        spark.sql(
            "create table analytics.fct_trips_again using parquet "
            + "partitioned by (status) "
            + f"as select {', '.join(columns)} from analytics.fct_trips"
        )
        spark.sql("drop table analytics.fct_trips")
        spark.sql("alter table analytics.fct_trips_again rename to analytics.fct_trips")
    before = spark_trips.rows()
    out = spark_trips.dir / "backfills" / "blocked.yml"

    result = spark_trips.plan("fct_trips", BACKFILL_DAYS, "--out", str(out))

    described = "is partitioned by (status), not by trip_date alone"
    assert result.returncode == 3, result.output
    assert result.stderr.startswith(
        "refused: the review judged the plan BLOCK (Bounded per-partition units: "
        f"analytics.fct_trips {described}: on Spark a backfill"
    ), result.stderr
    assert "approve and apply refuse it. The target is unchanged." in result.stderr
    packet = yaml.safe_load(out.read_text())
    assert packet["review"]["verdict"] == "BLOCK"
    assert "partition the model by trip_date alone" in packet["review"]["checks"][0]["safe_alternative"]
    approved = spark_trips.approve(out)
    assert approved.returncode == 3, approved.output
    assert approved.stderr.startswith("refused: the review judged the plan BLOCK (Bounded per-partition units: "), (
        approved.stderr
    )
    assert approved.stderr.endswith(
        "The packet is for review only: approve and apply refuse it. Fix the cause and plan again. The target is "
        "unchanged.\n"
    )
    assert "approval" not in yaml.safe_load(out.read_text()) or yaml.safe_load(out.read_text())["approval"] is None
    assert spark_trips.rows() == before
