"""A partition's history across runs (issue 37): no run undoes a later one, an older approval never overwrites a
newer repair, `partitions` and `status` name the run that wrote each partition last, and `apply --cascade` never
exits 0 while a model downstream differs from a full build of it. Real dbt on PostgreSQL and DuckDB; every
refusal is asserted with its exit status, its words and every published table's rows."""

import datetime as dt
import re
from decimal import Decimal

import pytest
import yaml
from backends import ENGINE_INDEPENDENT, TRANSACTIONAL_ADAPTERS
from conftest import trips_on
from dbt_backfill.demo import BACKFILL_DAYS as SEED_DAYS
from test_tampering import approved, refused, snapshot

trips = trips_on(TRANSACTIONAL_ADAPTERS)

# a reconciliation gate no build passes: the plan is written for review only (tests/test_refusals.py FAILING_GATE)
GATE_THAT_FAILS = "{variant_checks: [{total_matches_control: {column: fare, query: 'select 1', tolerance: 0}}]}"


def ok(result):
    assert result.returncode == 0, result.output
    return result


def plan_and_approve(project, name, days, by="Lee Owner"):
    """A plan written to backfills/<name>.yml (as the audit trail then names it), approved by `by`."""
    out = f"backfills/{name}.yml"
    ok(project.plan("fct_trips", days, "--out", out))
    path = project.dir / out
    ok(project.approve(path, by))
    return path, yaml.safe_load(path.read_text())


def fares(project, day):
    return project.query(f"select sum(fare) from analytics.fct_trips where trip_date = '{day}'")[0][0]


# the ledger is the same SQL on every engine over the audit trail (PostgreSQL's attribution of its rows by writer is
# test_trust_anchors'), and each engine's apply and rollback are tested on their own: once, on DuckDB (DECISIONS row 87)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_rollback_of_an_older_run_never_undoes_a_later_repair_of_the_same_partitions(trips):
    path_a, a = approved(trips)
    ok(trips.backfill("apply", str(path_a)))
    ok(trips.backfill("rollback", str(path_a), "--by", "Sam Ops"))
    stale = snapshot(trips)
    path_b, b = plan_and_approve(trips, "q1_fix_v3", [p["value"] for p in a["partitions"]])
    ok(trips.backfill("apply", str(path_b)))
    repaired = snapshot(trips)
    assert repaired != stale

    result = trips.backfill("rollback", str(path_a))

    refused(
        result,
        f"partition 2026-03-01 was written after run {a['run_id']}: run {b['run_id']} (approved by Lee "
        f"Owner) replaced it at ",
    )
    assert f", after run {a['run_id']} itself was rolled back at " in result.stderr
    assert "(by Sam Ops). Rolling back run " in result.stderr
    assert (
        "now would undo that later repair, so nothing was restored: every partition is unchanged. Run "
        f"{a['run_id']} has nothing left to undo there. To undo run {b['run_id']}: "
        f"`dbt-backfill rollback backfills/q1_fix_v3.yml`."
    ) in result.stderr
    assert snapshot(trips) == repaired

    # status of the older packet names the run whose rows the partitions hold, and what each packet's rollback does
    status = ok(trips.backfill("status", str(path_a)))
    assert (f"2026-03-01 holds what run {b['run_id']} (approved by Lee Owner) wrote at ") in status.stdout
    assert (
        "(this run was rolled back there before); `dbt-backfill rollback backfills/q1_fix_v3.yml` undoes that run"
    ) in status.stdout
    # 2026-03-03, which neither repair changes, B's apply found already holding its rows: B's now
    assert (
        f"2026-03-03 holds what run {b['run_id']} (approved by Lee Owner) took as its own (it already held its "
        f"approved rows) at "
    ) in status.stdout
    ok(trips.backfill("verify", str(path_b)))
    # clean: the newer run's backups are still needed; the older run, rolled back already, needs none
    kept = trips.backfill("clean", str(path_b))
    refused(
        kept, "partition(s) 2026-03-01, 2026-03-02 can still be rolled back from their backups: nothing was dropped."
    )
    ok(trips.backfill("clean", str(path_a)))
    assert not [t for t in trips.tables_in("analytics_backfill") if a["run_id"] in t]
    assert snapshot(trips) == repaired

    # the newer run rolls back; then the older one has nothing left to undo, and says so
    ok(trips.backfill("rollback", str(path_b), "--by", "Sam Ops"))
    assert snapshot(trips) == stale
    assert snapshot(trips) == stale
    status = ok(trips.backfill("status", str(path_a)))
    assert f"Next: run {a['run_id']} was rolled back at " in status.stdout
    assert "by Sam Ops: every partition holds its rows from before the apply." in status.stdout


