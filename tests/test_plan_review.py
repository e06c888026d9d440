"""The plan a data owner approves, on PostgreSQL and DuckDB through real dbt: the written plan (its headings, in
order), the six-check review and its verdict, the cost from the planner, the change summary computed bucket
digests first, the reconciliation gates, the control partition and the downstream models. Then what apply does
with them: canary, batches and checkpoints, a control that changed, a cascade to the model downstream.

On PostgreSQL too where its own leaves answer: the review's lock check, the cost from EXPLAIN, the key checks (its
probe or join), the reach read from the table, a cascade's locks and the recorded packet's SHA-256 computed by the
database. What the same Jinja or Python decides over those answers (the written plan's wording, the review's other
findings, the ranges, batches, a control's fingerprint, a cascade's stops) runs once, on DuckDB (DECISIONS row 87)."""

from __future__ import annotations

import hashlib
import json
import re
from decimal import Decimal

import pytest
import yaml
from backends import ENGINE_INDEPENDENT, TRANSACTIONAL_ADAPTERS
from dbt_backfill.demo import BACKFILL_DAYS, NEIGHBOUR_DAYS
from dbt_backfill.packet import Packet
from test_resilience import FaultLock, reached, start, wait_until

DAYS = list(BACKFILL_DAYS)
HEADINGS = ["Scope", "Order", "Dry-Run", "Execution Batches", "Validation", "Monitoring", "Stop Conditions", "Rollback"]
CHECKS = [
    "Bounded per-partition units",
    "Idempotent writes",
    "No collision with the scheduled run",
    "Watermark untouched",
    "Cost and rate known",
    "Bounded, verifiable, reversible",
]


def in_list(values):
    return "(" + ", ".join(f"'{v}'" for v in values) + ")"


@pytest.fixture(scope="module", params=TRANSACTIONAL_ADAPTERS)
def planned(request, projects, tmp_path_factory):
    """The seed scenario planned once with `--format md` (plans only read the target, so the tests below share it
    and plan more beside it)."""
    project = projects.new(request.param, tmp_path_factory.mktemp("plan_review"))
    project.publish_stale_target()
    if project.adapter == "postgres":
        project.query("analyze raw.trip_events")  # the planner's statistics, as any maintained table has them
    project.seed_path = project.dir / "backfills" / "seed.yml"
    project.seed_result = project.plan("fct_trips", DAYS, "--out", str(project.seed_path), "--format", "md")
    assert project.seed_result.returncode == 0, project.seed_result.output
    project.seed = yaml.safe_load(project.seed_path.read_text())
    project.published = project.rows()
    yield project
    project.close()


def test_the_written_plan_has_every_heading_in_order_and_is_saved_beside_the_packet(planned):
    document = planned.seed_path.with_suffix(".md").read_text()
    assert planned.seed_result.stdout == document
    positions = [document.index(f"\n## {heading}\n") for heading in HEADINGS]
    assert positions == sorted(positions)
    assert "**Verdict: SAFE TO RUN**" in document
    table = [line for line in document.splitlines() if re.match(r"^\| [1-6] \| ", line)]
    assert [line.split(" | ")[2] for line in table] == CHECKS
    # what the tool cannot know is marked unknown and listed as a gate
    gates = document.split("**Unresolved gates:**")[1].split("\n## ")[0]
    assert "data owner of" in gates and "unknown" in gates and "retention" in gates
    # the seed's change, old -> new, and the control partition outside the scope
    assert "trip_id 1003: fare 30.00 → 12.00" in document
    assert "**Control:** 2026-02-28" in document
    # the rule meta.backfill.order_by declares, stated, not assumed
    assert (
        "one row per `trip_id`, the version kept is the first by `updated_at` descending (the highest wins)."
        in document
    )
    assert planned.rows() == planned.published


@pytest.mark.parametrize("planned", ENGINE_INDEPENDENT, indirect=True, scope="module")
def test_an_order_by_without_a_direction_is_stated_as_such(planned):
    out = planned.dir / "backfills" / "undirected.yml"
    result = planned.plan("fct_trips", DAYS[:1], "--out", str(out), "--order-by", "updated_at")
    assert result.returncode == 0, result.output
    document = out.with_suffix(".md").read_text()
    assert (
        "the version kept is the first by `updated_at` (no direction declared for updated_at: which version wins "
        "is not stated; declare asc or desc in meta.backfill.order_by)"
    ) in document


def test_the_seed_review_is_safe_to_run_on_six_checks(planned):
    review = planned.seed["review"]
    assert [c["check"] for c in review["checks"]] == CHECKS
    assert [c["number"] for c in review["checks"]] == [1, 2, 3, 4, 5, 6]
    assert {c["severity"] for c in review["checks"]} == {"ok"}, review
    assert review["verdict"] == "SAFE TO RUN"
    assert "2026-03-04" in review["checks"][3]["finding"]  # the watermark's value, before and after


@pytest.mark.parametrize("planned", ENGINE_INDEPENDENT, indirect=True, scope="module")
def test_a_small_single_partition_backfill_is_not_flagged_as_risky(planned):
    out = planned.dir / "backfills" / "one_day.yml"
    result = planned.plan("fct_trips", ["2026-03-02"], "--out", str(out))
    assert result.returncode == 0, result.output
    review = yaml.safe_load(out.read_text())["review"]
    assert review["verdict"] == "SAFE TO RUN"
    assert {c["severity"] for c in review["checks"]} == {"ok"}
    assert "batching it would be over-engineering" in review["checks"][0]["finding"]
    assert "Review: SAFE TO RUN" in result.stdout


def test_cost_comes_from_the_planner_per_partition_with_a_total(planned):
    cost = planned.seed["cost"]
    source_rows = planned.query("select count(*) from raw.trip_events")[0][0]
    partition_rows = {p["value"]: p["target_before"]["row_count"] for p in planned.seed["partitions"]}
    for estimate in cost["partitions"]:
        # each build evaluates the whole model, so both builds read the whole source
        assert estimate["build_read_rows"] == 2 * source_rows
        # the rows apply writes are measured once built (_measured_cost): the backup and the rows after, none where
        # the partition already holds its build (apply skips it)
        built = next(p for p in planned.seed["partitions"] if p["value"] == estimate["value"])
        unchanged = built["builds"]["a"]["sha256"] == built["target_before"]["sha256"]
        after = built["builds"]["a"]["row_count"]
        assert estimate["apply_write_rows"] == (0 if unchanged else partition_rows[estimate["value"]] + after)
        if planned.adapter == "postgres":
            assert estimate["build_read_bytes"] > estimate["build_read_rows"]  # rows x the planner's row width
        else:
            assert estimate["build_read_bytes"] is None  # DuckDB's plan carries no row width
    assert cost["total"]["build_read_rows"] == sum(e["build_read_rows"] for e in cost["partitions"])
    assert cost["total"]["apply_write_rows"] == sum(e["apply_write_rows"] for e in cost["partitions"])
    assert cost["over"] == []


@pytest.mark.parametrize("planned", ENGINE_INDEPENDENT, indirect=True, scope="module")
def test_a_cost_over_the_threshold_is_a_warning_and_asks_to_restructure(planned):
    out = planned.dir / "backfills" / "costly.yml"
    result = planned.plan("fct_trips_variant", DAYS, "--out", str(out), "--vars", "{variant_cost_warning: {rows: 10}}")
    assert result.returncode == 0, result.output
    packet = yaml.safe_load(out.read_text())
    assert packet["cost"]["over"] and "threshold 10" in packet["cost"]["over"][0]
    assert packet["review"]["checks"][4]["severity"] == "warn"
    assert packet["review"]["verdict"] == "RESTRUCTURE FIRST"
    assert packet["review"]["reason"].startswith("Cost and rate known: the builds read an estimated")
    assert "Cost warning: the builds read an estimated" in result.stdout
    assert planned.rows() == planned.published


