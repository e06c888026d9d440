"""Finding what needs a repair (issue 42): `dbt-backfill stale` and pure dbt's find_stale name exactly the published
partitions that differ from what the model builds now, checked against a brute-force build of the model in the
test (the newest version of each trip, computed here from the source's rows, never by our macros); with a change
column they compare only what a change since the last scan can have reached; `plan --stale` plans exactly those,
and after the repair nothing is stale and the table equals the full build."""

from __future__ import annotations

import json
import re
import shlex
from collections import defaultdict
from pathlib import Path

import pytest
import yaml
from backends import ENGINE_INDEPENDENT, POSTGRES_ONLY, TRANSACTIONAL_ADAPTERS
from conftest import trips_on

trips = trips_on(TRANSACTIONAL_ADAPTERS, audit_table=True)  # where the scans record what they vouch for

MODEL = "fct_trips_variant"
# the source windowed by the trip's own day, one day each side (a trip corrected onto the next day is still read by
# its old day's build), and updated_at as the change column: a new version arrives with the time it arrived
TRACKED = "{trip_events_event_time: trip_date, trip_events_changed_at: updated_at, variant_input_window: {before: 1, after: 1}}"
# the same vars as a command the scan prints repeats them (JSON, which YAML reads): a plan without them would build
# the model with other input windows than the scan compared, and a project whose models need a var would not parse
AGAIN = (
    ' --vars \'{"trip_events_event_time": "trip_date", "trip_events_changed_at": "updated_at", '
    '"variant_input_window": {"before": 1, "after": 1}}\''
)
DAYS = ["2026-02-28", "2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04"]


def full_build(project) -> dict[str, set[tuple]]:
    """The model's rows per day, by brute force: the newest version of every trip (updated_at, then event_id)."""
    events = project.query("select event_id, trip_id, trip_date, fare, status, updated_at from raw.trip_events")
    newest: dict[int, tuple] = {}
    for event in events:
        kept = newest.get(event[1])
        if kept is None or (event[5], event[0]) > (kept[5], kept[0]):
            newest[event[1]] = event
    by_day: dict[str, set[tuple]] = defaultdict(set)
    for _, trip_id, day, fare, status, updated_at in newest.values():
        by_day[str(day)].add((trip_id, fare, status, updated_at))
    return by_day


def published(project) -> dict[str, set[tuple]]:
    by_day: dict[str, set[tuple]] = defaultdict(set)
    for trip_id, day, fare, status, updated_at in project.query(
        f"select trip_id, trip_date, fare, status, updated_at from analytics.{MODEL}"
    ):
        by_day[str(day)].add((trip_id, fare, status, updated_at))
    return by_day


def differing_days(project) -> list[str]:
    built, held = full_build(project), published(project)
    return sorted(day for day in set(built) | set(held) if built.get(day, set()) != held.get(day, set()))


def stale(project, *args):
    result = project.backfill("stale", MODEL, "--json", *args)
    return result, (json.loads(result.stdout.strip().splitlines()[-1]) if result.stdout.strip() else None)


