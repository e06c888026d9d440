"""Property test of the canonical text (dbt_backfill/v3): on each engine, more than 500 random cases over every kind
of column type the engine has -- the documented types, and enum, xml, binary, arrays, json/jsonb, interval, inet,
bit, lists, structs and maps -- drawn with the perturbations that matter (NULL beside the text `\\N`, `|` and `\\` at
the edges of adjacent fields, duplicated rows, shuffled order, instants written with other offsets, a session time
zone that is not UTC). Each row's digest from the package's SQL must equal the one canonical_oracle.py writes from
the rules in docs/fingerprint.md; rows with equal values must have equal digests and rows with different values different ones;
and each table's fingerprint must equal the oracle's."""

from __future__ import annotations

import datetime as dt
import json
import random
import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable

import canonical_oracle as oracle
import pytest
from backends import ADAPTERS, TABLE_FORMATS

SEED = 20261201
CASES_PER_ENGINE = 540
SESSION_TIME_ZONE = "America/New_York"
CHARACTERS = ["a", "b", "N", "|", "\\", " ", "é", '"', ",", "{", "-", "'"]
EDGE_TEXTS = ["", "\\N", "|", "\\", "a|", "|b", "NULL", "\\|", "N"]
ENUM_LABELS = ["a|", "|b", "\\N", "a", "b\\", "N"]
OFFSETS = [
    dt.timedelta(0),
    dt.timedelta(hours=5, minutes=30),
    dt.timedelta(hours=-7),
    dt.timedelta(hours=9),
    dt.timedelta(hours=-3, minutes=-30),
]


def random_text(rng: random.Random, spark: bool = False) -> str:
    alphabet = [c for c in CHARACTERS if not (spark and c == "'")]
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 5)))


