"""What a real package brought to `apply` and `apply --cascade` (issue 53): data tests on the models (as nearly every
real model has) are no models to cascade to; a failure after the root's write never says that nothing was changed,
and says what was written, with the root's partitions read afresh; a plain apply names the downstream tables it did
not rebuild and the command that rebuilds them, and that command succeeds."""

from __future__ import annotations

import json
import re
import shlex
from decimal import Decimal
from pathlib import Path

import pytest
import yaml
from backends import ENGINE_INDEPENDENT
from dbt_backfill.demo import BACKFILL_DAYS

DAYS = list(BACKFILL_DAYS)
DAILY = "select trip_date, trips, fares from analytics.daily_fares order by trip_date"
TRIPS = "select * from analytics.fct_trips order by trip_id"
# the data tests a real model carries, on the root and on its downstream model: dbt's indirect selection puts them
# beside the models a `--select fct_trips+` names
DATA_TESTS = {"fct_trips": "trip_id", "daily_fares": "trip_date"}


def with_data_tests(project) -> None:
    for schema_file in (project.dir / "../models_example/models/schema.yml", project.dir / "models/schema.yml"):
        document = yaml.safe_load(schema_file.read_text())
        for model in document["models"]:
            if model["name"] in DATA_TESTS:
                column = {"name": DATA_TESTS[model["name"]], "data_tests": ["unique", "not_null"]}
                model.setdefault("columns", []).append(column)
        schema_file.write_text(yaml.safe_dump(document, sort_keys=False))


def planned_and_approved(project, path=None):
    path = path or project.dir / "backfills" / "run.yml"
    planned = project.plan("fct_trips", DAYS, "--out", str(path))
    assert planned.returncode == 0, planned.output
    assert project.approve(path).returncode == 0
    return path