def test_the_change_summary_counts_changed_keys_and_shows_old_and_new(planned):
    changes = {p["value"]: p["changes"] for p in planned.seed["partitions"]}
    assert (changes["2026-03-01"]["added"], changes["2026-03-01"]["removed"], changes["2026-03-01"]["changed"]) == (
        0,
        0,
        1,
    )
    [fix] = changes["2026-03-01"]["sample"]
    assert fix["key"] == "1003" and fix["columns"]["fare"] == {"old": "30.00", "new": "12.00"}
    assert changes["2026-03-02"]["sample"][0]["columns"]["fare"] == {"old": "50.00", "new": "0.00"}
    assert (changes["2026-03-03"]["changed"], changes["2026-03-03"]["sample"]) == (0, [])
    assert "buckets" not in changes["2026-03-01"]


@pytest.mark.parametrize("planned", ENGINE_INDEPENDENT, indirect=True, scope="module")
def test_keys_added_and_removed_are_sampled(planned):
    out = planned.dir / "backfills" / "moved.yml"
    result = planned.plan(
        "fct_trips_variant", ["2026-03-01", "2026-03-02"], "--out", str(out), "--vars", "{move_trip: 1001}"
    )
    assert result.returncode == 0, result.output
    changes = {p["value"]: p["changes"] for p in yaml.safe_load(out.read_text())["partitions"]}
    assert changes["2026-03-01"]["removed_keys"] == ["1001"] and changes["2026-03-01"]["removed"] == 1
    assert changes["2026-03-02"]["added_keys"] == ["1001"] and changes["2026-03-02"]["added"] == 1


@pytest.mark.parametrize("planned", ENGINE_INDEPENDENT, indirect=True, scope="module")
def test_a_business_key_holding_the_partition_column_cannot_see_a_move_and_the_review_says_so(planned):
    # trip 1001 moves from 2026-03-01 to 2026-03-02; keyed (trip_id, trip_date), its new row has another key
    out = planned.dir / "backfills" / "moved_keyed_by_day.yml"
    result = planned.plan(
        "fct_trips_variant",
        ["2026-03-01"],
        "--out",
        str(out),
        "--vars",
        "{move_trip: 1001}",
        "--business-key",
        "trip_id,trip_date",
    )
    assert result.returncode == 0, result.output
    review = yaml.safe_load(out.read_text())["review"]
    idempotent = review["checks"][1]
    assert idempotent["severity"] == "warn" and review["verdict"] == "RESTRUCTURE FIRST"
    assert idempotent["finding"].startswith(
        "1 key(s) removed from 2026-03-01, and the business key holds the partition column trip_date"
    ), idempotent
    assert "a move cannot be told from a deletion" in idempotent["finding"]
    assert "a move cannot be told from a deletion" in out.with_suffix(".md").read_text()
    assert planned.rows() == planned.published


def test_a_key_that_moved_into_the_named_partition_from_one_not_named_is_refused_by_the_plan(planned):
    # trip 1001 moves from 2026-03-01 to 2026-03-02 and only 2026-03-02 is named: the target keeps it on 03-01
    out = planned.dir / "backfills" / "moved_one_side.yml"
    stages_before = planned.backend.tables_in("analytics_backfill")  # the module's other plans keep theirs
    result = planned.plan("fct_trips_variant", ["2026-03-02"], "--out", str(out), "--vars", "{move_trip: 1001}")
    assert result.returncode == 3, result.output
    assert result.stderr.startswith(
        "refused: after the backfill these keys would be in two partitions (trip_id=1001 in 2026-03-02 and in "
        "2026-03-01): a row moved between partitions and only one side is named. Name every partition it moved "
        "between. No packet was written and the target is unchanged. Its stages were dropped"
    ), result.stderr
    assert not out.exists()
    assert planned.backend.tables_in("analytics_backfill") == stages_before
    assert planned.rows() == planned.published


@pytest.mark.parametrize("planned", ENGINE_INDEPENDENT, indirect=True, scope="module")
def test_a_key_in_two_named_stages_is_refused_by_the_plan(planned):
    # 2026-03-02's trips 1006..1009 take the keys 1001..1004, which 2026-03-01's stage holds too: each stage is
    # unique on its own, and the target holds those keys only in the named partitions (only the stages meet)
    out = planned.dir / "backfills" / "two_stages.yml"
    stages_before = planned.backend.tables_in("analytics_backfill")
    result = planned.plan(
        "fct_trips_variant",
        ["2026-03-01", "2026-03-02"],
        "--out",
        str(out),
        "--vars",
        "{key_expr: 'case when trip_id >= 1006 then trip_id - 5 else trip_id end'}",
    )
    assert result.returncode == 3, result.output
    # a full build holds each of those keys in two partitions: the key repeats, no row moved (issue 53)
    described = "; ".join(f"trip_id={k} in 2 partitions, 2026-03-01 and 2026-03-02" for k in (1001, 1002, 1003, 1004))
    assert result.stderr.startswith(
        f"refused: business_key [trip_id] repeats across partitions (a full build of the model holds {described}; "
        "trip_id=1005 in 2 partitions, 2026-03-01 and 2026-03-03): it identifies a row only within a partition"
    ), result.stderr
    assert not out.exists()
    assert planned.backend.tables_in("analytics_backfill") == stages_before
    assert planned.rows() == planned.published


def test_reconciliation_gates_are_evaluated_per_partition_and_recorded(planned):
    gates = planned.seed["gates"]
    kinds = sorted({g["check"] for g in gates})
    assert kinds == ["no_new_nulls:fare", "no_new_nulls:status", "row_count_change_pct", "total_matches_control:fare"]
    assert len(gates) == 4 * len(DAYS) and all(g["passed"] for g in gates)
    control = {g["partition"]: g for g in gates if g["check"] == "total_matches_control:fare"}
    fares = {p["value"]: Decimal(p["fingerprint"]["totals"]["fare"]) for p in planned.seed["partitions"]}
    for day in DAYS:
        assert Decimal(control[day]["observed"]) == fares[day]
        assert Decimal(control[day]["expected"].split(" ")[0]) == fares[day]
    assert sum(fares.values()) == Decimal("349.00")


def test_the_control_partition_is_the_nearest_one_outside_the_scope(planned):
    control = planned.seed["control"]
    assert control["value"] == "2026-02-28" and control["value"] not in DAYS
    assert (
        control["fingerprint"]["row_count"]
        == planned.query("select count(*) from analytics.fct_trips where trip_date = '2026-02-28'")[0][0]
    )


def test_the_plan_lists_the_models_downstream_in_order_with_their_mapping(planned):
    downstream = {d["model"]: d for d in planned.seed["downstream"]}
    assert downstream["daily_fares"]["mapping"] == "same_partitions"
    assert downstream["daily_fares"]["parents"] == ["fct_trips"]
    document = planned.seed_path.with_suffix(".md").read_text()
    order = document.split("\n## Order\n")[1].split("\n## ")[0]
    assert order.index("`fct_trips`") < order.index("`daily_fares` (after fct_trips)")