# the ledger is the same SQL on every engine over the audit trail (PostgreSQL's attribution of its rows by writer is
# test_trust_anchors'), and each engine's apply and rollback are tested on their own: once, on DuckDB (DECISIONS row 87)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_an_older_approval_never_overwrites_a_partition_a_later_approved_run_wrote(trips):
    path_a, a = approved(trips)  # planned and approved first
    path_b, b = plan_and_approve(trips, "newer", [p["value"] for p in a["partitions"]])
    ok(trips.backfill("apply", str(path_b)))
    ok(trips.backfill("rollback", str(path_b), "--by", "Sam Ops"))
    before = snapshot(trips)

    result = trips.backfill("apply", str(path_a))

    refused(result, f"partition 2026-03-01 was replaced by run {b['run_id']} at ")
    # both approved offline: each dated by its plan, as the audit trail recorded it (never by the packet's text)
    assert re.search(
        r", approved by Lee Owner, given offline \(its time unproven: dated by its plan, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\), "
        r"after this run's approval \(by Dana Owner, given offline \(its time unproven: dated by its plan, "
        r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\)\): the later approval supersedes this one there, and that run was rolled "
        r"back since\. Nothing was replaced; the target is unchanged\. To repair from what the table holds now, "
        r"plan again: `dbt-backfill plan fct_trips --partitions 2026-03-01,2026-03-02,2026-03-03`\.",
        result.stderr,
    ), result.stderr
    assert snapshot(trips) == before


def with_approval_time(path, approved_at: str) -> None:
    """The packet's approval block with its time rewritten, as anyone who can edit the file can (the approval is not
    part of the packet's SHA-256, so it still matches the content)."""
    packet = yaml.safe_load(path.read_text())
    packet["approval"]["approved_at"] = approved_at
    path.write_text(yaml.safe_dump(packet, sort_keys=False))


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_an_approval_time_edited_in_the_packet_orders_nothing(trips):
    """Issue 55, item 6: run A approved, then run B approved and applied over the same days. A's approval time
    edited to 2099 is refused as an edit; edited to a time after B's approval (a time it could have had), A is still
    the older decision: it was given offline, so the trail dates it by its plan, and B's rows stay."""
    path_a, a = approved(trips)
    path_b, b = plan_and_approve(trips, "newer", [p["value"] for p in a["partitions"]])
    ok(trips.backfill("apply", str(path_b)))
    before = snapshot(trips)

    with_approval_time(path_a, "2099-01-01T00:00:00+00:00")
    result = trips.backfill("apply", str(path_a))
    refused(result, "the approval is dated 2099-01-01T00:00:00+00:00, after now: the approval block was edited.")
    assert snapshot(trips) == before

    later = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    assert later > b["approval"]["approved_at"]
    with_approval_time(path_a, later)
    result = trips.backfill("apply", str(path_a))
    refused(result, f"partition 2026-03-01 was replaced by run {b['run_id']} at ")
    assert "the later approval supersedes this one there. Nothing was replaced; the target is unchanged." in (
        result.stderr
    ), result.stderr
    assert later not in result.stderr  # the edited text dates nothing
    assert snapshot(trips) == before


