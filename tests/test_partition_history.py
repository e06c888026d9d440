"""A partition's history across runs (issue 37): no run undoes a later one, an older approval never overwrites a
newer repair, `partitions` and `status` name the run that wrote each partition last, and `apply --cascade` never
exits 0 while a model downstream differs from a full build of it. Real dbt on PostgreSQL and DuckDB; every
refusal is asserted with its exit status, its words and every published table's rows."""
from decimal import Decimal

import pytest
import yaml

from backends import TRANSACTIONAL_ADAPTERS
from conftest import trips_on
from test_tampering import approved, refused, snapshot

trips = trips_on(TRANSACTIONAL_ADAPTERS)


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

    refused(result, f"partition 2026-03-01 was written after run {a['run_id']}: run {b['run_id']} (approved by Lee "
                    f"Owner) replaced it at ")
    assert f", after run {a['run_id']} itself was rolled back at " in result.stderr
    assert "(by Sam Ops). Rolling back run " in result.stderr
    assert ("now would undo that later repair, so nothing was restored: every partition is unchanged. Run "
            f"{a['run_id']} has nothing left to undo there. To undo run {b['run_id']}: "
            f"`dbt-backfill rollback backfills/q1_fix_v3.yml`.") in result.stderr
    assert snapshot(trips) == repaired

    # status of the older packet names the run whose rows the partitions hold, and what each packet's rollback does
    status = ok(trips.backfill("status", str(path_a)))
    assert (f"2026-03-01 holds what run {b['run_id']} (approved by Lee Owner) wrote at ") in status.stdout
    assert ("(this run was rolled back there before); `dbt-backfill rollback backfills/q1_fix_v3.yml` undoes that "
            "run") in status.stdout
    assert "The other partition(s): 2026-03-03 as approved (the repair changes nothing there)." in status.stdout
    ok(trips.backfill("verify", str(path_b)))

    # the newer run rolls back; then the older one has nothing left to undo, and says so
    ok(trips.backfill("rollback", str(path_b), "--by", "Sam Ops"))
    assert snapshot(trips) == stale
    again = ok(trips.backfill("rollback", str(path_a)))
    assert "restored nothing, each equal to its fingerprint before the apply; already as before: 2026-03-01, " \
           "2026-03-02, 2026-03-03." in again.stdout
    assert snapshot(trips) == stale
    status = ok(trips.backfill("status", str(path_a)))
    assert f"Next: run {a['run_id']} was rolled back at " in status.stdout
    assert "by Sam Ops: every partition holds its rows from before the apply." in status.stdout


def test_an_older_approval_never_overwrites_a_partition_a_later_approved_run_wrote(trips):
    path_a, a = approved(trips)  # planned and approved first
    path_b, b = plan_and_approve(trips, "newer", [p["value"] for p in a["partitions"]])
    ok(trips.backfill("apply", str(path_b)))
    ok(trips.backfill("rollback", str(path_b), "--by", "Sam Ops"))
    before = snapshot(trips)

    result = trips.backfill("apply", str(path_a))

    refused(result, f"partition 2026-03-01 was replaced by run {b['run_id']} at ")
    assert (f", approved by Lee Owner at {b['approval']['approved_at']}, after this run's approval (by Dana Owner at "
            f"{a['approval']['approved_at']}): the later approval supersedes this one there, and that run was rolled "
            "back since. Nothing was replaced; the target is unchanged. To repair from what the table holds now, "
            "plan again: `dbt-backfill plan fct_trips --partitions 2026-03-01,2026-03-02,2026-03-03`.") in result.stderr
    assert snapshot(trips) == before


def test_a_rollback_restores_only_what_its_run_wrote_and_partitions_names_each_writer(trips):
    stale = {day: fares(trips, day) for day in ("2026-03-01", "2026-03-02")}
    path_a, a = plan_and_approve(trips, "a", ["2026-03-01"], by="Dana Owner")
    path_b, b = plan_and_approve(trips, "b", ["2026-03-01", "2026-03-02"])
    ok(trips.backfill("apply", str(path_a)))
    ok(trips.backfill("apply", str(path_b)))  # 2026-03-01 already holds these rows: skipped
    repaired = {day: fares(trips, day) for day in stale}
    assert repaired != stale

    result = ok(trips.backfill("rollback", str(path_b), "--by", "Sam Ops"))

    assert "restored 2026-03-02, each equal to its fingerprint before the apply." in result.stdout
    assert (f"Left 2026-03-01 as it is, not replaced by this run: run {a['run_id']} (approved by Dana Owner) replaced "
            "it at ") in result.stdout
    assert "and it still holds those rows; `dbt-backfill rollback backfills/a.yml` undoes that." in result.stdout
    assert {day: fares(trips, day) for day in stale} == {"2026-03-01": repaired["2026-03-01"],
                                                         "2026-03-02": stale["2026-03-02"]}

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
    assert "2026-02-28  " in text and "no dbt-backfill write recorded: as the live job (or another writer) left it" in text
    assert (f"changed since run {a['run_id']} (approved by Dana Owner) replaced it at ") in text
    assert ": by the live job or another writer" in text
    # the same ledger on the pure-dbt path
    pure = ok(trips.dbt("run-operation", "dbt_backfill.partition_ledger", "--args",
                        "{model: fct_trips, partitions: 2026-03-02}"))
    assert (f"2026-03-02  " in pure.stdout and f"as last written: run {b['run_id']} (approved by Lee Owner) rolled it "
            "back at ") in pure.stdout


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


def test_a_cascade_over_a_downstream_model_it_cannot_map_exits_non_zero_naming_every_differing_partition(trips):
    (trips.dir / "models" / "monthly_fares.sql").write_text(MONTHLY_SQL)
    (trips.dir / "models" / "fares_by_status.sql").write_text(BY_STATUS_SQL)
    (trips.dir / "models" / "monthly_fares.yml").write_text(yaml.safe_dump({"version": 2, "models": [
        {"name": "monthly_fares", "config": {"meta": {"backfill": {"partition_by": "fare_month",
                                                                   "business_key": ["fare_month"]}}}}]}))
    ok(trips.dbt("run", "--select", "monthly_fares", "fares_by_status"))
    downstream = {name: trips.rows(f"analytics.{name}") for name in ("monthly_fares", "fares_by_status")}
    path, _ = plan_and_approve(trips, "root", ["2026-03-01", "2026-03-02", "2026-03-03"])

    result = trips.backfill("apply", str(path), "--cascade")

    assert result.returncode == 4, result.output
    assert "Cascade: daily_fares applied: 2 partition(s) replaced" in result.stdout
    assert ("monthly_fares: its partitions do not map onto the root's, so it was not rebuilt; compared with a full "
            "build of it now, partition(s) 202603 differ from a full build of it: repair with "
            "`dbt-backfill plan monthly_fares --partitions 202603`") in result.stderr
    assert ("fares_by_status: its partitions do not map onto the root's, so it was not rebuilt; compared with a full "
            "build of it now, ") in result.stderr
    assert "row(s) differ from a full build of it: repair with `dbt run --select fares_by_status`" in result.stderr
    assert result.stderr.startswith("root applied, downstream left to you: ")
    # the root is applied; what was left is as it was
    assert trips.query("select sum(fare) from analytics.fct_trips where trip_date between '2026-03-01' and "
                       "'2026-03-03'") == [(Decimal("349.00"),)]
    assert {name: trips.rows(f"analytics.{name}") for name in downstream} == downstream
