"""Excluded and run-level columns (issue 53), through real dbt: a column in meta.backfill.exclude_columns is left out
of the fingerprint, yet apply writes it; so the plan counts and samples the rows whose excluded values it rewrites
and says they are written unchecked (a plan whose only changes are there never reads as "+0 -0 ~0" alone), rollback
restores a partition that differs from its backup in any column, a windowed build whose excluded columns differ
from the whole-history build is refused as too narrow, never called proven, and the plan names a column that changes
in every row of every changed partition (a run-level value) and points to exclude_columns.

The models are written into each test's own project copy (one re-parse): fct_trips_synced and fct_trips_synced_all,
the trips with `last_updated`, a MAX(updated_at) over the whole source (what a connector's sync time is: every sync
moves it in every partition), excluded by the first and not by the second. The target is published by `dbt run`
after the corrections landed, then made stale by SQL: `last_updated` as an earlier sync left it (and, on the second,
one fare not yet corrected)."""

from __future__ import annotations

import json
import re
import shutil

import pytest
import yaml
from backends import ENGINE_INDEPENDENT, TRANSACTIONAL_ADAPTERS
from conftest import trips_on
from dbt_backfill.demo import BACKFILL_DAYS
from project import PARSE_STATE

trips = trips_on(TRANSACTIONAL_ADAPTERS)

DAYS = ",".join(BACKFILL_DAYS)
EXCLUDED = "analytics.fct_trips_synced"
ALL = "analytics.fct_trips_synced_all"
MODEL_SQL = """{{ config(materialized='incremental', incremental_strategy='append') }}
with ranked as (
    select trip_id, trip_date, fare, status, updated_at,
           row_number() over (partition by trip_id order by updated_at desc, event_id desc) as version_rank,
           max(updated_at) over () as last_updated
    from {{ source('raw', 'trip_events') }}
)
select trip_id, trip_date, fare, status, updated_at, last_updated from ranked where version_rank = 1
"""
CONTRACT = {"partition_by": "trip_date", "business_key": ["trip_id"], "order_by": ["updated_at desc"]}
EXCLUDED_SAID = (
    "Excluded column(s) last_updated: written unchecked (the fingerprint leaves them out); apply rewrites them in 13 "
    'row(s) of 3 partition(s) (the "unchecked" counts), rollback restores them.'
)
RUN_LEVEL_SAID = (
    "Run-level column(s)? last_updated changed in at least 90% of the compared rows of every changed partition (3): "
    "a value of the whole run (a load time, a MAX over the table) rather than a correction? If so, declare it in "
    "meta.backfill.exclude_columns: the plan then counts its changes apart and apply writes it unchecked by the "
    "fingerprint."
)


def with_synced_models(project):
    """The two models in the project copy, published after the corrections, then made stale by SQL: every row's
    `last_updated` the earliest event's time (an earlier sync), and on fct_trips_synced_all trip 1003's fare one
    more than its correction. Played for real once per slot, copied afterwards (ProjectFactory.reach)."""
    models = project.dir / "models"
    (models / "fct_trips_synced.sql").write_text(MODEL_SQL)
    (models / "fct_trips_synced_all.sql").write_text(MODEL_SQL)
    backfill = {"fct_trips_synced": {**CONTRACT, "exclude_columns": ["last_updated"]}, "fct_trips_synced_all": CONTRACT}
    (models / "synced.yml").write_text(
        yaml.safe_dump(
            {"version": 2, "models": [{"name": n, "config": {"meta": {"backfill": b}}} for n, b in backfill.items()]}
        )
    )

    def play(project):
        run = project.dbt("run", "--select", "fct_trips_synced", "fct_trips_synced_all")
        assert run.returncode == 0, run.output
        # dbt-backfill starts from the parse `dbt run` left (the same files, connection and vars)
        shutil.copyfile(project.dir / PARSE_STATE[0], project.dir / PARSE_STATE[1])
        for relation in (EXCLUDED, ALL):
            project.query(f"update {relation} set last_updated = (select min(updated_at) from raw.trip_events)")
        project.query(f"update {ALL} set fare = fare + 1 where trip_id = 1003")

    project.factory.reach(project, "synced", play)
    return project


