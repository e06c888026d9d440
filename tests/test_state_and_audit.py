"""What the tool says about the target after things go wrong, on PostgreSQL and DuckDB through real dbt: a packet
runs only where it was planned, and nothing it says about the target's state is inferred."""

from __future__ import annotations

import getpass
import json
import os
import re
import signal
import socket
import time
from decimal import Decimal

import pytest
import yaml
from backends import ENGINE_INDEPENDENT, POSTGRES_ONLY, TRANSACTIONAL_ADAPTERS
from conftest import trips_on
from dbt_backfill.demo import BACKFILL_DAYS as SEED_DAYS
from test_resilience import FaultLock, kill, reached, start, wait_until
from test_tampering import PUBLISHED, approved, refused, snapshot

trips = trips_on(TRANSACTIONAL_ADAPTERS)


def audit_rows(project):
    return project.query(
        "select event, run_id, partition_value from analytics_backfill.dbt_backfill_audit order by recorded_at, event"
    )


def add_output(project, name, output):
    profiles = project.dir / "profiles.yml"
    data = yaml.safe_load(profiles.read_text())
    data["dbt_backfill_integration_tests"]["outputs"][name] = output
    profiles.write_text(yaml.safe_dump(data))


# a packet of each transactional engine, pointed at a DuckDB file it was not planned on: for a PostgreSQL packet
# another adapter, for a DuckDB one another database
@pytest.mark.parametrize("trips", TRANSACTIONAL_ADAPTERS, indirect=True)
def test_a_packet_runs_only_where_it_was_planned_and_nothing_reaches_the_other_database(trips):
    path, packet = approved(trips)
    add_output(trips, "elsewhere", {"type": "duckdb", "path": "elsewhere.duckdb", "schema": "analytics", "threads": 1})
    before, trail = snapshot(trips), audit_rows(trips)

    for command in ["apply", "verify", "rollback", "clean", "status"]:
        result = trips.backfill(command, str(path), "--target", "elsewhere")

        refused(
            result,
            f"the packet names {packet['target_relation']['database']}.analytics.fct_trips on "
            f"{trips.adapter} as the target of fct_trips (planned with the profile's default target), but "
            f"this project with target `elsewhere` resolves fct_trips to elsewhere.analytics.fct_trips on "
            f"duckdb: the packet is for another target or database, or was edited. A packet runs only "
            f"where it was planned: nothing was read or written, not even an audit row. The target is "
            f"unchanged.",
        )
        assert not (trips.dir / "elsewhere.duckdb").exists()  # never even connected to
        assert snapshot(trips) == before
        assert audit_rows(trips) == trail
    assert set(PUBLISHED) <= set(before)


# -- the state, read after a failure and on demand ---------------------------------------------------------------


def fares_by_day(project, days):
    return dict(
        project.query(
            f"select cast(trip_date as varchar(10)), sum(fare) from analytics.fct_trips "
            f"where trip_date in ({', '.join(repr(d) for d in days)}) group by 1"
        )
    )


def independent_states(project, packet):
    """Each partition's state from the table's own totals, read with the test's SQL, not the tool's."""
    days = [p["value"] for p in packet["partitions"]]
    now = fares_by_day(project, days)
    states = {}
    for p in packet["partitions"]:
        approved, before = Decimal(p["fingerprint"]["totals"]["fare"]), Decimal(p["target_before"]["totals"]["fare"])
        states[p["value"]] = (
            "as approved"
            if now.get(p["value"]) == approved
            else "as before"
            if now.get(p["value"]) == before
            else "neither"
        )
    return states


def printed_states(text):
    return dict(re.findall(r"^(\d{4}-\d\d-\d\d)\s+(as approved|as before|neither)", text, re.MULTILINE))


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_a_connection_cut_after_the_canary_committed_is_said_as_such_with_the_state_read_afresh(trips):
    """The issue's case: the canary had committed when the connection was cut. What is printed comes from a new
    read of the target, not from the last step the apply began."""
    path, packet = approved(trips)
    hold = FaultLock(trips)
    applying = start(trips, ["apply", str(path)], fault_point="after_commit")
    try:
        wait_until(reached(trips, "after_commit"), "the canary's commit")
        trips.query(
            "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'dbt' "
            "and datname = current_database() and pid <> pg_backend_pid()"
        )
    finally:
        hold.release()
    stdout, stderr = applying.communicate()

    assert applying.returncode == 1, stdout + stderr
    # psycopg2 sees the terminated backend as a connection the server closed
    assert stderr.startswith(
        "error: apply stopped: the connection to the database was lost (its last step begun: "
        "replacing partition 2026-03-01)."
    ), stderr
    assert "rolled back, so it is unchanged" not in stderr
    # 2026-03-03 is not changed by the repair: its rows before are the approved rows
    assert (
        printed_states(stderr)
        == independent_states(trips, packet)
        == {"2026-03-01": "as approved", "2026-03-02": "as before", "2026-03-03": "as approved"}
    )
    assert "2026-03-03  as approved (= as before)" in stderr
    assert (
        f"Next: resume with `dbt-backfill apply {path}` (it replaces only the partitions still as before), or undo "
        f"with `dbt-backfill rollback {path}` (it restores those as approved)."
    ) in stderr

    status = trips.backfill("status", str(path), "--json")
    assert status.returncode == 0, status.output
    assert {p["value"]: p["state"] for p in status.json()["partitions"]} == printed_states(stderr)
    rerun = trips.backfill("apply", str(path), "--json")
    assert rerun.returncode == 0, rerun.output
    assert rerun.json()["skipped"] == ["2026-03-01", "2026-03-03"]
    assert independent_states(trips, packet) == dict.fromkeys(SEED_DAYS, "as approved")
    # one approval, recorded once however many applies it took, stamped with its own time
    [(approved_by, detail)] = trips.query(
        f"select approved_by, detail from analytics_backfill.dbt_backfill_audit "
        f"where event = 'approved' and run_id = '{packet['run_id']}'"
    )
    approval = yaml.safe_load(path.read_text())["approval"]
    # given offline, so the row says who recorded it: the ledger dates such an approval by its plan (issue 55)
    assert (approved_by, detail) == (
        approval["approved_by"],
        f"approved at {approval['approved_at']} (recorded by its first apply)",
    )


# PostgreSQL: its fault point waits on a lock the test releases, so the transaction can go on to its commit
# (DuckDB's is a query that never ends)
@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_ctrl_c_during_apply_waits_for_the_partitions_transaction_then_prints_the_state(trips):
    path, packet = approved(trips)
    hold = FaultLock(trips)
    applying = start(trips, ["apply", str(path)], fault_point="before_commit")
    try:
        wait_until(reached(trips, "before_commit"), "the canary's transaction")
        applying.send_signal(signal.SIGINT)
        time.sleep(0.5)  # the signal arrives while the canary's transaction is open
    finally:
        hold.release()  # the canary's transaction goes on to its commit
    stdout, stderr = applying.communicate()

    assert applying.returncode == 130, stdout + stderr
    assert "Aborted!" not in stderr
    assert "SIGINT received; stopping when the current partition's transaction has ended" in stderr
    assert "interrupted: apply stopped at SIGINT, once the partition it was writing had committed." in stderr
    expected = independent_states(trips, packet)
    assert (
        printed_states(stderr)
        == expected
        == {"2026-03-01": "as approved", "2026-03-02": "as before", "2026-03-03": "as approved"}
    )
    rerun = trips.backfill("apply", str(path))
    assert rerun.returncode == 0, rerun.output
    assert independent_states(trips, packet) == dict.fromkeys(SEED_DAYS, "as approved")


