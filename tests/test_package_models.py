"""Models from installed packages (issue 53): a vendor package's model calls its own macros unqualified, and dbt
resolves them in the package's namespace first (the package's, then the root project's, then dbt's). `stale`,
`plan --stale` and the pure-dbt operations render the model inside run-operation; they must give exactly the SQL
`dbt compile --full-refresh` gives, and the repair must equal the model's SQL evaluated. The package here shadows a
root-project macro (latest_trip_versions), calls one of its macros from another, and dispatches with its own name.
Also: one unquoted day for pure dbt's `partitions` (YAML reads it as a date) is taken as the day typed."""

from __future__ import annotations

import json
import re
import shlex

import pytest
import yaml

MODEL = "vendor_trips"
RATED = "vendor_trips_rated"  # reads a var only its package's dbt_project.yml declares

PACKAGE = {
    "dbt_project.yml": "name: trip_vendor\nversion: '1.0.0'\nconfig-version: 2\n"
    "model-paths: ['models']\nmacro-paths: ['macros']\n"
    # a var the package declares for its own models, as vendor packages declare theirs (a run-operation cannot read it)
    "vars:\n  vendor_rate_var: 1.25\n",
    # the same name as the root project's macro (models_example/macros): dbt calls the package's own for its model
    "macros/latest_trip_versions.sql": """
{% macro latest_trip_versions(events) %}
with ranked as (
    select trip_id, trip_date, {{ vendor_fare('fare') }} as fare, status, updated_at,
        row_number() over (partition by trip_id order by updated_at desc, event_id desc) as version_rank
    from {{ events }}
    {% if is_incremental() %}
    where trip_date > (select max(trip_date) from {{ this }})
    {% endif %}
)
select trip_id, trip_date, fare, status, updated_at, '{{ vendor_label() }}' as source_label
from ranked
where version_rank = 1
{% endmacro %}
""",
    "macros/vendor_fare.sql": """
{% macro vendor_fare(column) %}{{ return(adapter.dispatch('vendor_fare', 'trip_vendor')(column)) }}{% endmacro %}
{% macro default__vendor_fare(column) %}round({{ column }} * {{ vendor_rate() }}, 2){% endmacro %}
{% macro vendor_rate() %}1.10{% endmacro %}
{% macro vendor_label() %}trip_vendor{% endmacro %}
""",
    "models/vendor_trips.sql": "{{ config(materialized='incremental', incremental_strategy='append') }}\n"
    "{{ latest_trip_versions(source('trip_vendor', 'trip_events')) }}\n",
    "models/vendor_trips_rated.sql": "{{ config(materialized='incremental', incremental_strategy='append') }}\n"
    "select trip_id, trip_date, round(fare * {{ var('vendor_rate_var') }}, 2) as fare\n"
    "from ({{ latest_trip_versions(source('trip_vendor', 'trip_events')) }}) latest\n",
    "models/vendor.yml": yaml.safe_dump(
        {
            "version": 2,
            "sources": [{"name": "trip_vendor", "schema": "raw", "tables": [{"name": "trip_events"}]}],
            "models": [
                {
                    "name": name,
                    "config": {"meta": {"backfill": {"partition_by": "trip_date", "business_key": ["trip_id"]}}},
                }
                for name in (MODEL, RATED)
            ],
        }
    ),
}

# the model's rendered SQL, as the package's pure-dbt path renders it (a macro of the test's copy only)
RENDERED = """
{% macro rendered_model_sql(model) %}
  {% set node = graph.nodes.values() | selectattr('name', 'equalto', model) | first %}
  {{ print('<<rendered>>' ~ tojson(dbt_backfill._render_model_sql(node)) ~ '<</rendered>>') }}
{% endmacro %}
"""


@pytest.fixture(scope="module")
def vendor(projects, tmp_path_factory):
    """The seed scenario with the package installed and its model published, then two late corrections."""
    root = tmp_path_factory.mktemp("package_models")
    project = projects.new("duckdb", root).publish_stale_target()
    package = root / "trip_vendor"
    for name, text in PACKAGE.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    packages = yaml.safe_load((project.dir / "packages.yml").read_text())
    packages["packages"].append({"local": str(package)})
    (project.dir / "packages.yml").write_text(yaml.safe_dump(packages))
    (project.dir / "macros" / "rendered_model_sql.sql").write_text(RENDERED)
    deps = project.dbt("deps")
    assert deps.returncode == 0, deps.output
    run = project.dbt("run", "--select", MODEL)
    assert run.returncode == 0, run.output
    project.query(
        "insert into raw.trip_events values (970, 1002, '2026-03-01', 44.00, 'corrected', current_timestamp), "
        "(971, 1102, '2026-03-04', 40.00, 'corrected', current_timestamp)"
    )
    yield project
    project.close()