@pytest.mark.parametrize(
    "partition_by, changed, window, partitions",
    [
        # two stretches of integer partitions, each widened one either way
        ("trip_id", [1003, 1009], {"before": 1, "after": 1}, ["1002", "1003", "1004", "1008", "1009", "1010"]),
        # a window past the newest partition the table holds
        ("trip_id", [1013], {"after": 100}, ["1013", "1101", "1102"]),
        ("trip_date", ["2026-03-01"], {"after": 1}, ["2026-03-01", "2026-03-02"]),
        # a changed value the table does not hold stays in the reach (a build may create it)
        ("trip_date", ["2026-03-10"], {}, ["2026-03-10"]),
        # a text column has no neighbours
        ("status", ["completed"], {}, ["completed"]),
    ],
    ids=["integer", "integer-past-the-end", "date", "date-not-held", "text"],
)
def test_the_reach_of_a_change_is_read_from_the_table(planned, partition_by, changed, window, partitions):
    result = planned.dbt(
        "run-operation",
        "dbt_backfill.partitions_in_reach",
        "--args",
        json.dumps({"model": "fct_trips", "partition_by": partition_by, "changed": changed, **window}),
    )
    assert result.returncode == 0, result.output
    reach = result.result("reach")
    assert (reach["partitions"], reach["beyond"], reach["ordered"]) == (partitions, [], partition_by != "status")
    assert planned.rows() == planned.published


def test_a_window_on_a_text_partition_column_is_refused_by_the_reach(planned):
    result = planned.dbt(
        "run-operation",
        "dbt_backfill.partitions_in_reach",
        "--args",
        json.dumps({"model": "fct_trips", "partition_by": "status", "changed": ["completed"], "after": 2}),
    )
    assert result.returncode == 1, result.output
    assert (
        "meta.backfill.depends_on_window of fct_trips counts partitions before and after a changed one, but its "
        "partition column status is"
    ) in result.output


# -- apply: canary, batches, control, cascade ----------------------------------------------------------------


def plan_and_approve(project, *extra):
    path = project.dir / "backfills" / f"run{len(project.packets())}.yml"
    result = project.plan("fct_trips", DAYS, "--out", str(path), *extra)
    assert result.returncode == 0, result.output
    assert project.approve(path).returncode == 0
    return path


def audit_events(project, run_id):
    return [
        r[0]
        for r in project.query(
            f"select event from analytics_backfill.dbt_backfill_audit where run_id = '{run_id}' order by recorded_at"
        )
    ]


# batches and checkpoints are ordered by the same macro on every engine; each engine's replace and checkpoint are the
# seed apply's and the watermark rollback's: once, on DuckDB (on Spark it cost ~65 s)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_apply_replaces_the_canary_first_then_batches_with_a_checkpoint_after_each(trips):
    path = plan_and_approve(trips)
    result = trips.backfill("apply", str(path), "--batch-size", "1", "--json")
    assert result.returncode == 0, result.output
    checkpoints = result.json()["checkpoints"]
    assert [c["label"] for c in checkpoints] == ["canary", "batch ending 2026-03-02", "batch ending 2026-03-03"]
    assert [c["partitions"] for c in checkpoints] == [[d] for d in DAYS]
    assert {c["control"] for c in checkpoints} == {"2026-02-28"}
    assert trips.query(f"select sum(fare) from analytics.fct_trips where trip_date in {in_list(DAYS)}") == [
        (Decimal("349.00"),)
    ]
    run_id = yaml.safe_load(path.read_text())["run_id"]
    events = audit_events(trips, run_id)
    assert events.count("checkpoint") == 3
    assert events.index("partition_replaced") < events.index("checkpoint")  # the canary, then its checkpoint


# refused before any write by a fingerprint read the same way on every engine (each engine's fingerprints are the
# canonical fingerprint tests'): once, on DuckDB (on Spark it cost ~70 s)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_control_partition_that_changed_since_the_plan_stops_apply_before_anything(trips):
    path = plan_and_approve(trips)
    trips.backend.update("analytics.fct_trips", "fare = fare + 1", "trip_date = '2026-02-28'")
    before = trips.query(f"select * from analytics.fct_trips where trip_date in {in_list(DAYS)} order by trip_id")
    result = trips.backfill("apply", str(path))
    assert result.returncode == 3, result.output
    assert "control partition 2026-02-28, outside the backfill, changed since the plan" in result.stderr
    assert "The target is unchanged" in result.stderr
    assert (
        trips.query(f"select * from analytics.fct_trips where trip_date in {in_list(DAYS)} order by trip_id") == before
    )


@pytest.mark.postgres
def test_a_failed_checkpoint_after_the_canary_stops_before_the_next_batch(projects, tmp_path):
    project = projects.new("postgres", tmp_path).publish_stale_target()
    try:
        path = plan_and_approve(project)
        packet = yaml.safe_load(path.read_text())
        hold = FaultLock(project)
        applying = start(project, ["apply", str(path)], fault_point="after_commit")
        try:
            wait_until(reached(project, "after_commit"), "the canary's commit")
            project.query("update analytics.fct_trips set status = 'tampered' where trip_date = '2026-02-28'")
        finally:
            hold.release()
        stdout, stderr = applying.communicate()
        assert applying.returncode == 3, stdout + stderr
        assert "the checkpoint after the canary failed: control partition 2026-02-28" in stderr
        assert "Partitions replaced: 2026-03-01 (committed; `rollback` restores them" in stderr
        fares = dict(
            project.query(
                f"select cast(trip_date as text), sum(fare) from analytics.fct_trips "
                f"where trip_date in {in_list(DAYS)} group by 1"
            )
        )
        approved = {p["value"]: Decimal(p["fingerprint"]["totals"]["fare"]) for p in packet["partitions"]}
        before = {p["value"]: Decimal(p["target_before"]["totals"]["fare"]) for p in packet["partitions"]}
        assert fares == {
            "2026-03-01": approved["2026-03-01"],
            "2026-03-02": before["2026-03-02"],
            "2026-03-03": before["2026-03-03"],
        }
        assert "checkpoint_failed" in audit_events(project, packet["run_id"])
    finally:
        project.close()


# Not on Spark: there every plan is reviewed RESTRUCTURE FIRST (no lock: test_spark's review test), and a cascade
# stops at a downstream plan so reviewed, with the root applied and the model unchanged, on every engine alike
# (the test after this one): the Spark run of this test asserted exactly that, in ~117 s (DECISIONS row 87)
@pytest.mark.parametrize("trips", TRANSACTIONAL_ADAPTERS, indirect=True)
def test_apply_cascade_rebuilds_the_downstream_model_behind_the_root_each_behind_its_own_gates(trips):
    daily = "select trip_date, trips, fares from analytics.daily_fares"
    stale = dict((str(d), (t, f)) for d, t, f in trips.query(daily))
    path = plan_and_approve(trips)
    result = trips.backfill("apply", str(path), "--cascade")
    assert result.returncode == 0, result.output
    # 2026-03-03 of fct_trips did not change, so its day in daily_fares is out of the reach (and equal to a build)
    assert (
        "Cascade: daily_fares applied: 2 partition(s) replaced, 0 already equal (reach: the changed partitions alone"
        in result.stdout
    )
    now = dict((str(d), (t, f)) for d, t, f in trips.query(daily))
    truth = dict((str(d), f) for d, f in trips.query("select trip_date, sum(fare) from analytics.fct_trips group by 1"))
    for day in DAYS:
        assert now[day][1] == truth[day]
    assert sum(stale[d][1] for d in DAYS) == Decimal("417.00")
    assert sum(now[d][1] for d in DAYS) == Decimal("349.00")
    for day in NEIGHBOUR_DAYS:
        assert now[day] == stale[day]
    root = yaml.safe_load(path.read_text())
    [child_path] = (trips.dir / "backfills").glob("daily_fares__*__cascade.yml")
    child = yaml.safe_load(child_path.read_text())
    # the root's table too: the logins that approved the root are recorded beside it (issue 55, DECISIONS 138)
    assert child["cascade_of"] == {
        "run_id": root["run_id"],
        "packet_sha256": root["approval"]["packet_sha256"],
        "target_relation": root["target_relation"],
    }
    assert child["approval"]["approved_by"] == f"Dana Owner (cascade of {root['run_id']})"
    assert child["gates"] and all(g["passed"] for g in child["gates"])
    verify = trips.backfill("verify", str(child_path))
    assert verify.returncode == 0, verify.output