def test_stale_names_exactly_the_partitions_a_full_build_changes_and_compares_only_what_changes_reach(trips):
    assert differing_days(trips) == ["2026-03-01", "2026-03-02"]  # the seed scenario's two late corrections

    # the first scan: nothing vouches for any partition yet, so every one is compared outright
    first, found = stale(trips, "--vars", TRACKED)
    assert first.returncode == 4, first.output
    assert [s["value"] for s in found["stale"]] == differing_days(trips)
    assert (found["scope"]["count"], found["compared"]) == (5, 5)
    assert found["scope"]["how"] == "every day from the first partition the target holds to its last"
    assert found["repair"]["cli"] == f"dbt-backfill plan {MODEL} --partitions 2026-03-01..2026-03-02{AGAIN}"
    assert any("nothing vouching for them" in note for note in found["notes"]), found["notes"]
    march_2 = next(s for s in found["stale"] if s["value"] == "2026-03-02")
    assert (march_2["added"], march_2["removed"], march_2["changed"]) == (0, 0, 1)  # trip 1007 refunded
    assert march_2["target"]["row_count"] == march_2["model"]["row_count"] == 4

    # corrections arrive now: trip 1004 moves to the next day, a fare on a day read with its neighbours, a deletion
    trips.query(
        "insert into raw.trip_events values (960, 1004, '2026-03-02', 35.00, 'moved', current_timestamp), "
        "(961, 1101, '2026-03-04', 18.00, 'corrected', current_timestamp)"
    )
    trips.query("delete from raw.trip_events where event_id = 11")
    expected = differing_days(trips)
    assert expected == ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04"]

    second, found = stale(trips, "--vars", TRACKED)
    assert second.returncode == 4, second.output
    assert [s["value"] for s in found["stale"]] == expected
    # 2026-02-28 is vouched for by the first scan and no change reaches its window: not compared
    assert found["compared"] == 4
    why = {s["value"]: " ".join(s["why"]) for s in found["stale"]}
    scanned = r"since the stale scan of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC"
    # 2026-03-03 was deleted from, which leaves no change time: its count of earlier rows moved
    assert re.fullmatch(r"\S*raw\.trip_events changed on 2026-03-02\.\.2026-03-04 " + scanned, why["2026-03-03"]), why
    assert re.fullmatch(r"\S*raw\.trip_events changed on 2026-03-03\.\.2026-03-04 " + scanned, why["2026-03-04"]), why
    assert re.fullmatch(  # stale at the last scan
        r"the stale scan of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC found it stale; nothing vouched for it since",
        why["2026-03-01"],
    ), why
    assert found["repair"]["cli"] == f"dbt-backfill plan {MODEL} --partitions 2026-03-01..2026-03-04{AGAIN}"
    text = trips.backfill("stale", MODEL, "--vars", TRACKED)
    assert text.returncode == 4
    assert f"Next: dbt-backfill plan fct_trips_variant --partitions 2026-03-01..2026-03-04{AGAIN}\n" in text.stdout, (
        text.stdout
    )

    # pure dbt finds the same and fails the operation, naming the plan that repairs them
    operation = trips.dbt(
        "run-operation", "dbt_backfill.find_stale", "--args", json.dumps({"model": MODEL}), "--vars", TRACKED
    )
    assert operation.returncode == 1, operation.output
    assert [s["value"] for s in operation.result("stale")["stale"]] == expected
    assert re.search(r"  2026-03-03  target 4 row\(s\) sha256 [0-9a-f]{12}…  model 3 row\(s\)", operation.stdout), (
        operation.stdout
    )
    assert (
        "Repair them: dbt run-operation dbt_backfill.plan_backfill --args '{model: fct_trips_variant, partitions: "
        f'"2026-03-01..2026-03-04"}}\'{AGAIN}\n' in operation.output
    )

    # the plan starts from the scan, says so, and after the repair nothing is stale and the table is the full build
    out = trips.dir / "backfills" / "stale.yml"
    planned = trips.backfill("plan", MODEL, "--stale", "--out", str(out), "--vars", TRACKED)
    assert planned.returncode == 0, planned.output
    assert "Partitions: 4 value(s), 2026-03-01 … 2026-03-04." in planned.stdout, planned.output
    assert "- **How they were chosen:** the stale scan of " in out.with_suffix(".md").read_text()
    assert trips.approve(out).returncode == 0
    applied = trips.backfill("apply", str(out), "--vars", TRACKED)
    assert applied.returncode == 0, applied.output
    assert differing_days(trips) == []

    after, found = stale(trips, "--vars", TRACKED)
    assert after.returncode == 0, after.output
    assert found["stale"] == [] and found["repair"] is None
    # the days the run wrote are compared (a write voids a scan's vouch); the rest are vouched for by the last scan
    assert found["compared"] == 4


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_without_a_change_column_every_partition_is_compared_and_the_scan_says_what_to_declare(trips):
    result, found = stale(trips)
    assert result.returncode == 4, result.output
    assert [s["value"] for s in found["stale"]] == differing_days(trips)
    assert found["compared"] == found["scope"]["count"] == 5
    assert any("declare(s) no changed_at" in note for note in found["notes"]), found["notes"]
    again, found = stale(trips)
    assert (
        again.returncode == 4 and found["compared"] == 5
    )  # an input without a change column may have changed anywhere


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_gap_inside_the_range_is_found_and_since_vouches_only_for_what_no_scan_found_stale(trips):
    # a day the live job never published, inside the published range: missing from the target, built by the model
    trips.query(f"delete from analytics.{MODEL} where trip_date = '2026-03-03'")
    named, found = stale(trips, "--vars", TRACKED, "--partitions", "2026-03-03")
    assert named.returncode == 4, named.output
    [gap] = found["stale"]
    assert (gap["value"], gap["kind"], gap["target"]["row_count"], gap["model"]["row_count"]) == (
        "2026-03-03",
        "missing",
        0,
        4,
    )

    # --since: every partition is taken as right then (the seed's corrections arrived before it, so 2026-03-01 and
    # 2026-03-02 are not compared), but not the one the last scan found stale since
    since, found = stale(trips, "--vars", TRACKED, "--since", "2026-04-01")
    assert since.returncode == 4, since.output
    assert [s["value"] for s in found["stale"]] == ["2026-03-03"] and found["compared"] == 1
    assert found["scope"] == {
        "how": "every day from the first partition the target holds to its last",
        "count": 5,
        "ranges": "2026-02-28..2026-03-04",
    }

    bad, _ = stale(trips, "--since", "last tuesday")
    assert bad.returncode == 1
    assert (
        '--since must be a date or an ISO date-time (2026-03-01, 2026-03-01T09:30:00+02:00), got "last tuesday"'
        in bad.stderr
    )


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_the_repair_a_scan_names_runs_as_printed_with_the_vars_the_scan_ran_with(trips):
    """A new user's run (2026-12-07): the repair `stale` and find_stale named dropped the scan's --vars, and on a
    project whose models need a var the command failed as printed ("Required var … not found")."""
    before = trips.query(f"select * from analytics.{MODEL} order by trip_id")
    scanned, found = stale(trips, "--vars", TRACKED)
    assert scanned.returncode == 4, scanned.output
    printed = shlex.split(found["repair"]["cli"])
    assert printed[:2] == ["dbt-backfill", "plan"] and printed[-2:] == ["--vars", json.dumps(yaml.safe_load(TRACKED))]
    planned = trips.backfill(*printed[1:], "--json")
    assert planned.returncode == 0, planned.output
    packet = yaml.safe_load(Path(json.loads(planned.stdout.strip().splitlines()[-1])["packet"]).read_text())
    assert [p["value"] for p in packet["partitions"]] == ["2026-03-01", "2026-03-02"]

    operation = trips.dbt(
        "run-operation", "dbt_backfill.find_stale", "--args", json.dumps({"model": MODEL}), "--vars", TRACKED
    )
    assert operation.returncode == 1, operation.output
    [line] = re.findall(r"Repair them: (dbt run-operation .*)$", operation.stdout, re.M)
    printed = shlex.split(line)
    assert printed[-2:] == ["--vars", json.dumps(yaml.safe_load(TRACKED))]
    planned_in_dbt = trips.dbt(*printed[1:])
    assert planned_in_dbt.returncode == 0, planned_in_dbt.output
    run = planned_in_dbt.result("plan_backfill")
    # and the command it names next repeats them too
    assert re.search(
        rf"Once approved: dbt run-operation dbt_backfill.apply_backfill --args '{{run_id: {run['run_id']}, approved_sha256: "
        rf"{run['packet_sha256']}, approved_by: <name>}}'{re.escape(AGAIN)}$",
        planned_in_dbt.stdout,
        re.M,
    ), planned_in_dbt.stdout
    assert trips.query(f"select * from analytics.{MODEL} order by trip_id") == before  # plans only read


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_packet_planned_with_vars_is_applied_verified_and_rolled_back_by_the_commands_printed_for_it(trips):
    """A run of P10's project (2026-12-07): a plan given --vars wrote a packet whose next command, the approval's
    `Next: dbt-backfill apply <packet>` (and the written plan's), ran without them; where a var names the model's
    relation the apply refused as printed ("this project ... resolves events_latest to ..."). The packet records its
    plan's --vars and every command on it uses them unless given others: the approval's `Next:` is run as printed,
    then verify and rollback without --vars."""
    aliased = "{variant_alias: fct_trips_aliased}"
    assert trips.dbt("run", "-s", MODEL, "--vars", aliased).returncode == 0
    # a trip that arrives late on 2026-03-01, after the aliased table was published
    trips.query(
        "insert into raw.trip_events values (991, 1991, date '2026-03-01', 19.75, 'completed', timestamp '2026-03-05 10:00:00')"
    )
    published_before = trips.rows("analytics.fct_trips_aliased")
    variant_before = trips.rows(f"analytics.{MODEL}")

    planned = trips.backfill("plan", MODEL, "--partitions", "2026-03-01", "--vars", aliased, "--json")
    assert planned.returncode == 0, planned.output
    path = Path(json.loads(planned.stdout.strip().splitlines()[-1])["packet"])
    assert yaml.safe_load(path.read_text())["dbt_vars"] == aliased
    assert "then `dbt-backfill apply " in path.with_suffix(".md").read_text()
    approved = trips.approve(path)
    assert approved.returncode == 0, approved.output
    [apply] = re.findall(r"Next: (dbt-backfill apply \S+)$", approved.stdout, re.M)

    # other vars given are used: they name another relation, and the packet is refused as planned elsewhere
    elsewhere = trips.backfill(*shlex.split(apply)[1:], "--vars", "{variant_alias: fct_trips_other}")
    assert elsewhere.returncode == 3, elsewhere.output
    assert "resolves fct_trips_variant to " in elsewhere.stderr and "fct_trips_other" in elsewhere.stderr
    assert (
        "Run it without --target, with the --vars it was planned with (the packet's `dbt_vars`, used when none are "
        "given unless they set a dbt_backfill_ var), or plan again here." in elsewhere.stderr
    )
    assert trips.rows("analytics.fct_trips_aliased") == published_before

    applied = trips.backfill(*shlex.split(apply)[1:])
    assert applied.returncode == 0, applied.output
    assert trips.rows(f"analytics.{MODEL}") == variant_before  # the model's relation without the vars: untouched
    assert (
        trips.dbt("run", "-s", MODEL, "--full-refresh", "--vars", "{variant_alias: fct_trips_rebuilt}").returncode == 0
    )
    assert trips.rows("analytics.fct_trips_aliased") == trips.rows("analytics.fct_trips_rebuilt") != published_before
    assert trips.backfill("verify", str(path)).returncode == 0
    rolled_back = trips.backfill("rollback", str(path))  # without --vars too
    assert rolled_back.returncode == 0, rolled_back.output
    assert trips.rows("analytics.fct_trips_aliased") == published_before


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_the_vars_a_printed_command_repeats_read_back_as_given_whatever_yaml_made_of_them(trips):
    """An attack (2026-12-07): a date in --vars (YAML reads `2026-01-01` as one) failed the scan, and the apply after
    its writes, because JSON cannot carry a date; a character beyond the BMP, a float without a point, infinity and an
    integer key read back as something else. Each command below is run as printed."""
    given = TRACKED[:-1] + (
        ", start_date: 2026-01-01, at: 2026-01-01 10:30:00, big: 1.0e+20, far: .inf, one: {1: one}, "
        'note: "it\'s 😀 \\"quoted\\"\\nsecond line", listed: [1, 2.5, null, true, [a, b]]}'
    )
    operation = trips.dbt(
        "run-operation", "dbt_backfill.find_stale", "--args", json.dumps({"model": MODEL}), "--vars", given
    )
    assert operation.returncode == 1, operation.output  # stale found: the operation fails naming the repair
    [line] = re.findall(r"Repair them: (dbt run-operation .*)$", operation.stdout, re.M)
    printed = shlex.split(line)
    assert printed[-2] == "--vars" and yaml.safe_load(printed[-1]) == yaml.safe_load(given), printed[-1]
    planned = trips.dbt(*printed[1:])
    assert planned.returncode == 0, planned.output
    [apply] = re.findall(r"Once approved: (dbt run-operation .*)$", planned.stdout, re.M)
    assert yaml.safe_load(shlex.split(apply)[-1]) == yaml.safe_load(given)
    applied = trips.dbt(*shlex.split(apply.replace("<name>", "Dana Owner"))[1:])
    assert applied.returncode == 0, applied.output
    assert differing_days(trips) == []


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_the_model_is_built_in_the_users_session_so_a_local_day_is_not_reported_stale(trips):
    """The database's time zone is America/New_York and the model derives its day with updated_at::date: a trip
    updated at 21:30 in New York (02:30 UTC the next day) is on 2026-03-01 for `dbt run`. The scan's build of the
    model must say the same (built under the pinned UTC, the trip would move a day and both days would look stale)."""
    trips.query(f"alter database {trips.backend.database} set timezone = 'America/New_York'")
    trips.query(
        "insert into raw.trip_events values (990, 1990, date '2026-03-01', 12.50, 'completed', "
        "timestamptz '2026-03-02 02:30:00+00')"
    )
    trips.query(f"drop table analytics.{MODEL}")
    local_day = ["--vars", "{local_day: true}"]
    assert trips.dbt("run", "-s", MODEL, *local_day).returncode == 0
    result, found = stale(trips, *local_day)
    assert result.returncode == 0, result.output
    assert found["stale"] == [] and found["compared"] == found["scope"]["count"]
