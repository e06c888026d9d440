"""A throwaway copy of integration_tests/ on its own database (PostgreSQL or DuckDB), driven through the real
`dbt` and `dbt-backfill` commands, with plain SQL through the backend to look at what they did."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


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

    def result(self, kind: str) -> Any:
        """A macro's sentinel-wrapped result on dbt's log."""
        match = re.search(rf"<<dbt_backfill:{kind}>>(.*?)<</dbt_backfill>>", self.stdout)
        assert match, self.output
        return json.loads(match.group(1))


def _base_env() -> dict[str, str]:
    env = dict(os.environ)
    env["DBT_SEND_ANONYMOUS_USAGE_STATS"] = "false"
    env.pop("DBT_PROFILES_DIR", None)
    return env


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


class TripsProject:
    """The integration project on one backend. publish_stale_target() plays the seed scenario's history:
    `fct_trips` published from the original events, then the two late corrections land in the source (which
    the forward-only live job never picks up)."""

    def __init__(self, backend, template: Path, workdir: Path) -> None:
        self.backend = backend
        self.adapter = backend.name
        shutil.copytree(template, workdir, symlinks=True)
        self.dir = workdir / "integration_tests"
        (self.dir / "profiles.yml").write_text(yaml.safe_dump({"dbt_backfill_integration_tests": {
            "target": backend.name, "outputs": {backend.name: backend.profile_output()}}}))
        self.env = {**_base_env(), **backend.env()}

    def publish_stale_target(self) -> "TripsProject":
        self.backend.load_events("published")
        run = self.dbt("run")
        assert run.returncode == 0, run.output
        self.backend.load_events("corrections")
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

    def plan(self, model: str, partitions, *args: str) -> Command:
        return self.backfill("plan", model, "--partitions", ",".join(partitions), *args)

    def approve(self, packet: Path, by: str = "Dana Owner") -> Command:
        return self.backfill("approve", str(packet), "--by", by, dbt_options=False)

    def env_in_timezone(self, timezone: str) -> dict[str, str]:
        return {**self.env, **self.backend.env(timezone)}

    # -- looking at the database ---------------------------------------------------------------------------
    def query(self, sql: str) -> list[tuple]:
        return self.backend.query(sql)

    def rows(self, relation: str = "analytics.fct_trips") -> list[tuple]:
        """Every row, every column, in a fixed order: the independent check that a table is unchanged."""
        return sorted(self.query(f"select * from {relation}"), key=repr)

    def packets(self) -> list[Path]:
        return sorted((self.dir / "backfills").glob("*.yml"))

    def tables_in(self, schema: str) -> list[str]:
        return self.backend.tables_in(schema)

    def close(self) -> None:
        self.backend.close()