def plan(project, model, name, *args):
    out = project.dir / "backfills" / f"{name}.yml"
    return project.backfill("plan", model, "--partitions", DAYS, "--out", str(out), *args), out


def test_excluded_columns_are_counted_said_unchecked_written_and_restored_by_rollback(trips):
    project = with_synced_models(trips)
    before = project.rows(EXCLUDED)
    untouched = project.rows(ALL)

    planned, path = plan(project, "fct_trips_synced", "excluded")

    assert planned.returncode == 0, planned.output
    # nothing the fingerprint sees changes, and the plan still says what apply writes: the excluded values of 13 rows
    for day, rows in (("2026-03-01", 5), ("2026-03-02", 4), ("2026-03-03", 4)):
        assert re.search(rf"^{day} .* \+0 -0 ~0 \(~{rows} unchecked\)$", planned.stdout, re.M), planned.stdout
    assert EXCLUDED_SAID in planned.stdout
    # one sample per partition of a row whose only change is excluded: a run-level column would drown the rest
    samples = re.findall(r"^  (\S+)  trip_id=(\d+): last_updated \(unchecked\) (.+) -> (.+)$", planned.stdout, re.M)
    assert [s[:2] for s in samples] == [("2026-03-01", "1001"), ("2026-03-02", "1006"), ("2026-03-03", "1010")]
    assert {s[2:] for s in samples} == {("2026-02-28 08:15:00+00", "2026-03-20 09:30:00+00")}, samples
    assert "Run-level" not in planned.stdout
    packet = yaml.safe_load(path.read_text())
    assert packet["column_notes"]["excluded"] == {
        "columns": ["last_updated"],
        "rows": 13,
        "partitions": list(BACKFILL_DAYS),
        "said": EXCLUDED_SAID,
    }
    assert packet["column_notes"]["run_level"] is None
    first = packet["partitions"][0]["changes"]
    assert (first["added"], first["removed"], first["changed"], first["excluded"], first["compared"]) == (0, 0, 0, 5, 5)
    assert first["columns"] == {"last_updated": 5}
    document = path.with_suffix(".md").read_text()
    assert "| 2026-03-01 | 5 | 5 | 0 | 0 | 0 | 5 | yes |" in document
    assert f"**{EXCLUDED_SAID}**" in document
    assert "columns last_updated from the fingerprint (written unchecked: see Dry-Run)" in document
    assert project.rows(EXCLUDED) == before

    assert project.approve(path).returncode == 0
    applied = project.backfill("apply", str(path))
    assert applied.returncode == 0, applied.output
    after = project.rows(EXCLUDED)
    # the 13 rows of the three days now hold the full build's last_updated; the other days are as they were
    assert [r for r in after if str(r[1]) not in BACKFILL_DAYS] == [r for r in before if str(r[1]) not in BACKFILL_DAYS]
    changed = [(a, b) for a, b in zip(after, before, strict=True) if a != b]
    assert len(changed) == 13 and all(a[:5] == b[:5] and a[5] > b[5] for a, b in changed)

    rolled_back = project.backfill("rollback", str(path))
    assert rolled_back.returncode == 0, rolled_back.output
    assert rolled_back.stdout.startswith(
        f"Rolled back {packet['run_id']} on {packet['target']}: restored 2026-03-01, 2026-03-02, 2026-03-03, each equal "
        "to its fingerprint before the apply."
    ), rolled_back.stdout
    assert project.rows(EXCLUDED) == before
    assert project.rows(ALL) == untouched


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_the_plan_names_a_run_level_column_and_points_to_exclude_columns(trips):
    project = with_synced_models(trips)
    before = project.rows(ALL)

    planned, path = plan(project, "fct_trips_synced_all", "all")

    assert planned.returncode == 0, planned.output
    assert RUN_LEVEL_SAID in planned.stdout
    assert "(~" not in planned.stdout and "(unchecked)" not in planned.stdout  # nothing excluded: all checked
    assert "  2026-03-01  trip_id=1003: fare 13.00 -> 12.00, last_updated " in planned.stdout, planned.stdout
    packet = yaml.safe_load(path.read_text())  # what `plan --json` prints besides the packet's path and SHA-256
    assert packet["column_notes"] == {
        "excluded": None,
        "run_level": {"columns": ["last_updated"], "partitions": 3, "said": RUN_LEVEL_SAID},
    }
    first = packet["partitions"][0]["changes"]
    assert (first["changed"], first["compared"], first["columns"]) == (5, 5, {"fare": 1, "last_updated": 5})
    assert f"**{RUN_LEVEL_SAID}**" in path.with_suffix(".md").read_text()
    assert project.rows(ALL) == before


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_window_that_changes_an_excluded_column_is_refused_not_proven(trips):
    project = with_synced_models(trips)
    before = project.rows(EXCLUDED)

    # the inputs windowed by trip_date: each day's build reads that day's events alone, so its MAX(updated_at) is
    # the day's, not the whole history's; every other column is the same
    refused, path = plan(project, "fct_trips_synced", "windowed", "--vars", "{trip_events_event_time: trip_date}")

    assert refused.returncode == 3, refused.output
    assert not path.exists()
    # 2026-03-02 holds the newest event of all (trip 1007's refund): its day's MAX is the whole history's
    assert refused.stderr.startswith(
        "refused: the input window does not hold for partition(s) 2026-03-01, 2026-03-03 ("
    ), refused.stderr
    assert (
        "2026-03-01: read within [2026-03-01, 2026-03-02) it gives 5 rows, from the whole inputs 5; by business key the "
        "windowed build has 0 row(s) the whole build lacks, lacks 0 and differs in 0, and in excluded column(s) "
        "last_updated in 5 row(s) (1001)" in refused.stderr
    ), refused.stderr
    assert "A windowed build is never published unproven. No packet was written and the target is unchanged." in (
        refused.stderr
    )
    assert project.rows(EXCLUDED) == before
    recorded = project.query(
        "select outcome from analytics_backfill.dbt_backfill_audit where event = 'window_proven' order by recorded_at"
    )
    assert [r[0] for r in recorded] == ["failed"]  # later plans prove it again; none relies on it


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_pure_dbt_says_the_excluded_rows_and_its_rollback_restores_them(trips):
    project = with_synced_models(trips)
    before = project.rows(EXCLUDED)

    planned = project.dbt(
        "run-operation",
        "dbt_backfill.plan_backfill",
        "--args",
        json.dumps({"model": "fct_trips_synced", "partitions": DAYS}),
    )
    assert planned.returncode == 0, planned.output
    assert f"**{EXCLUDED_SAID}**" in planned.stdout
    assert "| 2026-03-02 | 4 | 4 | 0 | 0 | 0 | 4 | yes |" in planned.stdout
    result = planned.result("plan_backfill")
    run_id, sha256 = result["run_id"], result["packet_sha256"]
    assert project.rows(EXCLUDED) == before

    applied = project.dbt(
        "run-operation",
        "dbt_backfill.apply_backfill",
        "--args",
        json.dumps({"run_id": run_id, "approved_sha256": sha256, "approved_by": "Dana Owner"}),
    )
    assert applied.returncode == 0, applied.output
    assert project.rows(EXCLUDED) != before

    rolled_back = project.dbt(
        "run-operation", "dbt_backfill.rollback_backfill", "--args", json.dumps({"run_id": run_id})
    )
    assert rolled_back.returncode == 0, rolled_back.output
    assert re.search(
        rf"Rolled back run {run_id} on \S*fct_trips_synced: 3 partition\(s\) restored "
        r"\(2026-03-01, 2026-03-02, 2026-03-03\)\.",
        rolled_back.stdout,
    ), rolled_back.stdout
    assert project.rows(EXCLUDED) == before
