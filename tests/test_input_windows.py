"""Input windows on dbt's event_time contract (issue 18), through real dbt: a windowed plan gives the fingerprints
of a plan that reads every input whole; the window is proved on every plan and a window declared too narrow is
refused; the pin reads what the builds read, so a change outside the windows lets an approval stand and a change
inside them does not."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest
import yaml
from backends import ADAPTERS, ENGINE_INDEPENDENT, POSTGRES_ONLY, TRANSACTIONAL_ADAPTERS
from conftest import trips_on
from dbt_backfill.demo import BACKFILL_DAYS
from project import BIN as BIN_DIR
from test_tampering import refused

trips = trips_on(ADAPTERS)

DAYS = ",".join(BACKFILL_DAYS)
# corrections arrive up to 30 days after the event, and updated_at is when a version arrived
ARRIVAL_WINDOW = "{trip_events_event_time: updated_at, variant_input_window: {after: 30}}"


def plan(project, name, *args):
    out = project.dir / "backfills" / f"{name}.yml"
    result = project.backfill("plan", "fct_trips_variant", "--partitions", DAYS, "--out", str(out), *args)
    return result, out


def fingerprints(path):
    packet = yaml.safe_load(path.read_text())
    return [(p["value"], p["fingerprint"]["sha256"], p["builds"]["b"]["sha256"]) for p in packet["partitions"]]


def test_a_windowed_plan_gives_the_fingerprints_of_a_plan_that_reads_every_input_whole(trips):
    trips.publish_stale_target()
    whole, whole_path = plan(trips, "whole")
    windowed, windowed_path = plan(trips, "windowed", "--vars", ARRIVAL_WINDOW)
    assert whole.returncode == 0, whole.output
    assert windowed.returncode == 0, windowed.output

    assert fingerprints(windowed_path) == fingerprints(whole_path)
    assert "Input windows: none (no input declares dbt's event_time: every input is read whole)" in whole.stdout
    windows = yaml.safe_load(windowed_path.read_text())["source"]["windows"]
    assert windows["mode"] == "windowed"
    assert (windows["before"], windows["after"], windows["declared_by"]) == (0, 30, "meta.backfill.input_window")
    assert windows["partitions"] == {
        "2026-03-01": {"start": "2026-03-01", "end": "2026-04-01"},
        "2026-03-02": {"start": "2026-03-02", "end": "2026-04-02"},
        "2026-03-03": {"start": "2026-03-03", "end": "2026-04-03"},
    }
    [source] = windows["inputs"]
    assert source["relation"].endswith("raw.trip_events") and source["event_time"] == "updated_at"
    assert source["windows"] == [["2026-03-01", "2026-04-03"]]  # the three windows, merged: what the pin reads
    assert re.search(
        r"Input windows \(meta\.backfill\.input_window: 0 day\(s\) before, 30 after\): \S*raw\.trip_events "
        r"by updated_at; proven over the whole history by this plan for this code \(sha256 [0-9a-f]{12}…; no "
        r"proof is recorded for this model\): each partition's build b, from the whole inputs, equals its "
        r"windowed build a\n",
        windowed.stdout,
    ), windowed.stdout
    document = windowed_path.with_suffix(".md").read_text()
    assert "| 2026-03-02 | 2026-03-02 | 2026-04-02 | the whole inputs |" in document
    assert "Windows proven over the whole history by this plan for this code" in document

    # the next plan of the same code relies on that proof and checks its own windows widened: the same rows
    again, again_path = plan(trips, "again", "--vars", ARRIVAL_WINDOW)
    assert again.returncode == 0, again.output
    assert fingerprints(again_path) == fingerprints(whole_path)
    proof = yaml.safe_load(again_path.read_text())["source"]["windows"]["proof"]
    assert proof["proven_by_this_plan"] is False and proof["last"]["run_id"] == run_id_of(windowed_path)
    assert re.search(
        r"by updated_at; checked around each partition in this plan: its build b, read 1 day\(s\) before "
        r"and 61 after it \(the declared window widened by a partition and its own reach on each side\), "
        r"equals its build a; proven over the whole history on \d{4}-\d\d-\d\d for this code on "
        r"partition\(s\) 2026-03-01, 2026-03-02, 2026-03-03 \(sha256 "
        + proof["binding"][:12]
        + r"…, run "
        + run_id_of(windowed_path)
        + r"\)\n",
        again.stdout,
    ), again.stdout
    assert (
        "| 2026-03-02 | 2026-03-02 | 2026-04-02 | from 2026-03-01 until 2026-05-03 |"
        in again_path.with_suffix(".md").read_text()
    )


def run_id_of(path):
    return yaml.safe_load(path.read_text())["run_id"]


def proof_rows(project):
    return project.query(
        "select outcome, run_id from analytics_backfill.dbt_backfill_audit where event = "
        "'window_proven' order by recorded_at"
    )


def evidence(result):
    found = re.search(r"^Input windows \(.*? by \w+; (.*)$", result.stdout, re.M)
    assert found, result.output
    return found.group(1)


# the widened check compares two builds' fingerprints and records the proof's outcome: the same Jinja on every engine,
# over the windowed reads the test above makes on each (DECISIONS row 87; on Spark it cost ~115 s)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_window_one_partition_too_narrow_is_refused_by_the_widened_check_of_a_plan_that_relies_on_a_proof(trips):
    """Trip 1003 of 2026-03-01 was corrected on 2026-03-10, nine days later: a window of eight days after the
    partition misses it by one. A proof made on 2026-03-03 (no late correction) passes; the next plan, of the three
    days, relies on it and is refused by its own widened check on 2026-03-01, and the proof no longer stands.
    (Trip 1007's refund, 18 days after 2026-03-02, is beyond the widened window too: only a proof over the whole
    history finds a window that far too narrow.)"""
    trips.publish_stale_target()
    short = "{trip_events_event_time: updated_at, variant_input_window: {after: 8}}"
    before = {t: trips.rows(t) for t in ("analytics.fct_trips_variant", "raw.trip_events")}
    first = trips.backfill("plan", "fct_trips_variant", "--partitions", "2026-03-03", "--vars", short)
    assert first.returncode == 0, first.output
    assert "nothing to change: every partition of fct_trips_variant already holds exactly" in first.stdout, first.output
    assert [o for o, _ in proof_rows(trips)] == ["passed"]

    narrow, path = plan(trips, "narrow", "--vars", short)
    refused(narrow, "the input window does not hold for partition(s) 2026-03-01 (")
    assert re.search(
        r"2026-03-01: read within \[2026-03-01, 2026-03-10\) it gives 5 rows, read within \[2026-02-28, "
        r"2026-03-19\) 5; by business key the windowed build has 0 row\(s\) the wider build lacks, lacks 0 "
        r"and differs in 1 \(1003\)\. .*A windowed build is never published unproven \(the window's last proof "
        r"over the whole history no longer stands: the next plan makes it again\)\. No packet was written and "
        r"the target is unchanged\.",
        narrow.stderr,
    ), narrow.stderr
    assert not path.exists()
    assert {t: trips.rows(t) for t in before} == before
    assert [o for o, _ in proof_rows(trips)] == ["passed", "failed"]

    # the failed check holds: the next plan proves the windows over the whole history again (and passes on 03-03)
    third = trips.backfill("plan", "fct_trips_variant", "--partitions", "2026-03-03", "--vars", short)
    assert third.returncode == 0, third.output
    assert [o for o, _ in proof_rows(trips)] == ["passed", "failed", "passed"]
    assert {t: trips.rows(t) for t in before} == before


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_a_recorded_proof_is_reused_and_made_again_after_each_change_of_what_it_proved(trips):
    trips.publish_stale_target()
    audit = "analytics_backfill.dbt_backfill_audit"

    def planned(name, *extra, window=ARRIVAL_WINDOW):
        result, _path = plan(trips, name, "--vars", window[:-1] + (", " + ", ".join(extra) if extra else "") + "}")
        assert result.returncode == 0, result.output
        return evidence(result)

    first = planned("first")
    assert (
        first.startswith("proven over the whole history by this plan for this code (sha256 ")
        and "; no proof is recorded for this model): each partition" in first
    ), first
    assert planned("reused").startswith("checked around each partition in this plan")
    forced, _ = plan(trips, "forced", "--vars", ARRIVAL_WINDOW, "--prove-window", "full")
    assert "; asked for (prove_window: full)): each partition" in evidence(forced), forced.output

    def made_again(why, *extra, window=ARRIVAL_WINDOW):
        said = planned("changed", *extra, window=window)
        assert said.startswith("proven over the whole history by this plan"), said
        assert re.search(r"; the code changed since the last proof \(" + why + r"\)\): each partition", said), said

    made_again("the compiled SQL", "status_expr: upper(status)")
    # back to the code proven first: its own proof is relied on (it was made for exactly this code)
    assert planned("back").startswith("checked around each partition in this plan")
    trips.query("alter table raw.trip_events add column note text")
    made_again(r"the columns of \S+raw\.trip_events")
    made_again("the input window", window="{trip_events_event_time: updated_at, variant_input_window: {after: 31}}")
    made_again(
        r"the event_time of \S+raw\.trip_events",
        window="{trip_events_event_time: trip_date, variant_input_window: {after: 30}}",
    )

    # dbt's, the adapter's and the engine's versions are bound: the proof records them, and one recorded under
    # another version of dbt is not relied on (rewritten here as a superuser: one suite runs one dbt)
    [(detail,)] = trips.query(
        f"select detail from {audit} where event = 'window_proven' order by recorded_at desc limit 1"
    )
    parts = json.loads(detail)["parts"]
    assert (
        parts["dbt_version"] and parts["adapter"] == "postgres" and parts["engine_version"].startswith("PostgreSQL 15")
    )
    assert planned(
        "reused_again", window="{trip_events_event_time: trip_date, variant_input_window: {after: 30}}"
    ).startswith("checked around each partition in this plan")
    trips.query(
        f'update {audit} set detail = replace(replace(detail, \'"dbt_version": "\', \'"dbt_version": "0.\'), '
        f"'\"binding\": \"', '\"binding\": \"0') where event = 'window_proven'"
    )
    made_again("dbt's version", window="{trip_events_event_time: trip_date, variant_input_window: {after: 30}}")

    # older than meta.backfill.window_proof_max_age (default 30 days)
    trips.query(f"update {audit} set recorded_at = recorded_at - interval '31 days' where event = 'window_proven'")
    said = planned("aged", window="{trip_events_event_time: trip_date, variant_input_window: {after: 30}}")
    assert re.search(
        r"; the last proof for this code \(\d{4}-\d\d-\d\d\) is older than "
        r"meta\.backfill\.window_proof_max_age \(30 day\(s\)\)\): each partition",
        said,
    ), said
    bad = trips.backfill(
        "plan",
        "fct_trips_variant",
        "--partitions",
        DAYS,
        "--vars",
        "{trip_events_event_time: trip_date, variant_input_window: {after: 30}, variant_window_proof_max_age: -1}",
    )
    assert bad.returncode == 1, bad.output
    assert (
        "meta.backfill.window_proof_max_age must be how many days a recorded proof of the input windows is relied "
        "on, a whole number >= 0 (0: prove on every plan; default 30), not -1. Nothing was changed."
    ) in bad.stderr, bad.output


# which proof stands is read from the audit trail by the same Jinja on every engine: once, on DuckDB (row 87)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_partition_found_too_narrow_is_proven_again_whatever_other_partitions_are_proven_meanwhile(trips):
    """A helper's attack: the proof over the whole history finds 2026-03-01 and 2026-03-02 too narrow under
    {after: 8}; a proof of 2026-03-03 then passes. A plan of 2026-03-02 alone must not rely on that one — trip
    1007's refund, 18 days out, is beyond the widened check too — but prove again, and be refused."""
    trips.publish_stale_target()
    short = "{trip_events_event_time: updated_at, variant_input_window: {after: 8}}"
    first, _ = plan(trips, "first", "--vars", short)
    refused(first, "the input window does not hold for partition(s) 2026-03-01, 2026-03-02 (")
    other = trips.backfill("plan", "fct_trips_variant", "--partitions", "2026-03-03", "--vars", short)
    assert other.returncode == 0, other.output
    assert [o for o, _ in proof_rows(trips)] == ["failed", "passed"]
    # a correction inside the window, so the day has something to repair
    trips.query(
        "insert into raw.trip_events values (16, 1006, '2026-03-02', 1.00, 'corrected', '2026-03-04 10:00:00+00')"
    )
    before = trips.rows("analytics.fct_trips_variant")

    again = trips.backfill("plan", "fct_trips_variant", "--partitions", "2026-03-02", "--vars", short)
    refused(
        again,
        "2026-03-02: read within [2026-03-02, 2026-03-11) it gives 4 rows, from the whole inputs 4; by "
        "business key the windowed build has 0 row(s) the whole build lacks, lacks 0 and differs in 1 (1007)",
    )
    assert trips.rows("analytics.fct_trips_variant") == before
    assert [o for o, _ in proof_rows(trips)] == ["failed", "passed", "failed"]


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_a_failure_holds_across_a_change_of_code_many_later_proofs_and_a_proof_that_read_older_data(trips):
    """A second helper's attacks on the rule above: the failure of 2026-03-02 was dropped by a change of code that
    changes no row, pushed out by 200 later proofs, and cleared by a proof recorded after it that had read the
    inputs before it (a slow plan). Each time the plan of 2026-03-02 must prove again and be refused."""
    trips.publish_stale_target()
    audit = "analytics_backfill.dbt_backfill_audit"
    short = "{trip_events_event_time: updated_at, variant_input_window: {after: 8}}"
    same_rows = "{trip_events_event_time: updated_at, variant_input_window: {after: 8}, status_expr: '(status)'}"
    refused(
        trips.backfill("plan", "fct_trips_variant", "--partitions", "2026-03-02", "--vars", short),
        "the input window does not hold for partition(s) 2026-03-02 (",
    )
    # other code, the same rows: its proof of 2026-03-03 passes, and 250 more proofs of other code follow it
    assert (
        trips.backfill("plan", "fct_trips_variant", "--partitions", "2026-03-03", "--vars", same_rows).returncode == 0
    )
    trips.query(
        f"insert into {audit} (recorded_at, run_id, model, target, event, outcome, detail) "
        f"select recorded_at + g * interval '1 second', run_id || g, model, target, event, outcome, "
        f'replace(detail, \'"binding": "\', \'"binding": "\' || g) from {audit}, generate_series(1, 250) g '
        f"where event = 'window_proven' and outcome = 'passed'"
    )
    trips.query(
        "insert into raw.trip_events values (16, 1006, '2026-03-02', 1.00, 'corrected', '2026-03-04 10:00:00+00')"
    )
    before = trips.rows("analytics.fct_trips_variant")
    for code in (same_rows, short):
        again = trips.backfill("plan", "fct_trips_variant", "--partitions", "2026-03-02", "--vars", code)
        refused(again, "2026-03-02: read within [2026-03-02, 2026-03-11) it gives 4 rows, from the whole inputs 4; ")
    # a pass of 2026-03-02 for this code recorded after the failures, by a plan that had read the inputs before them
    [(detail,)] = trips.query(
        f"select detail from {audit} where event = 'window_proven' and outcome = 'failed' order by recorded_at limit 1"
    )
    older = json.dumps({**json.loads(detail), "read_at": "2000-01-01 00:00:00+00:00"})
    trips.query(
        f"insert into {audit} (recorded_at, run_id, model, target, event, outcome, detail) select "
        f"current_timestamp, 'slow', model, target, event, 'passed', '{older}' from {audit} "
        f"where event = 'window_proven' and outcome = 'failed' order by recorded_at limit 1"
    )
    refused(
        trips.backfill("plan", "fct_trips_variant", "--partitions", "2026-03-02", "--vars", short),
        "2026-03-02: read within [2026-03-02, 2026-03-11) it gives 4 rows, from the whole inputs 4; ",
    )
    assert trips.rows("analytics.fct_trips_variant") == before


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_a_proof_written_by_a_role_that_may_not_vouch_for_a_plan_is_not_relied_on(trips):
    """Trip 1007's refund came 18 days after 2026-03-02: a window of eight days after the day misses it, and so does
    the widened check (17 days). The proof over the whole history fails; a `passed` row for the same code written
    by a role with only INSERT on the trail is not relied on, and the next plan proves again and is refused. The
    same row written by the planner's own role would be: what the trail's writer check protects."""
    from test_tampering import as_role
    from test_trust_anchors import written_as

    trips.publish_stale_target()
    short = "{trip_events_event_time: updated_at, variant_input_window: {after: 8}}"
    before = trips.rows("analytics.fct_trips_variant")
    first = trips.backfill("plan", "fct_trips_variant", "--partitions", "2026-03-02", "--vars", short)
    refused(first, "the input window does not hold for partition(s) 2026-03-02 (")
    [(target, detail)] = trips.query(
        "select target, detail from analytics_backfill.dbt_backfill_audit "
        "where event = 'window_proven' and outcome = 'failed'"
    )
    forger = as_role(
        trips,
        "forger",
        [
            "grant usage on schema analytics_backfill to {role}",
            "grant insert on analytics_backfill.dbt_backfill_audit to {role}",
        ],
    )
    forged = (
        "insert into analytics_backfill.dbt_backfill_audit (recorded_at, run_id, model, target, event, outcome, "
        f"detail) values (current_timestamp, 'forged', 'fct_trips_variant', '{target}', 'window_proven', "
        f"'passed', '{detail}')"
    )
    assert written_as(trips, forger, forged) is None

    second = trips.backfill("plan", "fct_trips_variant", "--partitions", "2026-03-02", "--vars", short)
    refused(second, "2026-03-02: read within [2026-03-02, 2026-03-11) it gives 4 rows, from the whole inputs 4; ")
    assert trips.rows("analytics.fct_trips_variant") == before
    assert [o for o, _ in proof_rows(trips)] == ["failed", "passed", "failed"]  # the forger's row, not relied on

    # the same row in the name of a role that may vouch for a plan (here the superuser the suite plans as), as if it
    # had read the inputs after the failures, is relied on, and the widened check cannot see 18 days out: the
    # windowed build leaves the refund out and the stale partition is declared right — what the writer check keeps
    # a role with INSERT alone from causing
    later = json.dumps({**json.loads(detail), "read_at": "9999-12-31 00:00:00+00:00"})
    trips.query(forged.replace(detail, later))
    relied = trips.backfill("plan", "fct_trips_variant", "--partitions", "2026-03-02", "--vars", short)
    assert relied.returncode == 0, relied.output
    assert "nothing to change: every partition of fct_trips_variant already holds exactly" in relied.stdout


