"""A throwaway copy of integration_tests/ on its own PostgreSQL database, driven through the real `dbt` and
`dbt-backfill` commands, with plain SQL (psycopg2) to look at what they did."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from postgres_cluster import PostgresServer
from scenario import load_events

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PASSWORD_VARIABLE = "DBT_ENV_SECRET_BACKFILL_TEST_PASSWORD"


@dataclass
class Command:
    returncode: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        return self.stdout + self.stderr

    def json(self) -> Any:
        return json.loads(self.stdout)


def prepare_template(root: Path) -> Path:
    """integration_tests/ and models_example/ side by side (the project's relative paths hold), the package
    installed once by `dbt deps` from this repository."""
    shutil.copytree(REPO / "integration_tests", root / "integration_tests",
                    ignore=shutil.ignore_patterns("target", "dbt_packages", "logs", "profiles.yml", "backfills"))
    shutil.copytree(REPO / "models_example", root / "models_example")
    project = root / "integration_tests"
    (project / "packages.yml").write_text(yaml.safe_dump({"packages": [{"local": str(REPO)}]}))
    (project / "profiles.yml").write_text("placeholder: {}\n")
    completed = subprocess.run([str(BIN / "dbt"), "deps", "--project-dir", str(project), "--profiles-dir",
                                str(project)], capture_output=True, text=True, env=_base_env())
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return root


def _base_env() -> dict[str, str]:
    env = dict(os.environ)
    env["DBT_SEND_ANONYMOUS_USAGE_STATS"] = "false"
    env.pop("DBT_PROFILES_DIR", None)
    return env


class TripsProject:
    """The seed scenario on a fresh database: `fct_trips` published from the original events, then the two
    late corrections land in the source (which the forward-only live job never picks up)."""

    def __init__(self, server: PostgresServer, template: Path, workdir: Path) -> None:
        self.server = server
        self.database = "bf_" + uuid.uuid4().hex[:10]
        shutil.copytree(template, workdir, symlinks=True)
        self.dir = workdir / "integration_tests"
        self.profiles = self.dir / "profiles.yml"
        self.profiles.write_text(yaml.safe_dump({"dbt_backfill_integration_tests": {
            "target": "postgres",
            "outputs": {"postgres": {
                "type": "postgres", "host": server.host, "port": server.port, "user": server.user,
                "password": "{{ env_var('" + PASSWORD_VARIABLE + "') }}",
                "dbname": self.database, "schema": "analytics", "threads": 1,
            }},
        }}))
        self.env = _base_env()
        self.env[PASSWORD_VARIABLE] = server.password
        server.create_database(self.database)
        self.connection = server.connect(self.database)

    # -- the scenario ------------------------------------------------------------------------------------
    def publish_stale_target(self) -> "TripsProject":
        load_events(self.connection, "published")
        run = self.dbt("run")
        assert run.returncode == 0, run.output
        load_events(self.connection, "corrections")
        return self

    # -- commands ------------------------------------------------------------------------------------------
    def _run(self, args: list[str], env: dict[str, str] | None = None) -> Command:
        completed = subprocess.run(args, capture_output=True, text=True, cwd=self.dir, env=env or self.env,
                                   stdin=subprocess.DEVNULL)
        return Command(completed.returncode, completed.stdout, completed.stderr)

    def dbt(self, *args: str, env: dict[str, str] | None = None) -> Command:
        return self._run([str(BIN / "dbt"), *args, "--project-dir", str(self.dir), "--profiles-dir", str(self.dir)],
                         env)

    def backfill(self, command: str, *args: str, dbt_options: bool = True) -> Command:
        options = ["--project-dir", str(self.dir), "--profiles-dir", str(self.dir)] if dbt_options else []
        return self._run([str(BIN / "dbt-backfill"), command, *args, *options])

    def plan(self, model: str, partitions: list[str], *args: str) -> Command:
        return self.backfill("plan", model, "--partitions", ",".join(partitions), *args)

    def approve(self, packet: Path, by: str = "Dana Owner") -> Command:
        return self.backfill("approve", str(packet), "--by", by, dbt_options=False)

    # -- looking at the database ---------------------------------------------------------------------------
    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self.connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall() if cursor.description else []

    def rows(self, relation: str = "analytics.fct_trips") -> list[tuple]:
        """Every row, every column, in a fixed order: the independent check that a table is unchanged."""
        return self.query(f"select * from {relation} order by 1, 2, 3")

    def packets(self) -> list[Path]:
        return sorted((self.dir / "backfills").glob("*.yml"))

    def tables_in(self, schema: str) -> list[str]:
        return [r[0] for r in self.query(
            "select table_name from information_schema.tables where table_schema = %s order by 1", (schema,))]

    def close(self) -> None:
        self.connection.close()
        self.server.drop_database(self.database)