AS_APPROVED_ALL = dict.fromkeys(SEED_DAYS, "as approved")
# the write in flight is rolled back: apply's canary stays as before, rollback's first restore stays as approved
IN_FLIGHT_UNDONE = {
    "apply": {"2026-03-01": "as before", "2026-03-02": "as before", "2026-03-03": "as approved"},
    "rollback": AS_APPROVED_ALL,
}
AFTER_RERUN = {"apply": AS_APPROVED_ALL, "rollback": dict.fromkeys(SEED_DAYS, "as before")}
# 2026-03-03 is not changed by the repair: its rows before are its approved rows, so the totals say "as approved"
AFTER_RERUN["rollback"]["2026-03-03"] = "as approved"


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)  # DuckDB: one process holds the file
def test_a_session_that_wrote_to_the_target_and_left_its_transaction_open_stops_the_apply_in_time_not_forever(trips):
    """The partition's lock waits for a session that wrote to the table and has not committed (an attack on
    2026-12-07: apply waited for it, silent, for as long as it stayed open). It waits `dbt_backfill_lock_wait_s`,
    then stops in words, nothing written; once that session has committed, the rerun applies."""
    path, packet = approved(trips)
    before = snapshot(trips)
    writer = trips.backend.server.connect(trips.backend.database)
    writer.cursor().execute(
        "begin; insert into analytics.fct_trips (trip_id, trip_date, fare, status, updated_at) "
        "values (9002, date '2020-01-02', 2.00, 'completed', timestamptz '2020-01-02 12:00:00+00')"
    )
    try:
        waited = trips.backfill("apply", str(path), "--vars", "{dbt_backfill_lock_wait_s: 2}")
        assert snapshot(trips) == before
    finally:
        writer.cursor().execute("commit")  # an autocommit connection: its explicit BEGIN ends with an explicit COMMIT
        writer.close()

    assert waited.returncode == 1, waited.output
    assert waited.stderr.startswith(
        "error: apply stopped: a lock could not be had in time (another session holds it) (its last step begun: "
        "beginning the transaction of partition 2026-03-01)."
    ), waited.stderr
    assert printed_states(waited.stderr) == independent_states(trips, packet), waited.stderr
    assert set(independent_states(trips, packet).values()) <= {"as before", "as approved"}  # 2026-03-03: both
    assert trips.query("select count(*) from analytics.fct_trips where trip_id = 9002") == [(1,)]
    rerun = trips.backfill("apply", str(path))
    assert rerun.returncode == 0, rerun.output


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
@pytest.mark.parametrize("command, point", [("apply", "before_commit"), ("rollback", "rollback_before_commit")])
@pytest.mark.parametrize("fault", ["pg_terminate_backend", "server restart"])
def test_a_write_cut_by_the_database_prints_the_state_read_afterwards_and_a_rerun_completes(
    postgres_cluster, trips, command, point, fault
):
    if fault == "server restart" and postgres_cluster is None:
        pytest.skip("restarts the throwaway PostgreSQL cluster the suite started")
    path, packet = approved(trips)
    if command == "rollback":
        assert trips.backfill("apply", str(path)).returncode == 0
    hold = FaultLock(trips)
    writing = start(trips, [command, str(path)], fault_point=point)
    wait_until(reached(trips, point), f"{command}'s first partition transaction")
    if fault == "server restart":
        postgres_cluster.restart()  # cuts every session, the fault lock's holder included
        hold.connection = None
        trips.backend.connection = trips.backend.server.connect(trips.backend.database)
    else:
        trips.query(
            "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'dbt' "
            "and datname = current_database() and pid <> pg_backend_pid()"
        )
        hold.release()
    stdout, stderr = writing.communicate(timeout=120)

    assert writing.returncode == 1, stdout + stderr
    said = "the server ended the connection" if fault == "server restart" else "the connection to the database was lost"
    assert stderr.startswith(f"error: {command} stopped: "), stderr
    assert said in stderr.splitlines()[0] or "the connection to the database was lost" in stderr.splitlines()[0], stderr
    independent = independent_states(trips, packet)
    assert independent == IN_FLIGHT_UNDONE[command]
    if "State unknown:" in stderr:  # read while the server was still coming back: said, not guessed
        assert f"Run `dbt-backfill status {path}` when it is back." in stderr and not printed_states(stderr)
    else:
        assert printed_states(stderr) == independent
    status = trips.backfill("status", str(path))
    assert status.returncode == 0 and printed_states(status.stdout) == independent, status.output
    rerun = trips.backfill(command, str(path))
    assert rerun.returncode == 0, rerun.output
    assert independent_states(trips, packet) == AFTER_RERUN[command]


@pytest.mark.parametrize("trips", TRANSACTIONAL_ADAPTERS, indirect=True)
def test_a_rollback_killed_in_a_partitions_transaction_leaves_it_as_approved_and_a_rerun_restores(trips):
    path, packet = approved(trips)
    assert trips.backfill("apply", str(path)).returncode == 0
    kill_at(trips, ["rollback", str(path)], "rollback_before_commit", "the first restore's transaction")
    if (
        trips.adapter == "postgres"
    ):  # the killed client's session finishes its statement, finds no client and rolls back
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
    status = trips.backfill("status", str(path))
    assert status.returncode == 0, status.output
    assert printed_states(status.stdout) == independent_states(trips, packet) == AS_APPROVED_ALL
    assert (
        f"Next: every partition is as approved: `dbt-backfill verify {path}` records it; `dbt-backfill rollback "
        f"{path}` restores the rows before from the backups, if each still holds them (it checks before it "
        f"writes)."
    ) in status.stdout
    rerun = trips.backfill("rollback", str(path))
    assert rerun.returncode == 0, rerun.output
    assert independent_states(trips, packet) == AFTER_RERUN["rollback"]


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_status_of_an_unreachable_database_says_so_and_guesses_nothing(trips):
    path, _packet = approved(trips)
    profiles = yaml.safe_load((trips.dir / "profiles.yml").read_text())
    output = profiles["dbt_backfill_integration_tests"]["outputs"]["postgres"]
    with socket.socket() as probe:  # a port on this machine where nothing listens
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    add_output(trips, "down", {**output, "port": closed_port, "connect_timeout": 2})

    result = trips.backfill("status", str(path), "--target", "down")

    assert result.returncode == 1, result.output
    assert result.stderr.strip() == (
        f"error: state unknown: the database is unreachable (no server answered); run "
        f"`dbt-backfill status {path}` when it is back."
    )