@pytest.mark.parametrize(
    "trips", ["duckdb"], indirect=True
)  # the ledger is the same SQL on every engine: the majors run on both
def test_a_rollback_restores_only_what_its_run_wrote_and_partitions_names_each_writer(trips):
    stale = {day: fares(trips, day) for day in ("2026-03-01", "2026-03-02")}
    path_a, a = plan_and_approve(trips, "a", ["2026-03-01"], by="Dana Owner")
    path_b, b = plan_and_approve(trips, "b", ["2026-03-01", "2026-03-02"])
    # the second plan's review names the first, open over the same partition
    review = yaml.safe_load(path_b.read_text())["review"]["checks"][2]["finding"]
    assert (f"Other runs over these partitions: run {a['run_id']} (planned ") in review
    assert (
        ", 2026-03-01): no approval recorded, not applied: open." in review
    )  # approved offline: the trail cannot know
    ok(trips.backfill("apply", str(path_a)))
    applied = ok(trips.backfill("apply", str(path_b)))  # 2026-03-01 already holds these rows: skipped
    assert (
        f"  2026-03-01: the same rows as run {a['run_id']} (approved by Dana Owner) replaced it at "
    ) in applied.stdout
    repaired = {day: fares(trips, day) for day in stale}
    assert repaired != stale

    result = ok(trips.backfill("rollback", str(path_b), "--by", "Sam Ops"))

    assert "restored 2026-03-02, each equal to its fingerprint before the apply." in result.stdout
    assert (
        f"Left 2026-03-01 as it is, not replaced by this run: run {a['run_id']} (approved by Dana Owner) replaced "
        "it at "
    ) in result.stdout
    assert "and it still holds those rows; `dbt-backfill rollback backfills/a.yml` undoes that." in result.stdout
    assert {day: fares(trips, day) for day in stale} == {
        "2026-03-01": repaired["2026-03-01"],
        "2026-03-02": stale["2026-03-02"],
    }

    ledger = ok(trips.backfill("partitions", "fct_trips", "--json")).json()
    by_value = {entry["value"]: entry for entry in ledger["partitions"]}
    assert list(by_value) == ["2026-03-01", "2026-03-02"]  # every partition the audit trail records a write of
    assert by_value["2026-03-01"]["run_id"] == a["run_id"] and by_value["2026-03-01"]["event"] == "replaced"
    assert by_value["2026-03-01"]["holds_writer"] is True and by_value["2026-03-01"]["approved_by"] == "Dana Owner"
    assert by_value["2026-03-02"]["run_id"] == b["run_id"] and by_value["2026-03-02"]["event"] == "restored"
    assert by_value["2026-03-02"]["by"] == "Sam Ops" and by_value["2026-03-02"]["holds_writer"] is True
    # a partition no run wrote, and one the live job changed after the run wrote it
    trips.query("update analytics.fct_trips set fare = fare + 1 where trip_date = '2026-03-01'")
    text = ok(trips.backfill("partitions", "fct_trips", "--partitions", "2026-02-28..2026-03-01")).stdout
    assert (
        "2026-02-28  " in text and "no dbt-backfill write recorded: as the live job (or another writer) left it" in text
    )
    assert (f"changed since run {a['run_id']} (approved by Dana Owner) replaced it at ") in text
    assert ": by the live job or another writer" in text
    # the same ledger on the pure-dbt path
    pure = ok(
        trips.dbt(
            "run-operation", "dbt_backfill.partition_ledger", "--args", "{model: fct_trips, partitions: 2026-03-02}"
        )
    )
    assert "  2026-03-02  " in pure.stdout
    assert f"as last written: run {b['run_id']} (approved by Lee Owner) rolled it back at " in pure.stdout


# -- apply --cascade tells the truth ------------------------------------------------------------------------------

MONTHLY_SQL = """{{ config(materialized='incremental', incremental_strategy='append') }}
select cast(extract(year from trip_date) * 100 + extract(month from trip_date) as integer) as fare_month,
       count(*) as trips, sum(fare) as fares
from {{ ref('fct_trips') }}
{% if is_incremental() %}where trip_date > (select max(trip_date) from {{ ref('fct_trips') }}){% endif %}
group by 1
"""
BY_STATUS_SQL = """{{ config(materialized='table') }}
select status, count(*) as trips, sum(fare) as fares from {{ ref('fct_trips') }} group by status
"""
# one row per completed trip, its day alone: the repair changes how many times a row appears, nothing else
COMPLETED_DAYS_SQL = """{{ config(materialized='incremental', incremental_strategy='append') }}
select trip_date from {{ ref('fct_trips') }} where status = 'completed'
{% if is_incremental() %}and trip_date > (select max(trip_date) from {{ this }}){% endif %}
"""