# the proof compares each windowed build with the whole build, by fingerprint and by key, in the same Jinja on every
# engine (each engine's windowed reads: the first test of this file): once, on DuckDB
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_window_declared_too_narrow_is_refused_by_its_proof_and_nothing_is_left(trips):
    trips.publish_stale_target()
    before = {t: trips.rows(t) for t in ("analytics.fct_trips_variant", "raw.trip_events")}

    # trip 1003 of 2026-03-01 was corrected on 2026-03-10: a window of a day after the partition misses it
    narrow, path = plan(
        trips, "narrow", "--vars", "{trip_events_event_time: updated_at, variant_input_window: {after: 1}}"
    )

    refused(narrow, "the input window does not hold for partition(s) 2026-03-01, 2026-03-02 (")
    assert re.search(
        r"raw\.trip_events by updated_at; meta\.backfill\.input_window: 0 day\(s\) before, 1 after\): "
        r"2026-03-01: read within \[2026-03-01, 2026-03-03\) it gives 5 rows, from the whole inputs 5; by "
        r"business key the windowed build has 0 row\(s\) the whole build lacks, lacks 0 and differs in 1 "
        r"\(1003\); 2026-03-02: read within \[2026-03-02, 2026-03-04\) it gives 4 rows, from the whole "
        r"inputs 4; by business key the windowed build has 0 row\(s\) the whole build lacks, lacks 0 and "
        r"differs in 1 \(1007\)\. Their rows need inputs outside the window: widen "
        r"meta\.backfill\.input_window \(\{before: N, after: N\} days\), or set the inputs' event_time to the "
        r"business date the partition is derived from\. A windowed build is never published unproven\. No "
        r"packet was written and the target is unchanged\.",
        narrow.stderr,
    ), narrow.stderr
    assert "Its stages were dropped" in narrow.stderr
    assert not path.exists() and not path.with_suffix(".md").exists()
    assert {t: trips.rows(t) for t in before} == before
    assert trips.tables_in("analytics_backfill") == ["dbt_backfill_audit"]  # the trail; no stage is left
    [(outcome,)] = trips.query("select outcome from analytics_backfill.dbt_backfill_audit where event = 'plan_failed'")
    assert outcome == "input_window_too_narrow"


