"""`stale` holds the windows `plan` holds (issue 54, item 2): a key that a changed row moved to another day is followed
to every partition of the target that still holds it, and the partition it left is compared too, so the scan never
names a repair that `plan` refuses (keys in two partitions) and never says "Nothing is stale" while the table holds a
trip on two days. Each scan's `Next:` command is run as printed (with the window its `First:` line declares) and
plans; the scans leave the table as it was.

The source declares event_time and changed_at (test_stale.py's TRACKED: windows of one day each side); --since
vouches for every partition as of a time after the seed's corrections, as a scheduled scan's vouches would: only
the change each test makes reaches anything. No audit table: nothing a scan finds is remembered by the next, so
each finding below is the scan's own."""

from __future__ import annotations

import json
import re
import shlex

import yaml
from backends import ENGINE_INDEPENDENT
from conftest import trips_on
from dbt_backfill.formatter import stale_text
from dbt_backfill.workflow.stale import StaleScan

trips = trips_on(ENGINE_INDEPENDENT)

MODEL = "fct_trips_variant"
TRACKED = "{trip_events_event_time: trip_date, trip_events_changed_at: updated_at, variant_input_window: {before: 1, after: 1}}"
SINCE = "2026-04-01"  # after the seed's corrections (2026-03-10, 2026-03-20), before every change a test makes


def scan(project):
    """`stale --json`, and the text `stale` prints for that result (the CLI's own formatter): (status, text, document)."""
    result = project.backfill("stale", MODEL, "--vars", TRACKED, "--since", SINCE, "--json")
    assert result.stdout.strip(), result.output
    document = json.loads(result.stdout.strip().splitlines()[-1])
    return result.returncode, stale_text(StaleScan.from_result(document)), document


def plans_as_printed(project, text: str, window: str, name: str) -> None:
    """The printed `Next:` command, run with the window its `First:` line declares, plans (exit 0)."""
    command = re.search(r"^Next: (dbt-backfill plan .*)$", text, re.M).group(1)
    declared = TRACKED.replace("{before: 1, after: 1}", window)
    assert f"Declare meta.backfill.input_window: {window} on {MODEL}" in text, text
    planned = project.backfill(
        *shlex.split(command)[1:], "--vars", declared, "--out", str(project.dir / "backfills" / f"{name}.yml")
    )
    assert planned.returncode == 0, planned.output


def test_a_key_moved_to_a_later_day_is_followed_to_the_day_it_left(trips):
    """Trip 902 gets a new version dated 2026-03-03 (three days after 2026-02-28, beyond the window): only the
    windows of 2026-03-02..2026-03-04 saw the change, yet 2026-02-28 still holds the trip, which a full build drops
    there. The scan compares 2026-02-28 too, names it, and its repair plans."""
    before = trips.rows(f"analytics.{MODEL}")
    trips.query("insert into raw.trip_events values (970, 902, '2026-03-03', 26.00, 'moved', current_timestamp)")
    status, text, found = scan(trips)
    assert status == 4, text
    # 2026-03-02: the seed's refund of trip 1007, in a window the change reached
    assert [(s["value"], s["kind"]) for s in found["stale"]] == [
        ("2026-02-28", "differs"),
        ("2026-03-02", "differs"),
        ("2026-03-03", "differs"),
    ]
    why = {s["value"]: " ".join(s["why"]) for s in found["stale"]}
    assert why["2026-02-28"] == "holds key(s) 902 that a changed row moved to 2026-03-03", why
    old_day = found["stale"][0]
    assert (old_day["removed"], old_day["target"]["row_count"], old_day["model"]["row_count"]) == (1, 2, 1)
    assert found["compared"] == 4  # the three days whose windows saw the change, and the day the key left
    # no audit table, so no proof of the windows it followed the change through: said, with what that means
    assert (
        "Windows: no proof over the whole history backs the input windows it followed changes through (1 day(s) "
        "before each partition and 1 after, from meta.backfill.input_window) for this code: no proof is recorded "
        "for this model. A changed input row was followed only into the partitions those windows reach; were they "
        "too narrow, a partition it reaches beyond them would not have been compared. The next plan of "
        "fct_trips_variant proves them before it relies on them." in text
    ), text
    assert "Next: dbt-backfill plan fct_trips_variant --partitions 2026-02-28,2026-03-02..2026-03-03" in text
    assert "First: 1 key(s) moved between the stale partitions (902: 2026-02-28 -> 2026-03-03)" in text
    plans_as_printed(trips, text, "{before: 1, after: 3}", "a")
    assert trips.rows(f"analytics.{MODEL}") == before


