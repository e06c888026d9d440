"""The databases the suite runs on, behind one small interface: a dbt profile output, the environment the
commands need, and plain SQL to look at the tables (psycopg2 / the duckdb module, never our macros)."""
from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from dbt_backfill.demo import load_trip_events
from postgres_cluster import PostgresServer

import pytest

ADAPTERS = [pytest.param(name, marks=getattr(pytest.mark, name), id=name) for name in ("postgres", "duckdb")]
PASSWORD_VARIABLE = "DBT_ENV_SECRET_BACKFILL_TEST_PASSWORD"
TIMEZONE_VARIABLE = "DBT_BACKFILL_TEST_TIMEZONE"


class PostgresBackend:
    name = "postgres"

    def __init__(self, server: PostgresServer, workdir: Path) -> None:
        self.server = server
        self.database = "bf_" + uuid.uuid4().hex[:10]
        server.create_database(self.database)
        self.connection = server.connect(self.database)

    def profile_output(self) -> dict[str, Any]:
        return {"type": "postgres", "host": self.server.host, "port": self.server.port, "user": self.server.user,
                "password": "{{ env_var('" + PASSWORD_VARIABLE + "') }}", "dbname": self.database,
                "schema": "analytics", "threads": 1}

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

    def close(self) -> None:
        self.connection.close()
        self.server.drop_database(self.database)


class DuckDBBackend:
    """A DuckDB file. Only one process may open it for writing, so every look opens and closes its own
    connection and never overlaps a dbt command."""
    name = "duckdb"

    def __init__(self, workdir: Path) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        self.path = workdir / "trips.duckdb"

    def profile_output(self) -> dict[str, Any]:
        return {"type": "duckdb", "path": str(self.path), "schema": "analytics", "threads": 1,
                "settings": {"TimeZone": "{{ env_var('" + TIMEZONE_VARIABLE + "', 'UTC') }}"}}

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

    def close(self) -> None:
        pass


def make_backend(adapter: str, postgres_server: PostgresServer | None, workdir: Path):
    if adapter == "postgres":
        return PostgresBackend(postgres_server, workdir)
    return DuckDBBackend(workdir)
