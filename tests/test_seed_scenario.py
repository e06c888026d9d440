"""The seed scenario (shared/seeds/000): 15 events for 13 trips, a stale target at 417.00, the truth at 349.00.
Every test runs the real `dbt` and `dbt-backfill` commands against a real PostgreSQL, a real DuckDB file and a
real local Spark (the `trips` fixture is parametrized by adapter) and asserts on the tables with plain SQL; what the
same Python or Jinja decides on every engine runs once, on DuckDB (DECISIONS rows 77 and 87), which `make
test-lowest-dbt` also runs on the lowest dbt declared."""

from decimal import Decimal

import pytest
import yaml
from backends import ENGINE_INDEPENDENT, POSTGRES_ONLY
from dbt_backfill.demo import BACKFILL_DAYS, NEIGHBOUR_DAYS

BACKFILL_DAYS = list(BACKFILL_DAYS)
NEIGHBOUR_DAYS = list(NEIGHBOUR_DAYS)
TARGET = "analytics.fct_trips"


def in_list(values):
    return "(" + ", ".join(f"'{v}'" if isinstance(v, str) else str(v) for v in values) + ")"


def day_totals(project, days, relation=TARGET):
    return project.query(f"select count(*), sum(fare) from {relation} where trip_date in {in_list(days)}")[0]


def fares(project, *trip_ids):
    return dict(project.query(f"select trip_id, fare from {TARGET} where trip_id in {in_list(trip_ids)}"))


def neighbour_rows(project):
    return project.query(f"select * from {TARGET} where trip_date in {in_list(NEIGHBOUR_DAYS)} order by trip_id")


def plan_seed(project, *args):
    if project.state == "published" and not args:  # the plan is this test's set-up: a copy of the real one
        path = project.planned_seed()
        return path, yaml.safe_load(path.read_text())
    result = project.plan("fct_trips", BACKFILL_DAYS, *args)
    assert result.returncode == 0, result.output
    packets = project.packets()
    assert packets, result.output
    return packets[-1], yaml.safe_load(packets[-1].read_text())


def test_scenario_source_has_15_events_for_13_trips_and_target_is_stale(trips):
    events, distinct_trips = trips.query(
        f"select count(*), count(distinct trip_id) from raw.trip_events where trip_date in {in_list(BACKFILL_DAYS)}"
    )[0]
    assert (events, distinct_trips) == (15, 13)
    assert day_totals(trips, BACKFILL_DAYS) == (13, Decimal("417.00"))
    assert fares(trips, 1003, 1007) == {1003: Decimal("30.00"), 1007: Decimal("50.00")}
    # the naive append the seed warns about: every event of the three days as a row
    assert day_totals(trips, BACKFILL_DAYS, "raw.trip_events") == (15, Decimal("429.00"))
    # the live job moves forward only: running it again does not repair the published days
    assert trips.dbt("run", "-s", "fct_trips").returncode == 0
    assert day_totals(trips, BACKFILL_DAYS) == (13, Decimal("417.00"))


def test_plan_builds_each_partition_twice_with_equal_fingerprints_and_leaves_target_unchanged(trips):
    before = trips.rows()
    _path, packet = plan_seed(trips)

    assert trips.rows() == before
    assert [p["value"] for p in packet["partitions"]] == BACKFILL_DAYS
    for partition in packet["partitions"]:
        build_a, build_b = partition["builds"]["a"], partition["builds"]["b"]
        assert build_a == partition["fingerprint"]
        # b's duplicate keys are not counted (docs/DECISIONS.md row 49): every other field equals a's
        assert build_b["duplicate_keys"] is None
        assert {**build_b, "duplicate_keys": build_a["duplicate_keys"]} == build_a
        assert partition["fingerprint"]["null_keys"] == 0 and partition["fingerprint"]["duplicate_keys"] == 0
    assert sum(p["fingerprint"]["row_count"] for p in packet["partitions"]) == 13
    assert sum(Decimal(p["fingerprint"]["totals"]["fare"]) for p in packet["partitions"]) == Decimal("349.00")
    assert sum(Decimal(p["target_before"]["totals"]["fare"]) for p in packet["partitions"]) == Decimal("417.00")

    changes = {p["value"]: p["changes"] for p in packet["partitions"]}
    assert [(c["added"], c["removed"], c["changed"]) for c in changes.values()] == [(0, 0, 1), (0, 0, 1), (0, 0, 0)]
    assert changes["2026-03-01"]["sample"][0]["key"] == "1003"
    assert changes["2026-03-01"]["sample"][0]["columns"]["fare"] == {"old": "30.00", "new": "12.00"}
    assert changes["2026-03-02"]["sample"][0]["columns"]["fare"] == {"old": "50.00", "new": "0.00"}

    assert len(packet["source"]["reads"]) == 2
    assert packet["source"]["reads"][0] == packet["source"]["reads"][1] == packet["source"]["after_build"]
    assert packet["approval"] is None
    assert packet["code"]["dbt_backfill_version"] == "0.1.0"
    # the stage holds exactly the rows of the model's full build for the partition
    stage = packet["partitions"][0]["stage_relation"]
    assert trips.query(f"select trip_id, fare from {stage['schema']}.{stage['identifier']} order by 1") == [
        (1001, Decimal("25.00")),
        (1002, Decimal("40.00")),
        (1003, Decimal("12.00")),
        (1004, Decimal("35.00")),
        (1005, Decimal("22.00")),
    ]