# the ledger is the same SQL on every engine over the audit trail (PostgreSQL's attribution of its rows by writer is
# test_trust_anchors'), and each engine's apply and rollback are tested on their own: once, on DuckDB (DECISIONS row 87)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_cascade_over_a_downstream_model_it_cannot_map_exits_non_zero_naming_every_differing_partition(trips):
    (trips.dir / "models" / "monthly_fares.sql").write_text(MONTHLY_SQL)
    (trips.dir / "models" / "completed_days.sql").write_text(COMPLETED_DAYS_SQL)
    (trips.dir / "models" / "monthly_fares.yml").write_text(
        yaml.safe_dump(
            {
                "version": 2,
                "models": [
                    {
                        "name": "monthly_fares",
                        "config": {
                            "meta": {"backfill": {"partition_by": "fare_month", "business_key": ["fare_month"]}}
                        },
                    }
                ],
            }
        )
    )
    ok(trips.dbt("run", "--select", "monthly_fares", "completed_days"))
    path, _ = plan_and_approve(trips, "root", ["2026-03-01", "2026-03-02", "2026-03-03"])
    # and a model that becomes a child of the root after its plan: not covered by the approval, still checked
    (trips.dir / "models" / "fares_by_status.sql").write_text(BY_STATUS_SQL)
    ok(trips.dbt("run", "--select", "fares_by_status"))
    downstream = {
        name: trips.rows(f"analytics.{name}") for name in ("monthly_fares", "fares_by_status", "completed_days")
    }

    result = trips.backfill("apply", str(path), "--cascade")

    assert result.returncode == 4, result.output
    assert "Cascade: daily_fares applied: 2 partition(s) replaced" in result.stdout
    assert (
        "monthly_fares: its partitions do not map onto the root's (as the root's plan found it: it is partitioned by "
        "fare_month (meta.backfill), not by trip_date), so it was not rebuilt; compared with a full "
        "build of it now, partition(s) 202603 differ from a full build of it: repair with "
        "`dbt-backfill plan monthly_fares --partitions 202603`"
    ) in result.stderr
    # the same rows, fewer times: two trips are no longer completed
    assert (
        "completed_days: its partitions do not map onto the root's (as the root's plan found it: it declares no "
        "meta.backfill partition_by), so it was not rebuilt; compared with a full "
        "build of it now, 2 row(s) differ from a full build of it: repair with `dbt run --select completed_days "
        "--full-refresh`"
    ) in result.stderr
    assert (
        "fares_by_status: it became downstream of the root after the root's plan, so it was not rebuilt; compared "
        "with a full build of it now, "
    ) in result.stderr
    assert "row(s) differ from a full build of it: repair with `dbt run --select fares_by_status`" in result.stderr
    assert result.stderr.startswith("root applied, downstream left to you: ")
    # the root is applied; what was left is as it was
    assert trips.query(
        "select sum(fare) from analytics.fct_trips where trip_date between '2026-03-01' and '2026-03-03'"
    ) == [(Decimal("349.00"),)]
    assert {name: trips.rows(f"analytics.{name}") for name in downstream} == downstream


# -- five runs and the live job over overlapping partitions -------------------------------------------------------


def event(project, event_id, trip_id, day, fare, status="corrected", at="2026-04-01 10:00:00+00"):
    """A late event lands in the source."""
    project.query(
        f"insert into raw.trip_events (event_id, trip_id, trip_date, fare, status, updated_at) values "
        f"({event_id}, {trip_id}, '{day}', {fare}, '{status}', cast('{at}' as timestamp with time zone))"
    )


def audit_last_writes(project):
    """Each partition's last writer, read from the audit table with the test's own SQL and rule: (run, event, sha256)
    of the last write of the run whose rows it holds (a replacement or an apply that found its rows already there
    puts a run on top, a rollback takes it off), else of its last write."""
    import json

    rows = project.query(
        "select partition_value, run_id, event, outcome, fingerprint_after from "
        "analytics_backfill.dbt_backfill_audit where target like '%fct_trips' and (event = "
        "'partition_replaced' or (event = 'partition_skipped' and outcome = 'already equal to the "
        "approval') or (event = 'rolled_back' and outcome in ('restored', 'released'))) "
        "order by recorded_at"
    )
    writes, holders = {}, {}
    for value, run, kind, outcome, after in rows:
        event = {"partition_replaced": "replaced", "partition_skipped": "adopted"}.get(kind, outcome)
        writes.setdefault(value, []).append((run, event, json.loads(after)["sha256"]))
        stack = holders.setdefault(value, [])
        if run in stack:
            stack.remove(run)
        if event in ("replaced", "adopted"):
            stack.append(run)

    def standing(ws, run):  # an adoption right after the run's own replacement adds nothing to it
        kept = []
        for w in ws:
            if w[0] == run and not (w[1] == "adopted" and kept and kept[-1][1] == "replaced"):
                kept.append(w)
        return kept[-1]

    return {value: standing(ws, holders[value][-1]) if holders[value] else ws[-1] for value, ws in writes.items()}


def ledger_agrees(project, also=()):
    """`partitions` against the database and the audit trail: each partition's last writer and event as the trail
    records them, its rows as the table holds them, and `holds it` exactly when its rows are what that write left."""
    said = ok(project.backfill("partitions", "fct_trips", "--json")).json()["partitions"]
    trail = audit_last_writes(project)
    assert [e["value"] for e in said] == sorted(trail)
    for entry in said:
        run, kind, sha256 = trail[entry["value"]]
        rows = project.query(f"select count(*) from analytics.fct_trips where trip_date = '{entry['value']}'")[0][0]
        assert (entry["run_id"], entry["event"], entry["rows"]) == (run, kind, rows), entry
        assert entry["holds_writer"] == (entry["sha256"] == sha256), entry
    for value in also:
        named = ok(project.backfill("partitions", "fct_trips", "--partitions", value, "--json")).json()["partitions"]
        assert named[0]["writer"] == "unrecorded" and named[0]["run_id"] is None
    return {e["value"]: e for e in said}


