"""The canonical fingerprint on a real PostgreSQL and a real DuckDB, through the package's own macros (dbt
run-operation): same logical rows give the same SHA-256 whatever the physical form, on either engine; different
rows never collide on the classic traps; and the SQL agrees byte for byte with the algorithm as documented
(reference_fingerprint.py)."""

import hashlib
import json

import pytest
from backends import ADAPTERS, POSTGRES_ONLY, TABLE_FORMATS
from reference_fingerprint import commitment, partition_sha256

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
    "instants": (
        'k int, "at" timestamptz, local_at timestamp, d date, flag boolean, id uuid',
        "(1, '2026-03-01 10:00:00+00', '2026-03-01 10:00:00', '2026-03-01', true, "
        "'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'), "
        "(2, '2026-03-01 23:30:00.5-05', '2026-03-02 00:00:00.000001', '2026-03-02', false, null)",
    ),
    "keys": ("k int, v numeric(10,2)", "(1, 1.50), (1, 2.25), (null, 3.00), (2, 4.00)"),
    "floats": ("k int, x double precision", "(1, 0.1), (2, 1e15)"),
    # a sum of row checksums must still see multiplicity: the same rows, one of them twice, differ
    "twice_a": ("k int, v text", "(1, 'a'), (1, 'a'), (2, 'b')"),
    "twice_b": ("k int, v text", "(1, 'a'), (2, 'b'), (2, 'b')"),
    "once_each": ("k int, v text", "(1, 'a'), (2, 'b')"),
    "empty": ("k int, v text", None),
    # more rows than one commitment bucket holds (4,096): its digests are split by their first hex digit
    "many": ("k int, v text", ", ".join(f"({i}, 'v{i}')" for i in range(5000))),
}


def fingerprints(project, env=None, tables=TABLES, with_source_state=False):
    listed = [
        {"schema": "canon", "identifier": name, "key": ["k"], "additive": ["v"] if name == "keys" else []}
        for name in tables
    ]
    result = project.dbt(
        "run-operation",
        "fingerprint_tables",
        "--args",
        json.dumps({"tables": listed, "with_source_state": with_source_state}),
        env=env,
    )
    assert result.returncode == 0, result.output
    return result.result("table_fingerprints")


def create_tables(project, tables):
    project.query("create schema canon")
    for name, (definition, values) in tables.items():
        project.backend.create_table(f"canon.{name}", definition, values)
    # rewrite order_2 physically (an update moves every row) without changing its logical content
    if "order_2" in tables:
        project.backend.update("canon.order_2", "v = v", "1 = 1")


# Spark's Delta and Iceberg tables are read by the same Spark SQL as its Hive tables: what the format could change is
# how a value of each type comes back, which the cross-engine test below and the property test's 500+ cases over every
# type check on each format; the traps here are the SQL's, run once on Spark
@pytest.fixture(scope="module", params=ADAPTERS)
def canon(request, projects, tmp_path_factory):
    project = projects.new(request.param, tmp_path_factory.mktemp("canon"))
    create_tables(project, TABLES)
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
    # the sessions really differ: under each, the engine renders the same instant as different text
    instant = "'2026-03-01 10:00:00+00'"
    assert canon.backend.render_timestamptz(instant, "America/New_York") != canon.backend.render_timestamptz(
        instant, "Asia/Kathmandu"
    )
    only = {"instants": TABLES["instants"]}  # the table with instants: the others hold none
    new_york = fingerprints(canon, canon.env_in_timezone("America/New_York"), only)["instants"]
    kathmandu = fingerprints(canon, canon.env_in_timezone("Asia/Kathmandu"), only)["instants"]
    assert new_york == kathmandu == fp["instants"]


def test_sql_agrees_byte_for_byte_with_the_documented_algorithm(canon, fp):
    # material columns in name order; canonical text per documented rule
    assert fp["num_scale_1"]["sha256"] == partition_sha256([["1", "12"], ["2", "12.5"], ["3", "0"]])
    assert fp["pipe_left"]["sha256"] == partition_sha256([["a|", "b", "1"]])
    assert fp["null_text"]["sha256"] == partition_sha256([["1", None]])
    assert fp["backslash_n_text"]["sha256"] == partition_sha256([["1", "\\N"]])
    # columns by name: at, d, flag, id, k, local_at. Spark has no uuid type: its id is a string, kept as written.
    uuid_text = (
        "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"
        if canon.backend.name == "spark"
        else "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
    )
    assert fp["instants"]["sha256"] == partition_sha256(
        [
            ["2026-03-01 10:00:00+00", "2026-03-01", "true", uuid_text, "1", "2026-03-01 10:00:00"],
            ["2026-03-02 04:30:00.5+00", "2026-03-02", "false", None, "2", "2026-03-02 00:00:00.000001"],
        ]
    )
    # the commitment (commitment-v1) over the same row digests, sorted
    assert fp["num_scale_1"]["commitment"] == commitment([["1", "12"], ["2", "12.5"], ["3", "0"]])
    assert fp["pipe_left"]["commitment"] == commitment([["a|", "b", "1"]])
    assert fp["null_text"]["commitment"] == commitment([["1", None]])
    assert fp["many"]["commitment"] == commitment([[str(i), f"v{i}"] for i in range(5000)])


