"""The databases the suite runs on, behind one small interface: a dbt profile output, the environment the
commands need, and plain SQL to look at the tables (psycopg2 / the duckdb module / PySpark, never our macros)."""

from __future__ import annotations

import re
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from dbt_backfill.demo import load_trip_events
from postgres_cluster import PostgresServer


def _params(*names: str) -> list:
    return [pytest.param(name, marks=getattr(pytest.mark, name), id=name) for name in names]


ADAPTERS = _params("postgres", "duckdb", "spark")
# Spark's open table formats (issue 41): the same dbt-spark project, its models' file_format `delta` (on a server whose
# spark_catalog is Delta's DeltaCatalog, the one "spark" uses too) or `iceberg` (a server of its own: Iceberg's
# SparkSessionCatalog); marked `spark` as well, so `-m spark` runs every Spark test
TABLE_FORMATS = [
    pytest.param(name, marks=[pytest.mark.spark, getattr(pytest.mark, name)], id=name) for name in ("delta", "iceberg")
]
SPARK_FORMATS = {"spark": "parquet", "delta": "delta", "iceberg": "iceberg"}
# engines with multi-statement transactions (and, for PostgreSQL, locks and triggers): what the resilience,
# concurrency and plan-review tests exercise
TRANSACTIONAL_ADAPTERS = _params("postgres", "duckdb")
# what only PostgreSQL has here: triggers, roles and privileges, server settings, a time zone of the database
POSTGRES_ONLY = _params("postgres")
# a behaviour the same Python, Jinja or SQL decides on every engine over what the engine's leaves compute (those leaves
# proved on each engine by its own tests): one real-engine test, on DuckDB, the cheapest (DECISIONS row 87)
ENGINE_INDEPENDENT = _params("duckdb")
PASSWORD_VARIABLE = "DBT_ENV_SECRET_BACKFILL_TEST_PASSWORD"
TIMEZONE_VARIABLE = "DBT_BACKFILL_TEST_TIMEZONE"


class _StandardSqlBackend:
    """What PostgreSQL and DuckDB share: information_schema, CREATE TABLE ... VALUES and UPDATE."""

    saves_state = True
    file_format = None

    def tables_in(self, schema: str) -> list[str]:
        return [
            r[0]
            for r in self.query(
                f"select table_name from information_schema.tables where table_schema = '{schema}' order by 1"
            )
        ]

    def create_table(self, table: str, definition: str, values: str | None) -> None:
        self.query(f"create table {table} ({definition})")
        if values:
            self.query(f"insert into {table} values {values}")

    def update(self, table: str, assignments: str, where: str) -> None:
        self.query(f"update {table} set {assignments} where {where}")


class PostgresBackend(_StandardSqlBackend):
    """A database of its own on the suite's PostgreSQL. Its name is the project's slot (see project.py): the same
    name for every project of that slot, so the connection dbt hashes for partial parsing is the same too."""

    name = "postgres"

    def __init__(self, server: PostgresServer, database: str) -> None:
        self.server = server
        self.database = database
        server.drop_database(database)  # a database of a slot is never shared: one left by a killed run goes
        server.create_database(database)
        self.connection = server.connect(database)

    def profile_output(self) -> dict[str, Any]:
        return {
            "type": "postgres",
            "host": self.server.host,
            "port": self.server.port,
            "user": self.server.user,
            "password": "{{ env_var('" + PASSWORD_VARIABLE + "') }}",
            "dbname": self.database,
            "schema": "analytics",
            "threads": 1,
        }

    def env(self, timezone: str | None = None) -> dict[str, str]:
        env = {PASSWORD_VARIABLE: self.server.password}
        if timezone:
            env["PGTZ"] = timezone  # libpq sets the session's TimeZone from it
        return env

    def query(self, sql: str) -> list[tuple]:
        with self.connection.cursor() as cursor:
            cursor.execute(sql)
            return cursor.fetchall() if cursor.description else []

    def render_timestamptz(self, sql_value: str, timezone: str) -> str:
        connection = self.server.connect(self.database, options=f"-c TimeZone={timezone}")
        try:
            with connection.cursor() as cursor:
                cursor.execute(f"select ({sql_value})::timestamptz::text")
                return cursor.fetchone()[0]
        finally:
            connection.close()

    def load_events(self, name: str) -> None:
        load_trip_events(self.connection, name, "%s")

    # -- a saved state (published, planned), kept once and copied into later projects of the same slot -------
    def save_state(self, keep_in: Path, name: str) -> str:
        """Copy this database to `<database>_<state name>` (CREATE DATABASE ... TEMPLATE: a file copy on the
        server)."""
        saved = f"{self.database}_{name}"
        self.connection.close()
        self.server.drop_database(saved)
        self.server.create_database(saved, template=self.database)
        self.connection = self.server.connect(self.database)
        return saved

    def restore_state(self, saved: str) -> None:
        self.connection.close()
        self.server.drop_database(self.database)
        self.server.create_database(self.database, template=saved)
        self.connection = self.server.connect(self.database)

    def drop_state(self, saved: str) -> None:
        self.server.drop_database(saved)

    def close(self) -> None:
        self.connection.close()
        self.server.drop_database(self.database)