# the ledger is the same SQL on every engine over the audit trail (PostgreSQL's attribution of its rows by writer is
# test_trust_anchors'), and each engine's apply and rollback are tested on their own: once, on DuckDB (DECISIONS row 87)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_five_runs_and_the_live_job_over_overlapping_partitions_and_what_each_command_says_after_every_step(trips):
    # run A repairs the three days
    path_a, a = approved(trips)
    ok(trips.backfill("apply", str(path_a)))
    ledger = ledger_agrees(trips)
    assert set(ledger) == set(SEED_DAYS) and ledger["2026-03-03"]["event"] == "adopted"  # unchanged by the repair
    again = ok(trips.backfill("apply", str(path_a)))
    assert (
        again.stdout.startswith(f"Applied {a['run_id']} to ")
        and ": nothing replaced, every partition already equals the approval (read now)." in again.stdout
        and "rows before" not in again.stdout
    )
    assert "Next: every partition is as approved" in ok(trips.backfill("status", str(path_a))).stdout

    # the live job moves forward: a new day, published by its own run
    event(trips, 30, 1030, "2026-03-05", 31.00, "completed", "2026-03-05 08:00:00+00")
    ok(trips.dbt("run", "--select", "fct_trips"))
    ledger_agrees(trips, also=["2026-03-05"])
    ok(trips.backfill("verify", str(path_a)))

    # a later correction of 2026-03-02: run B repairs that day over A's rows
    event(trips, 31, 1006, "2026-03-02", 5.00)
    event(trips, 33, 1020, "2026-03-02", 17.00, "completed", "2026-03-02 12:00:00+00")  # a trip that arrived late
    planned_b = ok(trips.plan("fct_trips", ["2026-03-02"], "--out", "backfills/b.yml"))
    assert "Added keys (sample):\n  2026-03-02  trip_id: 1020\n" in planned_b.stdout
    path_b = trips.dir / "backfills/b.yml"
    ok(trips.approve(path_b, "Lee Owner"))
    b = yaml.safe_load(path_b.read_text())
    ok(trips.backfill("apply", str(path_b)))
    ledger = ledger_agrees(trips)
    assert ledger["2026-03-02"]["run_id"] == b["run_id"] and ledger["2026-03-01"]["run_id"] == a["run_id"]
    status = ok(trips.backfill("status", str(path_a))).stdout
    assert (f"2026-03-02 holds what run {b['run_id']} (approved by Lee Owner) wrote at ") in status
    assert "(this run replaced it before, so `rollback` of this packet refuses it)" in status
    verify = trips.backfill("verify", str(path_a))
    refused(verify, "partition(s) 2026-03-02 no longer equal the approved fingerprints")
    assert f"(as last written: run {b['run_id']} (approved by Lee Owner) replaced it at " in verify.stderr

    # A cannot be rolled back over B; B can, and then A can
    before = snapshot(trips)
    refused(
        trips.backfill("rollback", str(path_a)),
        f"partition 2026-03-02 was written after run {a['run_id']}: run "
        f"{b['run_id']} (approved by Lee Owner) replaced it at ",
    )
    assert snapshot(trips) == before
    ok(trips.backfill("rollback", str(path_b), "--by", "Sam Ops"))
    ledger = ledger_agrees(trips)  # 2026-03-02 holds A's rows again: A's replacement is what stands
    assert ledger["2026-03-02"]["said"].startswith(
        f"as last written: run {a['run_id']} (approved by Dana Owner) replaced it at "
    )
    ok(trips.backfill("verify", str(path_a)))
    ok(trips.backfill("rollback", str(path_a), "--by", "Sam Ops"))
    ledger_agrees(trips)
    assert "Next: run " in ok(trips.backfill("status", str(path_a))).stdout

    # run C, on the pure-dbt path (a dbt Cloud job), over all three days: its review names A and B
    plan_c = ok(
        trips.dbt(
            "run-operation",
            "dbt_backfill.plan_backfill",
            "--args",
            "{model: fct_trips, partitions: 2026-03-01..2026-03-03}",
        )
    )
    c = plan_c.result("plan_backfill")
    assert f"run {a['run_id']} (planned " in plan_c.stdout and "rolled back at " in plan_c.stdout
    ok(
        trips.dbt(
            "run-operation",
            "dbt_backfill.apply_backfill",
            "--args",
            f"{{run_id: {c['run_id']}, approved_sha256: {c['packet_sha256']}, approved_by: Kim Owner}}",
        )
    )
    ledger = ledger_agrees(trips)
    assert {ledger[d]["run_id"] for d in ("2026-03-01", "2026-03-02")} == {c["run_id"]}
    assert ledger["2026-03-02"]["approved_by"] == "Kim Owner"

    # E is approved, then D (later) over an overlapping day; D is applied and rolled back: E's older approval no
    # longer writes 2026-03-01
    event(trips, 32, 1001, "2026-03-01", 26.00)
    path_e, _e = plan_and_approve(trips, "e", ["2026-03-01"], by="Dana Owner")
    path_d, d = plan_and_approve(trips, "d", ["2026-03-01", "2026-03-02"])
    ok(trips.backfill("apply", str(path_d)))
    ok(trips.backfill("rollback", str(path_d), "--by", "Sam Ops"))
    before = snapshot(trips)
    refused(trips.backfill("apply", str(path_e)), f"partition 2026-03-01 was replaced by run {d['run_id']} at ")
    assert snapshot(trips) == before
    ledger_agrees(trips)
    history = ok(trips.backfill("history", "fct_trips", "--json")).json()["events"]
    rollbacks = [h for h in history if h["event"] == "rolled_back"]
    assert rollbacks and {h["who"] for h in rollbacks} == {"Sam Ops"}
    assert {h["run_id"] for h in rollbacks} == {a["run_id"], b["run_id"], d["run_id"]}