def compiled_sql(project) -> str:
    compiled = project.dbt("compile", "--full-refresh", "--select", MODEL)
    assert compiled.returncode == 0, compiled.output
    return (project.dir / "target" / "compiled" / "trip_vendor" / "models" / f"{MODEL}.sql").read_text()


def evaluated(project, sql: str) -> list[tuple]:
    return sorted(project.query(f"select * from ({sql}) bf_model"), key=repr)


def test_a_package_model_renders_in_its_package_namespace_as_dbt_compiles_it_and_is_repaired_to_a_full_build(vendor):
    dbt_sql = compiled_sql(vendor)
    assert "1.10" in dbt_sql and "'trip_vendor' as source_label" in dbt_sql  # the package's own macros, not the root's
    shown = vendor.dbt("run-operation", "rendered_model_sql", "--args", json.dumps({"model": MODEL}))
    assert shown.returncode == 0, shown.output
    found = re.search(r"<<rendered>>(.*?)<</rendered>>", shown.stdout, re.S)
    assert found, shown.output
    assert json.loads(found.group(1)) == dbt_sql

    # stale (CLI and pure dbt) names exactly the two corrected days
    scan = vendor.backfill("stale", MODEL, "--json")
    assert scan.returncode == 4, scan.output
    document = json.loads(scan.stdout.strip().splitlines()[-1])
    assert [s["value"] for s in document["stale"]] == ["2026-03-01", "2026-03-04"]
    assert document["repair"]["cli"] == f"dbt-backfill plan {MODEL} --partitions 2026-03-01,2026-03-04"
    operation = vendor.dbt("run-operation", "dbt_backfill.find_stale", "--args", json.dumps({"model": MODEL}))
    assert operation.returncode == 1, operation.output
    assert [s["value"] for s in operation.result("stale")["stale"]] == ["2026-03-01", "2026-03-04"]

    # pure dbt plans one of them given as one unquoted day (YAML's date), not refused as "a list"
    planned = vendor.dbt(
        "run-operation", "dbt_backfill.plan_backfill", "--args", f"{{model: {MODEL}, partitions: 2026-03-01}}"
    )
    assert planned.returncode == 0, planned.output
    assert planned.result("plan_backfill")["verdict"] == "SAFE TO RUN", planned.output
    assert re.search(r"^\| 2026-03-01 \|", planned.stdout, re.M), planned.stdout
    # the CLI repairs from the scan; the table then equals the model's SQL as dbt compiles it, row for row
    before = vendor.rows(f"analytics.{MODEL}")
    assert before != evaluated(vendor, dbt_sql)
    out = vendor.dir / "backfills" / "vendor.yml"
    plan = vendor.backfill("plan", MODEL, "--stale", "--out", str(out))
    assert plan.returncode == 0, plan.output
    assert "Partitions: 2 value(s), 2026-03-01 … 2026-03-04." in plan.stdout, plan.output
    assert vendor.rows(f"analytics.{MODEL}") == before
    assert vendor.approve(out).returncode == 0
    applied = vendor.backfill("apply", str(out))
    assert applied.returncode == 0, applied.output
    assert vendor.rows(f"analytics.{MODEL}") == evaluated(vendor, dbt_sql)


def test_pure_dbt_refuses_an_unquoted_value_yaml_reads_as_a_timestamp_naming_it(vendor):
    refused = vendor.dbt(
        "run-operation",
        "dbt_backfill.plan_backfill",
        "--args",
        "{model: vendor_trips, partitions: 2026-03-01 10:00:00}",
    )
    assert refused.returncode == 1, refused.output
    assert "was read by YAML as the timestamp 2026-03-01 10:00:00, and trip_date is date" in refused.output, (
        refused.output
    )