def test_a_key_moved_past_the_last_partition_is_stale_before_the_live_job_publishes_that_day(trips):
    """Trip 1004 gets a new version dated 2026-03-05, a day after the last published one: the day is a candidate the
    target lacks (the model builds rows there), found missing, and the day the trip left found stale. The repair
    publishes the live job's next day, so it allows the watermark move, and says so."""
    trips.query("insert into raw.trip_events values (971, 1004, '2026-03-05', 36.00, 'moved', current_timestamp)")
    before = trips.rows(f"analytics.{MODEL}")
    status, text, found = scan(trips)
    assert status == 4, text
    assert [(s["value"], s["kind"]) for s in found["stale"]] == [("2026-03-01", "differs"), ("2026-03-05", "missing")]
    why = {s["value"]: " ".join(s["why"]) for s in found["stale"]}
    assert why["2026-03-01"] == "holds key(s) 1004 that a changed row moved to 2026-03-05", why
    assert re.fullmatch(
        r"\S*raw\.trip_events changed on 2026-03-05, after the target's last partition \(2026-03-04\)",
        why["2026-03-05"],
    ), why
    assert (
        "Next: dbt-backfill plan fct_trips_variant --partitions 2026-03-01,2026-03-05 --allow-watermark-move "
        "'a key moved to 2026-03-05, after the last published day (dbt-backfill stale)'"
    ) in text, text
    assert "Note: 2026-03-05 lie(s) after the target's last partition, where the live job has not published" in text
    assert "First: 1 key(s) moved between the stale partitions (1004: 2026-03-01 -> 2026-03-05)" in text
    plans_as_printed(trips, text, "{before: 1, after: 4}", "before_the_live_job")
    assert trips.rows(f"analytics.{MODEL}") == before


def test_a_key_moved_past_the_last_partition_is_stale_after_the_live_job_publishes_that_day(trips):
    """The same move, and the live job (`dbt run`, incremental: the days after the newest published one) appends
    2026-03-05 before any scan: the table holds trip 1004 on both days. The scan follows the key from the day the
    live job wrote to the day the trip left, and its repair names both (plan refuses a key leaving for a partition
    it does not name)."""
    trips.query("insert into raw.trip_events values (971, 1004, '2026-03-05', 36.00, 'moved', current_timestamp)")
    run = trips.dbt("run", "-s", MODEL, "--vars", TRACKED)
    assert run.returncode == 0, run.output
    held = trips.query(f"select cast(trip_date as varchar) from analytics.{MODEL} where trip_id = 1004 order by 1")
    assert held == [("2026-03-01",), ("2026-03-05",)]
    before = trips.rows(f"analytics.{MODEL}")
    status, text, found = scan(trips)
    assert status == 4, text
    assert [(s["value"], s["kind"]) for s in found["stale"]] == [("2026-03-01", "differs")]
    why = {s["value"]: " ".join(s["why"]) for s in found["stale"]}
    assert why["2026-03-01"] == "holds key(s) 1004 that a changed row moved to 2026-03-05", why
    again = re.escape(" --vars " + shlex.quote(json.dumps(yaml.safe_load(TRACKED))))  # the scan's vars, repeated
    assert re.search(
        rf"^Next: dbt-backfill plan fct_trips_variant --partitions 2026-03-01,2026-03-05{again}$", text, re.M
    ), text
    assert "First: 1 key(s) moved between the partitions to repair (1004: 2026-03-01 -> 2026-03-05)" in text
    plans_as_printed(trips, text, "{before: 1, after: 4}", "after_the_live_job")
    assert trips.rows(f"analytics.{MODEL}") == before
