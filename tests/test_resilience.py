"""Resilience with real processes and real kills: an apply killed at every phase leaves each partition either as
planned or as approved and a rerun completes it; a restarted database fails a plan cleanly; the scheduled run and
a second apply are kept out by the backfill lock; rollback restores the exact fingerprints from before; readers
never see half a partition; and the audit trail tells it all.

Fault points (macros/utils/_fault_point.sql) stop an operation at a named place: on PostgreSQL it waits for an
advisory lock the test holds, on DuckDB it runs a long query; the test sees it arrive in dbt's log (no sleeps)."""

from __future__ import annotations

import getpass
import json
import os
import re
import signal
import subprocess
import threading
import time
from decimal import Decimal

import pytest
import yaml
from backends import ENGINE_INDEPENDENT, POSTGRES_ONLY, TRANSACTIONAL_ADAPTERS
from conftest import trips_on
from dbt_backfill.demo import BACKFILL_DAYS
from dbt_backfill.fingerprint import Fingerprint
from project import BIN

trips = trips_on(TRANSACTIONAL_ADAPTERS)  # kills mid-transaction, restarts and locks: what Spark does not have

DAYS = ",".join(BACKFILL_DAYS)
FAULT_LOCK = "1684167271, 0"
WAIT_LIMIT_S = 120  # a safety bound on polling, never a timing assumption
HOLD_LIMIT_S = 900  # the same, for an operation to reach a fault point (held_at): it ends sooner if the process does


class FaultLock:
    """The advisory lock a PostgreSQL fault point waits on, held by the test on its own connection."""

    def __init__(self, project):
        self.connection = project.backend.server.connect(project.backend.database)
        with self.connection.cursor() as cursor:
            cursor.execute(f"select pg_advisory_lock({FAULT_LOCK})")

    def release(self):
        if self.connection is not None:
            with self.connection.cursor() as cursor:
                cursor.execute(f"select pg_advisory_unlock({FAULT_LOCK})")
            self.connection.close()
            self.connection = None


def start(project, args, fault_point=None, release=None):
    """`release` (Spark): the fault point holds until a table of that name exists in `default` (_fault_point)."""
    env = dict(project.env)
    if fault_point:
        env["DBT_BACKFILL_FAULT_POINT"] = fault_point
    if release:
        env["DBT_BACKFILL_FAULT_RELEASE"] = release
    return subprocess.Popen(
        [str(BIN / "dbt-backfill"), *args, "--project-dir", str(project.dir), "--profiles-dir", str(project.dir)],
        cwd=project.dir,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def wait_until(condition, what, limit_s=WAIT_LIMIT_S):
    deadline = time.monotonic() + limit_s
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.05)


def reached(project, point, before=0):
    log = project.dir / "logs" / "dbt.log"
    return lambda: log.exists() and log.read_text(errors="replace").count(f"dbt_backfill fault point: {point}") > before


def fault_count(project, point) -> int:
    """How many times the project's dbt log says an operation reached the fault point."""
    log = project.dir / "logs" / "dbt.log"
    return log.read_text(errors="replace").count(f"dbt_backfill fault point: {point}") if log.exists() else 0


def held_at(project, args, point, release=None):
    """`args` started and returned once it logs the fault point; one that ends before it fails with its output."""
    seen = fault_count(project, point)
    process = start(project, args, fault_point=point, release=release)
    arrived = reached(project, point, before=seen)
    # a Spark apply reaches its second partition's commit after ~60 statements: minutes on a loaded machine
    wait_until(lambda: arrived() or process.poll() is not None, f"{args[0]} to reach {point}", limit_s=HOLD_LIMIT_S)
    if not arrived():
        raise AssertionError(f"ended before {point}: " + "".join(process.communicate()))
    return process


def kill(process):
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def planned_and_approved(project, *extra, first=False):
    """The seed's three days planned and approved. `first`: the test's first step on its fresh project, so the plan
    is the factory's saved one (played for real once per slot, then copied: project.planned_seed)."""
    if first and not extra:
        path = project.planned_seed()
    else:
        path = project.dir / "backfills" / f"run{len(project.packets())}.yml"
        result = project.backfill("plan", "fct_trips", "--partitions", DAYS, "--out", str(path), *extra)
        assert result.returncode == 0, result.output
    assert project.approve(path).returncode == 0
    return path, yaml.safe_load(path.read_text())