@pytest.mark.parametrize("trips", TRANSACTIONAL_ADAPTERS, indirect=True)
def test_the_pin_covers_the_windows_a_change_outside_them_lets_the_approval_stand_one_inside_does_not(trips):
    trips.publish_stale_target()
    planned, path = plan(trips, "windowed", "--vars", ARRIVAL_WINDOW)
    assert planned.returncode == 0, planned.output
    assert trips.approve(path).returncode == 0
    variant = trips.rows("analytics.fct_trips_variant")

    # a correction of 2026-03-02 that arrived inside its window: the approved rows are no longer what a build gives
    trips.query(
        "insert into raw.trip_events values (950, 1006, '2026-03-02', 31.00, 'corrected', '2026-03-25 08:00:00+00')"
    )
    drifted = trips.backfill("apply", str(path), "--vars", ARRIVAL_WINDOW)
    refused(drifted, "the source changed since the plan (")
    assert re.search(r"raw\.trip_events: 17 rows, state \S+ at the plan, 18 rows, state \S+ now\)", drifted.stderr), (
        drifted.stderr
    )  # the rows within the windows, not the whole source's 19 and 20
    assert trips.rows("analytics.fct_trips_variant") == variant

    # gone again, and the live pipeline appends a day far outside every window: the approval stands
    trips.query("delete from raw.trip_events where event_id = 950")
    trips.query(
        "insert into raw.trip_events values (951, 2001, '2026-06-01', 12.00, 'completed', '2026-06-01 09:00:00+00')"
    )
    applied = trips.backfill("apply", str(path), "--vars", ARRIVAL_WINDOW)
    assert applied.returncode == 0, applied.output
    # the seed scenario's truth: 13 trips, 349.00
    assert trips.query(
        "select count(*), sum(fare) from analytics.fct_trips_variant where trip_date in "
        "('2026-03-01', '2026-03-02', '2026-03-03')"
    )[0] == (13, Decimal("349.00"))
    assert trips.backfill("verify", str(path), "--vars", ARRIVAL_WINDOW).returncode == 0


