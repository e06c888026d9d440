"""The seed scenario: its trip events loaded into a database (shared by the demo and the test suite), and the
demo that plays it end to end on a local DuckDB file.

The scenario's files live in models_example/ of a source checkout (the dbt models and the CSVs). The demo runs
dbt through the runner and the dbt-backfill commands as a person would type them, and narrates through a
callback: it prints nothing itself.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Callable

from dbt_backfill.dbt_runner import DbtOptions, redact, run_dbt_as_a_user
from dbt_backfill.errors import BackfillError

EXAMPLE_DIR = Path(__file__).resolve().parents[2] / "models_example"
BACKFILL_DAYS = ("2026-03-01", "2026-03-02", "2026-03-03")
NEIGHBOUR_DAYS = ("2026-02-28", "2026-03-04")

CREATE_EVENTS = """
create table if not exists raw.trip_events (
    event_id integer primary key,
    trip_id integer not null,
    trip_date date not null,
    fare numeric(10, 2) not null,
    status text not null,
    updated_at timestamp with time zone not null
)"""


def trip_events(name: str) -> list[tuple]:
    """The rows of models_example/data/trip_events_<name>.csv (published, corrections)."""
    with open(EXAMPLE_DIR / "data" / f"trip_events_{name}.csv", newline="") as f:
        return [
            (int(r["event_id"]), int(r["trip_id"]), r["trip_date"], Decimal(r["fare"]), r["status"], r["updated_at"])
            for r in csv.DictReader(f)
        ]


def load_trip_events(connection, name: str, placeholder: str = "%s") -> None:
    """Insert one CSV file's events into raw.trip_events (created if missing) and commit."""
    cursor = connection.cursor()
    cursor.execute("create schema if not exists raw")
    cursor.execute(CREATE_EVENTS)
    cursor.executemany(f"insert into raw.trip_events values ({', '.join([placeholder] * 6)})", trip_events(name))
    connection.commit()


# -- the demo: the seed scenario end to end on a local DuckDB file --------------------------------------------

REPO_DIR = EXAMPLE_DIR.parent
MARKER = ".dbt_backfill_demo"
PACKET = "backfills/fct_trips_demo.yml"


class DemoProject:
    """A throwaway dbt project on a DuckDB file: the example models, the package installed from this checkout."""

    def __init__(self, directory: Path) -> None:
        self.dir = directory.resolve()
        self.database = self.dir / "trips.duckdb"

    def create(self) -> None:
        if not (REPO_DIR / "dbt_project.yml").exists() or not EXAMPLE_DIR.exists():
            raise BackfillError(
                "the demo runs from a source checkout of dbt-backfill (models_example/ and the dbt "
                "package beside python_plugin/); this installation has neither."
            )
        if self.dir.exists():
            if not (self.dir / MARKER).exists():
                raise BackfillError(f"{self.dir} exists and is not a dbt-backfill demo: choose another --dir.")
            shutil.rmtree(self.dir)
        self.dir.mkdir(parents=True)
        (self.dir / MARKER).write_text("made by `dbt-backfill demo`; safe to delete\n")
        shutil.copytree(EXAMPLE_DIR / "models", self.dir / "models")
        shutil.copytree(EXAMPLE_DIR / "macros", self.dir / "macros")
        (self.dir / "dbt_project.yml").write_text(DEMO_PROJECT)
        (self.dir / "packages.yml").write_text(f"packages:\n  - local: {REPO_DIR}\n")
        (self.dir / "profiles.yml").write_text(DEMO_PROFILE.format(path=self.database))

    def sql(self, statement: str) -> list[tuple]:
        import duckdb  # dbt-duckdb's own dependency; imported here so the CLI does not need it elsewhere

        connection = duckdb.connect(str(self.database))
        try:
            result = connection.execute(statement)
            return result.fetchall() if result.description else []
        finally:
            connection.close()

    def load(self, name: str) -> None:
        import duckdb

        connection = duckdb.connect(str(self.database))
        try:
            load_trip_events(connection, name, "?")
        finally:
            connection.close()

    def days(self, relation: str, days: Sequence[str]) -> tuple[int, Decimal]:
        listed = ", ".join(f"'{d}'" for d in days)
        count, total = self.sql(f"select count(*), sum(fare) from {relation} where trip_date in ({listed})")[0]
        return count, total


DEMO_PROJECT = """\
name: dbt_backfill_demo
version: '1.0.0'
config-version: 2
profile: dbt_backfill_demo
model-paths: ["models"]
macro-paths: ["macros"]
flags:
  send_anonymous_usage_stats: false
models:
  dbt_backfill_demo:
    +pre-hook: "{{ dbt_backfill.full_refresh_guard() }}"
"""

DEMO_PROFILE = """\
dbt_backfill_demo:
  target: duckdb
  outputs:
    duckdb:
      type: duckdb
      path: "{path}"
      schema: analytics
      threads: 1
"""


@dataclass(frozen=True)
class Step:
    """A command the demo ran, as a person would type it in the demo's directory, and what it printed."""

    command: str
    returncode: int
    output: str