def partition_fingerprints(project, packet):
    args = {
        "target": packet["target_relation"],
        "partition_by": packet["partition_by"],
        "business_key": packet["business_key"],
        "material_columns": packet["material_columns"],
        "additive": packet["additive"],
        "partitions": [p["value"] for p in packet["partitions"]],
    }
    result = project.dbt("run-operation", "dbt_backfill.fingerprint_partitions", "--args", json.dumps(args))
    assert result.returncode == 0, result.output
    return {p["value"]: p["fingerprint"] for p in result.result("fingerprints")["partitions"]}


def assert_each_partition_whole(project, packet):
    """Every named partition equals its target_before or its approved fingerprint; no key twice."""
    now = partition_fingerprints(project, packet)
    for partition in packet["partitions"]:
        assert Fingerprint.from_dict(now[partition["value"]]) in (
            Fingerprint.from_dict(partition["target_before"]),
            Fingerprint.from_dict(partition["fingerprint"]),
        ), partition["value"]
    assert project.query("select count(*) - count(distinct trip_id) from analytics.fct_trips") == [(0,)]


@pytest.mark.parametrize("point", ["after_backup", "between_delete_and_insert", "before_commit", "after_commit"])
def test_apply_killed_at_any_phase_leaves_whole_partitions_and_a_rerun_completes(trips, point):
    path, packet = planned_and_approved(trips, first=True)
    lock = FaultLock(trips) if trips.adapter == "postgres" else None
    process = start(trips, ["apply", str(path)], fault_point=point)
    try:
        wait_until(reached(trips, point), f"apply to reach {point}")
        kill(process)
    finally:
        if lock:
            lock.release()
    if lock:  # the killed client's server session finishes its statement, finds no client and rolls back
        wait_until(
            lambda: (
                trips.query(
                    "select count(*) from pg_stat_activity where application_name = 'dbt' "
                    "and datname = current_database()"
                )
                == [(0,)]
            ),
            "the killed session to end",
        )

    assert_each_partition_whole(trips, packet)
    assert trips.query("select count(*) from analytics.fct_trips where trip_date in ('2026-02-28', '2026-03-04')") == [
        (4,)
    ]
    rerun = trips.backfill("apply", str(path), "--json")
    assert rerun.returncode == 0, rerun.output
    if point == "after_commit":  # the first partition had committed: the rerun skips it, never replaces it twice
        assert rerun.json()["skipped"][0] == "2026-03-01"
    verified = trips.backfill("verify", str(path))
    assert verified.returncode == 0, verified.output
    assert trips.query(
        "select count(*), sum(fare) from analytics.fct_trips where trip_date in "
        "('2026-03-01', '2026-03-02', '2026-03-03')"
    ) == [(13, Decimal("349.00"))]


@pytest.mark.postgres
def test_a_database_restart_during_plan_fails_cleanly_and_a_new_plan_succeeds(postgres_cluster, trips):
    if trips.adapter != "postgres" or postgres_cluster is None:
        pytest.skip("restarts the throwaway PostgreSQL cluster the suite started")
    before = trips.rows()
    lock = FaultLock(trips)
    process = start(trips, ["plan", "fct_trips", "--partitions", DAYS], fault_point="during_build")
    wait_until(reached(trips, "during_build"), "plan to reach its builds")
    postgres_cluster.restart()  # cuts every session, the fault lock's holder included
    lock.connection = None
    stdout, stderr = process.communicate(timeout=WAIT_LIMIT_S)
    trips.backend.connection = trips.backend.server.connect(trips.backend.database)

    assert process.returncode == 1, stdout + stderr
    # the cause the database gave, not a guess from the step: the partition value and the model are not blamed
    assert stderr.startswith(
        "error: the connection to the database was lost (plan_stages's last step begun: "
        "building stage a of partition 2026-03-01). No packet was written; a plan only reads the "
        "target, so the target is unchanged"
    ), stderr
    assert "is not a valid" not in stderr and "the model's SQL failed" not in stderr
    assert trips.packets() == []
    assert trips.rows() == before
    again = trips.plan("fct_trips", BACKFILL_DAYS)
    assert again.returncode == 0, again.output