# -- the live job is not an intruder ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "trips", ["duckdb"], indirect=True
)  # the ledger is the same SQL on every engine: the majors run on both
def test_the_control_partition_is_a_closed_one_so_the_live_job_s_run_never_blocks_an_apply(trips):
    # every day but the newest, which the live job is still writing: no closed partition lies outside the scope
    path, packet = plan_and_approve(trips, "all_but_newest", ["2026-02-28", "2026-03-01", "2026-03-02", "2026-03-03"])
    assert packet["control"] is None
    trips.query("update analytics.fct_trips set fare = fare + 1 where trip_date = '2026-03-04'")  # the live job

    applied = ok(trips.backfill("apply", str(path)))

    assert "Applied " in applied.stdout
    assert trips.query(
        "select sum(fare) from analytics.fct_trips where trip_date between '2026-03-01' and '2026-03-03'"
    ) == [(Decimal("349.00"),)]


@pytest.mark.parametrize("trips", ["postgres"], indirect=True)  # DuckDB pins every input by its content already
def test_a_scheduled_run_that_rewrites_the_same_rows_of_a_model_upstream_voids_no_approval(trips):
    trips.query("update analytics.daily_fares set fares = 0 where trip_date = '2026-03-04'")  # a stale day downstream
    out = "backfills/daily.yml"
    ok(trips.backfill("plan", "daily_fares", "--partitions", "2026-03-04", "--out", out))
    ok(trips.approve(trips.dir / out))
    # the live job rewrites fct_trips' rows as they were: new row versions, the same content
    trips.query("update analytics.fct_trips set fare = fare")

    applied = ok(trips.backfill("apply", out))

    assert "Applied " in applied.stdout
    assert trips.query("select fares from analytics.daily_fares where trip_date = '2026-03-04'")[0][0] != 0
    # a real change of the model upstream still voids it
    trips.query("update analytics.daily_fares set fares = 0 where trip_date = '2026-03-04'")
    ok(trips.backfill("plan", "daily_fares", "--partitions", "2026-03-04", "--out", "backfills/daily2.yml"))
    ok(trips.approve(trips.dir / "backfills/daily2.yml"))
    trips.query("update analytics.fct_trips set fare = fare + 1 where trip_date = '2026-03-04'")
    refused(trips.backfill("apply", "backfills/daily2.yml"), "the source changed since the plan (")