def test_stale_names_the_input_window_a_moved_key_needs_and_its_repair_then_plans(projects, tmp_path):
    """Trip 1004 moves from 2026-03-01 to 2026-03-02 under an input window of the partition alone: the plan of both
    days is refused by its window check (2026-03-01's build never reads the day the trip moved to). stale says so
    first, names the window the move needs, and its printed command is accepted once that window is declared."""
    trips = projects.new("duckdb", tmp_path).publish_stale_target()
    try:
        tracked = "{trip_events_event_time: trip_date, trip_events_changed_at: updated_at}"
        trips.query("insert into raw.trip_events values (960, 1004, '2026-03-02', 35.00, 'moved', current_timestamp)")
        scan = trips.backfill("stale", "fct_trips_variant", "--vars", tracked)
        assert scan.returncode == 4, scan.output
        first = (
            "First: 1 key(s) moved between the stale partitions (1004: 2026-03-01 -> 2026-03-02), beyond the input "
            "window (the partition alone (no meta.backfill.input_window, no lookback): 0 day(s) before, 0 after): the plan "
            "would be refused by its window check. "
            "Declare meta.backfill.input_window: {before: 0, after: 1} on fct_trips_variant (the least the moved keys "
            "need; the plan proves it), then run the repair."
        )
        assert first in scan.stdout, scan.stdout
        command = re.search(r"^Next: (dbt-backfill plan .*)$", scan.stdout, re.M).group(1)
        assert command == (  # the scan's vars repeated, as YAML reads them back
            "dbt-backfill plan fct_trips_variant --partitions 2026-03-01..2026-03-02 --vars "
            """'{"trip_events_event_time": "trip_date", "trip_events_changed_at": "updated_at"}'"""
        )
        # pure dbt says the same first, in the failure that names the repair
        operation = trips.dbt(
            "run-operation", "dbt_backfill.find_stale", "--args", "{model: fct_trips_variant}", "--vars", tracked
        )
        assert operation.returncode == 1, operation.output
        assert operation.result("stale")["repair"]["first"] + "." == first[len("First: ") :]
        assert "First: " + operation.result("stale")["repair"]["first"] + ". Repair them: dbt run-operation" in (
            operation.output
        )
        before = trips.rows("analytics.fct_trips_variant")

        args = shlex.split(command)[1:]  # the command as printed, after `dbt-backfill`
        refused = trips.backfill(*args)
        assert refused.returncode == 3, refused.output
        assert "the input window does not hold for partition(s) 2026-03-01 (" in refused.stderr, refused.stderr
        declared = tracked[:-1] + ", variant_input_window: {before: 0, after: 1}}"
        planned = trips.backfill(*args, "--vars", declared)
        assert planned.returncode == 0, planned.output
        assert trips.rows("analytics.fct_trips_variant") == before
    finally:
        trips.close()


def test_stale_of_a_package_model_reads_the_vars_its_package_declares_as_dbt_compiles_them(vendor):
    """A run-operation renders with the root project's vars only; the CLI's stale scans a package's model in the SQL
    dbt compiles (its package's vars resolved). Pure dbt is given such a var with --vars (docs/pure-dbt.md)."""
    run = vendor.dbt("run", "--select", RATED)
    assert run.returncode == 0, run.output
    vendor.query("insert into raw.trip_events values (972, 1999, '2026-03-02', 50.00, 'late', current_timestamp)")
    before = vendor.rows(f"analytics.{RATED}")
    scan = vendor.backfill("stale", RATED, "--json")
    assert scan.returncode == 4, scan.output
    document = json.loads(scan.stdout.strip().splitlines()[-1])
    assert [(s["value"], s["added"], s["removed"]) for s in document["stale"]] == [("2026-03-02", 1, 0)]
    unresolved = vendor.dbt("run-operation", "dbt_backfill.find_stale", "--args", json.dumps({"model": RATED}))
    assert unresolved.returncode == 1 and "vendor_rate_var" in unresolved.output, unresolved.output
    given = vendor.dbt(
        "run-operation",
        "dbt_backfill.find_stale",
        "--args",
        json.dumps({"model": RATED}),
        "--vars",
        "{vendor_rate_var: 1.25}",
    )
    assert given.returncode == 1, given.output
    assert [s["value"] for s in given.result("stale")["stale"]] == ["2026-03-02"]
    assert vendor.rows(f"analytics.{RATED}") == before