def test_the_scheduled_run_and_a_second_apply_are_kept_out_while_apply_runs(trips):
    trips.query(
        "insert into raw.trip_events values (16, 1201, '2026-03-05', 21.00, 'completed', '2026-03-05 10:00:00+00')"
    )  # a new day for the live job
    path, _packet = planned_and_approved(trips)
    lock = FaultLock(trips) if trips.adapter == "postgres" else None
    applying = start(trips, ["apply", str(path)], fault_point="before_commit")
    try:
        wait_until(reached(trips, "before_commit"), "apply to hold its first partition")
        second = trips.backfill("apply", str(path))
        assert second.returncode == 3, second.output
        assert "locked" in second.stderr or "held by another process" in second.stderr
        live = subprocess.Popen(
            [
                str(BIN / "dbt"),
                "run",
                "-s",
                "fct_trips",
                "--project-dir",
                str(trips.dir),
                "--profiles-dir",
                str(trips.dir),
            ],
            cwd=trips.dir,
            env=trips.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        if lock:  # PostgreSQL: the scheduled run waits on the backfill lock
            wait_until(
                lambda: (
                    trips.query(
                        "select count(*) from pg_locks where locktype = 'advisory' and not granted "
                        "and classid = 1684167270"
                    )
                    == [(1,)]
                ),
                "the scheduled run to wait",
            )
        else:  # DuckDB: it cannot open the file the apply holds
            live.wait(timeout=WAIT_LIMIT_S)
    finally:
        if lock:
            lock.release()
    if lock:
        assert applying.wait(timeout=WAIT_LIMIT_S) == 0, applying.stderr.read()
    else:  # a DuckDB fault point cannot be released: kill the apply, and let a rerun finish it
        kill(applying)
        assert trips.backfill("apply", str(path)).returncode == 0
    live_output = live.communicate(timeout=WAIT_LIMIT_S)[0]
    if lock:
        assert live.returncode == 0, live_output
        assert trips.query("select count(*) from analytics.fct_trips where trip_date = '2026-03-05'") == [(1,)]
    else:
        assert live.returncode != 0 and "lock" in live_output.lower()
    assert trips.query("select count(*) - count(distinct trip_id) from analytics.fct_trips") == [(0,)]
    assert trips.backfill("verify", str(path)).returncode == 0


def test_rollback_restores_the_exact_fingerprints_from_before_and_history_tells_it(trips):
    path, packet = planned_and_approved(trips, first=True)
    before = trips.rows()
    assert trips.backfill("apply", str(path)).returncode == 0
    assert trips.rows() != before

    rolled = trips.backfill("rollback", str(path), "--json")

    assert rolled.returncode == 0, rolled.output
    assert rolled.json()["restored"] == ["2026-03-01", "2026-03-02"]
    assert trips.rows() == before
    now = partition_fingerprints(trips, packet)
    assert [now[p["value"]] for p in packet["partitions"]] == [p["target_before"] for p in packet["partitions"]]
    assert trips.backfill("rollback", str(path), "--json").json()["restored"] == []  # nothing left to undo

    cleaned = trips.backfill("clean", str(path))
    assert cleaned.returncode == 0, cleaned.output
    assert trips.tables_in("analytics_backfill") == ["dbt_backfill_audit"]

    history = trips.backfill("history", "fct_trips", "--json")
    assert history.returncode == 0, history.output
    events = [(e["event"], e["partition_value"]) for e in history.json()["events"]]
    # `planned` once, when the packet was written
    assert events[:3] == [("building_stages", None), ("planned", None), ("approved", None)]
    assert ("partition_replaced", "2026-03-01") in events and ("partition_skipped", "2026-03-03") in events
    assert ("rolled_back", "2026-03-02") in events and events[-1] == ("cleaned", None)
    approved_by = {e["approved_by"] for e in history.json()["events"] if e["event"] == "partition_replaced"}
    assert approved_by == {"Dana Owner"}


# clean compares each backup with its partition by fingerprint, and verify and rollback read the dropped backups from
# the audit trail: the same Jinja and Python on every engine (each engine's rollback: the test above): once, on DuckDB
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_clean_keeps_backups_while_a_rollback_is_possible(trips):
    path, _ = planned_and_approved(trips, first=True)
    assert trips.backfill("apply", str(path)).returncode == 0
    refused = trips.backfill("clean", str(path))
    assert refused.returncode == 3 and "can still be rolled back" in refused.stderr
    assert [t for t in trips.tables_in("analytics_backfill") if t.endswith("_backup")]
    assert trips.backfill("clean", str(path), "--drop-backups").returncode == 0
    assert trips.tables_in("analytics_backfill") == ["dbt_backfill_audit"]

    # the rollback is gone, and says why from the audit trail: not "changed after the apply"
    applied = trips.rows()
    verified = trips.backfill("verify", str(path))
    assert verified.returncode == 0, verified.output
    # verify knows the backups are gone, from the audit trail
    assert re.search(
        r"^Its backups were dropped by `dbt-backfill clean --drop-backups` at 20\d\d-\d\d-\d\d "
        r"\d\d:\d\d:\d\d \(by OS user " + re.escape(getpass.getuser()) + r"\), as the audit trail "
        r"records it: this run can no longer be rolled back\.$",
        verified.stdout,
        re.MULTILINE,
    ), verified.stdout
    rolled = trips.backfill("rollback", str(path))
    assert rolled.returncode == 3, rolled.output
    message = rolled.stderr.strip().splitlines()[0]
    assert re.search(
        r"^refused: partition 2026-03-01 cannot be rolled back: its backup \S+__p0_backup was dropped by "
        r"`dbt-backfill clean --drop-backups` at 20\d\d-\d\d-\d\d \d\d:\d\d:\d\d\S* \(by OS user "
        + re.escape(getpass.getuser())
        + r"\), as the audit trail records it\. The partition holds the approved rows \(as applied; sha256 [0-9a-f]{12}… now\)\. Partitions "
        r"restored before it: none; this partition and the rest are unchanged\.",
        message,
    ), message
    assert "changed after the apply" not in rolled.stderr
    assert trips.rows() == applied


# a DuckDB file cannot be read by another process while apply holds it
@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_readers_see_whole_partitions_throughout_apply_and_rollback(trips):
    path, packet = planned_and_approved(trips, first=True)
    days = "('2026-03-01', '2026-03-02', '2026-03-03')"
    totals = f"select trip_date, count(*), sum(fare) from analytics.fct_trips where trip_date in {days} group by 1"
    allowed = {
        str(p["value"]): {
            (p["target_before"]["row_count"], p["target_before"]["totals"]["fare"]),
            (p["fingerprint"]["row_count"], p["fingerprint"]["totals"]["fare"]),
        }
        for p in packet["partitions"]
    }
    reads, anomalies, stop = [0], [], threading.Event()

    def reader():
        connection = trips.backend.server.connect(trips.backend.database)
        with connection.cursor() as cursor:
            while not stop.is_set() or reads[0] < 10_000:
                cursor.execute(totals)
                seen = {str(day): (count, str(total)) for day, count, total in cursor.fetchall()}
                for day, options in allowed.items():
                    if seen.get(day, (0, "0")) not in options:
                        anomalies.append((day, seen.get(day)))
                reads[0] += 1
        connection.close()

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for command, point in (("apply", "between_delete_and_insert"), ("rollback", "rollback_before_commit")):
            lock = FaultLock(trips)
            process = start(trips, [command, str(path)], fault_point=point)
            wait_until(reached(trips, point, before=0 if command == "apply" else 1), f"{command} to pause")
            target = reads[0] + 3_000  # readers keep reading while a partition is half-done inside its transaction
            wait_until(lambda target=target: reads[0] >= target, "the reader")
            lock.release()
            assert process.wait(timeout=WAIT_LIMIT_S) == 0, process.stderr.read()
    finally:
        stop.set()
        thread.join()
    assert reads[0] >= 10_000
    assert anomalies == []