# -- input a person gets wrong, and the review ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "trips", ["duckdb"], indirect=True
)  # the ledger is the same SQL on every engine: the majors run on both
def test_a_range_leaves_out_values_no_side_holds_and_the_review_flags_a_protected_model_without_its_guard(trips):
    project_yml = trips.dir / "dbt_project.yml"
    project_yml.write_text(project_yml.read_text().replace('      - "{{ dbt_backfill.full_refresh_guard() }}"\n', ""))
    planned = ok(trips.plan("fct_trips", ["2026-02-20..2026-03-01"], "--out", "backfills/range.yml"))

    assert (
        "Left out of the range(s): 8 value(s) with no rows in the target or in the model's output, found before "
        "anything was built: 2026-02-20, 2026-02-21, 2026-02-22, 2026-02-23, 2026-02-24, 2026-02-25, 2026-02-26, "
        "2026-02-27"
    ) in planned.stdout
    packet = yaml.safe_load((trips.dir / "backfills/range.yml").read_text())
    assert [p["value"] for p in packet["partitions"]] == ["2026-02-28", "2026-03-01"]
    assert "- **Left out of the range(s):** 8 value(s)" in (trips.dir / "backfills/range.md").read_text()
    check = packet["review"]["checks"][2]
    assert check["severity"] == "warn" and packet["review"]["verdict"] == "RESTRUCTURE FIRST"
    assert check["finding"].startswith(
        "meta.backfill.protected is true, but the model has no dbt_backfill.full_refresh_guard() pre-hook"
    )
    assert "Added keys (sample):" not in planned.stdout  # the seed's repair changes rows, adds none
    refused(
        trips.backfill("approve", "backfills/range.yml", "--by", "Dana Owner", dbt_options=False),
        "the plan's review judged this packet RESTRUCTURE FIRST (No collision with the scheduled run: "
        "meta.backfill.protected is true",
    )
    # a value named alone that no side holds is still refused, after its builds
    alone = trips.plan("fct_trips", ["2026-02-20"])
    assert alone.returncode == 1 and "2026-02-20 hold no rows in the target and none in the model" in alone.stderr
    # a model nobody has: the closest names
    unknown = trips.plan("fct_trip", ["2026-03-01"])
    assert unknown.returncode == 1 and "no model named fct_trip in the dbt project at " in unknown.stderr
    assert "Did you mean fct_trips" in unknown.stderr


@pytest.mark.parametrize(
    "trips", ["duckdb"], indirect=True
)  # the ledger is the same SQL on every engine: the majors run on both
def test_on_the_pure_dbt_path_a_blocked_plan_fails_the_job_and_a_person_reads_lines_not_json(trips):
    quiet = {**trips.env, "DBT_BACKFILL_DEBUG": ""}

    blocked = trips.dbt(
        "run-operation",
        "dbt_backfill.plan_backfill",
        "--vars",
        GATE_THAT_FAILS,
        "--args",
        "{model: fct_trips_variant, partitions: [2026-03-01]}",
        env=quiet,
    )

    assert blocked.returncode == 1, blocked.output
    assert (
        "dbt_backfill refused (gate_failed): reconciliation gate(s) of meta.backfill.checks failed "
        "(total_matches_control:fare on 2026-03-01: "
    ) in blocked.stdout, blocked.stdout
    assert "The packet is recorded for review only (run " in blocked.stdout, blocked.stdout
    assert "apply_backfill refuses it. Fix the cause and plan again. The target is unchanged." in blocked.stdout
    assert "<<dbt_backfill:" not in blocked.stdout
    assert "dbt_backfill: checking partition value 2026-03-01" in blocked.stdout  # one line per step
    planned = ok(
        trips.dbt(
            "run-operation",
            "dbt_backfill.plan_backfill",
            "--args",
            "{model: fct_trips, partitions: [2026-03-01]}",
            env=quiet,
        )
    )
    assert "Packet recorded in " in planned.stdout and "approved_by: <name>}'" in planned.stdout
    history = ok(trips.dbt("run-operation", "dbt_backfill.backfill_history", "--args", "{model: fct_trips}", env=quiet))
    assert "<<dbt_backfill:" not in history.stdout
    header = next(line for line in history.stdout.splitlines() if "recorded at" in line)
    assert header.split("recorded at", 1)[1].split() == [
        "run",
        "model",
        "event",
        "partition",
        "run",
        "approved",
        "by",
        "done",
        "by",
        "outcome",
    ]


@pytest.mark.parametrize(
    "trips", ["duckdb"], indirect=True
)  # the ledger is the same SQL on every engine: the majors run on both
def test_clean_orphans_gives_true_reasons_a_blocked_packet_s_stages_go_an_applied_run_s_wait_for_its_deadline(trips):
    path, packet = approved(trips)  # first: a saved state of the slot
    ok(trips.backfill("apply", str(path)))
    # a pure-dbt plan whose gate fails: recorded for review only
    gated = trips.dbt(
        "run-operation",
        "dbt_backfill.plan_backfill",
        "--vars",
        GATE_THAT_FAILS,
        "--args",
        "{model: fct_trips_variant, partitions: [2026-03-01]}",
    )
    assert gated.returncode == 1 and "refused (gate_failed)" in gated.stdout, gated.output
    blocked = gated.result("plan_backfill")["run_id"]

    listed = ok(trips.backfill("clean", "--orphans", "--json")).json()["relations"]  # runs younger than a day

    assert {(r["kind"], r["action"]) for r in listed if r["run_id"] == blocked} == {
        ("build a", "drop"),
        ("build b", "drop"),
    }
    applied = [r for r in listed if r["run_id"] == packet["run_id"]]
    assert {r["reason"] for r in applied if r["kind"] != "backup"} == {
        f"its packet can be applied until {packet['expires_at']}"
    }
    assert all("a plan may still be building it" not in (r["reason"] or "") for r in applied)