def run_demo(directory: Path, say: Callable[[str], None]) -> int:
    """Play the seed scenario on DuckDB, narrating through `say`. Returns 0 when the story ends as it should."""
    project = DemoProject(directory)
    say(f"dbt-backfill demo: the seed scenario on DuckDB (embedded, no server), in {project.dir}\n")
    project.create()
    stale = _publish_and_correct(project, say)
    neighbours_before = _neighbours(project)
    step = _Stepper(project, say)
    days = list(BACKFILL_DAYS)
    step(
        "3",
        "Plan: pin the source, build every day twice, compare, write the packet. The target is only read.",
        *("plan", "fct_trips", "--partitions", ",".join(days), "--out", PACKET),
    )
    step("4", "Apply before anyone approved: refused.", "apply", PACKET, expect=3)
    step("5", "The data owner approves this exact packet (its SHA-256).", "approve", PACKET, "--by", "Dana Owner")
    step("6", "Apply: one transaction per day, each checked against the approval before it commits.", "apply", PACKET)
    step("7", "Verify, now or any time later.", "verify", PACKET)

    count, total = project.days("analytics.fct_trips", days)
    fares = dict(project.sql("select trip_id, fare from analytics.fct_trips where trip_id in (1003, 1007)"))
    neighbours_after = _neighbours(project)
    say(
        f"   fct_trips {days[0]}..{days[-1]}: {count} trips, fare {stale} -> {total}; trip 1003 = {fares[1003]}, "
        f"trip 1007 = {fares[1007]}."
    )
    say(
        f"   Outside the backfill, {' and '.join(NEIGHBOUR_DAYS)} hold the same {len(neighbours_after)} rows as before: "
        f"{'unchanged' if neighbours_after == neighbours_before else 'CHANGED'}.\n"
    )
    step(
        "8",
        "The unsafe source: fct_trips_volatile reads a view with a clock value in updated_at.",
        *("plan", "fct_trips_volatile", "--partitions", days[0]),
        expect=3,
    )
    step("9", "The audit trail: every event, with who approved what.", "history", "fct_trips")
    say(_left_behind(project))
    ok = (count, total) == (13, Decimal("349.00")) and neighbours_after == neighbours_before
    return 0 if ok else 1


def _publish_and_correct(project: DemoProject, say: Callable[[str], None]) -> Decimal:
    """Steps 1 and 2: the live job publishes, then two late corrections land; the fare total the live job leaves."""
    options = DbtOptions(project_dir=project.dir, profiles_dir=project.dir)
    project.load("published")
    for command in (["deps"], ["run"]):
        completed = run_dbt_as_a_user(options, command)
        if completed.returncode != 0:
            raise BackfillError(
                f"dbt {' '.join(command)} failed in the demo project:\n"
                + redact((completed.stdout + completed.stderr).strip()[-3000:])
            )
    days = list(BACKFILL_DAYS)
    count, total = project.days("analytics.fct_trips", days)
    say(f"1. dbt run published fct_trips: {days[0]}..{days[-1]} hold {count} trips, fare {total}.")

    project.load("corrections")
    events, naive = project.days("raw.trip_events", days)
    say(
        f"2. Two late corrections land in the source: trip 1003 30.00 -> 12.00, trip 1007 50.00 -> 0.00 (refund).\n"
        f"   The source now has {events} events for the same 13 trips; a naive append would publish {events} rows "
        f"and fare {naive}."
    )
    run_dbt_as_a_user(options, ["run", "--select", "fct_trips"])
    count, stale = project.days("analytics.fct_trips", days)
    say(
        f"   The live job (dbt run -s fct_trips) moves forward only: fct_trips still says {count} trips, fare {stale}.\n"
    )
    return stale


def _neighbours(project: DemoProject) -> list:
    return project.sql(
        f"select * from analytics.fct_trips where trip_date in ('{NEIGHBOUR_DAYS[0]}', '{NEIGHBOUR_DAYS[1]}') order by 1"
    )


class _Stepper:
    """Runs a dbt-backfill command in the demo's directory as a person types it, and narrates what it printed."""

    def __init__(self, project: DemoProject, say: Callable[[str], None]) -> None:
        self.project, self.say = project, say

    def __call__(self, number: str, text: str, *args: str, expect: int = 0) -> Step:
        shown = "dbt-backfill " + " ".join(f'"{a}"' if " " in a else a for a in args)
        completed = subprocess.run(
            [_cli(), *args], cwd=self.project.dir, capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False
        )
        output = (completed.stdout + completed.stderr).rstrip()
        self.say(f"{number}. {text}\n   $ {shown}\n" + "\n".join("   " + line for line in output.splitlines()))
        if completed.returncode != expect:
            raise BackfillError(f"the demo expected exit status {expect} from `{shown}`, got {completed.returncode}.")
        self.say(f"   (exit status {completed.returncode})\n" if expect else "")
        return Step(shown, completed.returncode, output)


def _left_behind(project: DemoProject) -> str:
    """The same commands as the README's block for the project left behind (test_demo runs that block as written)."""
    days = list(BACKFILL_DAYS)
    return (
        f"Done. The project stays in {project.dir}: read the packet ({PACKET}) and rerun any step there, e.g.\n"
        f"   cd {project.dir}\n"
        f'   dbt-backfill rollback {PACKET} --by "Your Name"     # undo the demo\'s apply from its backups\n'
        f"   dbt-backfill plan fct_trips --partitions {days[0]}..{days[-1]} --out backfills/again.yml\n"
        f'   dbt-backfill approve backfills/again.yml --by "Your Name"\n'
        f"   dbt-backfill apply backfills/again.yml"
    )


def _cli() -> str:
    beside_python = Path(sys.executable).with_name("dbt-backfill")
    return str(beside_python) if beside_python.exists() else (shutil.which("dbt-backfill") or "dbt-backfill")