# -- a true audit trail ---------------------------------------------------------------------------------------


def kill_at(project, args, point, what):
    """SIGKILL the CLI (and dbt in it) while it holds at fault point `point`; the fault lock is released after."""
    hold = FaultLock(project) if project.adapter == "postgres" else None
    process = start(project, args, fault_point=point)
    try:
        wait_until(reached(project, point), what)
        kill(process)
    finally:
        if hold:
            hold.release()


def run_events(project, run_id):
    """The run's audit trail as (event, partition, outcome, approved_by), in the order recorded."""
    return project.query(
        f"select event, coalesce(partition_value, ''), coalesce(outcome, ''), "
        f"coalesce(approved_by, '') from analytics_backfill.dbt_backfill_audit "
        f"where run_id = '{run_id}' order by recorded_at"
    )


def stage_tables(project, run_id):
    return project.query(
        f"select table_name from information_schema.tables where table_schema = 'analytics_backfill' "
        f"and table_name like '%{run_id}%' order by table_name"
    )


# the empty scope is found by the same Jinja over one read on every engine, and what is recorded is the audit's: once, on
# DuckDB (DECISIONS row 87)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_plan_that_wrote_no_packet_is_plan_failed_with_its_reason_and_drops_its_stages(trips):
    before = snapshot(trips)
    # a value no side holds is found by one read before any stage is built (issue 38): refused, nothing built
    result = trips.plan("fct_trips", ["2025-12-01"])
    assert result.returncode == 1, result.output
    assert result.stderr.strip() == (
        "error: partition(s) 2025-12-01 hold no rows in the target and none in the model's output: there is nothing "
        "to repair. Check the values (and their format). No packet was written and the target is unchanged. It "
        "built no stages."
    )
    assert not trips.packets()
    [(run_id,)] = trips.query("select distinct run_id from analytics_backfill.dbt_backfill_audit")
    assert [event for event, *_ in run_events(trips, run_id)] == ["plan_failed"]
    [(detail,)] = trips.query("select detail from analytics_backfill.dbt_backfill_audit where event = 'plan_failed'")
    assert "partition(s) 2025-12-01 hold no rows" in detail
    assert stage_tables(trips, run_id) == []
    # the pure-dbt plan refuses it the same way (it used to record a packet for the empty day)
    pure = trips.dbt(
        "run-operation", "dbt_backfill.plan_backfill", "--args", "{model: fct_trips, partitions: [2025-12-01]}"
    )
    assert pure.returncode == 1, pure.output
    assert (
        "partition(s) 2025-12-01 hold no rows in the target and none in the model's output: there is nothing to "
        "repair. Check the values (and their format). No packet was written and the target is unchanged."
    ) in pure.output, pure.output
    assert (
        trips.query(f"select distinct run_id from analytics_backfill.dbt_backfill_audit where run_id <> '{run_id}'")
        == []
    )
    assert not trips.query("select 1 from analytics_backfill.dbt_backfill_audit where event = 'packet_recorded'")
    assert trips.tables_in("analytics_backfill") == ["dbt_backfill_audit"]

    planned = trips.plan("fct_trips", SEED_DAYS)
    assert planned.returncode == 0, planned.output
    [path] = trips.packets()
    from dbt_backfill.packet import Packet

    rows = trips.query(
        "select event, outcome, packet_sha256 from analytics_backfill.dbt_backfill_audit where event = 'planned'"
    )
    assert rows == [("planned", "SAFE TO RUN", Packet.read(path).sha256())]  # once, with what was written
    assert snapshot(trips) == before


@pytest.mark.parametrize("trips", TRANSACTIONAL_ADAPTERS, indirect=True)
def test_the_audit_trail_is_one_row_per_event_in_the_order_it_happened(trips):
    """Refusal, approval recorded by approve (the run's approval, and the login's act), apply, verify, rollback and
    verify after it, clean: each once."""
    path = trips.planned_seed()
    run_id = yaml.safe_load(path.read_text())["run_id"]
    unapproved = trips.backfill("apply", str(path))
    assert unapproved.returncode == 3, unapproved.output
    approval = trips.backfill("approve", str(path), "--by", "Dana Owner")  # told where the target is: recorded
    assert approval.returncode == 0, approval.output
    assert "Recorded in the audit trail of " in approval.stdout
    approved_at = yaml.safe_load(path.read_text())["approval"]["approved_at"]
    for command in (["apply"], ["verify"], ["rollback", "--by", "Rita Ops"], ["verify"], ["clean", "--by", "Rita Ops"]):
        result = trips.backfill(command[0], str(path), *command[1:])
        assert result.returncode == 0, (command, result.output)

    D = "Dana Owner"
    assert run_events(trips, run_id) == [
        ("building_stages", "", "", ""),
        ("planned", "", "SAFE TO RUN", ""),
        ("refused", "", "not_approved", ""),
        ("approved", "", "", D),
        ("approval_given", "", "", D),  # approve's own act, by the login it ran as (issue 55: roles count these)
        ("partition_replaced", "2026-03-01", "replaced", D),
        ("checkpoint", "", "canary", D),
        ("partition_replaced", "2026-03-02", "replaced", D),
        ("partition_skipped", "2026-03-03", "already equal to the approval", D),  # the repair does not change it
        ("checkpoint", "", "batch ending 2026-03-03", D),
        ("applied", "", "replaced 2 of 3 partitions", D),
        ("verified", "", "all equal", ""),
        ("rolled_back", "2026-03-01", "restored", D),
        ("rolled_back", "2026-03-02", "restored", D),
        # the apply took 2026-03-03 as it found it (already the approved rows): its rollback steps aside there
        ("rolled_back", "2026-03-03", "released", D),
        ("verified", "", f"rolled back at {rolled_back_at(trips, run_id)}", ""),
        ("cleaned", "", "dropped 8 relations", ""),
    ]
    details = dict(
        trips.query(
            f"select event, detail from analytics_backfill.dbt_backfill_audit "
            f"where run_id = '{run_id}' and event in ('approved', 'rolled_back', 'cleaned')"
        )
    )
    # the approval's own time, recorded when given (approve --target): the ledger dates it by this row (issue 55)
    assert details["approved"] == f"approved at {approved_at} (recorded when approved)"
    assert details["rolled_back"] == "by Rita Ops"
    assert yaml.safe_load(details["cleaned"])["by"] == "Rita Ops"
    assert stage_tables(trips, run_id) == []


