"""A throwaway PostgreSQL cluster for the test suite: a temp dir, a free port, torn down at the end.

Set DBT_BACKFILL_TEST_PG_HOST / _PORT / _USER / _PASSWORD to use an existing server instead (the suite then
creates and drops its own databases there). As root, initdb and postgres run as the `postgres` user, because
PostgreSQL refuses to run as root.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import psycopg2

PG_BIN_CANDIDATES = [
    Path(p)
    for p in (
        "/usr/lib/postgresql/15/bin",
        "/usr/lib/postgresql/16/bin",
        "/usr/lib/postgresql/17/bin",
        "/usr/local/pgsql/bin",
    )
]


@dataclass(frozen=True)
class PostgresServer:
    host: str
    port: int
    user: str
    password: str = field(repr=False)  # a failing test's traceback shows the fixture: never its password

    def connect(self, dbname: str = "postgres", **options):
        connection = psycopg2.connect(
            host=self.host, port=self.port, user=self.user, password=self.password, dbname=dbname, **options
        )
        connection.autocommit = True
        return connection

    def _outside_transaction(self, sql: str) -> None:
        connection = self.connect()
        try:
            with connection.cursor() as cursor:
                cursor.execute(sql)
        finally:
            connection.close()

    def create_database(self, name: str, template: str | None = None) -> None:
        """A new database; from `template`, a copy of that one (which nobody may be connected to)."""
        copy = f' template "{template}"' if template else ""
        self._outside_transaction(f'create database "{name}"{copy}')

    def drop_database(self, name: str) -> None:
        self._outside_transaction(f'drop database if exists "{name}" with (force)')


def _pg_bin() -> Path:
    for candidate in PG_BIN_CANDIDATES:
        if (candidate / "initdb").exists():
            return candidate
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    raise RuntimeError(
        "PostgreSQL server binaries (initdb, pg_ctl) not found; install postgresql or set "
        "DBT_BACKFILL_TEST_PG_HOST to an existing server"
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ThrowawayCluster:
    def __init__(self) -> None:
        self.bin = _pg_bin()
        self.root = Path(tempfile.mkdtemp(prefix="dbt_backfill_pg_"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.password = secrets.token_urlsafe(18)
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            postgres = pwd.getpwnam("postgres")
            os.chown(self.root, postgres.pw_uid, postgres.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        subprocess.run([*self.as_user, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def start(self) -> PostgresServer:
        password_file = self.root / "pw"
        password_file.write_text(self.password + "\n")
        if self.as_user:
            shutil.chown(password_file, "postgres")
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            f"--pwfile={password_file}",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
        )
        password_file.unlink()
        options = (
            f"-c port={self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.root} "
            "-c fsync=off -c full_page_writes=off -c synchronous_commit=off -c max_connections=50"
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.root / "server.log"),
            "-w",
            "-o",
            options,
            "start",
        )
        self.options = options
        return PostgresServer(host="127.0.0.1", port=self.port, user="postgres", password=self.password)

    def restart(self) -> None:
        """A fast restart: every session is cut off and open transactions are rolled back, as after a crash."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "restart")

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.root, ignore_errors=True)


def server_from_environment() -> PostgresServer | None:
    host = os.environ.get("DBT_BACKFILL_TEST_PG_HOST")
    if not host:
        return None
    return PostgresServer(
        host=host,
        port=int(os.environ.get("DBT_BACKFILL_TEST_PG_PORT", "5432")),
        user=os.environ.get("DBT_BACKFILL_TEST_PG_USER", "postgres"),
        password=os.environ.get("DBT_BACKFILL_TEST_PG_PASSWORD", ""),
    )