# refused in Python before any SQL, the same on every engine: run once, on DuckDB
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_apply_without_approval_is_refused_and_target_unchanged(trips):
    path, _ = plan_seed(trips)
    before = trips.rows()

    result = trips.backfill("apply", str(path))

    assert result.returncode == 3, result.output
    assert "not approved" in result.stderr and "target is unchanged" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert trips.rows() == before


def test_approved_apply_repairs_the_three_days_and_leaves_neighbours_alone(trips):
    path, packet = plan_seed(trips)
    neighbours_before = neighbour_rows(trips)  # every row and column: what a fingerprint of them would stand for

    # a name that no engine may read as anything but text: Spark substitutes ${...} in a statement's text
    approver = "Dana O'Owner ${env:HOME} ${spark.sql.session.timeZone} \\ $$x$$"
    assert trips.approve(path, by=approver).returncode == 0
    applied = trips.backfill("apply", str(path), "--json")
    assert applied.returncode == 0, applied.output
    assert trips.query(
        "select distinct approved_by from analytics_backfill.dbt_backfill_audit where approved_by is not null"
    ) == [(approver,)]
    # 2026-03-03 had no late correction: its rows already equal the approval, so it is not rewritten
    assert [r["value"] for r in applied.json()["replaced"]] == ["2026-03-01", "2026-03-02"]
    assert applied.json()["skipped"] == ["2026-03-03"]

    assert day_totals(trips, BACKFILL_DAYS) == (13, Decimal("349.00"))
    assert fares(trips, 1003, 1007) == {1003: Decimal("12.00"), 1007: Decimal("0.00")}
    assert trips.query(f"select count(*) - count(distinct trip_id) from {TARGET}") == [(0,)]
    assert neighbour_rows(trips) == neighbours_before

    verified = trips.backfill("verify", str(path))
    assert verified.returncode == 0, verified.output
    # the old rows were kept, one backup relation per partition
    backup = packet["partitions"][0]["backup_relation"]
    assert trips.query(f"select fare from {backup['schema']}.{backup['identifier']} where trip_id = 1003") == [
        (Decimal("30.00"),)
    ]


# the skip of a partition already as approved is one code path on every engine (the same comparison of
# fingerprints), and each engine's published rows equal their approval in the apply test above: run once, on DuckDB
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_replanning_from_the_same_source_finds_nothing_to_change_and_reapplying_changes_nothing(trips):
    first_path, first = plan_seed(trips)
    assert trips.approve(first_path).returncode == 0
    assert trips.backfill("apply", str(first_path)).returncode == 0
    after_first = trips.rows()
    stages_after_first = trips.tables_in("analytics_backfill")

    # the same source again: every partition now holds exactly what its build gives, so there is nothing to approve
    second = trips.plan("fct_trips", BACKFILL_DAYS)
    assert second.returncode == 0, second.output
    read = ", ".join(
        f"{p['value']} ({p['fingerprint']['row_count']} rows, sha256 {p['fingerprint']['sha256'][:12]})"
        for p in first["partitions"]
    )
    assert second.stdout.startswith(
        f"nothing to change: every partition of fct_trips already holds exactly the rows "
        f"its build gives (fingerprint and commitment): {read}. No packet was written and "
        f"the target is unchanged. Its stages were dropped (6 relation(s))."
    ), second.stdout
    assert trips.packets() == [first_path] and trips.tables_in("analytics_backfill") == stages_after_first
    # the approved packet, applied again, changes nothing
    assert trips.backfill("apply", str(first_path)).returncode == 0
    assert trips.rows() == after_first
    assert trips.backfill("verify", str(first_path)).returncode == 0