def test_a_duplicated_row_changes_the_fingerprint(fp):
    assert len({fp[t]["sha256"] for t in ("twice_a", "twice_b", "once_each")}) == 3
    assert fp["twice_a"]["row_count"] == fp["twice_b"]["row_count"] == 3
    assert fp["twice_a"]["sha256"] == partition_sha256([["1", "a"], ["1", "a"], ["2", "b"]])
    assert len({fp[t]["commitment"] for t in ("twice_a", "twice_b", "once_each")}) == 3
    assert fp["twice_a"]["commitment"] == commitment([["1", "a"], ["1", "a"], ["2", "b"]])
    assert fp["order_1"]["commitment"] == fp["order_2"]["commitment"]  # physical order does not count


def test_an_empty_partition_has_the_fingerprint_of_no_rows(fp):
    assert fp["empty"]["row_count"] == 0
    assert fp["empty"]["sha256"] == partition_sha256([]) == hashlib.sha256(b"0:0").hexdigest()
    assert fp["empty"]["commitment"] == commitment([]) == hashlib.sha256(b"c1:0:0:").hexdigest()


def test_keys_and_totals_are_counted(fp):
    keys = fp["keys"]
    assert (keys["row_count"], keys["null_keys"], keys["duplicate_keys"]) == (4, 1, 1)
    assert keys["totals"] == {"v": "10.75"}
    assert keys["algorithm"] == "dbt_backfill/v3"


def test_floats_mark_the_fingerprint_as_engine_specific(canon, fp):
    assert fp["floats"]["algorithm"] == f"dbt_backfill/v3+float:{canon.backend.name}"
    assert fp["keys"]["algorithm"] == "dbt_backfill/v3"


# Functions and an operator that would stand in for the built-ins the fingerprint, the commitment and the source pin
# call. The first three match their arguments better than the built-in does (an untyped literal read as text where
# the built-in takes a name, a text array where it takes anyarray, an integer where it takes a bigint), so PostgreSQL
# picks them even though it searches pg_catalog first; the others have the built-in's exact signature, and win
# only where the search_path names their schema before pg_catalog.
HIJACKERS = """
create schema hijack;
create function hijack.convert_to(text, text) returns bytea language sql as $$ select 'hijacked'::bytea $$;
create function hijack.unnest(text[]) returns setof text language sql as $$ select 'hijacked' $$;
create function hijack.hashtextextended(text, integer) returns bigint language sql as $$ select 0::bigint $$;
create function hijack.lower(text) returns text language sql as $$ select 'hijacked' $$;
create function hijack.replace(text, text, text) returns text language sql as $$ select $1 $$;
create function hijack.substr(text, integer, integer) returns text language sql as $$ select '000000000000000' $$;
create function hijack.concat_text(text, text) returns text language sql as $$ select 'hijacked' $$;
create operator hijack.|| (leftarg = text, rightarg = text, function = hijack.concat_text);
"""
HIJACKED_TABLES = {name: TABLES[name] for name in ("num_scale_1", "pipe_left", "instants", "keys", "many", "empty")}


@pytest.fixture(scope="module", params=POSTGRES_ONLY)
def hijackable(request, projects, tmp_path_factory):
    project = projects.new(request.param, tmp_path_factory.mktemp("hijack"))
    create_tables(project, HIJACKED_TABLES)
    before = fingerprints(project, tables=HIJACKED_TABLES, with_source_state=True)
    project.query(HIJACKERS)
    yield project, before
    project.close()