def fares_by_day(project) -> dict[str, Decimal]:
    return {str(d): f for d, f in project.query("select trip_date, sum(fare) from analytics.fct_trips group by 1")}


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_cascade_over_models_with_data_tests_rebuilds_the_models_and_names_no_test(trips):
    with_data_tests(trips)
    path = planned_and_approved(trips)
    result = trips.backfill("apply", str(path), "--cascade")
    assert result.returncode == 0, result.output
    assert "Cascade: daily_fares applied: 2 partition(s) replaced" in result.stdout
    assert "no model named" not in result.output and "Nothing was changed" not in result.output
    assert [line for line in result.stdout.splitlines() if line.startswith("Cascade:")] == [
        line for line in result.stdout.splitlines() if line.startswith("Cascade: daily_fares")
    ]
    truth = fares_by_day(trips)
    for day, _, fares in trips.query(DAILY):
        assert fares == truth[str(day)]


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_cascade_that_fails_after_the_root_is_written_says_what_was_replaced_never_that_nothing_changed(trips):
    path = planned_and_approved(trips)
    daily_before = trips.query(DAILY)
    # after the approval, the downstream model reads a column that is not there: it still compiles, and its
    # cascade step fails in the database, after the root's partitions are replaced
    model = trips.dir / "models" / "daily_fares.sql"
    model.write_text(model.read_text().replace('fares_total("fare")', 'fares_total("fare_in_cents")', 1))
    result = trips.backfill("apply", str(path), "--cascade")
    assert result.returncode == 1, result.output
    assert "nothing was changed" not in result.output.lower()
    assert "cascade stopped at daily_fares" in result.stderr
    assert "Written before it stopped: fct_trips: 2 partition(s) replaced (2026-03-01, 2026-03-02)" in result.stderr
    # the root's partitions read afresh: each holds the approved rows
    assert "What the root's partitions hold now, read afresh:" in result.stderr
    assert "2026-03-01" in result.stderr.split("read afresh:")[1]
    truth_after = fares_by_day(trips)
    assert sum(truth_after[d] for d in DAYS) == Decimal("349.00")  # the seed's corrected fares are published
    assert trips.query(DAILY) == daily_before  # the downstream model is as it was
    audit = trips.query(
        "select event from analytics_backfill.dbt_backfill_audit where model = 'fct_trips' order by recorded_at"
    )
    assert ("applied",) in audit or any("applied" in e for (e,) in audit), audit


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_plain_apply_names_the_downstream_tables_it_did_not_rebuild_and_the_command_that_does(trips):
    path = planned_and_approved(trips)
    daily_before = trips.query(DAILY)
    applied = trips.backfill("apply", str(path))
    assert applied.returncode == 0, applied.output
    said = (
        "Not rebuilt: daily_fares (downstream; reading the partition(s) this apply changed: 2026-03-01, 2026-03-02): "
        "this apply did not rebuild it, so it may now differ from its build."
    )
    assert said in applied.stdout
    next_command = f"Next: `dbt-backfill apply {path} --cascade`"
    assert next_command in applied.stdout
    assert trips.query(DAILY) == daily_before
    json_applied = trips.backfill("status", str(path), "--json")
    assert json_applied.returncode == 0, json_applied.output

    # the command it names, run as printed: the root's partitions are skipped, the downstream model rebuilt
    cascaded = trips.backfill("apply", str(path), "--cascade")
    assert cascaded.returncode == 0, cascaded.output
    assert "skipped" in cascaded.stdout
    assert "Cascade: daily_fares applied: 2 partition(s) replaced" in cascaded.stdout
    assert "Not rebuilt" not in cascaded.stdout
    truth = fares_by_day(trips)
    for day, _, fares in trips.query(DAILY):
        assert fares == truth[str(day)]


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_pure_dbt_apply_names_the_downstream_tables_it_did_not_rebuild(trips):
    daily_before = trips.query(DAILY)
    plan = trips.dbt(
        "run-operation",
        "dbt_backfill.plan_backfill",
        "--args",
        f"{{model: fct_trips, partitions: [{', '.join(DAYS)}]}}",
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
    left = applied.result("applied")["downstream_not_rebuilt"]
    assert (left["models"], left["changed"]) == (["daily_fares"], ["2026-03-01", "2026-03-02"])
    assert (
        "Not rebuilt: daily_fares (downstream; reading the partition(s) this apply changed: 2026-03-01, 2026-03-02)"
        in applied.output
    )
    assert trips.query(DAILY) == daily_before
    # what to run next, a command a line (a new user's run: it named none): run as printed, it finds both days
    [scan] = re.findall(
        r"^In this order, find what differs in each and the plan that repairs it \(find_stale\), or rebuild whole one "
        r"that declares no meta.backfill partition_by:\n  (.*)$",
        applied.stdout,
        re.M,
    )
    assert scan == "dbt run-operation dbt_backfill.find_stale --args '{model: daily_fares}'"
    found = trips.dbt(*shlex.split(scan)[1:])
    assert found.returncode == 1, found.output  # find_stale fails the operation when something is stale
    assert [s["value"] for s in found.result("stale")["stale"]] == left["changed"]
    assert sum(fares_by_day(trips)[d] for d in DAYS) == Decimal("349.00")


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_second_cascade_of_one_root_keeps_the_first_cascades_packet_beside_its_own(trips):
    """A new user's run (2026-12-07): `apply --cascade`, both packets rolled back, then `apply --cascade` again wrote
    the second downstream plan over the first one's packet (named by the root's run), part of that run's record, and
    `clean` then pointed at a packet that was gone. The second goes beside it; each verifies as its own run."""
    path = planned_and_approved(trips)
    first_cascade = trips.backfill("apply", str(path), "--cascade")
    assert first_cascade.returncode == 0, first_cascade.output
    [first] = (trips.dir / "backfills").glob("daily_fares__*__cascade.yml")
    first_run = yaml.safe_load(first.read_text())["run_id"]
    for packet in (first, path):
        rolled_back = trips.backfill("rollback", str(packet))
        assert rolled_back.returncode == 0, rolled_back.output

    again = trips.backfill("apply", str(path), "--cascade")
    assert again.returncode == 0, again.output
    second = first.with_name(first.name.replace("__cascade.yml", "__cascade.2.yml"))
    assert f"(packet {second})" in again.stdout, again.stdout
    assert yaml.safe_load(first.read_text())["run_id"] == first_run
    assert yaml.safe_load(second.read_text())["run_id"] != first_run
    assert first.with_suffix(".md").exists() and second.with_suffix(".md").exists()
    assert trips.backfill("verify", str(second)).returncode == 0
    truth = fares_by_day(trips)
    for day, _, fares in trips.query(DAILY):
        assert fares == truth[str(day)]


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_rolling_back_a_root_before_its_cascade_names_the_downstream_run_and_its_rollback(trips):
    """A new user's run (2026-12-07): the root rolled back first, the downstream model kept the rows its cascade
    built from the corrected root, and nothing said so (its verify still passed). The rollback names the run still
    holding them and the command that rolls it back; run as printed, both tables are as before the apply."""
    trips_before, daily_before = trips.query(TRIPS), trips.query(DAILY)
    path = planned_and_approved(trips, trips.dir / "back fills" / "run.yml")  # a path the shell splits unquoted
    cascaded = trips.backfill("apply", str(path), "--cascade")
    assert cascaded.returncode == 0, cascaded.output
    [child] = (trips.dir / "back fills").glob("daily_fares__*__cascade.yml")
    child_run = yaml.safe_load(child.read_text())["run_id"]
    # a row of the audit trail that is not what it claims (a cleaned row whose detail is no JSON) is read past
    trips.query(
        "insert into analytics_backfill.dbt_backfill_audit (recorded_at, target, run_id, event, detail) select "
        "current_timestamp, target, 'forged', 'cleaned', '{not json' from analytics_backfill.dbt_backfill_audit "
        "where target like '%.daily_fares' limit 1"
    )
    assert trips.query("select count(*) from analytics_backfill.dbt_backfill_audit where run_id = 'forged'") == [(1,)]

    rolled_back = trips.backfill("rollback", str(path))
    assert rolled_back.returncode == 0, rolled_back.output
    said = rolled_back.stdout.split("Still applied downstream: ", 1)[1].splitlines()
    assert said[0] == (
        f"daily_fares holds run {child_run} on 2026-03-01, 2026-03-02 (written after this run, from the rows this "
        "rollback replaced). Roll it back too:"
    ), rolled_back.stdout
    printed = shlex.split(said[1])
    assert printed[:2] == ["dbt-backfill", "rollback"] and Path(printed[2]) == child, said
    assert trips.query(TRIPS) == trips_before and trips.query(DAILY) != daily_before  # the in-between it names

    # again: nothing of the root left to restore, so no write of it is later than the downstream run's
    again = trips.backfill("rollback", str(path), "--json")
    assert again.returncode == 0, again.output
    assert json.loads(again.stdout.strip().splitlines()[-1])["downstream_still_applied"] == []

    downstream = trips.backfill(*printed[1:])  # run as printed
    assert downstream.returncode == 0, downstream.output
    assert trips.query(TRIPS) == trips_before and trips.query(DAILY) == daily_before