# approve's record is checked against the audit trail by the same Jinja on every engine (PostgreSQL's check of who
# wrote a row is test_trust_anchors'): once, on DuckDB
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_approve_records_only_a_packet_a_plan_wrote_and_only_once(trips):
    path = trips.planned_seed()
    run_id = yaml.safe_load(path.read_text())["run_id"]
    before = snapshot(trips)
    planned_text = path.read_text()
    data = yaml.safe_load(planned_text)
    data["partitions"] = data["partitions"][:1]  # content no plan wrote
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    edited_text = path.read_text()
    forged = trips.backfill("approve", str(path), "--by", "Mallory")
    refused(forged, f"analytics.fct_trips wrote a packet of run {run_id} with sha256 ")
    assert forged.stderr.startswith("refused: no plan of ")
    assert "the approval is not recorded, the packet file is unchanged, and apply refuses this packet" in forged.stderr
    assert path.read_text() == edited_text
    assert ("approved", "", "", "Mallory") not in run_events(trips, run_id)

    path.write_text(planned_text)
    first = trips.backfill("approve", str(path), "--by", "Dana Owner")
    assert first.returncode == 0, first.output
    approved_text = path.read_text()
    path.write_text(planned_text)  # the unapproved copy, approved again by someone else
    second = trips.backfill("approve", str(path), "--by", "Mallory")
    refused(
        second,
        f"run {run_id} already has its approval recorded; a second record is refused and the packet file is unchanged",
    )
    assert path.read_text() == planned_text
    # a refused approval writes nothing (the packet stays as it was): the trail holds the one approval
    assert [e for e in run_events(trips, run_id) if e[0] in ("approved", "refused")] == [
        ("approved", "", "", "Dana Owner")
    ]
    assert snapshot(trips) == before
    # a copy approved by someone else without telling approve where the target is: not a second approval
    path.write_text(planned_text)
    assert trips.approve(path, by="Mallory").returncode == 0
    refused(trips.backfill("apply", str(path)), f"run {run_id}'s approval is recorded as by Dana Owner (approved at ")
    assert snapshot(trips) == before
    path.write_text(approved_text)
    assert trips.backfill("apply", str(path)).returncode == 0
    assert [e[0] for e in run_events(trips, run_id)].count("approved") == 1


def rolled_back_at(project, run_id):
    [(at,)] = project.query(
        f"select max(cast(recorded_at as varchar)) from analytics_backfill.dbt_backfill_audit "
        f"where run_id = '{run_id}' and event = 'rolled_back'"
    )
    return at[:19]


@pytest.mark.parametrize("trips", TRANSACTIONAL_ADAPTERS, indirect=True)
def test_an_apply_killed_after_the_canary_resumes_with_the_approval_recorded_once(trips):
    """SIGKILL of the CLI and dbt with the canary committed: status reads what the tables say, the rerun replaces
    only what is left, and the trail holds each event once."""
    path, packet = approved(trips)
    kill_at(trips, ["apply", str(path)], "after_commit", "the canary's commit")

    status = trips.backfill("status", str(path))
    assert status.returncode == 0, status.output
    assert (
        printed_states(status.stdout)
        == independent_states(trips, packet)
        == {"2026-03-01": "as approved", "2026-03-02": "as before", "2026-03-03": "as approved"}
    )
    rerun = trips.backfill("apply", str(path))
    assert rerun.returncode == 0, rerun.output
    assert independent_states(trips, packet) == dict.fromkeys(SEED_DAYS, "as approved")
    D = "Dana Owner"
    assert run_events(trips, packet["run_id"]) == [
        ("building_stages", "", "", ""),
        ("planned", "", "SAFE TO RUN", ""),
        ("approved", "", "", D),
        ("partition_replaced", "2026-03-01", "replaced", D),  # then killed: no checkpoint, no `applied`
        ("partition_skipped", "2026-03-01", "already equal to the approval", D),
        ("checkpoint", "", "canary", D),
        ("partition_replaced", "2026-03-02", "replaced", D),
        ("partition_skipped", "2026-03-03", "already equal to the approval", D),
        ("checkpoint", "", "batch ending 2026-03-03", D),
        ("applied", "", "replaced 1 of 3 partitions", D),
    ]


# verify reads the rollback from the audit trail, in Python: once, on DuckDB (each engine's rollback: test_resilience)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_verify_after_a_rollback_says_rolled_back_with_its_time_and_who_not_a_mismatch(trips):
    path, packet = approved(trips)
    before = snapshot(trips)
    assert trips.backfill("apply", str(path)).returncode == 0
    rolled = trips.backfill("rollback", str(path))
    assert rolled.returncode == 0, rolled.output

    verified = trips.backfill("verify", str(path))

    assert verified.returncode == 0, verified.output
    user = getpass.getuser()
    assert re.match(
        rf"Rolled back at 20\d\d-\d\d-\d\d \d\d:\d\d:\d\d by OS user {re.escape(user)} \(the audit trail\): "
        rf"every partition of \S+ holds its rows from before the apply, as read now\.",
        verified.stdout,
    ), verified.stdout
    assert snapshot(trips) == before
    events = trips.query(
        f"select event, outcome, detail from analytics_backfill.dbt_backfill_audit "
        f"where run_id = '{packet['run_id']}' order by recorded_at"
    )
    assert {e for e, _, _ in events} >= {"planned", "approved", "partition_replaced", "rolled_back", "verified"}
    assert not {"verify_mismatch", "refused"} & {e for e, _, _ in events}
    assert {d for e, _, d in events if e == "rolled_back"} == {f"by OS user {user}"}
    assert events[-1][0] == "verified" and events[-1][1].startswith("rolled back at ")


# -- stages have a lifecycle ------------------------------------------------------------------------------------


# the kept stages and `clean --run` are the same Jinja over the catalog on every engine: once, on DuckDB
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_two_builds_that_differ_keep_their_stages_named_and_clean_run_drops_them_without_a_packet(trips):
    result = trips.plan("fct_trips_variant", ["2026-03-01"], "--vars", "{random_fare: true}")
    assert result.returncode == 3, result.output
    [(run_id,)] = trips.query("select distinct run_id from analytics_backfill.dbt_backfill_audit")
    kept = [name for (name,) in stage_tables(trips, run_id)]
    assert kept == [f"fct_trips_variant__{run_id}__p0_a", f"fct_trips_variant__{run_id}__p0_b"]
    assert re.search(
        rf"Its stages are kept so the two builds can be compared: \S+\.analytics_backfill\.{kept[0]}, "
        rf"\S+\.analytics_backfill\.{kept[1]}; drop them with `dbt-backfill clean --run {run_id}`\.$",
        result.stderr.rstrip(),
    ), result.stderr
    before = snapshot(trips)

    cleaned = trips.backfill("clean", "--run", run_id, "--by", "Rita Ops")

    assert cleaned.returncode == 0, cleaned.output
    assert cleaned.stdout.startswith(f"Run {run_id}: dropped 2 relation(s): "), cleaned.stdout
    assert stage_tables(trips, run_id) == []
    assert snapshot(trips) == before
    assert run_events(trips, run_id)[-1] == ("cleaned", "", "dropped 2 relations (--run)", "")


@pytest.mark.parametrize("trips", TRANSACTIONAL_ADAPTERS, indirect=True)
def killed_plan(project, fault_point, live):
    """A plan of two days killed at `fault_point`: its run id (the one audit run that is neither `live` nor gone)."""
    hold = FaultLock(project) if project.adapter == "postgres" else None
    planning = start(project, ["plan", "fct_trips", "--partitions", "2026-03-01,2026-03-02"], fault_point=fault_point)
    try:
        wait_until(reached(project, fault_point), f"the killed plan's {fault_point}")
        kill(planning)
    finally:
        if hold:
            hold.release()
    [(run_id,)] = project.query(
        f"select distinct run_id from analytics_backfill.dbt_backfill_audit where run_id <> '{live}'"
    )
    return run_id