def random_json(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.choice(["object", "array", "string", "int", "bool", "null"] if depth < 2 else ["string", "int"])
    if kind == "object":
        return {random_text(rng) + str(i): random_json(rng, depth + 1) for i in range(rng.randint(0, 3))}
    if kind == "array":
        return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {
        "string": lambda: random_text(rng),
        "int": lambda: rng.randint(-1000, 1000),
        "bool": lambda: rng.random() < 0.5,
        "null": lambda: None,
    }[kind]()


@dataclass
class ColumnType:
    """One column type on one engine: its DDL, how to draw a value, write it as SQL, and render it by docs/fingerprint.md."""

    name: str
    ddl: str
    draw: Callable[[random.Random], Any]
    literal: Callable[[Any], str]
    render: Callable[[Any], str]
    escape: bool
    logical: Callable[[Any], Any] = lambda value: value  # what makes two values the same value
    edges: tuple = ()


def _text_literal(engine: str) -> Callable[[str], str]:
    if engine == "spark":  # a backslash and a quote are escapes in a Spark string literal
        return lambda s: "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return lambda s: "'" + s.replace("'", "''") + "'"


def column_types(engine: str) -> list[ColumnType]:
    text = _text_literal(engine)
    spark = engine == "spark"
    string_type = {"postgres": "text", "duckdb": "varchar", "spark": "string"}[engine]
    naive, instant = ("timestamp_ntz", "timestamp") if spark else ("timestamp", "timestamptz")

    def draw_decimal(rng):
        return Decimal(rng.randint(-(10**9), 10**9)).scaleb(-rng.randint(0, 3))

    def draw_timestamp(rng):
        return dt.datetime(2026, 1, 1) + dt.timedelta(
            seconds=rng.randint(-(10**9), 10**9), microseconds=rng.choice([0, 0, 500000, 1, 123456])
        )

    def draw_instant(rng):
        return draw_timestamp(rng).replace(tzinfo=dt.timezone(rng.choice(OFFSETS)))

    def instant_literal(v):
        return f"cast('{v.isoformat(sep=' ')}' as {instant})"

    def draw_bytes(rng):
        return bytes(rng.choice([0x7C, 0x5C, 0x00, 0x41, 0xFF, 0x4E]) for _ in range(rng.randint(0, 4)))

    binary_literal = {
        "postgres": lambda v: f"decode('{v.hex()}', 'hex')",
        "duckdb": lambda v: f"from_hex('{v.hex()}')",
        "spark": lambda v: f"unhex('{v.hex()}')",
    }[engine]
    types = [
        ColumnType("text", string_type, lambda rng: random_text(rng, spark), text, str, True, edges=tuple(EDGE_TEXTS)),
        ColumnType(
            "integer",
            "bigint",
            lambda rng: rng.randint(-(2**62), 2**62),
            str,
            oracle.integer_text,
            False,
            edges=(0, -1),
        ),
        ColumnType(
            "decimal",
            "decimal(12,3)",
            draw_decimal,
            lambda v: f"cast({v} as decimal(12,3))",
            oracle.decimal_text,
            False,
            edges=(Decimal("0.000"), Decimal("-0.0"), Decimal("12.5"), Decimal("12.500")),
        ),
        ColumnType(
            "boolean",
            "boolean",
            lambda rng: rng.random() < 0.5,
            lambda v: "true" if v else "false",
            oracle.boolean_text,
            False,
        ),
        ColumnType(
            "date",
            "date",
            lambda rng: dt.date(1970, 1, 1) + dt.timedelta(days=rng.randint(0, 47000)),
            lambda v: f"cast('{v.isoformat()}' as date)",
            oracle.date_text,
            False,
        ),
        ColumnType(
            "timestamp",
            naive,
            draw_timestamp,
            lambda v: f"cast('{v.isoformat(sep=' ')}' as {naive})",
            oracle.timestamp_text,
            False,
        ),
        ColumnType("timestamptz", instant, draw_instant, instant_literal, oracle.timestamptz_text, False),
        ColumnType(
            "binary",
            {"postgres": "bytea", "duckdb": "blob", "spark": "binary"}[engine],
            draw_bytes,
            binary_literal,
            oracle.binary_text,
            False,
            edges=(b"", b"|", b"\\", b"\\N"),
        ),
    ]
    if engine in ("postgres", "duckdb"):
        types += [
            ColumnType(
                "uuid",
                "uuid",
                lambda rng: (lambda u: u.upper() if rng.random() < 0.5 else u)(
                    str(uuid.UUID(int=rng.getrandbits(128)))
                ),
                lambda v: f"cast('{v}' as uuid)",
                oracle.uuid_text,
                False,
                logical=str.lower,
            ),
            ColumnType(
                "enum",
                "prop_mood",
                lambda rng: rng.choice(ENUM_LABELS),
                lambda v: f"cast({text(v)} as prop_mood)",
                str,
                True,
                edges=tuple(ENUM_LABELS),
            ),
            ColumnType(
                "json",
                "json",
                lambda rng: json.dumps(
                    random_json(rng), separators=rng.choice([(",", ":"), (", ", ": ")]), ensure_ascii=False
                ),
                lambda v: f"cast({text(v)} as json)",
                str,
                True,
                edges=('"\\\\N"', '"a|"', '"|b"'),
            ),
            ColumnType(
                "interval",
                "interval",
                lambda rng: (rng.choice([0, 1, 3, 40]), rng.choice([0, 5, 3723, 86399])),
                lambda v: f"cast('{v[0]} days {v[1]} seconds' as interval)",
                lambda v: oracle.interval_text(*v),
                True,
            ),
        ]
    if engine == "postgres":
        array_text = oracle.postgres_array_text
        types += [
            ColumnType(
                "jsonb",
                "jsonb",
                random_json,
                lambda v: f"cast({text(json.dumps(v, ensure_ascii=False))} as jsonb)",
                oracle.postgres_jsonb_text,
                True,
                logical=lambda v: json.dumps(v, sort_keys=True),
            ),
            ColumnType(
                "xml",
                "xml",
                lambda rng: rng.choice(["<v>{}</v>", "{}"]).format(random_text(rng).replace("'", "")),
                lambda v: f"cast({text(v)} as xml)",
                str,
                True,
                edges=("\\N", "a|", "|b"),
            ),
            ColumnType(
                "inet",
                "inet",
                lambda rng: (".".join(str(rng.randint(0, 255)) for _ in range(4)), rng.choice([8, 24, 32])),
                lambda v: f"cast('{v[0]}/{v[1]}' as inet)",
                lambda v: oracle.inet_text(*v),
                True,
            ),
            ColumnType(
                "integer_array",
                "bigint[]",
                lambda rng: [rng.choice([None, rng.randint(-99, 99)]) for _ in range(rng.randint(0, 3))],
                lambda v: f"cast({text(array_text(v))} as bigint[])",
                array_text,
                True,
                logical=tuple,
            ),
            ColumnType(
                "text_array",
                "text[]",
                lambda rng: [rng.choice([None, random_text(rng)]) for _ in range(rng.randint(0, 3))],
                lambda v: f"cast({text(array_text(v))} as text[])",
                array_text,
                True,
                logical=tuple,
                edges=(["a|"], ["|b"], ["NULL"], [None], [""], []),
            ),
            ColumnType(
                "bit_varying",
                "bit varying",
                lambda rng: "".join(rng.choice("01") for _ in range(rng.randint(0, 6))),
                lambda v: f"cast('{v}' as bit varying)",
                str,
                True,
            ),
        ]
    if engine in ("duckdb", "spark"):
        element = string_type
        struct_type = "struct(a varchar, b bigint)" if engine == "duckdb" else "struct<a:string,b:bigint>"
        map_type = "map(varchar, bigint)" if engine == "duckdb" else "map<string,bigint>"
        list_type = (lambda e: f"{e}[]") if engine == "duckdb" else (lambda e: f"array<{e}>")

        def list_literal(values, of):
            items = ", ".join("null" if v is None else (text(v) if of == element else str(v)) for v in values)
            return (
                f"cast([{items}] as {list_type(of)})"
                if engine == "duckdb"
                else f"cast(array({items}) as {list_type(of)})"
            )

        def struct_literal(v):
            a = "null" if v["a"] is None else text(v["a"])
            b = "null" if v["b"] is None else str(v["b"])
            if engine == "duckdb":
                return f"cast({{'a': {a}, 'b': {b}}} as {struct_type})"
            return f"cast(named_struct('a', {a}, 'b', {b}) as {struct_type})"

        def struct_json(v):  # Spark's to_json leaves a null field out; DuckDB's writes it as null
            return oracle.json_compact({k: x for k, x in v.items() if not (spark and x is None)})

        def draw_map(rng):  # keys in order: a map's JSON keeps its entries' order
            return dict(
                sorted((random_text(rng, spark) + str(i), rng.randint(-9, 9)) for i in range(rng.randint(0, 3)))
            )

        def map_literal(v):
            if engine == "duckdb":
                return f"cast(map([{', '.join(text(k) for k in v)}], [{', '.join(str(x) for x in v.values())}]) as {map_type})"
            items = ", ".join(f"{text(k)}, cast({x} as bigint)" for k, x in v.items())
            return f"cast(map({items}) as {map_type})"

        types += [
            ColumnType(
                "integer_list",
                list_type("bigint"),
                lambda rng: [rng.choice([None, rng.randint(-99, 99)]) for _ in range(rng.randint(0, 3))],
                lambda v: list_literal(v, "bigint"),
                oracle.json_compact,
                True,
                logical=tuple,
            ),
            ColumnType(
                "text_list",
                list_type(element),
                lambda rng: [rng.choice([None, random_text(rng, spark)]) for _ in range(rng.randint(0, 3))],
                lambda v: list_literal(v, element),
                oracle.json_compact,
                True,
                logical=tuple,
                edges=(["a|"], ["|b"], ["a, b"], ["a", "b"], [None], [""], []),
            ),
            ColumnType(
                "struct",
                struct_type,
                lambda rng: {
                    "a": rng.choice([None, random_text(rng, spark)]),
                    "b": rng.choice([None, rng.randint(0, 9)]),
                },
                struct_literal,
                struct_json,
                True,
                logical=lambda v: tuple(v.items()),
            ),
            ColumnType(
                "map", map_type, draw_map, map_literal, oracle.json_compact, True, logical=lambda v: tuple(v.items())
            ),
        ]
    if engine == "duckdb":
        types.append(
            ColumnType(
                "bit",
                "bit",
                lambda rng: "".join(rng.choice("01") for _ in range(rng.randint(1, 6))),
                lambda v: f"cast('{v}' as bit)",
                str,
                True,
            )
        )
    return types


@dataclass
class Case:
    k: int
    a: Any
    b: Any


def draw_cases(column_type: ColumnType, rng: random.Random, count: int) -> list[Case]:
    """Edge values first, each beside NULL and beside the others (so `|` and `\\` meet at the field boundary), then
    random values, a few NULLs among them; then three rows repeated (a duplicate counts twice)."""
    values = list(column_type.edges)
    pairs = [(x, y) for x in [*values, None] for y in [*values, None]][: count // 2]
    while len(pairs) < count - 3:
        pairs.append(tuple(None if rng.random() < 0.1 else column_type.draw(rng) for _ in range(2)))
    cases = [Case(k, a, b) for k, (a, b) in enumerate(pairs)]
    cases += [Case(c.k, c.a, c.b) for c in rng.sample(cases, 3)]
    rng.shuffle(cases)
    return cases


def expected_digest(column_type: ColumnType, case: Case) -> str:
    # columns by name: a, b, k
    return oracle.row_digest(
        [
            oracle.field(case.a, column_type.render, column_type.escape),
            oracle.field(case.b, column_type.render, column_type.escape),
            oracle.integer_text(case.k),
        ]
    )


@pytest.fixture(scope="module", params=ADAPTERS + TABLE_FORMATS)
def drawn(request, projects, tmp_path_factory):
    project = projects.new(request.param, tmp_path_factory.mktemp("properties"))
    engine = project.backend.name  # Spark's Delta and Iceberg tables hold Spark's types
    rng = random.Random(f"{SEED}-{request.param}")
    types = column_types(engine)
    per_type = -(-CASES_PER_ENGINE // len(types))
    project.query("create schema canon")
    if engine in ("postgres", "duckdb"):
        labels = ", ".join("'" + label.replace("'", "''") + "'" for label in ENUM_LABELS)
        project.query(f"create type prop_mood as enum ({labels})")
    cases = {}
    for column_type in types:
        drawn_cases = draw_cases(column_type, rng, per_type)
        cases[column_type.name] = drawn_cases
        table = f"canon.prop_{column_type.name}"
        using = f" using {project.backend.file_format}" if engine == "spark" else ""
        project.query(f"create table {table} (k int, a {column_type.ddl}, b {column_type.ddl}){using}")
        values = ", ".join(
            f"({c.k}, " + ", ".join("null" if v is None else column_type.literal(v) for v in (c.a, c.b)) + ")"
            for c in drawn_cases
        )
        project.query(f"insert into {table} values {values}")
    listed = [{"schema": "canon", "identifier": f"prop_{t.name}"} for t in types]
    result = project.dbt(
        "run-operation",
        "row_digests",
        "--args",
        json.dumps({"tables": listed}),
        env=project.env_in_timezone(SESSION_TIME_ZONE),
    )
    assert result.returncode == 0, result.output
    yield engine, types, cases, result.result("row_digests")
    project.close()


def test_more_than_500_cases_over_every_kind_of_type(drawn):
    engine, types, cases, _ = drawn
    assert sum(len(c) for c in cases.values()) >= 500
    kinds = {t.name for t in types}
    assert {"text", "binary", "decimal", "timestamptz"} <= kinds
    assert ({"enum", "json", "interval"} <= kinds) or engine == "spark"
    assert ({"struct", "map", "text_list"} <= kinds) or engine == "postgres"


def test_every_row_digest_equals_the_oracle_written_from_the_readme(drawn):
    engine, types, cases, found = drawn
    mismatches = []
    for column_type in types:
        got = {}
        for k, digest in found[f"prop_{column_type.name}"]["rows"]:
            got.setdefault(k, set()).add(digest)
        for case in cases[column_type.name]:
            expected = expected_digest(column_type, case)
            if got.get(case.k) != {expected}:
                mismatches.append((column_type.name, case))
    assert not mismatches, (
        f"{len(mismatches)} cases differ from the oracle on {engine} "
        f"({sorted({name for name, _ in mismatches})}), e.g. {mismatches[:5]}"
    )


def test_the_rules_never_give_two_different_values_one_text(drawn):
    # the engine's digests equal the oracle's (above); here the oracle's texts of the two typed fields are shown
    # to be one-to-one with the values: NULL and '\N', ('a|', 'b') and ('a', '|b') never meet
    engine, types, cases, _ = drawn
    for column_type in types:
        by_digest_without_k = {}
        for case in cases[column_type.name]:
            fields = (
                oracle.field(case.a, column_type.render, column_type.escape),
                oracle.field(case.b, column_type.render, column_type.escape),
            )
            value = tuple(None if v is None else column_type.logical(v) for v in (case.a, case.b))
            by_digest_without_k.setdefault(fields, set()).add(value)
        collided = {fields: values for fields, values in by_digest_without_k.items() if len(values) > 1}
        assert not collided, f"{column_type.name} on {engine}: different values, one text: {collided}"


def test_each_table_fingerprint_equals_the_oracle_whatever_the_order_and_duplicates(drawn):
    engine, types, cases, found = drawn
    for column_type in types:
        fingerprint = found[f"prop_{column_type.name}"]["fingerprint"]
        digests = [expected_digest(column_type, case) for case in cases[column_type.name]]
        assert fingerprint["row_count"] == len(digests)
        assert fingerprint["sha256"] == oracle.fingerprint(digests), (engine, column_type.name)
        engine_specific = column_type.escape and column_type.name not in ("text", "enum")
        if engine == "duckdb" and column_type.name == "enum":
            engine_specific = False
        elif column_type.name == "enum":
            engine_specific = True  # PostgreSQL reports an enum column as USER-DEFINED, and writes its label
        assert fingerprint["algorithm"].startswith("dbt_backfill/v3")
        assert (":" + engine in fingerprint["algorithm"]) == engine_specific, (
            column_type.name,
            fingerprint["algorithm"],
        )