# A cascade's stops, reaches and bindings are decided in Python and the same Jinja over each model's plan on every
# engine; PostgreSQL runs the cascade whole in the test above (its locks, one model after another): the cascade
# tests below run once, on DuckDB (not on Spark: every cascade stops at the collision check first there)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_cascade_stops_at_a_downstream_plan_that_is_not_safe_to_run_with_the_root_applied(trips):
    daily = "select * from analytics.daily_fares order by trip_date"
    stale = trips.query(daily)
    # the var is the root's plan's too: it is part of daily_fares' meta.backfill, which the root's approval binds
    cost_warning = ["--vars", "{daily_fares_cost_warning: {rows: 1}}"]
    path = plan_and_approve(trips, *cost_warning)
    result = trips.backfill("apply", str(path), "--cascade", *cost_warning)
    assert result.returncode == 3, result.output
    assert (
        "cascade stopped at daily_fares: its plan is reviewed RESTRUCTURE FIRST (Cost and rate known" in result.stderr
    )
    assert "The root fct_trips is applied; daily_fares and the models after it are unchanged." in result.stderr
    assert trips.query(f"select sum(fare) from analytics.fct_trips where trip_date in {in_list(DAYS)}") == [
        (Decimal("349.00"),)
    ]
    assert trips.query(daily) == stale
    [child_path] = (trips.dir / "backfills").glob("daily_fares__*__cascade.yml")
    assert yaml.safe_load(child_path.read_text())["approval"] is None  # left for a person


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
@pytest.mark.parametrize(
    "edited, edit, changed",
    [
        (
            "models/daily_fares.sql",
            lambda sql: sql + "\n-- edited after the root's approval\n",
            "compiled_sql_sha256, model_file_sha256",
        ),
        ("macros/fares_total.sql", lambda sql: sql.replace("sum(", "sum( "), "compiled_sql_sha256"),
        # its contract, not its SQL: a column left out of its fingerprint after the approver saw the plan
        (
            "models/schema.yml",
            lambda yml: yml.replace(
                "business_key: [trip_date]\n", "business_key: [trip_date]\n          exclude_columns: [trips]\n"
            ),
            "meta_backfill_sha256",
        ),
    ],
    ids=["its-file", "a-macro-it-calls", "its-meta"],
)
def test_a_cascade_never_auto_approves_a_downstream_model_whose_sql_changed_after_the_root_approval(
    trips, edited, edit, changed
):
    """The model's own file, a macro it calls (its file unchanged) or its meta.backfill: each changes what it runs."""
    daily = "select * from analytics.daily_fares order by trip_date"
    stale = trips.query(daily)
    path = plan_and_approve(trips)
    edited = trips.dir / edited
    before_edit = edited.read_text()
    # any edit: the rows stay the same here, so every gate of its plan passes and only the binding can stop it
    edited.write_text(edit(before_edit))
    assert edited.read_text() != before_edit

    result = trips.backfill("apply", str(path), "--cascade")

    assert result.returncode == 3, result.output
    assert (
        f"cascade stopped at daily_fares: what it runs changed after the root was planned ({changed} differ "
        f"from the root's approved packet"
    ) in result.stderr, result.stderr
    assert "The root fct_trips is applied; daily_fares and the models after it are unchanged." in result.stderr
    assert trips.query(daily) == stale
    [child_path] = (trips.dir / "backfills").glob("daily_fares__*__cascade.yml")
    assert yaml.safe_load(child_path.read_text())["approval"] is None  # left for a person


# A model of trailing metrics downstream of fct_trips: a day's row reads the 27 days before it, so a repair of one
# day of fct_trips changes that day and the 27 after it. Written by the tests into their own project.
TRAILING_SQL = """{{ config(materialized='incremental', incremental_strategy='append') }}
with days as (select distinct trip_date from {{ ref('fct_trips') }})
select days.trip_date,
       count(*) as trips_28d,
       sum(case when trips.trip_date > {{ dbt.dateadd('day', -7, 'days.trip_date') }} then trips.fare else 0 end) as fares_7d,
       sum(trips.fare) as fares_28d
from days
join {{ ref('fct_trips') }} as trips
  on trips.trip_date <= days.trip_date and trips.trip_date > {{ dbt.dateadd('day', -28, 'days.trip_date') }}
{% if is_incremental() %}where days.trip_date > (select max(trip_date) from {{ this }}){% endif %}
group by days.trip_date
"""


def add_trailing_model(project, window):
    backfill = {"partition_by": "trip_date", "business_key": ["trip_date"], "additive": ["fares_28d"]}
    if window is not None:
        backfill["depends_on_window"] = window
    (project.dir / "models" / "trailing_fares.sql").write_text(TRAILING_SQL)
    (project.dir / "models" / "trailing_fares.yml").write_text(
        yaml.safe_dump(
            {"version": 2, "models": [{"name": "trailing_fares", "config": {"meta": {"backfill": backfill}}}]}
        )
    )
    run = project.dbt("run", "--select", "trailing_fares")
    assert run.returncode == 0, run.output


TRAILING = "select * from analytics.trailing_fares order by trip_date"


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_cascade_rebuilds_the_declared_window_of_a_trailing_metric_and_equals_a_full_refresh(trips):
    add_trailing_model(trips, {"after": 27})
    stale = trips.query(TRAILING)
    path = plan_and_approve(trips)
    document = path.with_suffix(".md").read_text()
    assert (
        "`trailing_fares` (after fct_trips): the partitions of trip_date its parents change (2026-03-01, 2026-03-02 "
        "by this plan), widened to 27 partition(s) after each (meta.backfill.depends_on_window), planned and "
        "applied behind fct_trips with `--cascade`, each behind its own gates; every other partition of it is "
        "first compared with a full build of it, and one that differs stops the cascade there."
    ) in document
    result = trips.backfill("apply", str(path), "--cascade")
    assert result.returncode == 0, result.output
    # 2026-03-03 and 2026-03-04 of fct_trips did not change, but their trailing sums did: four days replaced
    assert (
        "Cascade: trailing_fares applied: 4 partition(s) replaced, 0 already equal (reach: the changed partitions "
        "and 27 partition(s) after (meta.backfill.depends_on_window) of 2026-03-01, 2026-03-02; every other "
        "partition equal to a full build of it)"
    ) in result.stdout
    after = trips.query(TRAILING)
    assert after[0] == stale[0] and after[0][0].isoformat() == "2026-02-28"  # before the repair: untouched
    assert [row[0].isoformat() for row, old in zip(after, stale) if row != old] == [*DAYS, "2026-03-04"]
    # what a full build of the model holds now
    rebuilt = trips.dbt("run", "--select", "trailing_fares", "--full-refresh")
    assert rebuilt.returncode == 0, rebuilt.output
    assert trips.query(TRAILING) == after


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
@pytest.mark.parametrize(
    "window, beyond, reach",
    [
        (None, "2026-03-03, 2026-03-04", "the changed partitions alone (no depends_on_window declared)"),
        (
            {"after": 1},
            "2026-03-04",
            "the changed partitions and 1 partition(s) after (meta.backfill.depends_on_window)",
        ),
    ],
    ids=["undeclared", "too-narrow"],
)
def test_a_cascade_stops_where_a_partition_beyond_the_reach_differs_from_a_full_build(trips, window, beyond, reach):
    """Beyond the reach, the model is compared with a full build of it: a trailing metric whose window is not
    declared (or is declared too narrow) differs there, and the cascade stops naming every such partition instead
    of reporting success."""
    add_trailing_model(trips, window)
    stale = trips.query(TRAILING)
    path = plan_and_approve(trips)
    result = trips.backfill("apply", str(path), "--cascade")
    assert result.returncode == 3, result.output
    planned = "2026-03-01,2026-03-02" + (",2026-03-03" if window else "")
    assert (
        f"cascade stopped at trailing_fares: partition(s) {beyond} lie outside its reach ({reach} of 2026-03-01, "
        f"2026-03-02) but differ from a full build of it now: its rows depend on more of fct_trips than the reach "
        f"says, or it was already out of date there. Declare the window in its meta.backfill (depends_on_window: "
        f"{{after: N}} for a trailing window of N+1 partitions, before: for one that looks ahead) and plan the root "
        f"again, or plan trailing_fares by hand: `dbt-backfill plan trailing_fares --partitions "
        f"{planned},{beyond.replace(', ', ',')}`."
    ) in result.stderr, result.stderr
    assert (
        "The root fct_trips is applied; so are daily_fares; trailing_fares and the models after it are unchanged."
    ) in result.stderr
    assert trips.query(TRAILING) == stale
    assert trips.query(f"select sum(fare) from analytics.fct_trips where trip_date in {in_list(DAYS)}") == [
        (Decimal("349.00"),)
    ]
    assert not list((trips.dir / "backfills").glob("trailing_fares__*__cascade.yml"))  # stopped before its plan
    assert "refused" in audit_events(trips, yaml.safe_load(path.read_text())["run_id"])


