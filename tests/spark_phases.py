"""What the three Spark write paths' tests share: the Hive swap (test_spark.py), the Delta commit (test_delta.py) and
Iceberg's publish (test_iceberg.py) are killed at the same phases and read by the same readers.

Readers: two sessions that stay open, as notebooks' would, each reading the backfilled days' rows again and again
(two, not four: the server has two task slots, and four readers took a third more of the machine's CPU for reads that
check the same thing; DECISIONS row 115). A read passes when every day's row count and fare total is the old one or
the approved one (read from the rows, in one query: one snapshot); anything else is an anomaly, and so is a read that
fails."""

from __future__ import annotations

import threading
from decimal import Decimal

from test_resilience import held_at, kill

# where apply is killed, and how many of the seed's days are approved when it is (the first ones, each whole)
APPLY_KILLS = (("after_new_directory", 0), ("after_swap_before_fingerprint", 1), ("before_commit", 2))


def kill_apply_at_each_phase(project, path, contents) -> None:
    """SIGKILL of apply after the partition's rows are written (not yet the table's), after the first is the table's
    (before its check), and after the second is checked (before its audit row): each day old or approved."""
    days = list(contents.old)
    for point, approved in APPLY_KILLS:
        kill(held_at(project, ["apply", str(path)], point))
        assert contents.now() == {day: "approved" if i < approved else "old" for i, day in enumerate(days)}, point


def kill_rollback_after_its_first_partition(project, path, contents, readers=None) -> None:
    """`readers`: from here on, their reads count as made during a rollback."""
    days = list(contents.old)
    if readers is not None:
        readers.phase = "rollback"
    kill(held_at(project, ["rollback", str(path)], "rollback_before_commit"))
    assert contents.now() == {days[0]: "old", days[1]: "approved", days[2]: "old"}


# reads of a replaced partition's rows (its count and fare total) during apply and rollback, on every format: a read of
# the three days reads the two the seed's packet replaces, so 500 reads (DECISIONS rows 114 and 115)
PARTITION_READS_REQUIRED = 1_000
ROLLBACK_READS = 100  # reads made while a rollback runs, at least, before the readers may stop


class PartitionReaders:
    """`with PartitionReaders(project, contents, target) as readers:` reads from the first statement of the block (the
    test's applies: phase "apply") until `readers.phase = "rollback"` has been set and both PARTITION_READS_REQUIRED
    reads of a replaced partition in all and ROLLBACK_READS during the rollbacks are made — or the block ends. They
    stop there rather than read on: on two cores every read past the requirement slows the other worker's tests.
    `refresh`: an Iceberg session caches the table (the catalog's cache-enabled, on by default), so a reader refreshes
    it before each read, as a user who wants the newest snapshot must."""

    def __init__(self, project, contents, target: str, sessions: int = 2, refresh: bool = False) -> None:
        self.project, self.target, self.refresh = project, target, refresh
        self.replaced = len(contents.changed)  # the days of the three whose approved rows differ from the old
        self.phase = "apply"
        self.by_phase: dict[str, int] = {"apply": 0, "rollback": 0}
        self.days = list(contents.old)
        fare = contents.columns.index("fare")
        self.allowed = {
            day: {
                (len(rows), sum((row[fare] for row in rows), Decimal(0)))
                for rows in (contents.old[day], contents.approved[day])
            }
            for day in self.days
        }
        self.reads = 0
        self.anomalies: list[tuple] = []
        self.failures: list[str] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._read_until_stopped) for _ in range(sessions)]

    def __enter__(self) -> PartitionReaders:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join()

    @property
    def partition_reads(self) -> int:
        return self.reads * self.replaced

    def summary(self) -> str:
        return (
            f"{self.reads} reads of the three days ({self.by_phase['apply']} during applies, "
            f"{self.by_phase['rollback']} during rollbacks; {self.partition_reads} reads of a replaced partition), "
            f"{len(self.anomalies)} anomalies, {len(self.failures)} failed reads"
        )

    def _enough(self) -> bool:
        return self.partition_reads >= PARTITION_READS_REQUIRED and self.by_phase["rollback"] >= ROLLBACK_READS

    def _read_until_stopped(self) -> None:
        from pyspark.sql import functions as F

        session = self.project.backend.server.new_session()
        session.conf.set("spark.sql.codegen.wholeStage", "false")  # a few rows: compiling code costs more than it saves
        rows = (
            session.read.table(self.target)
            .where(F.col("trip_date").cast("string").isin(self.days))
            .select(F.col("trip_date").cast("string").alias("day"), "fare")
        )
        try:
            while not self._stop.is_set() and not self._enough():
                try:
                    if self.refresh:
                        session.sql(f"refresh table {self.target}")
                    read = rows.collect()  # analysed again on every collect: the table as it is now
                except Exception as exc:  # a read that fails is an anomaly too (a file it planned on vanished)
                    with self._lock:
                        self.failures.append(repr(exc)[:300])
                    continue
                seen: dict[str, tuple[int, Decimal]] = {}
                for row in read:
                    count, total = seen.get(row["day"], (0, Decimal(0)))
                    seen[row["day"]] = (count + 1, total + row["fare"])
                with self._lock:
                    for day in self.days:
                        if seen.get(day, (0, Decimal(0))) not in self.allowed[day]:
                            self.anomalies.append((day, seen.get(day)))
                    self.reads += 1
                    self.by_phase[self.phase] += 1
        finally:
            session.stop()


