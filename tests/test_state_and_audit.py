"""What the tool says about the target after things go wrong, on PostgreSQL and DuckDB through real dbt: a packet
runs only where it was planned, and nothing it says about the target's state is inferred."""
from __future__ import annotations

import getpass
import re
import signal
import socket
import time
from decimal import Decimal

import pytest
import yaml

from backends import POSTGRES_ONLY, TRANSACTIONAL_ADAPTERS
from conftest import trips_on
from dbt_backfill.demo import BACKFILL_DAYS as SEED_DAYS
from test_resilience import FaultLock, reached, start, wait_until
from test_tampering import PUBLISHED, approved, refused, snapshot

trips = trips_on(TRANSACTIONAL_ADAPTERS)


def audit_rows(project):
    return project.query("select event, run_id, partition_value from analytics_backfill.dbt_backfill_audit "
                         "order by recorded_at, event")


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
    add_output(trips, "elsewhere", {"type": "duckdb", "path": "elsewhere.duckdb", "schema": "analytics",
                                    "threads": 1})
    before, trail = snapshot(trips), audit_rows(trips)

    for command in ["apply", "verify", "rollback", "clean", "status"]:
        result = trips.backfill(command, str(path), "--target", "elsewhere")

        refused(result, f"the packet names {packet['target_relation']['database']}.analytics.fct_trips on "
                        f"{trips.adapter} as the target of fct_trips (planned with the profile's default target), but "
                        f"this project with target `elsewhere` resolves fct_trips to elsewhere.analytics.fct_trips on "
                        f"duckdb: the packet is for another target or database, or was edited. A packet runs only "
                        f"where it was planned: nothing was read or written, not even an audit row. The target is "
                        f"unchanged.")
        assert not (trips.dir / "elsewhere.duckdb").exists()  # never even connected to
        assert snapshot(trips) == before
        assert audit_rows(trips) == trail
    assert set(PUBLISHED) <= set(before)


# -- the state, read after a failure and on demand ---------------------------------------------------------------

def fares_by_day(project, days):
    return dict(project.query(f"select cast(trip_date as varchar(10)), sum(fare) from analytics.fct_trips "
                              f"where trip_date in ({', '.join(repr(d) for d in days)}) group by 1"))


def independent_states(project, packet):
    """Each partition's state from the table's own totals, read with the test's SQL, not the tool's."""
    days = [p["value"] for p in packet["partitions"]]
    now = fares_by_day(project, days)
    states = {}
    for p in packet["partitions"]:
        approved, before = Decimal(p["fingerprint"]["totals"]["fare"]), Decimal(p["target_before"]["totals"]["fare"])
        states[p["value"]] = ("as approved" if now.get(p["value"]) == approved else
                              "as before" if now.get(p["value"]) == before else "neither")
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
        trips.query(f"select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'dbt' "
                    f"and datname = current_database() and pid <> pg_backend_pid()")
    finally:
        hold.release()
    stdout, stderr = applying.communicate()

    assert applying.returncode == 1, stdout + stderr
    # psycopg2 sees the terminated backend as a connection the server closed
    assert stderr.startswith("error: apply stopped: the connection to the database was lost (its last step begun: "
                             "replacing partition 2026-03-01)."), stderr
    assert "rolled back, so it is unchanged" not in stderr
    # 2026-03-03 is not changed by the repair: its rows before are the approved rows
    assert printed_states(stderr) == independent_states(trips, packet) == {
        "2026-03-01": "as approved", "2026-03-02": "as before", "2026-03-03": "as approved"}
    assert "2026-03-03  as approved (= as before)" in stderr
    assert (f"Next: resume with `dbt-backfill apply {path}` (it replaces only the partitions still as before), or undo "
            f"with `dbt-backfill rollback {path}` (it restores those as approved).") in stderr

    status = trips.backfill("status", str(path), "--json")
    assert status.returncode == 0, status.output
    assert {p["value"]: p["state"] for p in status.json()["partitions"]} == printed_states(stderr)
    rerun = trips.backfill("apply", str(path), "--json")
    assert rerun.returncode == 0, rerun.output
    assert rerun.json()["skipped"] == ["2026-03-01", "2026-03-03"]
    assert independent_states(trips, packet) == dict.fromkeys(SEED_DAYS, "as approved")
    # one approval, recorded once however many applies it took, stamped with its own time
    [(approved_by, detail)] = trips.query(f"select approved_by, detail from analytics_backfill.dbt_backfill_audit "
                                          f"where event = 'approved' and run_id = '{packet['run_id']}'")
    approval = yaml.safe_load(path.read_text())["approval"]
    assert (approved_by, detail) == (approval["approved_by"], f"approved at {approval['approved_at']}")


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
    assert printed_states(stderr) == expected == {
        "2026-03-01": "as approved", "2026-03-02": "as before", "2026-03-03": "as approved"}
    rerun = trips.backfill("apply", str(path))
    assert rerun.returncode == 0, rerun.output
    assert independent_states(trips, packet) == dict.fromkeys(SEED_DAYS, "as approved")


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_status_of_an_unreachable_database_says_so_and_guesses_nothing(trips):
    path, packet = approved(trips)
    profiles = yaml.safe_load((trips.dir / "profiles.yml").read_text())
    output = profiles["dbt_backfill_integration_tests"]["outputs"]["postgres"]
    with socket.socket() as probe:  # a port on this machine where nothing listens
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    add_output(trips, "down", {**output, "port": closed_port, "connect_timeout": 2})

    result = trips.backfill("status", str(path), "--target", "down")

    assert result.returncode == 1, result.output
    assert result.stderr.strip() == (f"error: state unknown: the database is unreachable (no server answered); run "
                                     f"`dbt-backfill status {path}` when it is back.")