LAGGED_SQL = """{{{{ config(materialized='incremental', incremental_strategy='append') }}}}
-- {kind}: each day next to the fares of the day {shift} days away (week-over-week comparisons have this shape)
with days as (select distinct trip_date from {{{{ ref('fct_trips') }}}})
select days.trip_date, coalesce(sum(trips.fare), 0) as fares_then
from days left join {{{{ ref('fct_trips') }}}} as trips
  on trips.trip_date = {{{{ dbt.dateadd('day', {shift}, 'days.trip_date') }}}}
group by days.trip_date
"""


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
@pytest.mark.parametrize(
    "kind, shift, beyond",
    [
        ("lag", -3, "2026-03-04"),  # reads three days back: the next day's probe alone would not see it
        ("lead", 1, "2026-02-28"),  # reads the next day: a changed day reaches the day before it
    ],
    ids=["lag-3", "lead-1"],
)
def test_a_window_no_neighbour_probe_would_see_still_stops_the_cascade(trips, kind, shift, beyond):
    (trips.dir / "models" / "lagged_fares.sql").write_text(LAGGED_SQL.format(kind=kind, shift=shift))
    (trips.dir / "models" / "lagged_fares.yml").write_text(
        yaml.safe_dump(
            {
                "version": 2,
                "models": [
                    {
                        "name": "lagged_fares",
                        "config": {"meta": {"backfill": {"partition_by": "trip_date", "business_key": ["trip_date"]}}},
                    }
                ],
            }
        )
    )
    assert trips.dbt("run", "--select", "lagged_fares").returncode == 0
    stale = trips.query("select * from analytics.lagged_fares order by trip_date")
    path = plan_and_approve(trips)
    result = trips.backfill("apply", str(path), "--cascade")
    assert result.returncode == 3, result.output
    assert f"cascade stopped at lagged_fares: partition(s) {beyond} lie outside its reach" in result.stderr
    assert trips.query("select * from analytics.lagged_fares order by trip_date") == stale


ADJUSTED_SQL = """{{ config(materialized='incremental', incremental_strategy='append') }}
-- trips not plainly completed in the 7 days up to each day, for the days that have any: before the corrections
-- arrive the table is empty, so the repair creates its partitions
with days as (select distinct trip_date from {{ ref('fct_trips') }})
select days.trip_date, count(*) as adjusted_7d
from days
join {{ ref('fct_trips') }} as trips
  on trips.trip_date <= days.trip_date and trips.trip_date > {{ dbt.dateadd('day', -7, 'days.trip_date') }}
where trips.status <> 'completed'
group by days.trip_date
"""


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_cascade_creates_the_partitions_a_window_reaches_that_the_table_did_not_hold(trips):
    (trips.dir / "models" / "adjusted_7d.sql").write_text(ADJUSTED_SQL)
    (trips.dir / "models" / "adjusted_7d.yml").write_text(
        yaml.safe_dump(
            {
                "version": 2,
                "models": [
                    {
                        "name": "adjusted_7d",
                        "config": {
                            "meta": {
                                "backfill": {
                                    "partition_by": "trip_date",
                                    "business_key": ["trip_date"],
                                    "depends_on_window": {"after": 6},
                                }
                            }
                        },
                    }
                ],
            }
        )
    )
    assert trips.dbt("run", "--select", "adjusted_7d").returncode == 0
    assert trips.query("select count(*) from analytics.adjusted_7d") == [(0,)]
    path = plan_and_approve(trips)
    result = trips.backfill("apply", str(path), "--cascade")
    assert result.returncode == 0, result.output
    assert "Cascade: adjusted_7d applied: 4 partition(s) replaced" in result.stdout
    after = trips.query("select * from analytics.adjusted_7d order by trip_date")
    assert [row[0].isoformat() for row in after] == [*DAYS, "2026-03-04"]
    rebuilt = trips.dbt("run", "--select", "adjusted_7d", "--full-refresh")
    assert rebuilt.returncode == 0, rebuilt.output
    assert trips.query("select * from analytics.adjusted_7d order by trip_date") == after


# -- the pure-dbt path ------------------------------------------------------------------------------------