class DuckDBBackend(_StandardSqlBackend):
    """A DuckDB file in the project's directory, named relatively in the profile (`path: trips.duckdb`, as many
    projects do), so every project has the same connection for dbt's partial parsing. dbt and dbt-backfill run
    with the project's directory as their working directory. Only one process may open the file for writing, so
    every look opens and closes its own connection and never overlaps a dbt command."""

    name = "duckdb"
    FILE = "trips.duckdb"

    def __init__(self, project_dir: Path) -> None:
        self.path = project_dir / self.FILE

    def profile_output(self) -> dict[str, Any]:
        return {
            "type": "duckdb",
            "path": self.FILE,
            "schema": "analytics",
            "threads": 1,
            "settings": {"TimeZone": "{{ env_var('" + TIMEZONE_VARIABLE + "', 'UTC') }}"},
        }

    def env(self, timezone: str | None = None) -> dict[str, str]:
        return {TIMEZONE_VARIABLE: timezone} if timezone else {}

    def _connect(self):
        import duckdb

        return duckdb.connect(str(self.path))

    def query(self, sql: str) -> list[tuple]:
        connection = self._connect()
        try:
            result = connection.execute(sql)
            return result.fetchall() if result.description else []
        finally:
            connection.close()

    def render_timestamptz(self, sql_value: str, timezone: str) -> str:
        connection = self._connect()
        try:
            connection.execute(f"set TimeZone = '{timezone}'")
            return connection.execute(f"select cast(cast({sql_value} as timestamptz) as varchar)").fetchone()[0]
        finally:
            connection.close()

    def load_events(self, name: str) -> None:
        connection = self._connect()
        try:
            load_trip_events(connection, name, "?")
        finally:
            connection.close()

    def save_state(self, keep_in: Path, name: str) -> Path:
        saved = keep_in / self.FILE
        shutil.copyfile(self.path, saved)
        return saved

    def restore_state(self, saved: Path) -> None:
        shutil.copyfile(saved, self.path)

    def drop_state(self, saved: Path) -> None:
        saved.unlink(missing_ok=True)

    def close(self) -> None:
        pass