# the lookback becomes a window in Jinja (_input_windows); the windowed SQL on each engine is the windowed-plan test's
# above: once, on DuckDB (DECISIONS row 115)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_microbatch_models_lookback_is_its_window_and_gives_the_fingerprints_of_a_whole_plan(trips):
    trips.publish_stale_target()
    by_batch = "{with_microbatch: true, trip_events_event_time: trip_date}"
    run = trips.dbt(
        "run",
        "-s",
        "daily_trip_events",
        "--vars",
        by_batch,
        "--event-time-start",
        "2026-02-27",
        "--event-time-end",
        "2026-03-05",
    )
    assert run.returncode == 0, run.output
    trips.query("update analytics.daily_trip_events set fares = fares + 1 where trip_date = '2026-03-02'")  # stale

    def plan_daily(name, dbt_vars):
        out = trips.dir / "backfills" / f"{name}.yml"
        result = trips.backfill(
            "plan", "daily_trip_events", "--partitions", "2026-03-02,2026-03-03", "--out", str(out), "--vars", dbt_vars
        )
        assert result.returncode == 0, result.output
        return out

    whole = plan_daily("whole", "{with_microbatch: true}")
    windowed = plan_daily("windowed", by_batch)

    assert fingerprints(windowed) == fingerprints(whole)
    windows = yaml.safe_load(windowed.read_text())["source"]["windows"]
    assert (windows["mode"], windows["before"], windows["after"]) == ("windowed", 2, 0)
    assert windows["declared_by"] == "dbt's lookback (2 × day)"
    assert windows["partitions"]["2026-03-02"] == {"start": "2026-02-28", "end": "2026-03-03"}
    assert windows["inputs"][0]["windows"] == [["2026-02-28", "2026-03-04"]]