# the same operations as the CLI's behind run-operation, whose leaves the seed scenario runs on every engine, and the
# packet's sha256 is checked in their Jinja before any SQL: once, on DuckDB (on Spark it cost 131 s, on PostgreSQL
# 11 s; DECISIONS row 115)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_pure_dbt_plan_and_apply_need_the_recorded_packets_sha256(trips):
    target_rows = trips.rows()
    plan = trips.dbt(
        "run-operation", "dbt_backfill.plan_backfill", "--args", json.dumps({"model": "fct_trips", "partitions": DAYS})
    )
    assert plan.returncode == 0, plan.output
    recorded = plan.result("plan_backfill")
    assert recorded["verdict"] == "SAFE TO RUN"
    for heading in HEADINGS:
        assert f"## {heading}" in plan.stdout
    assert trips.rows() == target_rows
    [(text,)] = trips.query(
        f"select detail from analytics_backfill.dbt_backfill_audit "
        f"where event = 'packet_recorded' and run_id = '{recorded['run_id']}'"
    )
    packet = json.loads(text)
    # the same SQL as `dbt compile --full-refresh`, so the same builds as the CLI's plan
    cli = trips.plan("fct_trips", DAYS, "--out", str(trips.dir / "backfills" / "cli.yml"))
    assert cli.returncode == 0, cli.output
    cli_packet = yaml.safe_load((trips.dir / "backfills" / "cli.yml").read_text())
    assert [p["fingerprint"] for p in packet["partitions"]] == [p["fingerprint"] for p in cli_packet["partitions"]]
    assert packet["code"]["compiled_sql_sha256"] == cli_packet["code"]["compiled_sql_sha256"]
    # one shape for both paths, built by the package (macros/packet/_packet_document.sql): the same fields, and each
    # reads as Python's typed view and writes back unchanged. A field added to the package alone is refused by
    # from_dict; one added to `Packet` alone is written by to_dict and breaks the equality.
    assert set(packet) == set(cli_packet)
    for written in (packet, cli_packet):
        assert Packet.from_dict(written).to_dict() == written
    assert packet["dbt_target"] is None and cli_packet["dbt_target"] is None

    def apply_with(sha, by="Dana Owner"):
        return trips.dbt(
            "run-operation",
            "dbt_backfill.apply_backfill",
            "--args",
            json.dumps({"run_id": recorded["run_id"], "approved_sha256": sha, "approved_by": by}),
        )

    wrong = apply_with("0" * 64)
    assert wrong.returncode != 0 and wrong.result("refused")["reason"] == "approval_mismatch"
    assert "The target is unchanged" in wrong.result("refused")["message"]
    assert trips.rows() == target_rows

    applied = apply_with(recorded["packet_sha256"])
    assert applied.returncode == 0, applied.output
    assert trips.query(f"select sum(fare) from analytics.fct_trips where trip_date in {in_list(DAYS)}") == [
        (Decimal("349.00"),)
    ]
    assert trips.query(
        f"select approved_by, packet_sha256 from analytics_backfill.dbt_backfill_audit "
        f"where event = 'approved' and run_id = '{recorded['run_id']}'"
    ) == [("Dana Owner", recorded["packet_sha256"])]
    verified = trips.dbt(
        "run-operation", "dbt_backfill.verify_backfill", "--args", json.dumps({"run_id": recorded["run_id"]})
    )
    assert verified.returncode == 0, verified.output

    # a packet recorded before the packet had one shape (the plan itself) is still read: its rollback, weeks later
    trips.backend.update(
        "analytics_backfill.dbt_backfill_audit",
        "detail = " + sql_text(json.dumps(plan_shaped(packet), sort_keys=True)),
        f"event = 'packet_recorded' and run_id = '{recorded['run_id']}'",
    )
    rolled_back = trips.dbt(
        "run-operation", "dbt_backfill.rollback_backfill", "--args", json.dumps({"run_id": recorded["run_id"]})
    )
    assert rolled_back.returncode == 0, rolled_back.output
    assert trips.rows() == target_rows

    # an edit of the recorded packet voids the approval
    trips.backend.update(
        "analytics_backfill.dbt_backfill_audit",
        "detail = replace(detail, '\"batch_size\": 5', '\"batch_size\": 50')",
        f"event = 'packet_recorded' and run_id = '{recorded['run_id']}'",
    )
    tampered = apply_with(recorded["packet_sha256"])
    assert tampered.returncode != 0 and tampered.result("refused")["reason"] == "approval_mismatch"
    assert trips.rows() == target_rows

    # a recorded packet whose target was rewritten, approved as rewritten: the writer's own check refuses a target
    # that is not the model's relation (DECISIONS row 146), before it reads anything
    moved = json.loads(json.dumps(packet))
    moved["target_relation"] = {**moved["target_relation"], "identifier": "fct_trips_elsewhere"}
    moved_text = json.dumps(moved, sort_keys=True)
    trips.backend.update(
        "analytics_backfill.dbt_backfill_audit",
        "detail = " + sql_text(moved_text),
        f"event = 'packet_recorded' and run_id = '{recorded['run_id']}'",
    )
    elsewhere = apply_with(hashlib.sha256(moved_text.encode()).hexdigest())
    refused = elsewhere.result("refused")
    assert elsewhere.returncode == 1 and refused["reason"] == "packet_target_not_the_model", elsewhere.output
    assert re.fullmatch(
        r"the packet names \S*fct_trips_elsewhere as the target of fct_trips, but dbt resolves fct_trips to "
        r"\S*fct_trips in this project: the packet was edited, or is for another project or target\. The target is "
        r"unchanged\.",
        refused["message"],
    ), refused["message"]
    assert trips.rows() == target_rows


def plan_shaped(packet: dict) -> dict:
    """A packet as plan_backfill recorded it before the packet had one shape: the plan itself, its relations as
    dicts under `target`, `stage`, `stage_b` and `backup`, the watermark's settings apart."""
    old = {k: v for k, v in packet.items() if k not in ("target_relation", "watermark")}
    old["target"] = packet["target_relation"]
    old["watermark"] = {k: v for k, v in (packet["watermark"] or {}).items() if k != "config"} or None
    old["watermark_config"] = (packet["watermark"] or {}).get("config")
    old["partitions"] = [
        {**p, "stage": p["stage_relation"], "stage_b": p["stage_b_relation"], "backup": p["backup_relation"]}
        for p in packet["partitions"]
    ]
    return old