def test_clean_orphans_drops_only_what_a_killed_plan_built_never_a_live_packets_or_anything_it_did_not_create(trips):
    path, packet = approved(trips)  # a live packet: its stages are needed until its deadline
    live = packet["run_id"]
    if trips.adapter == "duckdb":
        # DuckDB: a plan's builds a are one transaction (DECISIONS row 151): killed in its first build, it left none
        killed_first = killed_plan(trips, "during_build", live)
        assert stage_tables(trips, killed_first) == []
        trips.query(f"delete from analytics_backfill.dbt_backfill_audit where run_id = '{killed_first}'")
    # a plan killed while it built its stages: no packet, no plan_failed, no clean (DuckDB: once its builds a committed)
    killed = killed_plan(trips, "during_build" if trips.adapter == "postgres" else "between_builds", live)
    killed_stages = ["p0_a"] if trips.adapter == "postgres" else ["p0_a", "p1_a"]
    assert stage_tables(trips, killed) == [(f"fct_trips__{killed}__{stage}",) for stage in killed_stages]
    # what dbt-backfill did not create: a stage-like table of a run no audit row records, the killed run's name
    # outside the stage schema, and a forged audit row pointing a run's stages at the published schema
    decoy_run = "20260101_000000_beef"
    trips.query(f"create table analytics_backfill.fct_trips__{decoy_run}__p0_a as select * from analytics.fct_trips")
    trips.query(f"create table analytics.fct_trips__{killed}__p0_b as select * from analytics.fct_trips")
    trips.query(f"create table analytics.fct_trips__{decoy_run}__p0_b as select * from analytics.fct_trips")
    trips.query(
        f"insert into analytics_backfill.dbt_backfill_audit (recorded_at, run_id, model, event, detail) values "
        f"(current_timestamp, '{decoy_run}', 'fct_trips', 'building_stages', "
        f'\'{{"stage_schema": "analytics", "partitions": 1, "at": "2026-01-01T00:00:00+00:00"}}\')'
    )
    # and a second row for the live run, saying its deadline passed long ago: any row that says keep wins
    trips.query(
        f"insert into analytics_backfill.dbt_backfill_audit (recorded_at, run_id, model, event, detail) values "
        f"(current_timestamp, '{live}', 'fct_trips', 'building_stages', '{{\"stage_schema\": "
        f'"analytics_backfill", "partitions": 3, "expires_at": "2000-01-01T00:00:00+00:00", '
        f'"at": "2000-01-01T00:00:00+00:00"}}\')'
    )
    before, trail = snapshot(trips), audit_rows(trips)
    tables = {schema: trips.tables_in(schema) for schema in ("analytics", "analytics_backfill")}

    listed = trips.backfill("clean", "--orphans", "--older-than", "0m")

    assert listed.returncode == 0, listed.output
    as_json = trips.backfill("clean", "--orphans", "--older-than", "0m", "--json").json()["relations"]
    assert [(r["relation"].rsplit(".", 1)[-1], r["action"]) for r in as_json if r["run_id"] == killed] == [
        (f"fct_trips__{killed}__{stage}", "drop") for stage in killed_stages
    ]
    assert {r["run_id"] for r in as_json} == {killed, live, decoy_run}
    assert {r["action"] for r in as_json if r["run_id"] != killed} == {"keep"}
    assert f"its packet can be applied until {packet['expires_at']}" in listed.stdout
    assert "recorded in schema analytics, which is not fct_trips's stage schema (analytics_backfill)" in listed.stdout
    assert listed.stdout.rstrip().endswith(
        f"{len(killed_stages)} relation(s) no packet needs. Drop them with: dbt-backfill clean --orphans --older-than 0m "
        "--yes"
    )
    assert {schema: trips.tables_in(schema) for schema in tables} == tables  # listing drops nothing
    assert audit_rows(trips) == trail

    dropped = trips.backfill("clean", "--orphans", "--older-than", "0m", "--yes")

    assert dropped.returncode == 0, dropped.output
    assert stage_tables(trips, killed) == []
    assert {schema: trips.tables_in(schema) for schema in tables} == {
        "analytics": tables["analytics"],
        "analytics_backfill": [t for t in tables["analytics_backfill"] if killed not in t],
    }
    assert snapshot(trips) == before
    assert run_events(trips, killed) == [
        ("building_stages", "", "", ""),
        ("cleaned", "", f"dropped {len(killed_stages)} relations (--orphans)", ""),
    ]
    # apply takes the earliest deadline the trail records: the forged row can shorten an approval, never extend it
    expired = trips.backfill("apply", str(path))
    refused(expired, f"the approval of run {live} expired at 2000-01-01T00:00:00+00:00")
    assert snapshot(trips) == before
    # too recent by default: a plan may still be building
    again = trips.backfill("clean", "--orphans")
    assert again.returncode == 0 and "Drop them with" not in again.stdout, again.output


# -- no stale approval ------------------------------------------------------------------------------------------