@pytest.mark.parametrize("trips", TRANSACTIONAL_ADAPTERS, indirect=True)
def test_a_session_in_another_time_zone_windows_by_utc_instants_and_loses_no_row(trips):
    """Atlantic/Azores is UTC-1 in March: a window cut at local midnight would leave out trip 1006, updated at
    2026-03-02 00:00:00+00, from its own day."""
    trips.publish_stale_target()
    azores = trips.env_in_timezone("Atlantic/Azores")
    whole_path, windowed_path = (trips.dir / "backfills" / f"{n}.yml" for n in ("whole", "windowed"))
    for path, extra in ((whole_path, []), (windowed_path, ["--vars", ARRIVAL_WINDOW])):
        planned = trips._run(
            [
                str(BIN_DIR / "dbt-backfill"),
                "plan",
                "fct_trips_variant",
                "--partitions",
                DAYS,
                "--out",
                str(path),
                *extra,
                "--project-dir",
                str(trips.dir),
                "--profiles-dir",
                str(trips.dir),
            ],
            env=azores,
        )
        assert planned.returncode == 0, planned.output
    assert fingerprints(windowed_path) == fingerprints(whole_path)
    [source] = yaml.safe_load(windowed_path.read_text())["source"]["pinned"]
    assert source["event_time_type"] == "timestamptz"