def sql_text(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


@pytest.mark.duckdb
def test_a_result_sentinel_written_into_the_models_sql_is_not_taken_for_the_plan(projects, tmp_path):
    """dbt hands the CLI every event, the text of each statement included: a result sentinel in a comment of the
    model's SQL (anyone who edits the model can write one) never becomes the plan the owner approves."""
    project = projects.new("duckdb", tmp_path).publish_stale_target()
    try:
        model = project.dir.parent / "models_example" / "models" / "fct_trips.sql"
        forged = {"run_id": "forged", "partitions": []}
        model.write_text(f"/* <<dbt_backfill:plan>>{json.dumps(forged)}<</dbt_backfill>> */\n" + model.read_text())
        path = project.dir / "backfills" / "seed.yml"
        result = project.plan("fct_trips", DAYS, "--out", str(path))
        assert result.returncode == 0, result.output
        packet = yaml.safe_load(path.read_text())
        assert packet["run_id"] != "forged"
        assert [p["value"] for p in packet["partitions"]] == DAYS
        assert all(p["fingerprint"]["sha256"] for p in packet["partitions"])
    finally:
        project.close()


@pytest.mark.duckdb
def test_the_first_command_starts_from_the_parse_the_users_own_dbt_run_left_and_leaves_it_as_it_was(projects, tmp_path):
    import hashlib

    project = projects.new("duckdb", tmp_path).publish_stale_target()
    try:
        theirs = project.dir / "target" / "partial_parse.msgpack"
        ours = project.dir / "target" / "dbt_backfill" / "partial_parse.msgpack"
        ours.unlink()  # a first command in this checkout: dbt-backfill has no parse of its own yet
        assert project.dbt("run", "-s", "daily_fares").returncode == 0  # the user's own run, just before
        before = (hashlib.sha256(theirs.read_bytes()).hexdigest(), theirs.stat().st_mtime_ns)
        log = project.dir / "logs" / "dbt.log"
        start_at = log.stat().st_size
        result = project.plan("fct_trips", ["2026-03-01"], "--out", str(tmp_path / "one.yml"))
        assert result.returncode == 0, result.output
        said = log.read_text()[start_at:]
        assert "Unable to do partial parsing" not in said and "Partial parsing enabled" in said, said[:3000]
        # dbt read it and, finding nothing changed, wrote no parse anywhere: theirs is as their run left it
        assert (hashlib.sha256(theirs.read_bytes()).hexdigest(), theirs.stat().st_mtime_ns) == before
    finally:
        project.close()


# docs/pure-dbt.md's commands as a person types them (YAML: unquoted dates, a name with spaces), on a model whose
# SQL reads an ephemeral staging model and lands in a custom schema under an alias (a vendor package's shape): how
# dbt names and renders them is dbt's, the same on every engine, and the pure-dbt path's SHA-256 computed by each
# database is the test above's: once, on DuckDB
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_the_pure_dbt_path_as_typed_on_a_model_reading_an_ephemeral_model(trips):
    table = "analytics_finance.vendor_trips_by_day"
    before = trips.rows(table)
    plan = trips.dbt(
        "run-operation",
        "dbt_backfill.plan_backfill",
        "--args",
        "{model: fct_vendor_trips, partitions: [2026-03-01, 2026-03-02, 2026-03-03]}",
    )
    assert plan.returncode == 0, plan.output
    recorded = plan.result("plan_backfill")
    assert recorded["verdict"] == "SAFE TO RUN" and trips.rows(table) == before
    # the control query reads the source through {{ source() }} (rendered when the gate runs): the newest event of
    # each trip, summed, equals each rebuilt day
    [(packet,)] = trips.query(
        f"select detail from analytics_finance_backfill.dbt_backfill_audit "
        f"where event = 'packet_recorded' and run_id = '{recorded['run_id']}'"
    )
    gates = [g for g in json.loads(packet)["gates"] if g["check"] == "total_matches_control:fare"]
    assert [(g["partition"], g["passed"], g["observed"]) for g in gates] == [
        ("2026-03-01", True, "134.00"),
        ("2026-03-02", True, "88.00"),
        ("2026-03-03", True, "127.00"),
    ], gates
    assert (
        f"Packet recorded in {recorded['audit']}: run {recorded['run_id']}, sha256 {recorded['packet_sha256']}. "
        f"Nothing in the target has changed."
    ) in plan.stdout

    run_id, sha256 = recorded["run_id"], recorded["packet_sha256"]
    applied = trips.dbt(
        "run-operation",
        "dbt_backfill.apply_backfill",
        "--args",
        f"{{run_id: {run_id}, approved_sha256: {sha256}, approved_by: Dana Owner}}",
    )
    assert applied.returncode == 0, applied.output
    assert (
        f"Applied run {run_id} to {recorded['target']}: 2 partition(s) replaced (2026-03-01, 2026-03-02), "
        f"1 already equal to the approval (2026-03-03)."
    ) in applied.stdout, applied.stdout
    assert trips.rows(table) != before
    assert trips.query(f"select sum(fare) from {table} where trip_date in {in_list(DAYS)}") == [(Decimal("349.00"),)]
    verified = trips.dbt("run-operation", "dbt_backfill.verify_backfill", "--args", f"{{run_id: {run_id}}}")
    assert verified.returncode == 0, verified.output
    assert f"Verified run {run_id}: all 3 partition(s) of {recorded['target']} equal their approval." in verified.stdout
    # clean_backfill keeps the backups while a rollback can still use them: refused, nothing dropped
    stage_schema = "analytics_finance_backfill"
    relations = trips.tables_in(stage_schema)
    ours = [name for name in relations if run_id in name]
    assert len(ours) == 8, relations  # a and b of three days, backups of the two replaced
    kept = trips.dbt("run-operation", "dbt_backfill.clean_backfill", "--args", f"{{run_id: {run_id}}}")
    assert kept.returncode == 1, kept.output
    assert (
        "partition(s) 2026-03-01, 2026-03-02 can still be rolled back from their backups: nothing was dropped. "
        "Pass --drop-backups (pure dbt: drop_backups: true) to drop them anyway"
    ) in kept.output, kept.output
    assert trips.tables_in(stage_schema) == relations and trips.query(
        f"select sum(fare) from {table} where trip_date in {in_list(DAYS)}"
    ) == [(Decimal("349.00"),)]
    rolled_back = trips.dbt("run-operation", "dbt_backfill.rollback_backfill", "--args", f"{{run_id: {run_id}}}")
    assert rolled_back.returncode == 0, rolled_back.output
    assert (
        f"Rolled back run {run_id} on {recorded['target']}: 2 partition(s) restored (2026-03-01, 2026-03-02)."
    ) in rolled_back.stdout, rolled_back.stdout
    assert trips.rows(table) == before
    # rolled back, no backup is needed: clean_backfill drops the run's relations by its recorded packet, says which,
    # and records who ran it
    cleaned = trips.dbt("run-operation", "dbt_backfill.clean_backfill", "--args", f"{{run_id: {run_id}}}")
    assert cleaned.returncode == 0, cleaned.output
    assert f"Cleaned run {run_id}: dropped 8 relation(s): " in cleaned.stdout, cleaned.stdout
    assert [name for name in trips.tables_in(stage_schema) if run_id in name] == []
    assert trips.query(
        f"select event, outcome from {stage_schema}.dbt_backfill_audit where run_id = '{run_id}' and event = 'cleaned'"
    ) == [("cleaned", "dropped 8 relations")]
    [(detail,)] = trips.query(
        f"select detail from {stage_schema}.dbt_backfill_audit where run_id = '{run_id}' and event = 'cleaned'"
    )
    assert json.loads(detail)["by"].startswith("dbt run-operation as ")
    # every run: nothing of this one is left; a dry run lists and drops nothing
    listed = trips.dbt("run-operation", "dbt_backfill.clean_backfill", "--args", "{orphans: true, dry_run: true}")
    assert listed.returncode == 0 and "Would drop 0 relation(s)." in listed.stdout, listed.output
    assert trips.rows(table) == before


@pytest.mark.parametrize("planned", ENGINE_INDEPENDENT, indirect=True, scope="module")
def test_a_control_query_naming_a_source_dbt_does_not_know_is_refused_before_anything_is_built(planned):
    stages_before = planned.backend.tables_in("analytics_backfill")
    checks = (
        "{variant_checks: [{total_matches_control: {column: fare, "
        "query: \"select sum(fare) from {{ source('raw', 'no_such_table') }} where trip_date = {partition}\"}}]}"
    )
    out = planned.dir / "backfills" / "unknown_source.yml"
    result = planned.plan("fct_trips_variant", ["2026-03-01"], "--out", str(out), "--vars", checks)
    assert result.returncode == 1, result.output
    assert (
        "the control query of meta.backfill.checks total_matches_control could not be rendered (see the error "
        "below: a source or model dbt does not know, say). No packet was written; the target is unchanged."
    ) in result.stderr, result.stderr
    assert "no_such_table" in result.stderr
    assert planned.backend.tables_in("analytics_backfill") == stages_before and not out.exists()
    assert planned.rows() == planned.published


# -- plans that mean something (issue 19, item 5) --------------------------------------------------------------------


@pytest.mark.parametrize("planned", ENGINE_INDEPENDENT, indirect=True, scope="module")
@pytest.mark.parametrize(
    "materialized, says",
    [
        (
            "view",
            "fct_trips_variant is materialized as a view: it runs its SQL on every read, so it is always current and "
            "there is nothing to repair. Nothing was changed.",
        ),
        (
            "ephemeral",
            "fct_trips_variant is materialized as ephemeral: it has no table, its SQL is inlined where it is "
            "read, so it is always current and there is nothing to repair. Nothing was changed.",
        ),
        (
            "table",
            "fct_trips_variant is materialized as a table: its next `dbt run` rebuilds it whole from its sources, "
            "replacing whatever a backfill writes (rebuilding it is the repair). To replace partitions until then, "
            'say why: --allow-table "<reason>" (pure dbt: allow_table: <reason>), kept in the packet. Nothing was '
            "changed.",
        ),
    ],
)
def test_a_model_that_is_always_current_or_rebuilt_whole_is_not_planned_without_a_reason(planned, materialized, says):
    out = planned.dir / "backfills" / f"as_{materialized}.yml"
    stages_before = planned.backend.tables_in("analytics_backfill")
    result = planned.plan(
        "fct_trips_variant", ["2026-03-01"], "--out", str(out), "--vars", f"{{variant_materialized: {materialized}}}"
    )
    assert result.returncode == 1, result.output
    assert result.stderr.strip() == f"error: {says}", result.stderr  # refused before anything was read or recorded
    pure = planned.dbt(
        "run-operation",
        "dbt_backfill.plan_backfill",
        "--vars",
        f"{{variant_materialized: {materialized}}}",
        "--args",
        "{model: fct_trips_variant, partitions: [2026-03-01]}",
    )
    assert pure.returncode != 0 and says in pure.output, pure.output
    assert not out.exists() and planned.backend.tables_in("analytics_backfill") == stages_before
    assert planned.rows() == planned.published
    if materialized == "table":
        reason = "the nightly rebuild is paused until the vendor fixes its feed"
        allowed = planned.plan(
            "fct_trips_variant",
            ["2026-03-01"],
            "--out",
            str(out),
            "--vars",
            "{variant_materialized: table}",
            "--allow-table",
            reason,
        )
        assert allowed.returncode == 0, allowed.output
        assert yaml.safe_load(out.read_text())["allowances"]["table_model"] == {"reason": reason}


@pytest.mark.parametrize("planned", ENGINE_INDEPENDENT, indirect=True, scope="module")
def test_a_plan_whose_partitions_all_equal_their_builds_says_so_and_leaves_nothing(planned):
    # 2026-02-28 had no correction: the published partition is what the model builds
    out = planned.dir / "backfills" / "unchanged.yml"
    stages_before = planned.backend.tables_in("analytics_backfill")
    result = planned.plan("fct_trips", ["2026-02-28"], "--out", str(out))
    assert result.returncode == 0, result.output
    [(rows,)] = planned.query("select count(*) from analytics.fct_trips where trip_date = '2026-02-28'")
    assert result.stdout.startswith(
        f"nothing to change: every partition of fct_trips already holds exactly the rows its build gives (fingerprint "
        f"and commitment): 2026-02-28 ({rows} rows, sha256 "
    ), result.stdout
    assert (
        "No packet was written and the target is unchanged. Its stages were dropped (2 relation(s))." in result.stdout
    )
    assert not out.exists() and not out.with_suffix(".md").exists()
    assert planned.backend.tables_in("analytics_backfill") == stages_before
    events = planned.query(
        "select event, outcome from analytics_backfill.dbt_backfill_audit "
        "where event in ('nothing_to_change', 'planned') order by recorded_at desc limit 1"
    )
    assert events == [("nothing_to_change", "no packet")]

    pure = planned.dbt(
        "run-operation", "dbt_backfill.plan_backfill", "--args", "{model: fct_trips, partitions: [2026-02-28]}"
    )
    assert pure.returncode == 0, pure.output
    assert pure.result("plan_backfill")["verdict"] == "NOTHING TO CHANGE"
    assert (
        "Nothing to change: every partition of fct_trips already holds exactly the rows its build gives" in pure.stdout
    )
    assert planned.backend.tables_in("analytics_backfill") == stages_before
    assert planned.rows() == planned.published


# -- dbt's conventions (issue 19, item 4) ----------------------------------------------------------------------------


@pytest.mark.parametrize("planned", ENGINE_INDEPENDENT, indirect=True, scope="module")
def test_partitions_as_ranges_and_from_a_file_expand_to_the_values_the_plan_checks(planned):
    by_range = planned.dir / "backfills" / "by_range.yml"
    result = planned.backfill("plan", "fct_trips", "--partitions", "2026-03-01..2026-03-03", "--out", str(by_range))
    assert result.returncode == 0, result.output
    assert result.stdout.startswith("Partitions: 3 value(s), 2026-03-01 … 2026-03-03.\n"), result.stdout
    assert [p["value"] for p in yaml.safe_load(by_range.read_text())["partitions"]] == DAYS

    listed = planned.dir / "partitions.txt"
    listed.write_text("2026-03-01\n\n2026-03-02..2026-03-03\n")
    by_file = planned.dir / "backfills" / "by_file.yml"
    result = planned.backfill("plan", "fct_trips", "--partitions-file", str(listed), "--out", str(by_file))
    assert result.returncode == 0, result.output
    assert f"Partitions: 3 value(s), 2026-03-01 … 2026-03-03 (from {listed})." in result.stdout
    assert [p["value"] for p in yaml.safe_load(by_file.read_text())["partitions"]] == DAYS

    for spec, says in [
        ("2026-03-03..2026-03-01", "is empty: its first value comes after its last"),
        ("1..20000", "spans more than 10,000 values"),
        ("2026-03..2026-04", "is not first..last of two ISO dates (2026-01-01..2026-03-31) or two integers (1..12)"),
    ]:
        bad = planned.backfill("plan", "fct_trips", "--partitions", spec)
        assert bad.returncode == 1 and bad.stderr.startswith(f'error: partition range "{spec}" {says}'), bad.output
    # a range of values the column's type does not hold is refused by the column's own cast, as any value is
    wrong_type = planned.backfill("plan", "fct_trips", "--partitions", "1..3")
    assert wrong_type.returncode == 1, wrong_type.output
    assert wrong_type.stderr.lower().startswith(
        'error: partition value "1" is not a valid date for trip_date. nothing '
        "was built and the target is unchanged. it built no stages."
    ), wrong_type.stderr

    pure = planned.dbt(
        "run-operation",
        "dbt_backfill.plan_backfill",
        "--args",
        "{model: fct_trips, partitions: 2026-03-01..2026-03-03}",
    )
    assert pure.returncode == 0, pure.output
    [(text,)] = planned.query(
        f"select detail from analytics_backfill.dbt_backfill_audit where event = 'packet_recorded' "
        f"and run_id = '{pure.result('plan_backfill')['run_id']}'"
    )
    assert [p["value"] for p in json.loads(text)["partitions"]] == DAYS
    # a day no calendar has is refused in words, not with Python's ValueError
    impossible = planned.dbt(
        "run-operation",
        "dbt_backfill.plan_backfill",
        "--args",
        "{model: fct_trips, partitions: 2026-02-27..2026-02-30}",
    )
    assert impossible.returncode != 0, impossible.output
    assert (
        'partition range "2026-02-27..2026-02-30" names a day no calendar has. Nothing was changed.'
        in impossible.output
        and "ValueError" not in impossible.output
    ), impossible.output
    assert planned.rows() == planned.published


@pytest.mark.parametrize("planned", ENGINE_INDEPENDENT, indirect=True, scope="module")
def test_the_project_profiles_and_target_are_found_as_dbt_finds_them(planned, tmp_path):
    import subprocess

    from project import BIN
    from test_state_and_audit import add_output

    profile = yaml.safe_load((planned.dir / "profiles.yml").read_text())["dbt_backfill_integration_tests"]
    default = profile["outputs"][profile["target"]]
    # the same database; DuckDB's file named absolutely, since dbt opens a relative path from where it runs
    add_output(
        planned, "mirror", {**default, **({"path": str(planned.dir / default["path"])} if "path" in default else {})}
    )

    def run(cwd, env, out):
        completed = subprocess.run(
            [str(BIN / "dbt-backfill"), "plan", "fct_trips", "--partitions", "2026-03-01", "--out", str(out)],
            cwd=cwd,
            env={**planned.env, **env},
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
        )
        assert completed.returncode == 0, completed.stdout + completed.stderr
        return yaml.safe_load(out.read_text())

    # from anywhere, with dbt's environment variables
    packet = run(
        tmp_path,
        {"DBT_PROJECT_DIR": str(planned.dir), "DBT_PROFILES_DIR": str(planned.dir), "DBT_TARGET": "mirror"},
        tmp_path / "from_env.yml",
    )
    assert packet["dbt_target"] == "mirror"
    # from a directory inside the project, no project named: the nearest dbt_project.yml up, as dbt finds it
    packet = run(
        planned.dir / "models",
        {"DBT_PROFILES_DIR": str(planned.dir), "DBT_TARGET": "mirror"},
        tmp_path / "from_inside.yml",
    )
    assert packet["partitions"][0]["value"] == "2026-03-01"
    assert planned.rows() == planned.published