def apply_while_another_writer_commits(project, path, point: str, release: str, write) -> tuple[int, str, str]:
    """Apply held at the fault point `point`; `write()` — another writer's statements, in a session of the test's —
    then the apply let go (the `release` table made, _fault_point) and run to its end. Returns its exit status,
    stdout and stderr."""
    process = held_at(project, ["apply", str(path)], point, release=release)
    try:
        write()
        project.query(f"create table default.{release} (x int) using parquet")
        stdout, stderr = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            kill(process)
        project.query(f"drop table if exists default.{release}")
    return process.returncode, stdout, stderr


def a_writer_between_the_write_and_its_check(project, path, contents, target: str, release: str) -> str:
    """Apply held after its first partition became the table's, before the check that reads it back (fault point
    after_swap_before_fingerprint, let go once `release` exists); another writer, the live job say, deletes a trip of
    that day — with the modules' tables, a deletion vector (Delta) or a position delete (Iceberg): the rows change,
    no data file's path does. The check finds the partition unlike the approval; the undo must leave it as that
    writer left it, not put the before-rows over the writer's commit. Returns the apply's stderr; the test puts the
    table back."""
    day = next(iter(contents.old))
    returncode, stdout, stderr = apply_while_another_writer_commits(
        project,
        path,
        "after_swap_before_fingerprint",
        release,
        lambda: project.query(f"delete from {target} where trip_id = 1001"),
    )
    assert returncode == 3, stdout + stderr
    assert f"partition {day} would not equal the approved fingerprint after replacement" in stderr, stderr
    assert "so it was left as that writer left it" in stderr, stderr
    assert "Partitions replaced before it: none; the partitions after it are unchanged" in stderr, stderr

    # the writer's commit over the approved rows: the day approved but for the deleted trip, the other days old
    def rows(of: str) -> list[tuple]:
        return sorted(
            project.query(f"select {', '.join(contents.columns)} from {target} where trip_date = '{of}'"), key=repr
        )

    index = contents.columns.index("trip_id")
    assert rows(day) == [r for r in contents.approved[day] if r[index] != 1001]
    for other in list(contents.old)[1:]:
        assert rows(other) == contents.old[other], other
    return stderr


def a_writer_between_the_read_and_the_backup(project, path, contents, target: str, release: str) -> str:
    """Apply held after it read the first partition (equal to the plan), before its backup (fault point
    before_backup); another writer adds 100 to a fare of that day. The backup (Delta's clone, Iceberg's tag) is
    checked against that read and refuses: kept as the backup, the writer's commit would be replaced by the apply.
    The writer's commit is then taken back by the test (the same rows again). Returns the apply's stderr."""
    day = next(iter(contents.old))
    returncode, stdout, stderr = apply_while_another_writer_commits(
        project,
        path,
        "before_backup",
        release,
        lambda: project.query(f"update {target} set fare = fare + 100 where trip_id = 1001"),
    )
    assert returncode == 3, stdout + stderr
    assert f"partition {day} changed while it was read" in stderr, stderr
    assert (
        "another writer committed to it. Nothing of this partition was written; it is as that writer left it" in stderr
    )
    fare = dict(project.query(f"select trip_id, fare from {target} where trip_id = 1001"))[1001]
    project.query(f"update {target} set fare = fare - 100 where trip_id = 1001")
    assert contents.now() == dict.fromkeys(contents.old, "old")  # the writer's commit was all that changed
    assert (
        fare
        == next(row for row in contents.old[day] if row[contents.columns.index("trip_id")] == 1001)[
            contents.columns.index("fare")
        ]
        + 100
    )
    return stderr


def resume_the_killed_apply(project, path, contents) -> None:
    """The rerun after the kills: the two days approved by the killed runs skipped, the third (its build equals it)
    too; nothing replaced again."""
    days = list(contents.old)
    rerun = project.backfill("apply", str(path), "--json")
    assert rerun.returncode == 0, rerun.output
    assert rerun.json()["skipped"] == days and rerun.json()["replaced"] == []
    assert contents.now() == {days[0]: "approved", days[1]: "approved", days[2]: "old"}


def roll_back_the_rest(project, path, contents) -> None:
    """The rerun of the killed rollback: every day old again."""
    rolled = project.backfill("rollback", str(path))
    assert rolled.returncode == 0, rolled.output
    assert contents.now() == dict.fromkeys(contents.old, "old")


def cycle_until_read(project, path, readers: PartitionReaders) -> int:
    """More apply/rollback cycles, only while the readers have read less than they must. Returns how many."""
    cycles = 0
    while readers.partition_reads < PARTITION_READS_REQUIRED:
        for command in ("apply", "rollback"):
            readers.phase = command
            result = project.backfill(command, str(path))
            assert result.returncode == 0, result.output
        cycles += 1
    return cycles
