"""The canonical fingerprint on a real PostgreSQL, through the package's own macros (dbt run-operation):
same logical rows give the same SHA-256 whatever the physical form; different rows never collide on the
classic traps; and the SQL agrees byte for byte with the algorithm as documented (reference_fingerprint.py)."""
import json
import re

import pytest

from project import TripsProject
from reference_fingerprint import partition_sha256

pytestmark = pytest.mark.postgres

TABLES = {
    # (definition, rows as SQL values)
    "num_scale_1": ("k int, x numeric(10,1)", "(1, 12.0), (2, 12.5), (3, -0.0)"),
    "num_scale_2": ("k int, x numeric(12,3)", "(1, 12.000), (2, 12.500), (3, 0.000)"),
    "null_text": ("k int, s text", "(1, null)"),
    "empty_text": ("k int, s text", "(1, '')"),
    "backslash_n_text": ("k int, s text", "(1, '\\N')"),
    "pipe_left": ("k int, a text, b text", "(1, 'a|', 'b')"),
    "pipe_right": ("k int, a text, b text", "(1, 'a', '|b')"),
    "columns_ab": ("k int, a text, b int", "(1, 'x', 10), (2, 'y', 20)"),
    "columns_ba": ("b int, k int, a text", "(20, 2, 'y'), (10, 1, 'x')"),
    "order_1": ("k int, v text", "(1, 'one'), (2, 'two'), (3, 'three')"),
    "order_2": ("k int, v text", "(3, 'three'), (1, 'one'), (2, 'two')"),
    "instants": ("k int, at timestamptz, local_at timestamp, d date, flag boolean, id uuid",
                 "(1, '2026-03-01 10:00:00+00', '2026-03-01 10:00:00', '2026-03-01', true, "
                 "'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'), "
                 "(2, '2026-03-01 23:30:00.5-05', '2026-03-02 00:00:00.000001', '2026-03-02', false, null)"),
    "keys": ("k int, v numeric(10,2)", "(1, 1.50), (1, 2.25), (null, 3.00), (2, 4.00)"),
}


def fingerprints(project, env=None):
    tables = [{"schema": "canon", "identifier": name, "key": ["k"], "additive": ["v"] if name == "keys" else []}
              for name in TABLES]
    result = project.dbt("run-operation", "fingerprint_tables", "--args", json.dumps({"tables": tables}), env=env)
    assert result.returncode == 0, result.output
    return json.loads(re.search(r"<<dbt_backfill:table_fingerprints>>(.*?)<</dbt_backfill>>", result.stdout).group(1))


@pytest.fixture(scope="module")
def canon(postgres, project_template, tmp_path_factory):
    project = TripsProject(postgres, project_template, tmp_path_factory.mktemp("canon") / "work")
    statements = ["create schema canon"]
    for name, (definition, values) in TABLES.items():
        statements.append(f"create table canon.{name} ({definition}); insert into canon.{name} values {values}")
    project.query("; ".join(statements))
    # rewrite order_2 physically (an update moves every row) without changing its logical content
    project.query("update canon.order_2 set v = v")
    yield project
    project.close()


@pytest.fixture(scope="module")
def fp(canon):
    return fingerprints(canon)


def test_numeric_scale_does_not_change_the_fingerprint(fp):
    assert fp["num_scale_1"]["sha256"] == fp["num_scale_2"]["sha256"]


def test_null_empty_text_and_backslash_n_all_differ(fp):
    assert len({fp[t]["sha256"] for t in ("null_text", "empty_text", "backslash_n_text")}) == 3


def test_separator_inside_a_value_cannot_shift_between_columns(fp):
    assert fp["pipe_left"]["sha256"] != fp["pipe_right"]["sha256"]


def test_column_order_and_physical_row_order_do_not_change_the_fingerprint(fp):
    assert fp["columns_ab"]["sha256"] == fp["columns_ba"]["sha256"]
    assert fp["order_1"]["sha256"] == fp["order_2"]["sha256"]


def test_the_same_instants_under_two_session_time_zones_give_the_same_fingerprint(canon, fp):
    new_york = dict(canon.env, PGTZ="America/New_York", PGDATESTYLE="SQL, DMY")
    kathmandu = dict(canon.env, PGTZ="Asia/Kathmandu", PGDATESTYLE="German")
    # the sessions really differ: under each, the server renders the same instant as different text
    rendered = set()
    for zone, style in (("America/New_York", "SQL, DMY"), ("Asia/Kathmandu", "German")):
        connection = canon.server.connect(canon.database, options=f"-c TimeZone={zone} -c DateStyle={style.replace(' ', '')}")
        with connection.cursor() as cursor:
            cursor.execute("select at::text from canon.instants where k = 1")
            rendered.add(cursor.fetchone()[0])
        connection.close()
    assert len(rendered) == 2
    assert fingerprints(canon, new_york)["instants"] == fingerprints(canon, kathmandu)["instants"] == fp["instants"]


def test_sql_agrees_byte_for_byte_with_the_documented_algorithm(fp):
    # material columns in name order; canonical text per documented rule
    assert fp["num_scale_1"]["sha256"] == partition_sha256([["1", "12"], ["2", "12.5"], ["3", "0"]], key=[0])
    assert fp["pipe_left"]["sha256"] == partition_sha256([["a|", "b", "1"]], key=[2])
    assert fp["null_text"]["sha256"] == partition_sha256([["1", None]], key=[0])
    assert fp["backslash_n_text"]["sha256"] == partition_sha256([["1", "\\N"]], key=[0])
    # columns by name: at, d, flag, id, k, local_at
    assert fp["instants"]["sha256"] == partition_sha256([
        ["2026-03-01T10:00:00.000000Z", "2026-03-01", "true", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "1",
         "2026-03-01T10:00:00.000000"],
        ["2026-03-02T04:30:00.500000Z", "2026-03-02", "false", None, "2", "2026-03-02T00:00:00.000001"],
    ], key=[4])


def test_keys_and_totals_are_counted(fp):
    keys = fp["keys"]
    assert (keys["row_count"], keys["null_keys"], keys["duplicate_keys"]) == (4, 1, 1)
    assert keys["totals"] == {"v": "10.75"}
    assert keys["algorithm"] == "dbt_backfill/v1"