# -- what the attack on the ledger found (issue 37's review) ---------------------------------------------------------


@pytest.mark.parametrize(
    "trips", ["duckdb"], indirect=True
)  # the ledger is the same SQL on every engine: the majors run on both
def test_a_run_that_found_its_rows_already_there_is_on_top_and_its_rollback_only_steps_aside(trips):
    path_a, a = approved(trips)
    path_b, b = plan_and_approve(trips, "b", [p["value"] for p in a["partitions"]])
    ok(trips.backfill("apply", str(path_a)))
    ok(trips.backfill("apply", str(path_b)))  # every partition already holds B's approved rows: B takes them
    ok(trips.backfill("verify", str(path_b)))
    repaired = snapshot(trips)

    refused(
        trips.backfill("rollback", str(path_a)),
        f"partition 2026-03-01 was written after run {a['run_id']}: run "
        f"{b['run_id']} (approved by Lee Owner) found it already holding its approved rows at ",
    )
    assert snapshot(trips) == repaired
    stepped_aside = ok(trips.backfill("rollback", str(path_b), "--by", "Sam Ops"))
    assert "Left 2026-03-01 as it is, not replaced by this run: " in stepped_aside.stdout
    assert snapshot(trips) == repaired  # nothing of B's to undo
    ok(trips.backfill("rollback", str(path_a), "--by", "Sam Ops"))
    assert snapshot(trips) != repaired


@pytest.mark.parametrize(
    "trips", ["duckdb"], indirect=True
)  # the ledger is the same SQL on every engine: the majors run on both
def test_a_rollback_never_undoes_a_full_refresh_and_never_blames_a_backup_its_run_never_made(trips):
    path_a, a = approved(trips)
    trips.query("update analytics.fct_trips set fare = fare + 1 where trip_date = '2026-03-02'")  # the live job
    partial = trips.backfill("apply", str(path_a))
    refused(partial, "partition 2026-03-02 changed since the plan")
    rolled_back = ok(trips.backfill("rollback", str(path_a), "--by", "Sam Ops"))
    assert "restored 2026-03-01, each equal to its fingerprint before the apply" in rolled_back.stdout
    assert (
        "Left 2026-03-02 as it is, not replaced by this run: its apply never wrote it, so there is nothing of it "
        "to undo there."
    ) in rolled_back.stdout

    trips.query("update analytics.fct_trips set fare = fare - 1 where trip_date = '2026-03-02'")
    ok(trips.backfill("apply", str(path_a)))
    ok(
        trips.dbt(
            "run",
            "--select",
            "fct_trips",
            "--full-refresh",
            "--vars",
            "{dbt_backfill_allow_full_refresh: 'rebuild all'}",
        )
    )
    rebuilt = snapshot(trips)
    refusal = trips.backfill("rollback", str(path_a))
    refused(refusal, f"partition 2026-03-01 was written after run {a['run_id']}: a full refresh by ")
    refusal = refusal.stderr
    assert "rebuilt it at " in refusal and '("rebuild all")' in refusal
    assert (
        "A full refresh cannot be rolled back; to change the partition, plan it again: `dbt-backfill plan "
        "fct_trips --partitions 2026-03-01,2026-03-02,2026-03-03`."
    ) in refusal
    assert snapshot(trips) == rebuilt


@pytest.mark.parametrize(
    "trips", ["duckdb"], indirect=True
)  # the ledger is the same SQL on every engine: the majors run on both
def test_a_later_run_whose_backups_are_gone_is_named_as_such_never_as_a_rollback_to_run(trips):
    path_a, a = approved(trips)
    ok(trips.backfill("apply", str(path_a)))
    event(trips, 31, 1006, "2026-03-02", 5.00)
    path_b, b = plan_and_approve(trips, "b", ["2026-03-02"])
    ok(trips.backfill("apply", str(path_b)))
    ok(trips.backfill("clean", str(path_b), "--drop-backups"))
    before = snapshot(trips)

    result = trips.backfill("rollback", str(path_a))

    refused(result, f"partition 2026-03-02 was written after run {a['run_id']}: run {b['run_id']}")
    assert (f"Run {b['run_id']} cannot be rolled back there either: its backup ") in result.stderr
    assert (
        "is gone. To change the partition, plan it again: `dbt-backfill plan fct_trips --partitions "
        "2026-03-01,2026-03-02,2026-03-03`."
    ) in result.stderr
    assert snapshot(trips) == before