# the deadline is Jinja, the source's state the fingerprint leaves each engine's canonical tests prove: once, on
# DuckDB (DECISIONS row 115)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_an_approval_is_refused_once_the_source_moved_or_its_deadline_passed(trips):
    import datetime as dt

    path, packet = approved(trips)
    default_deadline = dt.datetime.fromisoformat(packet["expires_at"]) - dt.datetime.fromisoformat(packet["created_at"])
    assert dt.timedelta(days=7) <= default_deadline < dt.timedelta(days=7, minutes=1)
    # a packet whose approval holds five seconds (meta.backfill.approval_ttl): its deadline passes while the rest of
    # the test runs (approve never reads the deadline; apply does, first)
    short = trips.dir / "backfills" / "short.yml"
    planned = trips.backfill(
        "plan",
        "fct_trips_variant",
        "--partitions",
        "2026-03-01,2026-03-02",
        "--out",
        str(short),
        "--vars",
        "{variant_approval_ttl: 5s}",
    )
    assert planned.returncode == 0, planned.output
    deadline = yaml.safe_load(short.read_text())["expires_at"]
    assert f"Apply by {deadline} (meta.backfill.approval_ttl after the plan)" in planned.stdout
    assert f"apply by {deadline}" in short.with_suffix(".md").read_text()
    assert trips.approve(short).returncode == 0
    # trip 1006 corrected again after the plan
    trips.query(
        "insert into raw.trip_events values (900, 1006, '2026-03-02', 30.00, 'completed', '2026-03-06 12:00:00+00')"
    )
    before, trail = snapshot(trips), audit_rows(trips)

    drifted = trips.backfill("apply", str(path))

    refused(drifted, "the source changed since the plan (")
    assert re.search(
        r"raw\.trip_events: 19 rows, state \S+ at the plan, 20 rows, state \S+ now\): the approved rows "
        r"may no longer be what a build gives\. Plan again \(or, knowing why, apply with "
        r"--allow-source-drift \"<reason>\"; pure dbt: apply_backfill with allow_source_drift: "
        r"\"<reason>\"\)\. The target is unchanged\.",
        drifted.stderr,
    ), drifted.stderr
    assert drifted.stderr.rstrip().endswith(
        "Next: apply refuses this packet as it stands (source_drift): do what the refusal says; nothing is replaced."
    )
    assert snapshot(trips) == before
    assert audit_rows(trips) == [*trail, ("refused", packet["run_id"], None)]

    allowed = trips.backfill("apply", str(path), "--allow-source-drift", "trip 1006 reviewed: next plan takes it")
    assert allowed.returncode == 0, allowed.output
    [(outcome, detail)] = trips.query(
        f"select outcome, detail from analytics_backfill.dbt_backfill_audit where "
        f"event = 'source_drift_allowed' and run_id = '{packet['run_id']}'"
    )
    assert outcome == "trip 1006 reviewed: next plan takes it"
    assert re.fullmatch(r"\w+\.raw\.trip_events: 19 rows, state \S+ at the plan, 20 rows, state \S+ now", detail), (
        detail
    )

    # the short packet's deadline has passed (waited for, never assumed)
    wait_until(lambda: dt.datetime.now(dt.timezone.utc) > dt.datetime.fromisoformat(deadline), "the deadline")
    variant_before, trail = trips.rows("analytics.fct_trips_variant"), audit_rows(trips)
    expired = trips.backfill("apply", str(short))
    run_id = yaml.safe_load(short.read_text())["run_id"]
    refused(
        expired,
        f"the approval of run {run_id} expired at {deadline} (meta.backfill.approval_ttl after the plan): "
        f"the source may have changed in ways the plan cannot see. Plan again and approve the new "
        f"packet. The target is unchanged.",
    )
    assert trips.rows("analytics.fct_trips_variant") == variant_before
    assert audit_rows(trips) == [*trail, ("refused", run_id, None)]
    # the operation called directly, with the packet's own arguments: the deadline is the one the plan recorded
    from dbt_backfill.packet import Packet

    expired_packet = Packet.read(short)
    direct = trips.dbt(
        "run-operation",
        "dbt_backfill.apply_partitions",
        "--args",
        json.dumps(
            {
                **expired_packet.scope_args(),
                "partitions": expired_packet.partition_args(),
                "approval": expired_packet.approval.to_dict(),
                "packet_sha256": expired_packet.sha256(),
                "source": dict(expired_packet.source),
            }
        ),
    )
    assert direct.returncode != 0 and f"the approval of run {run_id} expired at {deadline}" in direct.output
    assert trips.rows("analytics.fct_trips_variant") == variant_before


@pytest.mark.parametrize("trips", TRANSACTIONAL_ADAPTERS, indirect=True)
def test_a_column_added_to_the_source_after_the_plan_is_source_drift_though_no_row_changed(trips):
    """On PostgreSQL ADD COLUMN writes no row version: the pin reads the columns too."""
    path, _packet = approved(trips)

    def models():  # the source is altered on purpose
        return {k: v for k, v in snapshot(trips).items() if not k.startswith("raw.")}

    before = models()
    trips.query("alter table raw.trip_events add column note varchar(20)")

    drifted = trips.backfill("apply", str(path))

    refused(drifted, "the source changed since the plan (")
    assert re.search(
        r"raw\.trip_events: 19 rows, state \S+, columns \(event_id .+\) at the plan, 19 rows, "
        r"state \S+, columns \(event_id .+, note (character varying|VARCHAR)\(\d+\)\) now\): the approved "
        r"rows may no longer be what a build gives",
        drifted.stderr,
    ), drifted.stderr
    assert models() == before
    trips.query("alter table raw.trip_events drop column note")  # as it was: the approval holds again
    assert trips.backfill("apply", str(path)).returncode == 0


# the operation's own checks against the audit trail, the same Jinja on every engine: once, on DuckDB
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_apply_partitions_called_directly_writes_only_a_packet_a_plan_wrote_as_it_was_planned(trips):
    from dbt_backfill.packet import Packet

    path, _ = approved(trips)
    packet = Packet.read(path)
    args = {
        **packet.scope_args(),
        "partitions": packet.partition_args(),
        "approval": packet.approval.to_dict(),
        "source": dict(packet.source),
    }
    before, trail = snapshot(trips), audit_rows(trips)

    unnamed = trips.dbt("run-operation", "dbt_backfill.apply_partitions", "--args", json.dumps(args))
    assert unnamed.returncode != 0
    assert "no plan wrote a packet with this content (sha256 none…) for run" in unnamed.output, unnamed.output

    partitions = packet.partition_args()
    partitions[1]["fingerprint"] = dict(partitions[0]["fingerprint"])  # another partition's approved rows
    forged = trips.dbt(
        "run-operation",
        "dbt_backfill.apply_partitions",
        "--args",
        json.dumps({**args, "partitions": partitions, "packet_sha256": packet.sha256()}),
    )
    assert forged.returncode != 0
    assert f"the partitions given for run {packet.run_id} are not the ones its plan fingerprinted" in forged.output, (
        forged.output
    )
    assert snapshot(trips) == before and audit_rows(trips) == trail


@pytest.mark.parametrize("trips", TRANSACTIONAL_ADAPTERS, indirect=True)
def test_a_stage_schema_that_is_the_targets_in_another_case_is_refused_before_anything_is_built(trips):
    before = snapshot(trips)
    tables = trips.query("select table_schema, table_name from information_schema.tables order by 1, 2")
    result = trips.backfill(
        "plan", "fct_trips_variant", "--partitions", "2026-03-01", "--vars", "{variant_stage_schema: ANALYTICS}"
    )
    assert result.returncode == 1, result.output
    assert (
        "meta.backfill.stage_schema (ANALYTICS) is the schema of " in result.stderr
        and "stages and backups are kept apart from the published tables. Name another schema. Nothing was built "
        "and the target is unchanged."
        in result.stderr
    ), result.stderr
    assert not trips.packets()
    assert snapshot(trips) == before
    after = trips.query("select table_schema, table_name from information_schema.tables order by 1, 2")
    assert [t for t in after if t not in tables] in ([], [("analytics_backfill", "dbt_backfill_audit")])


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_ctrl_c_while_the_plan_writes_its_packet_waits_and_the_plan_ends_complete(trips):
    hold = FaultLock(trips)
    try:
        planning = start(
            trips, ["plan", "fct_trips", "--partitions", ",".join(SEED_DAYS)], fault_point="recording_planned"
        )
        wait_until(reached(trips, "recording_planned"), "the plan recording its packet")
        os.killpg(planning.pid, signal.SIGINT)
        time.sleep(1)  # the signal is in; the packet's audit row is still held
    finally:
        hold.release()
    stdout, stderr = planning.communicate(timeout=120)

    assert planning.returncode == 0, stdout + stderr
    assert (
        "dbt-backfill: SIGINT received while the plan writes its packet and records it; stopping once that is "
        "done" in stderr
    ), stderr
    [path] = trips.packets()
    from dbt_backfill.packet import Packet

    packet = Packet.read(path)
    assert run_events(trips, packet.run_id) == [("building_stages", "", "", ""), ("planned", "", "SAFE TO RUN", "")]
    assert f"SHA-256 `{packet.sha256()}`" in path.with_suffix(".md").read_text()
    assert len(stage_tables(trips, packet.run_id)) == 6  # kept: the packet needs them