@pytest.mark.parametrize("trips", TRANSACTIONAL_ADAPTERS, indirect=True)
def test_an_input_named_other_than_as_dbt_renders_it_is_read_whole_by_the_builds_and_the_pin(trips):
    trips.publish_stale_target()
    # a window that is far too narrow, which would be refused if it were applied
    planned, path = plan(
        trips,
        "other_name",
        "--vars",
        "{trip_events_event_time: updated_at, variant_input_window: {after: 0}, events_without_database: true}",
    )
    assert planned.returncode == 0, planned.output
    assert re.search(
        r"Input windows: none \(every input is read whole: \S+raw\.trip_events \(the model's SQL names it "
        r"other than as dbt renders it \(\S+\)\)\)",
        planned.stdout,
    ), planned.stdout
    [source] = yaml.safe_load(path.read_text())["source"]["pinned"]
    assert "windows" not in source  # the pin reads it whole, as the builds do


# meta.backfill.input_window is checked in Jinja before anything is read: once, on DuckDB
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_the_pure_dbt_plan_refuses_a_malformed_input_window(trips):
    trips.publish_stale_target()
    before = trips.rows("analytics.fct_trips_variant")
    result = trips.dbt(
        "run-operation",
        "dbt_backfill.plan_backfill",
        "--args",
        "{model: fct_trips_variant, partitions: ['2026-03-01']}",
        "--vars",
        "{trip_events_event_time: updated_at, variant_input_window: {afetr: 30}}",
    )
    assert result.returncode != 0
    assert (
        "meta.backfill.input_window of fct_trips_variant must be {before: N, after: N}: how many days before and "
        "after a partition its inputs' event_time may lie for the partition's rows (corrections that arrive up to 30 "
        'days later: {after: 30}), each a whole number >= 0, not {"afetr": 30}. Nothing was changed.'
    ) in result.output, result.output
    assert trips.rows("analytics.fct_trips_variant") == before


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_an_approved_packet_is_not_applied_after_a_later_plan_found_its_window_too_narrow(trips):
    """A packet of 2026-03-02 relies on a proof of 2026-03-03 under {after: 8}; its widened check (17 days out)
    passes, yet trip 1007's refund is 18 days out, so its rows lack it. A later plan that proves the window over the
    whole history finds it too narrow — first on 2026-03-01 (the packet's proof no longer stands for its code, even
    after other code failed there too), then on 2026-03-02 itself. Apply, under the table's lock, reads those
    failures and publishes nothing."""
    trips.publish_stale_target()
    short = "{trip_events_event_time: updated_at, variant_input_window: {after: 8}}"
    assert trips.backfill("plan", "fct_trips_variant", "--partitions", "2026-03-03", "--vars", short).returncode == 0
    trips.query(
        "insert into raw.trip_events values (16, 1006, '2026-03-02', 1.00, 'corrected', '2026-03-04 10:00:00+00')"
    )
    out = trips.dir / "backfills" / "relied.yml"
    relied = trips.backfill(
        "plan", "fct_trips_variant", "--partitions", "2026-03-02", "--vars", short, "--out", str(out)
    )
    assert relied.returncode == 0, relied.output
    assert yaml.safe_load(out.read_text())["source"]["windows"]["proof"]["proven_by_this_plan"] is False
    assert trips.approve(out).returncode == 0
    before = trips.rows("analytics.fct_trips_variant")

    refused(
        trips.backfill(
            "plan", "fct_trips_variant", "--partitions", "2026-03-01", "--vars", short, "--prove-window", "full"
        ),
        "the input window does not hold for partition(s) 2026-03-01 (",
    )
    # a helper's attack: other code failing there later relabelled the packet's own code's failure, and apply published
    same_rows = "{trip_events_event_time: updated_at, variant_input_window: {after: 8}, status_expr: '(status)'}"
    refused(
        trips.backfill(
            "plan", "fct_trips_variant", "--partitions", "2026-03-01", "--vars", same_rows, "--prove-window", "full"
        ),
        "the input window does not hold for partition(s) 2026-03-01 (",
    )
    other_day = trips.backfill("apply", str(out), "--vars", short)
    refused(
        other_day,
        "the input window of partition(s) 2026-03-01 was found too narrow since this packet was planned (run ",
    )
    assert (
        "): the proof over the whole history it relied on no longer stands for its code. Nothing was replaced; the "
        "target is unchanged. Plan again (the next plan proves the windows over the whole history): "
        "`dbt-backfill plan fct_trips_variant --partitions 2026-03-02`."
    ) in other_day.stderr, other_day.stderr
    assert trips.rows("analytics.fct_trips_variant") == before

    refused(
        trips.backfill(
            "plan", "fct_trips_variant", "--partitions", "2026-03-02", "--vars", short, "--prove-window", "full"
        ),
        "the input window does not hold for partition(s) 2026-03-02 (",
    )
    own_day = trips.backfill("apply", str(out), "--vars", short)
    refused(
        own_day, "the input window of partition(s) 2026-03-02 was found too narrow since this packet was planned (run "
    )
    assert "): the rows it would publish were built through that window. Nothing was replaced;" in own_day.stderr
    assert trips.rows("analytics.fct_trips_variant") == before