# -- a true audit trail ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("trips", TRANSACTIONAL_ADAPTERS, indirect=True)
def test_a_plan_that_wrote_no_packet_is_plan_failed_with_its_reason_never_planned(trips):
    before = snapshot(trips)
    result = trips.plan("fct_trips", ["2025-12-01"])
    assert result.returncode == 1, result.output
    assert "hold no rows in the target and none in the model's output" in result.stderr
    assert not trips.packets()
    [(event, outcome, detail)] = trips.query("select event, outcome, detail from analytics_backfill.dbt_backfill_audit")
    assert (event, outcome) == ("plan_failed", "error")
    assert "partition(s) 2025-12-01 hold no rows" in detail

    planned = trips.plan("fct_trips", SEED_DAYS)
    assert planned.returncode == 0, planned.output
    [path] = trips.packets()
    from dbt_backfill.packet import Packet
    rows = trips.query("select event, outcome, packet_sha256 from analytics_backfill.dbt_backfill_audit "
                       "where event = 'planned'")
    assert rows == [("planned", "SAFE TO RUN", Packet.read(path).sha256())]  # once, with what was written
    assert snapshot(trips) == before


@pytest.mark.parametrize("trips", TRANSACTIONAL_ADAPTERS, indirect=True)
def test_verify_after_a_rollback_says_rolled_back_with_its_time_and_who_not_a_mismatch(trips):
    path, packet = approved(trips)
    before = snapshot(trips)
    assert trips.backfill("apply", str(path)).returncode == 0
    rolled = trips.backfill("rollback", str(path))
    assert rolled.returncode == 0, rolled.output

    verified = trips.backfill("verify", str(path))

    assert verified.returncode == 0, verified.output
    user = getpass.getuser()
    assert re.match(rf"Rolled back at 20\d\d-\d\d-\d\d \d\d:\d\d:\d\d by OS user {re.escape(user)} \(the audit trail\): "
                    rf"every partition of \S+ holds its rows from before the apply, as read now\.", verified.stdout), \
        verified.stdout
    assert snapshot(trips) == before
    events = trips.query(f"select event, outcome, detail from analytics_backfill.dbt_backfill_audit "
                         f"where run_id = '{packet['run_id']}' order by recorded_at")
    assert {e for e, _, _ in events} >= {"planned", "approved", "partition_replaced", "rolled_back", "verified"}
    assert not {"verify_mismatch", "refused"} & {e for e, _, _ in events}
    assert {d for e, _, d in events if e == "rolled_back"} == {f"run as OS user {user}"}
    assert events[-1][0] == "verified" and events[-1][1].startswith("rolled back at ")