def test_volatile_source_is_refused_before_any_stage_is_built_and_no_packet_is_written(trips):
    published = (
        "analytics.fct_trips_volatile",
        "analytics.fct_trips",
        "analytics.fct_trips_variant",
        "raw.trip_events",
    )
    before = {relation: trips.rows(relation) for relation in published}
    stage_tables_before = trips.tables_in("analytics_backfill")

    result = trips.plan("fct_trips_volatile", BACKFILL_DAYS)

    assert result.returncode == 3, result.output
    assert "source changed between two reads" in result.stderr
    assert "trip_events_volatile" in result.stderr and "target is unchanged" in result.stderr
    # one line says it (test_refusals' form: it runs this case on DuckDB alone)
    first_line = result.stderr.strip().splitlines()[0]
    assert first_line.startswith("refused: ") and "unchanged" in first_line, first_line
    assert trips.packets() == []
    assert stage_tables_before == []
    assert trips.tables_in("analytics_backfill") == ["dbt_backfill_audit"]  # no stage; the refusal is on record
    # a failed plan is on record as such, with its reason, and never as `planned`
    assert trips.query("select event, outcome from analytics_backfill.dbt_backfill_audit order by recorded_at") == [
        ("plan_failed", "source_moved")
    ]
    assert {relation: trips.rows(relation) for relation in published} == before  # every published table


# refused in Python before any SQL, the same on every engine: run once, on DuckDB
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_packet_edited_after_approval_is_refused_and_target_unchanged(trips):
    path, _ = plan_seed(trips)
    assert trips.approve(path).returncode == 0
    edited = yaml.safe_load(path.read_text())
    edited["partitions"] = edited["partitions"][:1]  # e.g. someone trims the scope after the owner said yes
    path.write_text(yaml.safe_dump(edited, sort_keys=False))
    before = trips.rows()

    result = trips.backfill("apply", str(path))

    assert result.returncode == 3, result.output
    assert "edited after approval" in result.stderr and "target is unchanged" in result.stderr
    assert trips.rows() == before


# refused in Python before any SQL, the same on every engine: run once, on DuckDB
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_approval_copied_from_another_run_is_refused(trips):
    first, _ = plan_seed(trips)
    second, _ = plan_seed(trips)
    assert trips.approve(first).returncode == 0
    forged = yaml.safe_load(second.read_text())
    forged["approval"] = yaml.safe_load(first.read_text())["approval"]
    second.write_text(yaml.safe_dump(forged, sort_keys=False))
    before = trips.rows()

    result = trips.backfill("apply", str(second))

    assert result.returncode == 3, result.output
    assert "copied from another run" in result.stderr
    assert trips.rows() == before


# the stages' fingerprints re-read by apply, compared with the approved ones: the same Jinja on every engine over
# fingerprints each engine's canonical fingerprint tests prove (on Spark it cost ~27 s)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_stage_altered_after_approval_is_refused_and_target_unchanged(trips):
    path, packet = plan_seed(trips)
    assert trips.approve(path).returncode == 0
    stage = packet["partitions"][1]["stage_relation"]
    trips.backend.update(f"{stage['schema']}.{stage['identifier']}", "fare = fare + 1", "trip_id = 1008")
    before = trips.rows()

    result = trips.backfill("apply", str(path))

    assert result.returncode == 3, result.output
    assert "stage of partition 2026-03-02 changed after approval" in result.stderr
    assert "target is unchanged" in result.stderr
    # every stage is checked before the first partition is touched: not even 2026-03-01 was replaced
    assert trips.rows() == before


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)  # needs a trigger: DuckDB and Spark have none
def test_a_trigger_that_would_rewrite_the_inserted_rows_stops_the_partition_before_it_is_written(trips):
    path, _ = plan_seed(trips)
    assert trips.approve(path).returncode == 0
    # something between the stage and the table would rewrite what is inserted
    trips.query("""
        create function analytics.shout() returns trigger language plpgsql as
        $$ begin new.status := upper(new.status); return new; end $$;
        create trigger shout before insert on analytics.fct_trips for each row execute function analytics.shout();
    """)
    before = trips.rows()

    result = trips.backfill("apply", str(path))

    assert result.returncode == 3, result.output
    assert (
        "fct_trips has trigger shout on analytics.fct_trips, which run when its rows are deleted or inserted"
        in result.stderr
    )
    assert "Nothing of this partition was written. Partitions replaced before it: none" in result.stderr
    assert trips.rows() == before
    # the backup made inside the rolled-back transaction vanished with it
    assert not [t for t in trips.tables_in("analytics_backfill") if t.endswith("_backup")]


# verify compares each partition's fingerprint with the approved one, in Python, the same on every engine (each
# engine's apply is the test above; on Spark this one cost ~47 s)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_verify_names_a_partition_changed_after_apply(trips):
    path, _ = plan_seed(trips)
    assert trips.approve(path).returncode == 0
    assert trips.backfill("apply", str(path)).returncode == 0
    trips.backend.update(TARGET, "status = 'tampered'", "trip_id = 1012")

    result = trips.backfill("verify", str(path))

    assert result.returncode == 3, result.output
    assert "2026-03-03" in result.stderr and "2026-03-01" not in result.stderr