@pytest.mark.parametrize("trips", TRANSACTIONAL_ADAPTERS, indirect=True)
def test_status_reads_whether_the_stages_and_backups_a_next_step_needs_still_exist(trips):
    path, packet = approved(trips)
    assert trips.backfill("clean", "--run", packet["run_id"]).returncode == 0  # the live run's stages, by run id
    before = snapshot(trips)

    status = trips.backfill("status", str(path))

    assert status.returncode == 0, status.output
    assert status.stdout.rstrip().endswith(
        "Next: nothing is replaced yet, and the stage(s) of 2026-03-01, 2026-03-02, 2026-03-03 no longer exist (`clean` dropped "
        "them, or someone else did): apply refuses this packet. Plan again."
    ), status.stdout
    assert trips.backfill("status", str(path), "--json").json()["stages_gone"] == list(SEED_DAYS)
    refused(trips.backfill("apply", str(path)), "the approved stage of partition 2026-03-01 (")
    assert snapshot(trips) == before

    path = trips.dir / "backfills" / "again.yml"
    assert trips.plan("fct_trips", SEED_DAYS, "--out", str(path)).returncode == 0
    assert trips.approve(path).returncode == 0
    assert trips.backfill("apply", str(path)).returncode == 0
    assert trips.backfill("clean", str(path), "--drop-backups").returncode == 0
    status = trips.backfill("status", str(path))
    assert status.returncode == 0, status.output
    assert status.stdout.rstrip().endswith(
        f"Next: every partition is as approved: `dbt-backfill verify {path}` records it; the backups of 2026-03-01, "
        f"2026-03-02 no longer exist, so those cannot be rolled back."
    ), status.stdout


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_a_clean_the_database_refuses_says_what_it_read_is_left(trips):
    """Someone built a view on a stage: PostgreSQL refuses to drop the stage (no CASCADE), the drops roll back."""
    path, packet = approved(trips)
    stage = packet["partitions"][1]["stage_relation"]
    trips.query(f"create view analytics.on_a_stage as select * from {stage['schema']}.{stage['identifier']}")
    before = stage_tables(trips, packet["run_id"])

    result = trips.backfill("clean", str(path))

    assert result.returncode == 1, result.output
    first = result.stderr.splitlines()[0]
    assert first.startswith(
        f"error: the database refused to drop one of the relations of run {packet['run_id']} (its "
        f"error is below: a view built on a stage, say). "
    ), result.stderr
    assert (
        f"Read afterwards, run {packet['run_id']} still has 6 relation(s): " in first
        and f"{stage['identifier']}" in first
    ), result.stderr
    assert stage_tables(trips, packet["run_id"]) == before and len(before) == 6
    assert trips.query("select count(*) from information_schema.views where table_name = 'on_a_stage'") == [(1,)]


# -- one audit location: every writer and every reader find it the same way (issue 19, item 3) ----------------------

VENDOR_AUDIT = "analytics_finance_backfill.dbt_backfill_audit"  # beside analytics_finance.vendor_trips_by_day


def repaired_vendor_day(project):
    """fct_vendor_trips (custom schema `finance`, an alias, an ephemeral staging model upstream): one day planned,
    approved and applied through the CLI. Returns the packet as data."""
    out = project.dir / "backfills" / "vendor.yml"
    planned = project.plan("fct_vendor_trips", ["2026-03-02"], "--out", str(out))
    assert planned.returncode == 0, planned.output
    assert project.approve(out).returncode == 0
    applied = project.backfill("apply", str(out))
    assert applied.returncode == 0, applied.output
    return yaml.safe_load(out.read_text())


# where the audit is follows the model's schema as dbt resolves it (Jinja): once, on DuckDB (DECISIONS row 115)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_history_reads_the_audit_where_a_custom_schema_model_wrote_it(trips):
    packet = repaired_vendor_day(trips)
    assert packet["target"].endswith(".analytics_finance.vendor_trips_by_day")
    written = trips.query(f"select event, partition_value from {VENDOR_AUDIT} order by recorded_at, event")
    assert ("partition_replaced", "2026-03-02") in written
    assert trips.backend.tables_in("analytics_backfill") == []  # the profile schema's: never written

    history = trips.backfill("history", "fct_vendor_trips", "--json")
    assert history.returncode == 0, history.output
    result = history.json()
    assert [a.split(".", 1)[1] for a in result["audits"]] == [VENDOR_AUDIT]  # <database>.<schema>.<table>
    assert sorted((e["event"], e["partition_value"]) for e in result["events"]) == sorted(written)
    shown = trips.backfill("history", "fct_vendor_trips")
    assert shown.returncode == 0, shown.output
    assert shown.stdout.splitlines()[0] == (
        f"Audit trail in {result['audits'][0]} for fct_vendor_trips: {len(written)} event(s)."
    )
    # every model with meta.backfill: the vendor model's audit is among those read
    everything = trips.backfill("history", "--json")
    assert everything.returncode == 0 and everything.json()["audits"] == result["audits"]


# history's filters and refusals are Python and the same Jinja over the audit trail: once, on DuckDB
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_history_filters_by_run_time_and_count_and_refuses_what_it_cannot_read(trips):
    packet = repaired_vendor_day(trips)

    def events(*options):
        shown = trips.backfill("history", "fct_vendor_trips", "--json", *options)
        assert shown.returncode == 0, shown.output
        return shown.json()["events"]

    every = events()
    assert events("--run", packet["run_id"]) == every and {e["run_id"] for e in every} == {packet["run_id"]}
    assert events("--run", "20200101_000000_none") == []
    assert [e["recorded_at"] for e in events("--limit", "2")] == [e["recorded_at"] for e in every][-2:]
    assert events("--since", "2999-01-01") == []
    assert events("--since", "2000-01-01T00:00:00+02:00") == every

    unknown = trips.backfill("history", "fct_nothing")
    assert unknown.returncode == 1, unknown.output
    assert unknown.stderr.strip() == (
        'error: no model(s) named "fct_nothing" in this dbt project. Nothing was changed.'
    ), unknown.stderr
    bad_since = trips.backfill("history", "fct_vendor_trips", "--since", "last tuesday")
    assert bad_since.returncode == 1, bad_since.output
    assert bad_since.stderr.strip() == (
        "error: since must be a date or an ISO date-time (2026-03-01, "
        '2026-03-01T09:30:00+02:00), got "last tuesday". Nothing was read.'
    )
    for impossible in ("2026-02-30", "2026-03-01T25:00"):  # the right shape, no such day or hour: refused as such
        refused = trips.backfill("history", "fct_vendor_trips", "--since", impossible)
        assert refused.returncode == 1 and refused.stderr.strip() == (
            f"error: since must be a date or an ISO date-time (2026-03-01, 2026-03-01T09:30:00+02:00), got "
            f'"{impossible}". Nothing was read.'
        ), refused.output