@pytest.mark.parametrize("search_path", ["hijack", "hijack, pg_catalog, public"])
def test_functions_of_the_same_name_on_the_search_path_change_nothing(hijackable, search_path):
    project, before = hijackable
    session = {**project.env, "PGOPTIONS": f"-c search_path={search_path.replace(' ', '')}"}
    # the stand-ins are live in such a session: each built-in call below returns what the stand-in says
    connection = project.backend.server.connect(project.backend.database, options=session["PGOPTIONS"])
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "select encode(convert_to('a', 'UTF8'), 'escape'), (select unnest(array['a'])),"
                " hashtextextended('a', 0)"
            )
            assert cursor.fetchone() == ("hijacked", "hijacked", 0)
            cursor.execute("select lower('A'), replace('a|', '|', 'x'), 'a' || 'b'")
            assert cursor.fetchone() == (
                ("hijacked", "a|", "hijacked") if "pg_catalog" in search_path else ("a", "ax", "ab")
            )
    finally:
        connection.close()
    after = fingerprints(project, env=session, tables=HIJACKED_TABLES, with_source_state=True)
    assert after == before
    assert after["instants"]["commitment"] == commitment(
        [
            [
                "2026-03-01 10:00:00+00",
                "2026-03-01",
                "true",
                "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
                "1",
                "2026-03-01 10:00:00",
            ],
            ["2026-03-02 04:30:00.5+00", "2026-03-02", "false", None, "2", "2026-03-02 00:00:00.000001"],
        ]
    )
    assert after["many"]["commitment"] == commitment([[str(i), f"v{i}"] for i in range(5000)])
    assert after["pipe_left"]["sha256"] == partition_sha256([["a|", "b", "1"]])


# The same logical rows, physically different on each engine: column order, numeric scale, row order, the instant
# written with another offset, and a collation.
CROSS_ENGINE = {
    "postgres": (
        'k int, fare numeric(10,2), "at" timestamptz, note text, day date, paid boolean',
        "(1, 12.00, '2026-03-01 10:00:00+00', 'a|b', '2026-03-01', true), "
        "(2, 0.50, '2026-03-02 23:59:59.123456+00', null, '2026-03-02', false), "
        "(3, 30.10, '2026-03-03 00:00:00+00', '', '2026-03-03', null)",
    ),
    "duckdb": (
        'note varchar, paid boolean, day date, "at" timestamptz, k integer, fare decimal(18,4)',
        "('', null, '2026-03-03', '2026-03-02 19:00:00-05', 3, 30.1000), "
        "('a|b', true, '2026-03-01', '2026-03-01 11:00:00+01', 1, 12.0000), "
        "(null, false, '2026-03-02', '2026-03-03 05:29:59.123456+05:30', 2, 0.5000)",
    ),
    # Spark 4 reports a collated string as `string collate UTF8_LCASE`: still text, and its value is what counts
    "spark": (
        'paid boolean, k int, note string collate UTF8_LCASE, fare numeric(20,3), "at" timestamptz, day date',
        "(false, 2, null, 0.500, '2026-03-02 16:59:59.123456-07:00', '2026-03-02'), "
        "(null, 3, '', 30.100, '2026-03-03 09:00:00+09:00', '2026-03-03'), "
        "(true, 1, 'a|b', 12.000, '2026-03-01 10:00:00+00:00', '2026-03-01')",
    ),
}


# Spark's open table formats, the same logical rows again (a collated string needs a table feature of Delta's)
CROSS_ENGINE["delta"] = (
    'day date, fare numeric(12,4), k int, "at" timestamptz, paid boolean, note string',
    "(date'2026-03-03', 30.1000, 3, timestamp'2026-03-03 01:00:00+01:00', null, ''), "
    "(date'2026-03-01', 12.0000, 1, timestamp'2026-03-01 05:00:00-05:00', true, 'a|b'), "
    "(date'2026-03-02', 0.5000, 2, timestamp'2026-03-02 23:59:59.123456+00:00', false, null)",
)
CROSS_ENGINE["iceberg"] = CROSS_ENGINE["delta"]
# the documented algorithm over those rows (columns by name: at, day, fare, k, note, paid): every engine's result
# equals it, so every engine's equals every other's
CROSS_ENGINE_SHA256 = partition_sha256(
    [
        ["2026-03-01 10:00:00+00", "2026-03-01", "12", "1", "a|b", "true"],
        ["2026-03-02 23:59:59.123456+00", "2026-03-02", "0.5", "2", None, "false"],
        ["2026-03-03 00:00:00+00", "2026-03-03", "30.1", "3", "", None],
    ]
)


@pytest.mark.parametrize("adapter", ADAPTERS + TABLE_FORMATS)
def test_the_same_logical_rows_give_the_same_sha256_on_every_engine_and_table_format(projects, tmp_path, adapter):
    project = projects.new(adapter, tmp_path)
    try:
        create_tables(project, {"trips_cross": CROSS_ENGINE[adapter]})
        result = fingerprints(project, tables={"trips_cross": None})["trips_cross"]
    finally:
        project.close()
    assert (result["sha256"], result["row_count"]) == (CROSS_ENGINE_SHA256, 3), result
