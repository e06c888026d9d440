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
from backends import make_backend
from dbt_backfill.demo import BACKFILL_DAYS as SEED_DAYS
from warm_interpreter import WarmInterpreter

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
    # a pure-dbt operation's results on stdout too (Command.result reads them there); a person sees human lines
    env["DBT_BACKFILL_DEBUG"] = "1"
    env["DBT_SEND_ANONYMOUS_USAGE_STATS"] = "false"
    env.pop("DBT_PROFILES_DIR", None)
    return env


def prepare_template(root: Path) -> Path:
    """integration_tests/ and models_example/ side by side (the project's relative paths hold), the package
    installed once by `dbt deps` from this repository."""
    shutil.copytree(
        REPO / "integration_tests",
        root / "integration_tests",
        ignore=shutil.ignore_patterns("target", "dbt_packages", "logs", "profiles.yml", "backfills"),
    )
    shutil.copytree(REPO / "models_example", root / "models_example")
    project = root / "integration_tests"
    (project / "packages.yml").write_text(yaml.safe_dump({"packages": [{"local": str(REPO)}]}))
    (project / "profiles.yml").write_text("placeholder: {}\n")
    completed = subprocess.run(
        [str(BIN / "dbt"), "deps", "--project-dir", str(project), "--profiles-dir", str(project)],
        capture_output=True,
        text=True,
        env=_base_env(),
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return root


# dbt's partial-parse state: the user's target/ (dbt run) and dbt-backfill's own (target/dbt_backfill)
PARSE_STATE = ("target/partial_parse.msgpack", "target/dbt_backfill/partial_parse.msgpack")


class ProjectFactory:
    """Throwaway copies of integration_tests/, each on a database of its own, made cheaply. One per pytest process
    (each xdist worker has its own, with its own PostgreSQL cluster and Spark server).

    Every dbt command parses the project first (2-3 s of CPU here) unless it finds dbt's partial-parse state made
    for the same files *and the same connection* (dbt hashes the profile's connection fields). So each live project
    holds a slot: PostgreSQL's database is named for it (`bf_<process>_<slot>`); DuckDB's file is named relatively
    (the same `trips.duckdb` in every project's directory); Spark's connection never differs. The first project of
    a slot is parsed once by `dbt parse` and later ones start from a copy of its target/ — dbt still re-reads any
    file a test changes (its check is by content), and parses from scratch when the profile, vars or target differ.

    The seed scenario's published state is played once per slot with the real commands (load the events, `dbt
    run`, load the corrections) and kept: a template database on PostgreSQL, a file copy on DuckDB, each table's
    DDL and rows on Spark; later projects start from a copy of it and of the target/ that `dbt run` left."""

    def __init__(self, root: Path, process: str, servers, warm: bool = True) -> None:
        self.root = root
        self.process = process
        self.servers = servers  # adapter -> the server fixture's value (started on first use)
        self.template = prepare_template(root / "template")
        self._slots_in_use: dict[str, set[int]] = {}
        self._parsed: dict[tuple[str, int], Path] = {}  # (adapter, slot) -> a target/ with the parse state
        self._saved: dict[tuple[str, int, str], tuple[Any, Path, Any]] = {}  # -> (database state, files, backend)
        # dbt and dbt-backfill forked from an interpreter that imported dbt once (tests/warm_interpreter.py); the
        # benchmarks (warm=False) and DBT_BACKFILL_TEST_COLD=1 start every command as a new process instead
        cold = not warm or os.environ.get("DBT_BACKFILL_TEST_COLD") == "1"
        self.warm = None if cold else WarmInterpreter(root)

    def new(self, adapter: str, workdir: Path) -> TripsProject:
        in_use = self._slots_in_use.setdefault(adapter, set())
        slot = min(set(range(len(in_use) + 1)) - in_use)
        in_use.add(slot)
        project = TripsProject(self, adapter, slot, workdir)
        parsed = self._parsed.get((adapter, slot))
        if parsed is None:
            parse = project.dbt("parse")
            assert parse.returncode == 0, parse.output
            parsed = self.root / f"parsed_{adapter}_{slot}"
            for state in PARSE_STATE:
                (parsed / state).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(project.dir / PARSE_STATE[0], parsed / state)
            self._parsed[(adapter, slot)] = parsed
        shutil.copytree(parsed, project.dir, dirs_exist_ok=True)
        project.state = "fresh"
        return project

    def slot_name(self, adapter: str, slot: int) -> str:
        return f"bf_{self.process}_{slot}"

    def reach(self, project: TripsProject, name: str, play) -> None:
        """Bring `project` to the named state: by `play(project)` — the real commands — the first time for its slot,
        and afterwards by copying what that left (the database, target/ and backfills/). Only a project in a state
        the factory knows is restored; one a test has changed plays for real and keeps its own."""
        key = (project.adapter, project.slot, name)
        if project.state is not None and key in self._saved:
            state, kept, _ = self._saved[key]
            project.backend.restore_state(state)
            for part in KEPT:
                shutil.rmtree(project.dir / part, ignore_errors=True)
                if (kept / part).exists():
                    shutil.copytree(kept / part, project.dir / part)
        else:
            known = project.state is not None and project.backend.saves_state
            play(project)
            if known:
                kept = self.root / f"{name}_{project.adapter}_{project.slot}"
                kept.mkdir()
                state = project.backend.save_state(kept, name)
                for part in KEPT:
                    if (project.dir / part).exists():
                        shutil.copytree(project.dir / part, kept / part)
                self._saved[key] = (state, kept, project.backend)
        project.state = name

    def release(self, project: TripsProject) -> None:
        self._slots_in_use[project.adapter].discard(project.slot)

    def drop_saved_states(self, adapter: str) -> None:
        """Drop the states saved on `adapter`'s server. conftest calls it before that server stops: a call to a
        Spark Connect server that is gone is retried for minutes, and it hung a CI run at its end."""
        for (saved_adapter, _, _), (state, _, backend) in list(self._saved.items()):
            if saved_adapter == adapter:
                backend.drop_state(state)


# what a saved state keeps of the project's directory besides the database
KEPT = ("target", "backfills")


class TripsProject:
    """The integration project on one backend. publish_stale_target() plays the seed scenario's history:
    `fct_trips` published from the original events, then the two late corrections land in the source (which
    the forward-only live job never picks up)."""

    def __init__(self, factory: ProjectFactory, adapter: str, slot: int, workdir: Path) -> None:
        self.factory = factory
        self.adapter = adapter
        self.slot = slot
        shutil.copytree(factory.template, workdir / "work", symlinks=True)
        self.dir = workdir / "work" / "integration_tests"
        self.backend = make_backend(adapter, factory.slot_name(adapter, slot), self.dir, **factory.servers(adapter))
        (self.dir / "profiles.yml").write_text(
            yaml.safe_dump(
                {
                    "dbt_backfill_integration_tests": {
                        "target": adapter,
                        "outputs": {adapter: self.backend.profile_output()},
                    }
                }
            )
        )
        if self.backend.file_format:
            # the models' file_format on Spark: Hive/parquet tables, Delta or Iceberg (models_example/models/fct_trips.sql)
            with (self.dir / "dbt_project.yml").open("a") as project_file:
                project_file.write(f"\nvars:\n  spark_file_format: {self.backend.file_format}\n")
        self.env = {**_base_env(), **self.backend.env()}
        self.state: str | None = None  # a state the factory made (fresh, published, ...); None once a test acts

    def publish_stale_target(self, select: str | None = None) -> TripsProject:
        """The seed scenario's history, played for real once per slot and copied afterwards (see ProjectFactory).
        `select` builds those models only (dbt's --select): a module that needs the target and no other model
        publishes less on an engine where every model costs seconds (Spark)."""
        name = "published" if select is None else f"published:{select}"
        if self.state != name:
            self.factory.reach(self, name, lambda project: project.play_publication(select))
        return self

    def planned_seed(self) -> Path:
        """The published seed scenario with its three days planned (no --out: the packet's own name), played for
        real once per slot and copied afterwards. Returns the packet's path."""

        def play(project: TripsProject) -> None:
            project.publish_stale_target()
            planned = project.plan("fct_trips", SEED_DAYS)
            assert planned.returncode == 0, planned.output

        self.factory.reach(self, "planned_seed", play)
        return self.packets()[-1]

    def with_audit_table(self) -> TripsProject:
        """The published seed scenario with the audit table its owner makes before the first plan or scan
        (docs/security.md; `stale` never makes it, so a scan records what it vouches for only where it exists),
        played once per slot and copied afterwards."""

        def play(project: TripsProject) -> None:
            project.publish_stale_target()
            made = project.dbt("run-operation", "dbt_backfill.create_audit_table", "--args", "{model: fct_trips}")
            assert made.returncode == 0, made.output

        self.factory.reach(self, "with_audit_table", play)
        return self

    def play_publication(self, select: str | None = None) -> None:
        self.backend.load_events("published")
        run = self.dbt("run", *(["--select", select] if select else []))
        assert run.returncode == 0, run.output
        self.backend.load_events("corrections")

    # -- commands ------------------------------------------------------------------------------------------
    def _run(self, args: list[str], env: dict[str, str] | None = None) -> Command:
        self.state = None
        if self.factory.warm and Path(args[0]).parent == BIN:
            return Command(*self.factory.warm.run(args[0], args[1:], self.dir, env or self.env))
        completed = subprocess.run(
            args, capture_output=True, text=True, cwd=self.dir, env=env or self.env, stdin=subprocess.DEVNULL
        )
        return Command(completed.returncode, completed.stdout, completed.stderr)

    def dbt(self, *args: str, env: dict[str, str] | None = None) -> Command:
        return self._run(
            [str(BIN / "dbt"), *args, "--project-dir", str(self.dir), "--profiles-dir", str(self.dir)], env
        )

    def backfill(self, command: str, *args: str, dbt_options: bool = True) -> Command:
        options = ["--project-dir", str(self.dir), "--profiles-dir", str(self.dir)] if dbt_options else []
        return self._run([str(BIN / "dbt-backfill"), command, *args, *options])

    def plan(self, model: str, partitions, *args: str) -> Command:
        return self.backfill("plan", model, "--partitions", ",".join(partitions), *args)

    def approve(self, packet: Path, by: str = "Dana Owner") -> Command:
        # a packet reviewed RESTRUCTURE FIRST (every Spark plan: no lock) is approved only with a reason
        verdict = ((yaml.safe_load(Path(packet).read_text()) or {}).get("review") or {}).get("verdict")
        despite = ["--despite", "the test knows why"] if verdict == "RESTRUCTURE FIRST" else []
        return self.backfill("approve", str(packet), "--by", by, *despite, dbt_options=False)

    def env_in_timezone(self, timezone: str) -> dict[str, str]:
        return {**self.env, **self.backend.env(timezone)}

    # -- looking at the database ---------------------------------------------------------------------------
    def query(self, sql: str) -> list[tuple]:
        self.state = None  # it may have written
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
        self.factory.release(self)
