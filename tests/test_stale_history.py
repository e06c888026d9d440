"""A stale scan across scans, writes and time (issue 42, what an attack on it found): each scan is checked against
the brute-force build of the model (test_stale.differing_days), after a history that once made it miss a stale day:
a scan of other partitions between a deletion and the next full scan, --since after such a scan or in the future,
a run of other code writing a partition, a deleted row that had no change time, a change column in local time."""

from __future__ import annotations

import pytest
from backends import ENGINE_INDEPENDENT, POSTGRES_ONLY
from conftest import trips_on
from test_stale import MODEL, TRACKED, differing_days, stale

trips = trips_on(ENGINE_INDEPENDENT, audit_table=True)  # where the scans record what they vouch for
SEED_STALE = ["2026-03-01", "2026-03-02"]


def stale_days(project, *args):
    result, found = stale(project, *args)
    assert result.returncode in (0, 4), result.output
    return [s["value"] for s in found["stale"]], found


def test_a_scan_of_other_partitions_leaves_a_deletion_it_did_not_settle_for_the_next_scan(trips):
    """A row of 2026-03-03 deleted, then a scan of 2026-02-28 alone (whose window does not read 03-03), then a full
    scan: the count the deletion moved is kept as it was for the partitions the narrow scan did not look at."""
    assert stale_days(trips, "--vars", TRACKED)[0] == SEED_STALE == differing_days(trips)
    trips.query("delete from raw.trip_events where event_id = 11")  # trip 1011 of 2026-03-03
    trips.query(  # and a version committed late: its updated_at is before the first scan's read
        "insert into raw.trip_events values (970, 1102, '2026-03-04', 45.00, 'late', timestamp '2026-03-05 10:00:00')"
    )
    assert stale_days(trips, "--vars", TRACKED, "--partitions", "2026-02-28")[0] == []
    days, found = stale_days(trips, "--vars", TRACKED)
    assert days == differing_days(trips) == [*SEED_STALE, "2026-03-03", "2026-03-04"], found["compared"]


def test_since_never_vouches_for_what_a_scan_found_stale_nor_for_a_time_to_come_nor_beyond_its_own_scan(trips):
    assert stale_days(trips, "--vars", TRACKED)[0] == SEED_STALE
    assert stale_days(trips, "--vars", TRACKED, "--partitions", "2026-03-04")[0] == []
    # the two days found stale two scans ago are not the user's to vouch for
    days, found = stale_days(trips, "--vars", TRACKED, "--since", "2026-04-01")
    assert days == differing_days(trips) == SEED_STALE, found["compared"]

    future, _ = stale(trips, "--vars", TRACKED, "--since", "2099-01-01")
    assert future.returncode == 1
    assert "error: --since 2099-01-01 is after this scan's read (" in future.stderr, future.stderr
    assert "nothing can vouch for partitions at a time still to come. Nothing was read." in future.stderr


def test_since_holds_for_its_own_scan_only(trips):
    """--since vouches for 2026-03-01 and 03-02 in this scan (corrections arrived before it); the next scan without it
    compares them, since no scan ever did."""
    days, found = stale_days(trips, "--vars", TRACKED, "--since", "2026-04-01")
    assert (days, found["compared"]) == ([], 0)
    days, found = stale_days(trips, "--vars", TRACKED)
    assert days == differing_days(trips) == SEED_STALE and found["compared"] == 5


def test_a_partition_a_run_wrote_since_the_last_scan_is_compared_whatever_code_built_it(trips):
    """A scan, then 2026-03-03 planned and applied by other code (statuses upper-cased): the run's write voids the
    scan's vouch, so the next scan compares 03-03 and finds it differs from what the model builds now."""
    assert stale_days(trips, "--vars", TRACKED)[0] == SEED_STALE
    other = TRACKED[:-1] + ', status_expr: "upper(status)"}'
    out = trips.dir / "backfills" / "other.yml"
    planned = trips.backfill("plan", MODEL, "--partitions", "2026-03-03", "--out", str(out), "--vars", other)
    assert planned.returncode == 0, planned.output
    assert trips.approve(out).returncode == 0
    applied = trips.backfill("apply", str(out), "--vars", other)
    assert applied.returncode == 0, applied.output
    days, found = stale_days(trips, "--vars", TRACKED)
    assert days == differing_days(trips) == [*SEED_STALE, "2026-03-03"]
    assert found["compared"] == 3  # the two found stale before, and the one written since


def test_deleting_a_row_with_no_change_time_or_a_later_one_is_seen(trips):
    """Rows whose change time is NULL or after the scan's read are candidates by their time at every scan; their day
    is a candidate at the next scan too, so deleting one (which moves no count of settled rows) is seen."""
    trips.query("alter table raw.trip_events alter column updated_at drop not null")
    trips.query(
        "insert into raw.trip_events values (990, 1990, '2026-02-28', 10.00, 'completed', null), "
        "(991, 1991, '2026-02-28', 11.00, 'completed', timestamp '2099-01-01 00:00:00')"
    )
    trips.query(
        f"insert into analytics.{MODEL} values (1990, '2026-02-28', 10.00, 'completed', null), "
        "(1991, '2026-02-28', 11.00, 'completed', timestamp '2099-01-01 00:00:00')"
    )
    assert stale_days(trips, "--vars", TRACKED)[0] == SEED_STALE == differing_days(trips)
    trips.query("delete from raw.trip_events where event_id in (990, 991)")
    days, found = stale_days(trips, "--vars", TRACKED)
    assert days == differing_days(trips) == ["2026-02-28", *SEED_STALE], found["compared"]


LOCAL = "{trip_events_event_time: trip_date, trip_events_changed_at: loaded_at, variant_input_window: {before: 1, after: 1}}"


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_a_change_column_without_time_zone_is_read_in_the_zone_its_source_declares(trips):
    """loaded_at is a `timestamp` a loader writes in the database's zone (America/New_York), which the source declares
    (meta.backfill.changed_at_time_zone; a column without a zone is otherwise read as UTC, never in the session's zone:
    DECISIONS row 126): an update at 17:40 New York time is 22:40 UTC, after the last scan's read, though its wall
    time is before it."""
    sources = trips.dir.parent / "models_example" / "models" / "sources.yml"
    declared = "changed_at: \"{{ var('trip_events_changed_at', none) }}\""
    assert declared in sources.read_text()
    sources.write_text(
        sources.read_text().replace(declared, declared + "\n              changed_at_time_zone: America/New_York")
    )
    trips.query(f"alter database {trips.backend.database} set timezone = 'America/New_York'")
    trips.query("alter table raw.trip_events add column loaded_at timestamp")
    trips.query("update raw.trip_events set loaded_at = updated_at at time zone 'America/New_York'")
    assert stale_days(trips, "--vars", LOCAL)[0] == SEED_STALE
    trips.query(
        "update raw.trip_events set fare = 99.00, loaded_at = now() at time zone 'America/New_York' where event_id = 12"
    )
    days, found = stale_days(trips, "--vars", LOCAL)
    assert days == differing_days(trips) == [*SEED_STALE, "2026-03-03"], found["compared"]