class SparkBackend:
    """The suite's Spark Connect server. Its metastore is shared by the whole pytest process, so a new project
    starts by dropping every database but `default` and the saved states (tests of one process run one at a
    time; each xdist worker that runs Spark tests has a server of its own)."""

    name = "spark"
    SAVED = "bf_saved_"  # prefix of the databases that keep saved states: bf_saved_<state>__<database>

    def __init__(self, server, file_format: str = "parquet") -> None:
        self.server = server
        # the models' file_format (the project's var spark_file_format); a saved state is a Hive table's DDL and rows,
        # which would not give a Delta or Iceberg table back with its history, so those projects play every state
        self.file_format = file_format
        self.saves_state = file_format == "parquet"
        with self.session() as spark:
            self._drop_databases(spark)

    def _drop_databases(self, spark) -> None:
        for (database,) in spark.sql("show databases").collect():
            if database != "default" and not database.startswith(self.SAVED):
                spark.sql(f"drop database if exists `{database}` cascade")

    @contextmanager
    def session(self):
        """A new Spark Connect session per look: a long-lived one keeps the file listing of every table it read
        and then fails on the files a dbt command (another session) replaced since."""
        spark = self.server.new_session()
        try:
            yield spark
        finally:
            spark.stop()

    def profile_output(self) -> dict[str, Any]:
        return {"type": "spark", "method": "session", "host": "NA", "schema": "analytics", "threads": 1}

    def env(self, timezone: str | None = None) -> dict[str, str]:
        env = {"SPARK_REMOTE": self.server.url}
        if timezone:
            env["TZ"] = timezone
        return env

    def query(self, sql: str) -> list[tuple]:
        with self.session() as spark:
            return [tuple(row) for row in spark.sql(sql).collect()]

    def render_timestamptz(self, sql_value: str, timezone: str) -> str:
        with self.session() as spark:
            spark.conf.set("spark.sql.session.timeZone", timezone)
            return spark.sql(f"select cast(cast({sql_value} as timestamp) as string)").collect()[0][0]

    def load_events(self, name: str) -> None:
        from dbt_backfill.demo import trip_events

        values = ", ".join(
            f"({e}, {t}, date'{d}', {f}, '{s}', timestamp'{u}')" for e, t, d, f, s, u in trip_events(name)
        )
        with self.session() as spark:
            spark.sql("create database if not exists raw")
            spark.sql(
                "create table if not exists raw.trip_events (event_id int, trip_id int, trip_date date, "
                "fare decimal(10, 2), status string, updated_at timestamp) using parquet"
            )
            spark.sql(f"insert into raw.trip_events values {values}")

    # -- a saved state (published, planned), kept once and copied into later projects -------------------------
    def save_state(self, keep_in: Path, name: str) -> tuple[str, list[str], list[tuple[str, str, str, bool]]]:
        """Every database as it is now: each object's own DDL (SHOW CREATE TABLE, as dbt-spark made it) and, for a
        table, its rows copied into `bf_saved_<name>__<database>`. Returns the prefix, the databases and the
        objects, tables before views."""
        prefix = f"{self.SAVED}{name}__"
        databases, objects = [], []
        with self.session() as spark:
            for (database,) in spark.sql("show databases").collect():
                if database == "default" or database.startswith(self.SAVED):
                    continue
                saved = f"{prefix}{database}"
                databases.append(database)
                spark.sql(f"drop database if exists `{saved}` cascade")
                spark.sql(f"create database `{saved}`")
                for table in spark.catalog.listTables(database):
                    ddl = spark.sql(f"show create table `{database}`.`{table.name}`").collect()[0][0]
                    if table.tableType != "VIEW":
                        spark.sql(
                            f"create table `{saved}`.`{table.name}` using parquet as "
                            f"select * from `{database}`.`{table.name}`"
                        )
                    objects.append((database, table.name, self._managed(ddl), table.tableType == "VIEW"))
        return prefix, databases, sorted(objects, key=lambda o: o[3])

    @staticmethod
    def _managed(ddl: str) -> str:
        """The DDL dbt-spark ran, as far as SHOW CREATE TABLE gives it back: without the LOCATION (given one, Spark
        would make the copy an external table) and without the default collation, which Spark 4 spells out
        (`status STRING COLLATE UTF8_BINARY`) and which, once declared, DESCRIBE reports as part of the type."""
        return re.sub(r" COLLATE UTF8_BINARY\b", "", re.sub(r"\nLOCATION '[^']*'", "", ddl))

    def restore_state(self, saved) -> None:
        prefix, databases, objects = saved
        with self.session() as spark:
            self._drop_databases(spark)
            for database in databases:
                spark.sql(f"create database `{database}`")
            for database, name, ddl, is_view in objects:
                spark.sql(ddl)
                if not is_view:
                    spark.sql(f"insert into `{database}`.`{name}` select * from `{prefix}{database}`.`{name}`")

    def drop_state(self, saved) -> None:
        prefix, databases, _ = saved
        with self.session() as spark:
            for database in databases:
                spark.sql(f"drop database if exists `{prefix}{database}` cascade")

    # PostgreSQL type names the tests write, in Spark's words. Spark's TIMESTAMP is an instant (timestamptz);
    # TIMESTAMP_NTZ is the naive kind; Spark has no uuid type (a string holds the text).
    SPARK_TYPES = (
        (r"\btimestamp\b", "timestamp_ntz"),
        (r"\btimestamptz\b", "timestamp"),
        (r"\btext\b", "string"),
        (r"\bnumeric\b", "decimal"),
        (r"\buuid\b", "string"),
        (r"\bdouble precision\b", "double"),
        (r'"(\w+)"', r"`\1`"),
    )

    def create_table(self, table: str, definition: str, values: str | None) -> None:
        """One statement: a table with rows is created from them, each literal cast to its column's type (strings to
        timestamps and dates), so a fixture of many small tables pays one Spark statement a table."""
        for pattern, replacement in self.SPARK_TYPES:
            definition = re.sub(pattern, replacement, definition)
        with self.session() as spark:
            if not values:
                spark.sql(f"create table {table} ({definition}) using {self.file_format}")
                return
            values = values.replace("\\", "\\\\")  # a backslash in a Spark string literal is an escape
            # the column definitions, split at the commas outside a type's parentheses (decimal(12,3))
            columns = [c.strip() for c in re.split(r",(?![^()]*\))", definition)]
            # a cast takes no varchar(n): Spark reads one as a string anyway
            casts = ", ".join(
                f"cast(col{i + 1} as {re.sub(r'(?:var)?char[(][0-9]+[)]', 'string', column.split(None, 1)[1])}) "
                f"as {column.split(None, 1)[0]}"
                for i, column in enumerate(columns)
            )
            spark.sql(f"create table {table} using {self.file_format} as select {casts} from values {values}")

    def tables_in(self, schema: str) -> list[str]:
        if not self.query(f"show databases like '{schema}'"):
            return []
        return sorted(row[1] for row in self.query(f"show tables in `{schema}`") if not row[2])

    def update(self, table: str, assignments: str, where: str) -> None:
        """Parquet tables take no UPDATE: rewrite the table from a copy with the change applied (a Delta or Iceberg
        table the same way, so its files are rewritten as a parquet table's are)."""
        # split at the commas that start a new `column =`, not at those inside a function's arguments
        changes = {
            name.strip(): value.strip()
            for name, value in (a.split("=", 1) for a in re.split(r",\s*(?=\w+\s*=[^=])", assignments))
        }
        copy = f"{table}__update_copy"
        with self.session() as spark:
            columns = [field.name for field in spark.table(table).schema.fields]
            select = ", ".join(
                f"case when {where} then {changes[c]} else `{c}` end as `{c}`" if c in changes else f"`{c}`"
                for c in columns
            )
            spark.sql(f"drop table if exists {copy}")
            spark.sql(f"create table {copy} using parquet as select {select} from {table}")
            spark.sql(f"insert overwrite table {table} select * from {copy}")
            spark.sql(f"drop table {copy}")

    def close(self) -> None:
        pass


def make_backend(
    adapter: str, slot_name: str, project_dir: Path, postgres_server=None, spark_server=None, spark_iceberg_server=None
):
    """The backend of a project: `slot_name` names its PostgreSQL database (see project.py)."""
    if adapter == "postgres":
        return PostgresBackend(postgres_server, slot_name)
    if adapter in SPARK_FORMATS:
        return SparkBackend(spark_iceberg_server if adapter == "iceberg" else spark_server, SPARK_FORMATS[adapter])
    return DuckDBBackend(project_dir)