# where the audit is written and read is the var's, the same Jinja on every engine: once, on DuckDB
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_the_documented_var_moves_the_audit_for_every_writer_and_reader(trips):
    moved = ["--vars", "{dbt_backfill_audit_schema: backfill_audit}"]
    out = trips.dir / "backfills" / "moved_audit.yml"
    planned = trips.plan("fct_trips", ["2026-03-01"], "--out", str(out), *moved)
    assert planned.returncode == 0, planned.output
    assert trips.approve(out).returncode == 0
    applied = trips.backfill("apply", str(out), *moved)
    assert applied.returncode == 0, applied.output
    written = trips.query(
        "select event, partition_value from backfill_audit.dbt_backfill_audit order by recorded_at, event"
    )
    assert ("partition_replaced", "2026-03-01") in written
    assert "dbt_backfill_audit" not in trips.backend.tables_in("analytics_backfill")
    history = trips.backfill("history", "fct_trips", "--json", *moved)
    assert history.returncode == 0, history.output
    assert sorted((e["event"], e["partition_value"]) for e in history.json()["events"]) == sorted(written)
    # without the var the reader looks where the writers did not write, and says so
    elsewhere = trips.backfill("history", "fct_trips")
    assert elsewhere.returncode == 0, elsewhere.output
    assert (
        elsewhere.stdout.startswith("No audit table (") and "analytics_backfill.dbt_backfill_audit" in elsewhere.stdout
    )


# -- the pure-dbt clean (issue 19, item 2): what a rewritten packet row cannot make it do --------------------------


# the pure-dbt clean's checks of the recorded packet, the same Jinja on every engine: once, on DuckDB
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_recorded_packet_rewritten_after_the_apply_cannot_make_clean_drop_a_backup_a_rollback_needs(trips):
    table, audit, stages = (
        "analytics_finance.vendor_trips_by_day",
        "analytics_finance_backfill.dbt_backfill_audit",
        "analytics_finance_backfill",
    )
    before = sorted(trips.query(f"select * from {table}"), key=repr)
    plan = trips.dbt(
        "run-operation",
        "dbt_backfill.plan_backfill",
        "--args",
        "{model: fct_vendor_trips, partitions: 2026-03-01..2026-03-03}",
    )
    assert plan.returncode == 0, plan.output
    run_id, sha256 = plan.result("plan_backfill")["run_id"], plan.result("plan_backfill")["packet_sha256"]
    applied = trips.dbt(
        "run-operation",
        "dbt_backfill.apply_backfill",
        "--args",
        f"{{run_id: {run_id}, approved_sha256: {sha256}, approved_by: Dana Owner}}",
    )
    assert applied.returncode == 0, applied.output
    after = sorted(trips.query(f"select * from {table}"), key=repr)
    relations = trips.tables_in(stages)
    events = trips.query(f"select count(*) from {audit}")

    # a dry run says what the clean itself would say: the backups are needed
    dry = trips.dbt("run-operation", "dbt_backfill.clean_backfill", "--args", f"{{run_id: {run_id}, dry_run: true}}")
    assert dry.returncode == 1 and "can still be rolled back from their backups: nothing was dropped" in dry.output, (
        dry.output
    )

    # whoever can write the audit table rewrites the packet's target_before to the applied rows
    [(honest,)] = trips.query(f"select detail from {audit} where event = 'packet_recorded' and run_id = '{run_id}'")
    forged = json.loads(honest)
    for partition in forged["partitions"]:
        partition["target_before"] = partition["fingerprint"]

    def record(detail: str) -> None:
        escaped = detail.replace("'", "''")
        trips.query(f"update {audit} set detail = '{escaped}' where event = 'packet_recorded' and run_id = '{run_id}'")

    record(json.dumps(forged, sort_keys=True))

    cleaned = trips.dbt("run-operation", "dbt_backfill.clean_backfill", "--args", f"{{run_id: {run_id}}}")
    assert cleaned.returncode == 1, cleaned.output
    # kept, and not called "can still be rolled back": against the forged packet the backups hold neither
    assert (
        "the backups of 2026-03-01 (its backup holds neither the partition's rows now nor the rows the plan found: "
        in cleaned.output
        and "are kept unread or unlike the rows from before: nothing was dropped" in cleaned.output
    ), cleaned.output
    rolled = trips.dbt("run-operation", "dbt_backfill.rollback_backfill", "--args", f"{{run_id: {run_id}}}")
    assert rolled.returncode == 1, rolled.output
    assert "partition 2026-03-01 holds what the packet says it held before the apply (sha256 " in rolled.output
    assert "the packet or the backup changed after the apply, so neither can say what to restore" in rolled.output
    assert trips.tables_in(stages) == relations and sorted(trips.query(f"select * from {table}"), key=repr) == after
    assert trips.query(f"select count(*) from {audit}") == events  # a refusal inside a transaction records nothing

    # the honest row back: the rollback restores, and the clean then drops everything, backups included
    record(honest)
    rolled = trips.dbt("run-operation", "dbt_backfill.rollback_backfill", "--args", f"{{run_id: {run_id}}}")
    assert rolled.returncode == 0, rolled.output
    assert sorted(trips.query(f"select * from {table}"), key=repr) == before
    dry = trips.dbt("run-operation", "dbt_backfill.clean_backfill", "--args", f"{{run_id: {run_id}, dry_run: true}}")
    assert dry.returncode == 0 and f"Run {run_id}: would drop 8 relation(s): " in dry.stdout, dry.output
    assert trips.tables_in(stages) == relations
    cleaned = trips.dbt("run-operation", "dbt_backfill.clean_backfill", "--args", f"{{run_id: {run_id}}}")
    assert cleaned.returncode == 0 and f"Cleaned run {run_id}: dropped 8 relation(s): " in cleaned.stdout, (
        cleaned.output
    )
    assert [name for name in trips.tables_in(stages) if run_id in name] == []

    # a CLI run id typed unquoted is a YAML integer: refused as such, not "dropped 0"
    number = trips.dbt("run-operation", "dbt_backfill.clean_backfill", "--args", "{run_id: 20261204_085334_1234}")
    assert number.returncode == 1, number.output
    assert (
        "run_id 202612040853341234 was read by YAML as the integer 202612040853341234, not as the run id it was "
        "typed as: YAML reads an id of digits and underscores as an integer. Quote it: {run_id: '<the run id>'}. "
        "Nothing was dropped."
    ) in number.output
    unknown = trips.dbt("run-operation", "dbt_backfill.clean_backfill", "--args", "{run_id: '20261204_085334_1234'}")
    assert unknown.returncode == 0, unknown.output
    assert (
        "Run 20261204_085334_1234: the audit trail records no relation of this run, or none is left. Nothing was "
        "dropped."
    ) in unknown.stdout
