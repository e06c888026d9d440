"""A model whose columns are named like the labels the package's grouped reads carry (`bf_part`, `bf_partition`,
`bf_header`, `bf_k`, `bf_side`: DECISIONS row 160) is planned, applied and verified as any other. Those reads are one
union of every relation's columns beside the labels, with the expressions written once over it; a label named like
a column made DuckDB rename the user's column and read the label in its place (a change in `bf_part` counted as no
change, builds committed to the label's values), and PostgreSQL refuse the statement as ambiguous (a review of row
160). The labels' columns now take a name no column of the union has."""

import pytest
import yaml
from backends import TRANSACTIONAL_ADAPTERS

SOURCES = {"version": 2, "sources": [{"name": "raw", "schema": "raw", "tables": [{"name": "labelled"}]}]}
MODEL_SQL = """{{ config(materialized='incremental', incremental_strategy='append') }}
select id, day, bf_part, bf_partition, bf_header, bf_k, bf_side from {{ source('raw', 'labelled') }}
{% if is_incremental() %}where day > (select max(day) from {{ this }}){% endif %}
"""
ROWS = [
    (1, "2026-06-01", "p", "q", "h", 0, "target"),
    (2, "2026-06-01", "p", "q", "h", 1, "stage"),
    (3, "2026-06-02", "p", "q", "h", 0, "target"),
    (4, "2026-06-02", "p", "q", "h", 2, "stage"),
    (5, "2026-06-03", "p", "q", "h", 3, "target"),
]
# one column named like a label changes on each of two days; the third day is not planned
CORRECTIONS = [
    "update raw.labelled set bf_part = 'changed' where id = 1",
    "update raw.labelled set bf_k = 7, bf_side = 'moved' where id = 4",
]
ALL_ROWS = "select id, cast(day as varchar(10)), bf_part, bf_partition, bf_header, bf_k, bf_side from {} order by id"


@pytest.fixture(params=TRANSACTIONAL_ADAPTERS)
def labelled(request, projects, tmp_path):
    project = projects.new(request.param, tmp_path)
    project.query("create schema if not exists raw")
    project.query(
        "create table raw.labelled (id integer, day date, bf_part varchar(20), bf_partition varchar(20), "
        "bf_header varchar(20), bf_k integer, bf_side varchar(20))"
    )
    values = ", ".join(f"({i}, date '{d}', '{a}', '{b}', '{c}', {k}, '{s}')" for i, d, a, b, c, k, s in ROWS)
    project.query(f"insert into raw.labelled values {values}")
    models = project.dir / "models"
    (models / "raw_sources.yml").write_text(yaml.safe_dump(SOURCES))
    (models / "labelled_daily.sql").write_text(MODEL_SQL)
    backfill = {"partition_by": "day", "business_key": ["id"]}
    model = {"name": "labelled_daily", "config": {"meta": {"backfill": backfill}}}
    (models / "labelled_daily.yml").write_text(yaml.safe_dump({"version": 2, "models": [model]}))
    run = project.dbt("run", "--select", "labelled_daily")
    assert run.returncode == 0, run.output
    for statement in CORRECTIONS:
        project.query(statement)
    yield project
    project.close()


def test_columns_named_like_the_grouped_reads_labels_are_compared_committed_and_applied(labelled):
    out = labelled.dir / "backfills" / "labelled.yml"
    before = labelled.query(ALL_ROWS.format("analytics.labelled_daily"))
    planned = labelled.plan("labelled_daily", ["2026-06-01", "2026-06-02"], "--out", str(out))
    assert planned.returncode == 0, planned.output
    packet = yaml.safe_load(out.read_text())
    changes = {p["value"]: p["changes"] for p in packet["partitions"]}
    assert {day: (c["added"], c["removed"], c["changed"]) for day, c in changes.items()} == {
        "2026-06-01": (0, 0, 1),
        "2026-06-02": (0, 0, 1),
    }
    assert changes["2026-06-01"]["sample"] == [{"key": "1", "columns": {"bf_part": {"old": "p", "new": "changed"}}}]
    assert changes["2026-06-02"]["sample"] == [
        {"key": "4", "columns": {"bf_k": {"old": "2", "new": "7"}, "bf_side": {"old": "stage", "new": "moved"}}}
    ]
    assert all(p["builds"]["a"]["sha256"] == p["builds"]["b"]["sha256"] for p in packet["partitions"])
    assert labelled.query(ALL_ROWS.format("analytics.labelled_daily")) == before  # a plan writes nothing

    assert labelled.approve(out).returncode == 0
    applied = labelled.backfill("apply", str(out))
    assert applied.returncode == 0, applied.output
    assert labelled.query(ALL_ROWS.format("analytics.labelled_daily")) == labelled.query(
        ALL_ROWS.format("raw.labelled")
    )
    verified = labelled.backfill("verify", str(out))
    assert verified.returncode == 0, verified.output
