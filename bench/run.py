"""dbt-backfill benchmarks on PostgreSQL (P10 on DuckDB): every figure is a ratio against a baseline measured in the same run.

    python bench/run.py            the full sizes (10M-row partitions; run by hand, tens of minutes)
    python bench/run.py --quick    the smallest sizes, a minute or two: proves the harness runs (the suite runs it)
    python bench/run.py --only P1,P4 --json results.json

It starts its own throwaway PostgreSQL cluster (or uses DBT_BACKFILL_TEST_PG_HOST/_PORT/_USER/_PASSWORD), builds
the data with generate_series, and drives the real `dbt` and `dbt-backfill` commands. Times are the best of
`--repeat` runs (warm cache); a ratio is ours over the baseline.

  P1  canonical fingerprint of one partition  vs  COPY (the material columns) TO '/dev/null' (the floor for
      anything that reads row content), data-diff's md5-sum checksum, count(*), rows fetched and hashed in Python
  P2  apply of one partition                   in a 100-partition table vs a 10-partition table (same partition)
  P3  plan + approve + apply of 3 partitions   vs dbt's microbatch backfill of the same days
  P4  plan + approve + apply, the seed         vs one `dbt run -s fct_trips`
  P5  peak memory of plan (client, server)     at a 10x larger partition
  P6  plan + approve + apply of 1 day, dedup    with 100 days of history vs 10 days (100,000 rows a day), each
      relying on a recorded proof of the windows
  P7  plan + approve + apply of 1 day, dedup    vs `dbt run --full-refresh` of the whole model (100 days): the
      first plan (which proves the windows over the whole history) and the next (which relies on that proof)
  P8  plan of 1 day, dedup, 1M rows             on the table as `dbt run` publishes it (no index, no statistics)
      vs the same plan with the partition and business-key indexes and ANALYZE
  P9  `dbt-backfill stale`, dedup, 100 days     after corrections to 0.1% of the rows of 3 days, the source declaring
      changed_at, vs `dbt run --full-refresh` and vs the same scan at 10 days; and without a change column
  P10 plan + approve + apply of 100 days, 50 rows each, on DuckDB (many small partitions: "restate the last 90
      days") vs `dbt run --full-refresh` of the whole model and vs the same cycle of 10 days
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the suite's throwaway cluster and seed project, reused as they are

from postgres_cluster import PostgresServer, ThrowawayCluster, server_from_environment  # noqa: E402
from warm_interpreter import WarmInterpreter  # noqa: E402

BIN = Path(sys.executable).parent
PASSWORD_VARIABLE = "DBT_ENV_SECRET_BENCH_PASSWORD"
COLUMNS = "event_id, day, event_ts, customer, amount, status, updated_at"
FIRST_DAY = "2026-01-01"

SIZES: dict[str, dict[str, Any]] = {
    # proves every measure runs and gives its figures (the suite's harness test): the fewest rows and days each
    # measure's checks hold on, no untimed warm-up; what it spends is its commands, not its rows
    "quick": {
        "p1_rows": 2_000,
        "p2_rows": 200,
        "p3_rows": 500,
        "p3_days": 6,
        "p5_rows": (500, 5_000),
        "p6_rows": 100,
        "p7_rows": 500,
        "p8_rows": 500,
        "p9_rows": 1_000,
        "p10": (10, 3, 20),
        "repeat": 1,
        "warm_up": False,
    },
    "full": {
        "p1_rows": 10_000_000,
        "p2_rows": 100_000,
        "p3_rows": 1_000_000,
        "p3_days": 10,
        "p5_rows": (1_000_000, 10_000_000),
        "p6_rows": 100_000,
        "p7_rows": 200_000,
        "p8_rows": 100_000,
        "p9_rows": 100_000,
        "p10": (100, 10, 50),
        "repeat": 2,
        "warm_up": True,
    },
}


def day(offset: int) -> str:
    return (dt.date.fromisoformat(FIRST_DAY) + dt.timedelta(days=offset)).isoformat()


@dataclass
class Result:
    measure: str
    figures: dict[str, Any] = field(default_factory=dict)
    ratios: dict[str, float] = field(default_factory=dict)
    target: str = ""
    met: bool | None = None


class Bench:
    """One database, the bench dbt project beside the package, and the commands a user would type."""

    def __init__(self, server: PostgresServer, workdir: Path, repeat: int, warm: bool = False) -> None:
        self.server = server
        self.repeat = repeat
        # --warm (the suite's harness test only): commands forked from an interpreter that imported dbt once, as
        # the suite runs them. Figures then leave dbt's import out of both sides; the benchmarks never use it.
        self.warm = WarmInterpreter(workdir) if warm else None
        self.database = "bench_" + uuid.uuid4().hex[:8]
        server.create_database(self.database)
        self.connection = server.connect(self.database)
        self.dir = workdir / "project"
        shutil.copytree(REPO / "bench" / "project", self.dir)
        (self.dir / "packages.yml").write_text(yaml.safe_dump({"packages": [{"local": str(REPO)}]}))
        (self.dir / "profiles.yml").write_text(
            yaml.safe_dump(
                {
                    "dbt_backfill_bench": {
                        "target": "pg",
                        "outputs": {
                            "pg": {
                                "type": "postgres",
                                "host": server.host,
                                "port": server.port,
                                "user": server.user,
                                "password": "{{ env_var('" + PASSWORD_VARIABLE + "') }}",
                                "dbname": self.database,
                                "schema": "analytics",
                                "threads": 1,
                            },
                            # P10: many small partitions on DuckDB, a file beside the project
                            "duck": {"type": "duckdb", "path": str(self.dir / "bench.duckdb"), "threads": 1},
                        },
                    }
                }
            )
        )
        # dbt's log, never rotated: a cycle's statements are read back from it (a rotation mid-command lost them)
        self.env = {
            **os.environ,
            PASSWORD_VARIABLE: server.password,
            "DBT_SEND_ANONYMOUS_USAGE_STATS": "false",
            "DBT_LOG_FILE_MAX_BYTES": "0",
        }
        self.env.pop("DBT_PROFILES_DIR", None)
        self.command("dbt", "deps")

    # -- running things ----------------------------------------------------------------------------------
    def command(
        self, program: str, *args: str, project_dir: Path | None = None, succeeds: tuple[int, ...] = (0,)
    ) -> subprocess.CompletedProcess:
        project = project_dir or self.dir
        return self.run(
            [program, *args, "--project-dir", str(project), "--profiles-dir", str(project)], project, succeeds
        )

    def run(
        self, command: list[str], cwd: Path | None = None, succeeds: tuple[int, ...] = (0,)
    ) -> subprocess.CompletedProcess:
        """One of the package's console scripts (`dbt`, `dbt-backfill`) as a user runs it; raises if it exits with
        a status outside `succeeds` (`stale` exits 4 when it finds something)."""
        cwd = cwd or self.dir
        script, args = str(BIN / command[0]), command[1:]
        if self.warm:
            completed = subprocess.CompletedProcess(command, *self.warm.run(script, args, cwd, self.env))
        else:
            completed = subprocess.run([script, *args], cwd=cwd, env=self.env, capture_output=True, text=True)
        if completed.returncode not in succeeds:
            raise RuntimeError(
                f"{' '.join(command[:2])} failed:\n{completed.stdout[-3000:]}\n{completed.stderr[-2000:]}"
            )
        return completed

    def sql(self, statement: str) -> list[tuple]:
        with self.connection.cursor() as cursor:
            cursor.execute(statement)
            return cursor.fetchall() if cursor.description else []

    def best(self, action: Callable[[], Any], repeat: int | None = None) -> float:
        times = []
        for _ in range(repeat or self.repeat):
            started = time.perf_counter()
            action()
            times.append(time.perf_counter() - started)
        return min(times)

    def events_table(self, name: str, days: int, rows_per_day: int) -> None:
        """bench_raw.<name>: `rows_per_day` events on each of `days` days, unique event_id, realistic types."""
        self.sql("create schema if not exists bench_raw")
        self.sql(f"drop table if exists bench_raw.{name}")
        self.sql(f"""
            create table bench_raw.{name} as
            select g as event_id,
                   date '{FIRST_DAY}' + ((g - 1) / {rows_per_day})::int as day,
                   timestamp '{FIRST_DAY}' + ((g - 1) / {rows_per_day})::int * interval '1 day'
                       + ((g - 1) % {rows_per_day}) * (interval '1 day' / {rows_per_day}) as event_ts,
                   'customer_' || (g % 1000) as customer,
                   round((g % 10000) / 100.0, 2)::numeric(12, 2) as amount,
                   case when g % 7 = 0 then 'refunded' else 'completed' end as status,
                   timestamptz '{FIRST_DAY} 00:00:00+00' + g * interval '1 second' as updated_at
            from generate_series(1, {days * rows_per_day}) g""")
        self.sql(f"create index on bench_raw.{name} (day)")
        # what a user who reads by event_time and by business key would have (the input windows read event_ts)
        self.sql(f"create index on bench_raw.{name} (event_ts)")
        self.sql(f"create index on bench_raw.{name} (event_id)")
        self.sql(f"vacuum analyze bench_raw.{name}")

    def publish(self, table: str, alias: str) -> str:
        variables = json.dumps({"events_table": table, "fact_alias": alias})
        self.command("dbt", "run", "-s", "events_fact", "--vars", variables)
        self.sql(f"vacuum analyze analytics.{alias}")
        return variables

    def backfill(self, days: list[str], variables: str, correct: str) -> float:
        """Correct the source on `days`, then plan, approve and apply them; returns the apply's seconds."""
        self.sql(correct)
        packet = self.dir / "backfills" / f"{uuid.uuid4().hex[:8]}.yml"
        self.command(
            "dbt-backfill",
            "plan",
            "events_fact",
            "--partitions",
            ",".join(days),
            "--vars",
            variables,
            "--out",
            str(packet),
        )
        self.run(["dbt-backfill", "approve", str(packet), "--by", "bench", "--despite", "measured by the bench"])
        started = time.perf_counter()
        self.command("dbt-backfill", "apply", str(packet), "--vars", variables)
        return time.perf_counter() - started

    def correct_versions(
        self, table: str, on_day: str, every: int = 100, arrived: str = "updated_at + interval '365 days'"
    ) -> None:
        """A late correction: a newer version of every `every`th event of `on_day` (same event_ts, a later
        updated_at: `arrived`)."""
        self.sql(
            f"insert into bench_raw.{table} select event_id, day, event_ts, customer, amount + 1, 'corrected', "
            f"{arrived} from bench_raw.{table} "
            f"where day = '{on_day}' and event_id % {every} = 0"
        )
        self.sql(f"analyze bench_raw.{table}")

    def cycle(self, model: str, days: list[str], variables: str, *target: str) -> dict[str, float]:
        """plan, approve and apply `days` of `model` (`target`: e.g. `--target duck`): the seconds of each step and
        of the three."""
        packet = self.dir / "backfills" / f"{uuid.uuid4().hex[:8]}.yml"
        seconds = {}
        log = self.dir / "logs" / "dbt.log"
        log_start = log.stat().st_size if log.exists() else 0
        started = time.perf_counter()
        self.command(
            "dbt-backfill",
            "plan",
            model,
            "--partitions",
            ",".join(days),
            "--vars",
            variables,
            "--out",
            str(packet),
            *target,
        )
        seconds["plan_s"] = time.perf_counter() - started
        with log.open(encoding="utf-8") as text:
            text.seek(log_start)
            plan_log = text.read()
        # the windows' proof: the one build of the named partitions from the whole inputs (its statements, as the
        # database timed them: the create, the reads of it and its drop)
        seconds["plan_proof_whole_build_s"] = query_seconds(plan_log, "__p0_whole", required=False)
        seconds["plan_sql_s"] = sum(elapsed for elapsed, _ in statements(plan_log))
        seconds["plan_slowest"] = slowest(plan_log)
        started = time.perf_counter()
        self.run(["dbt-backfill", "approve", str(packet), "--by", "bench", "--despite", "measured by the bench"])
        seconds["approve_s"] = time.perf_counter() - started
        log_start = log.stat().st_size
        started = time.perf_counter()
        self.command("dbt-backfill", "apply", str(packet), "--vars", variables, *target)
        seconds["apply_s"] = time.perf_counter() - started
        with log.open(encoding="utf-8") as text:
            text.seek(log_start)
            apply_log = text.read()
        seconds["apply_sql_s"] = sum(elapsed for elapsed, _ in statements(apply_log))
        seconds["apply_slowest"] = slowest(apply_log)
        seconds["total_s"] = seconds["plan_s"] + seconds["approve_s"] + seconds["apply_s"]
        return seconds

    def close(self) -> None:
        self.connection.close()
        self.server.drop_database(self.database)
        if self.warm:
            self.warm.close()


def statements(dbt_json_log: str) -> list[tuple[float, str]]:
    """Every statement dbt logged (SQLQuery, then its SQLQueryStatus), as (the database's seconds, its SQL)."""
    found, last_sql = [], ""
    for line in dbt_json_log.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        name = event.get("info", {}).get("name")
        if name == "SQLQuery":
            last_sql = event.get("data", {}).get("sql", "")
        elif name == "SQLQueryStatus":
            found.append((float(event["data"]["elapsed"]), last_sql))
    return found


def slowest(dbt_json_log: str, shown: int = 6) -> str:
    """The slowest statements, each as its seconds and its first 90 characters after dbt's comment."""
    return "; ".join(
        f"{elapsed:.2f}s {' '.join(sql.split('*/', 1)[-1].split())[:90]}"
        for elapsed, sql in sorted(statements(dbt_json_log), reverse=True)[:shown]
    )


def query_seconds(dbt_json_log: str, marker: str, required: bool = True) -> float:
    """The database time dbt logged for the statements whose SQL contains `marker`."""
    seconds = sum(elapsed for elapsed, sql in statements(dbt_json_log) if marker in sql)
    if not seconds and required:
        raise RuntimeError(f"dbt logged no statement containing {marker!r}")
    return seconds


# -- the measures --------------------------------------------------------------------------------------------


def p1_fingerprint(bench: Bench, rows: int) -> Result:
    bench.events_table("p1_events", 1, rows)
    where = f"day = date '{FIRST_DAY}'"
    copy_s = bench.best(
        lambda: bench.sql(f"copy (select {COLUMNS} from bench_raw.p1_events where {where}) to '/dev/null'")
    )
    count_s = bench.best(lambda: bench.sql(f"select count(*) from bench_raw.p1_events where {where}"))
    md5_s = bench.best(
        lambda: bench.sql(
            f"select count(*), sum(('x' || substring(md5(concat({COLUMNS})), 18))::bit(60)::bigint) "
            f"from bench_raw.p1_events where {where}"
        )
    )

    def python_hash() -> None:
        digest = hashlib.sha256()
        with bench.connection.cursor(name="bench_fetch") as cursor:  # server-side: streamed, not loaded whole
            cursor.itersize = 50_000
            cursor.execute(f"select {COLUMNS} from bench_raw.p1_events where {where}")
            for row in cursor:
                digest.update(hashlib.sha256("|".join(map(str, row)).encode()).digest())

    bench.connection.autocommit = False
    python_s = bench.best(python_hash)
    bench.connection.rollback()
    bench.connection.autocommit = True

    def fingerprint() -> tuple[float, float]:
        """The fingerprint's and the commitment's own query times in the database, as dbt measured and logged them
        (dbt's start-up and parse are not their cost)."""
        completed = bench.command(
            "dbt",
            "--log-format",
            "json",
            "--log-level",
            "debug",
            "run-operation",
            "dbt_backfill.fingerprint_partitions",
            "--args",
            json.dumps(
                {
                    "target": {"database": bench.database, "schema": "bench_raw", "identifier": "p1_events"},
                    "partition_by": "day",
                    "business_key": ["event_id"],
                    "additive": ["amount"],
                    "material_columns": [c.strip() for c in COLUMNS.split(",")],
                    "partitions": [FIRST_DAY],
                    "commitment": True,
                }
            ),
        )
        return query_seconds(completed.stdout, "as partition_digest"), query_seconds(
            completed.stdout, "as bf_commitment"
        )

    timings = [fingerprint() for _ in range(bench.repeat)]
    fingerprint_s = min(t[0] for t in timings)
    commitment_s = min(t[1] for t in timings)
    # the plan's check of a build adds one grouping by key (fingerprint_relation's count_duplicate_keys)
    duplicate_keys_s = bench.best(
        lambda: bench.sql(
            f"select count(*) from (select 1 from bench_raw.p1_events where not (event_id is null) and ({where}) "
            f"group by event_id having count(*) > 1) d"
        )
    )
    ratio = fingerprint_s / copy_s
    return Result(
        "P1 canonical fingerprint of one partition",
        {
            "rows": rows,
            "fingerprint_s": fingerprint_s,
            "copy_floor_s": copy_s,
            "md5_sum_s": md5_s,
            "count_s": count_s,
            "python_fetch_hash_s": python_s,
            "duplicate_key_check_s": duplicate_keys_s,
            "commitment_s": commitment_s,
        },
        {
            "fingerprint / COPY floor": ratio,
            "commitment / COPY floor": commitment_s / copy_s,
            "md5-sum / COPY floor": md5_s / copy_s,
            "duplicate-key check / COPY floor": duplicate_keys_s / copy_s,
            "python fetch+hash / COPY floor": python_s / copy_s,
            "count / COPY floor": count_s / copy_s,
        },
        "<= 2x the COPY floor and faster than the md5-sum",
        ratio <= 2 and fingerprint_s < md5_s,
    )


def p2_apply_vs_table_size(bench: Bench, rows: int) -> Result:
    seconds = {}
    for partitions in (10, 100):
        table = f"p2_events_{partitions}"
        bench.events_table(table, partitions, rows)
        variables = bench.publish(table, f"p2_fact_{partitions}")
        seconds[partitions] = bench.backfill(
            [day(5)], variables, f"update bench_raw.{table} set amount = amount + 1 where day = '{day(5)}'"
        )
    ratio = seconds[100] / seconds[10]
    return Result(
        "P2 apply of one partition vs table size",
        {"rows_per_partition": rows, "apply_10_partitions_s": seconds[10], "apply_100_partitions_s": seconds[100]},
        {"100-partition / 10-partition": ratio},
        "<= 1.3x",
        ratio <= 1.3,
    )


def p3_against_microbatch(bench: Bench, rows: int, history_days: int = 10) -> Result:
    """The dedup shape (events_latest) against the same model through dbt's microbatch: a newer version of every
    event of three days lands, and both repair those days, each reading only their days' events."""
    variables = _latest_published(bench, "p3_events", history_days, rows)
    microbatch_vars = json.dumps({"events_table": "p3_events", "latest_microbatch_alias": "p3_latest_microbatch"})
    bench.command(
        "dbt",
        "run",
        "-s",
        "events_latest_microbatch",
        "--vars",
        microbatch_vars,
        "--event-time-start",
        day(0),
        "--event-time-end",
        day(history_days),
    )
    days = [day(2), day(3), day(4)]
    for corrected in days:
        bench.correct_versions("p3_events", corrected, every=1)  # every row of the three days changes
    microbatch_s = bench.best(
        lambda: bench.command(
            "dbt",
            "run",
            "-s",
            "events_latest_microbatch",
            "--vars",
            microbatch_vars,
            "--event-time-start",
            days[0],
            "--event-time-end",
            day(5),
        )
    )
    seconds = bench.cycle("events_latest", days, variables)
    # the baseline did the same repair: the three days hold the same rows in both tables
    day_list = ", ".join(f"'{d}'" for d in days)
    ours, theirs = (
        bench.sql(
            f"select count(*), sum(amount), count(*) filter (where status = 'corrected') "
            f"from analytics.{table} where day in ({day_list})"
        )
        for table in ("p3_events_latest", "p3_latest_microbatch")
    )
    if ours != theirs or ours[0][0] != ours[0][2]:
        raise RuntimeError(f"P3: the repaired days differ: ours {ours}, microbatch's {theirs}")
    ratio = seconds["total_s"] / microbatch_s
    return Result(
        "P3 plan + approve + apply of 3 partitions of a dedup model vs dbt microbatch",
        {"rows_per_partition": rows, **seconds, "microbatch_s": microbatch_s},
        {
            "ours / microbatch": ratio,
            "ours less the proof's whole build / microbatch": (seconds["total_s"] - seconds["plan_proof_whole_build_s"])
            / microbatch_s,
        },
        "<= 2.5x",
        ratio <= 2.5,
    )


def p4_seed_scenario(bench: Bench, workdir: Path, warm_up: bool = True) -> Result:
    from dbt_backfill.demo import BACKFILL_DAYS
    from project import ProjectFactory

    # every command a new process, as a user's: the suite's warm interpreter would take dbt's import off both sides
    # (only --warm, the harness test, lets it)
    projects = ProjectFactory(
        workdir / "p4_projects",
        f"bench_{os.getpid()}",
        lambda adapter: {"postgres_server": bench.server},
        warm=bench.warm is not None,
    )
    trips = projects.new("postgres", workdir / "p4").publish_stale_target()  # the first of its slot: played for real
    try:

        def dbt_run() -> None:
            assert trips.dbt("run", "-s", "fct_trips").returncode == 0

        run_s = bench.best(dbt_run)
        # warm like the baseline's best run: one untimed plan leaves dbt-backfill's own partial-parse state
        # (target/dbt_backfill) as the first `dbt run` left the project's; a plan changes nothing (not in --quick,
        # whose figures are noise)
        if warm_up:
            warm = trips.plan("fct_trips", BACKFILL_DAYS, "--out", str(trips.dir / "backfills" / "warm.yml"))
            assert warm.returncode == 0
        started = time.perf_counter()
        packet = trips.dir / "backfills" / "p4.yml"
        assert trips.plan("fct_trips", BACKFILL_DAYS, "--out", str(packet)).returncode == 0
        assert trips.approve(packet).returncode == 0
        assert trips.backfill("apply", str(packet)).returncode == 0
        ours_s = time.perf_counter() - started
    finally:
        trips.close()
        projects.drop_saved_states("postgres")
    ratio = ours_s / run_s
    return Result(
        "P4 plan + approve + apply of the seed scenario vs one dbt run",
        {"ours_s": ours_s, "dbt_run_s": run_s},
        {"ours / dbt run": ratio},
        "<= 2x",
        ratio <= 2,
    )


def p5_memory(bench: Bench, sizes: tuple[int, int]) -> Result:
    figures: dict[str, Any] = {"work_mem": bench.sql("show work_mem")[0][0]}
    for rows in sizes:
        table = f"p5_events_{rows}"
        bench.events_table(table, 3, rows)
        variables = bench.publish(table, f"p5_fact_{rows}")
        bench.sql(f"update bench_raw.{table} set amount = amount + 1 where day = '{day(1)}'")
        temp_before = bench.sql("select temp_bytes from pg_stat_database where datname = current_database()")[0][0]
        # the client's peak: the largest resident set of any process the plan started (the CLI, dbt)
        probe = subprocess.run(
            [
                sys.executable,
                "-c",
                "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True); "
                "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)",
                str(BIN / "dbt-backfill"),
                "plan",
                "events_fact",
                "--partitions",
                day(1),
                "--vars",
                variables,
                "--out",
                str(bench.dir / "backfills" / f"p5_{rows}.yml"),
                "--project-dir",
                str(bench.dir),
                "--profiles-dir",
                str(bench.dir),
            ],
            env=bench.env,
            capture_output=True,
            text=True,
            cwd=bench.dir,
        )
        if probe.returncode != 0:
            raise RuntimeError(f"plan for P5 failed:\n{probe.stdout[-2000:]}\n{probe.stderr[-2000:]}")
        time.sleep(0.6)  # pg_stat_database is flushed by the backend at most every 500 ms
        temp_after = bench.sql("select temp_bytes from pg_stat_database where datname = current_database()")[0][0]
        figures[f"client_peak_rss_mb_{rows}"] = int(probe.stdout.strip().splitlines()[-1]) / 1024
        figures[f"server_temp_spill_mb_{rows}"] = (temp_after - temp_before) / 2**20
    small, large = sizes
    client_ratio = figures[f"client_peak_rss_mb_{large}"] / figures[f"client_peak_rss_mb_{small}"]
    return Result(
        "P5 peak memory of plan",
        figures,
        {f"client peak at {large} / at {small} rows": client_ratio},
        "bounded: no growth with partition size (the server's sorts stay within work_mem and spill)",
        client_ratio <= 1.2,
    )


def _latest_published(bench: Bench, table: str, days: int, rows: int) -> str:
    """bench_raw.<table> with `days` days of `rows` events, events_latest published from it; its --vars."""
    bench.events_table(table, days, rows)
    variables = json.dumps({"events_table": table, "latest_alias": f"{table}_latest"})
    bench.command("dbt", "run", "-s", "events_latest", "--vars", variables)
    bench.sql(f"vacuum analyze analytics.{table}_latest")
    return variables


def _prove_windows(bench: Bench, variables: str, on_day: str) -> None:
    """An untimed plan that proves the windows over the whole history and records it (the day holds no change:
    nothing to approve), as a model's first plan does; the plans measured after it rely on that proof."""
    bench.command(
        "dbt-backfill",
        "plan",
        "events_latest",
        "--partitions",
        on_day,
        "--vars",
        variables,
        "--prove-window",
        "full",
        "--out",
        str(bench.dir / "backfills" / f"{uuid.uuid4().hex[:8]}.yml"),
    )


def p6_history(bench: Bench, rows: int) -> Result:
    figures: dict[str, Any] = {"rows_per_day": rows}
    for days in (10, 100):
        table = f"p6_events_{days}"
        variables = _latest_published(bench, table, days, rows)
        _prove_windows(bench, variables, day(4))
        bench.correct_versions(table, day(5))
        for step, seconds in bench.cycle("events_latest", [day(5)], variables).items():
            figures[f"{step.removesuffix('_s')}_{days}_days" + ("_s" if step.endswith("_s") else "")] = seconds
    ratios = {
        "100 days / 10 days": figures["total_100_days_s"] / figures["total_10_days_s"],
        "plan 100 days / 10 days": figures["plan_100_days_s"] / figures["plan_10_days_s"],
    }
    return Result(
        "P6 plan + approve + apply of one day of a dedup model vs its history, relying on a recorded proof",
        figures,
        ratios,
        "<= 1.2x",
        ratios["100 days / 10 days"] <= 1.2,
    )


def p7_against_full_rebuild(bench: Bench, rows: int) -> Result:
    variables = _latest_published(bench, "p7_events", 100, rows)
    full_refresh_s = bench.best(
        lambda: bench.command("dbt", "run", "-s", "events_latest", "--full-refresh", "--vars", variables), 1
    )
    bench.correct_versions("p7_events", day(50))
    figures: dict[str, Any] = {"rows_per_day": rows, "days": 100, "full_refresh_s": full_refresh_s}
    # the model's first plan proves the windows over the whole history; the next relies on that proof
    for step, seconds in bench.cycle("events_latest", [day(50)], variables).items():
        figures[f"first_{step}"] = seconds
    bench.correct_versions("p7_events", day(60))
    figures.update(bench.cycle("events_latest", [day(60)], variables))
    ratio, first = figures["total_s"] / full_refresh_s, figures["first_total_s"] / full_refresh_s
    return Result(
        "P7 plan + approve + apply of one day vs dbt run --full-refresh of the whole model",
        figures,
        {
            "ours / full refresh": ratio,
            "the first plan's cycle (the whole-history proof) / full refresh": first,
            "the proof's whole build / full refresh": figures["first_plan_proof_whole_build_s"] / full_refresh_s,
        },
        "<= 0.35x (the first plan's <= 0.6x)",
        ratio <= 0.35 and first <= 0.6,
    )


def p8_fresh_unindexed(bench: Bench, rows: int) -> Result:
    """A plan right after `dbt run` publishes the dedup model with no index (as dbt-postgres leaves a table) and
    no statistics (autovacuum kept off it), vs the same plan once the table has its indexes and ANALYZE. Both
    rely on the windows' proof, recorded by an untimed plan before them."""
    bench.events_table("p8_events", 10, rows)
    table = "analytics.p8_events_latest"
    variables = json.dumps({"events_table": "p8_events", "latest_alias": "p8_events_latest", "latest_indexes": []})
    # autovacuum kept off the table in the publication's own transaction (set afterwards, it can come too late)
    bench.command(
        "dbt",
        "run",
        "-s",
        "events_latest",
        "--vars",
        json.dumps(
            {**json.loads(variables), "latest_post_hook": f"alter table {table} set (autovacuum_enabled = false)"}
        ),
    )
    bench.correct_versions("p8_events", day(5))
    _prove_windows(bench, variables, day(4))

    def plan() -> None:
        bench.command(
            "dbt-backfill",
            "plan",
            "events_latest",
            "--partitions",
            day(5),
            "--vars",
            variables,
            "--out",
            str(bench.dir / "backfills" / f"{uuid.uuid4().hex[:8]}.yml"),
        )

    def as_published() -> tuple:
        return bench.sql(
            f"select c.reltuples, (select count(*) from pg_index i where i.indrelid = c.oid) "
            f"from pg_class c where c.oid = '{table}'::regclass"
        )[0]

    fresh_s = bench.best(plan)
    if as_published() != (-1, 0):  # never analyzed, no index: what the measure is of
        raise RuntimeError(f"P8: {table} was analyzed or indexed during the measure: {as_published()}")
    bench.sql(f"create index on {table} (day)")
    bench.sql(f"create index on {table} (event_id)")
    bench.sql(f"analyze {table}")
    indexed_s = bench.best(plan)
    ratio = fresh_s / indexed_s
    return Result(
        "P8 plan of one day on a freshly published, unindexed, unanalyzed 1M-row table vs indexed and analyzed",
        {"rows_per_day": rows, "days": 10, "fresh_unindexed_s": fresh_s, "indexed_analyzed_s": indexed_s},
        {"fresh unindexed / indexed and analyzed": ratio},
        "<= 1.5x",
        ratio <= 1.5,
    )


def _stale_scan(bench: Bench, variables: str) -> tuple[float, list[str], int]:
    """One `dbt-backfill stale events_latest --json`: its seconds, the partitions it found, how many it compared."""
    started = time.perf_counter()
    completed = bench.command("dbt-backfill", "stale", "events_latest", "--json", "--vars", variables, succeeds=(0, 4))
    seconds = time.perf_counter() - started
    found = json.loads(completed.stdout.strip().splitlines()[-1])
    return seconds, [s["value"] for s in found["stale"]], found["compared"]


def p9_stale_scan(bench: Bench, rows: int) -> Result:
    """The stale scan of a dedup model after late corrections to 0.1% of the rows of three days, the source
    declaring changed_at (updated_at), at 100 days of history vs 10 and vs a full rebuild; then the same scan with
    no change column (every partition compared). Each measured scan follows one that vouched for every partition,
    as a scheduled scan does."""
    figures: dict[str, Any] = {"rows_per_day": rows}
    corrected = [day(3), day(5), day(7)]
    # the target's owner makes the audit table first (docs/security.md): a scan records what it vouches for only
    # there, and never makes it
    bench.command("dbt", "run-operation", "dbt_backfill.create_audit_table", "--args", "{model: events_latest}")
    for days in (10, 100):
        table = f"p9_events_{days}"
        variables = json.dumps(
            {**json.loads(_latest_published(bench, table, days, rows)), "events_changed_at": "updated_at"}
        )
        figures[f"first_scan_{days}_days_s"], found, _ = _stale_scan(bench, variables)  # nothing vouched yet: all
        if found:
            raise RuntimeError(f"P9: a freshly published table is stale on {found}")
        for on_day in corrected:
            bench.correct_versions(table, on_day, every=1000, arrived="current_timestamp")
        figures[f"scan_{days}_days_s"], found, compared = _stale_scan(bench, variables)
        figures[f"compared_{days}_days"] = compared
        if found != corrected:
            raise RuntimeError(f"P9: the scan found {found}, the corrections were on {corrected}")
    # the last table (100 days): the full rebuild, and the scan with no change column (every partition compared)
    no_column = json.dumps({**json.loads(variables), "events_changed_at": None})
    figures["no_change_column_100_days_s"], found, figures["no_change_column_compared"] = _stale_scan(bench, no_column)
    if found != corrected:
        raise RuntimeError(f"P9: without a change column the scan found {found}, the corrections were on {corrected}")
    figures["full_refresh_100_days_s"] = bench.best(
        lambda: bench.command("dbt", "run", "-s", "events_latest", "--full-refresh", "--vars", variables), 1
    )
    ratios = {
        "scan / full refresh (100 days)": figures["scan_100_days_s"] / figures["full_refresh_100_days_s"],
        "scan 100 days / 10 days": figures["scan_100_days_s"] / figures["scan_10_days_s"],
        "no change column / full refresh": figures["no_change_column_100_days_s"] / figures["full_refresh_100_days_s"],
    }
    return Result(
        "P9 stale scan of a dedup model after corrections to 3 days vs a full rebuild and vs its history",
        figures,
        ratios,
        "<= 0.15x a full refresh, <= 1.3x the 10-day scan",
        ratios["scan / full refresh (100 days)"] <= 0.15 and ratios["scan 100 days / 10 days"] <= 1.3,
    )


def _duckdb(bench: Bench, *statements: str) -> None:
    """Statements on the bench's DuckDB file, in a connection closed before dbt opens the file again."""
    import duckdb  # dbt-duckdb's own dependency

    connection = duckdb.connect(str(bench.dir / "bench.duckdb"))
    try:
        for statement in statements:
            connection.execute(statement)
    finally:
        connection.close()


def _newer_versions(days: list[str]) -> str:
    """A newer version of every event of `days` (the amount corrected, a later updated_at)."""
    listed = ", ".join(f"date '{d}'" for d in days)
    return (
        f"insert into bench_raw.p10_events select event_id, day, event_ts, customer, amount + 1, 'corrected', "
        f"updated_at + interval 1 day from bench_raw.p10_events where day in ({listed}) and "
        f"updated_at = (select max(updated_at) from bench_raw.p10_events as newest "
        f"where newest.event_id = p10_events.event_id)"
    )


def _p10_floor(
    bench: Bench, days: list[str], variables: str, target: tuple[str, ...], approve_s: float
) -> dict[str, float]:
    """What P10's cycle cannot cost less than with every check dropped (bench/project/macros/p10_floor.sql): the
    model built twice over every day in one invocation, the approval as the cycle timed it, and each day replaced in
    a transaction of its own (delete, insert, commit) in another; each invocation timed whole, start-up included,
    given the cycle's vars (other vars would cost dbt a full parse the cycle's commands do not pay)."""
    _duckdb(bench, _newer_versions(days))
    builds = {"source": "bench_raw.p10_events", "into": "main.p10_bare"}
    started = time.perf_counter()
    bench.command(
        "dbt", "run-operation", "bench_bare_builds", "--args", json.dumps(builds), "--vars", variables, *target
    )
    plan_s = time.perf_counter() - started
    replacement = {"target": "main.p10_latest", "stage": "main.p10_bare_a", "days": days}
    started = time.perf_counter()
    bench.command(
        "dbt",
        "run-operation",
        "bench_bare_replacement",
        "--args",
        json.dumps(replacement),
        "--vars",
        variables,
        *target,
    )
    apply_s = time.perf_counter() - started
    return {"floor_plan_s": plan_s, "floor_apply_s": apply_s, "floor_cycle_s": plan_s + approve_s + apply_s}


def p10_many_small_partitions(bench: Bench, sizes: tuple[int, int, int]) -> Result:
    """Issue 57: "restate the last 90 days", the backfill users run most: every day of a small dedup model on DuckDB
    corrected, planned, approved and applied, against a full refresh of the whole model and the same cycle of a
    tenth of the days. One run each (every cycle repairs what it measures)."""
    days_in_all, fewer, rows = sizes
    _duckdb(
        bench,
        "create schema if not exists bench_raw",
        f"""create or replace table bench_raw.p10_events as
            select g as event_id, date '{FIRST_DAY}' + cast((g - 1) // {rows} as integer) as day,
                   timestamp '{FIRST_DAY}' + to_days(cast((g - 1) // {rows} as integer))
                       + to_seconds(cast(((g - 1) % {rows}) * (86400 // {rows}) as bigint)) as event_ts,
                   'customer_' || (g % 1000) as customer, cast((g % 10000) / 100.0 as decimal(12, 2)) as amount,
                   case when g % 7 = 0 then 'refunded' else 'completed' end as status,
                   timestamptz '{FIRST_DAY} 00:00:00+00' + to_seconds(g) as updated_at
            from range(1, {days_in_all * rows} + 1) as t(g)""",
    )
    variables = json.dumps({"events_table": "p10_events", "latest_alias": "p10_latest", "latest_indexes": []})
    duck = ("--target", "duck")
    bench.command("dbt", "run", "-s", "events_latest", "--vars", variables, *duck)
    every, some = [day(i) for i in range(days_in_all)], [day(i) for i in range(fewer)]
    _duckdb(bench, _newer_versions(every))
    figures: dict[str, Any] = {"days": days_in_all, "rows_per_day": rows}
    for step, seconds in bench.cycle("events_latest", [f"{every[0]}..{every[-1]}"], variables, *duck).items():
        figures[f"all_{step}"] = seconds
    _duckdb(bench, _newer_versions(some))
    for step, seconds in bench.cycle("events_latest", [f"{some[0]}..{some[-1]}"], variables, *duck).items():
        figures[f"tenth_{step}"] = seconds
    started = time.perf_counter()
    bench.command("dbt", "run", "-s", "events_latest", "--full-refresh", "--vars", variables, *duck)
    figures["full_refresh_s"] = time.perf_counter() - started
    figures.update(_p10_floor(bench, every, variables, duck, figures["all_approve_s"]))
    ratios = {
        "cycle of every day / full refresh": figures["all_total_s"] / figures["full_refresh_s"],
        f"cycle of {days_in_all} days / of {fewer}": figures["all_total_s"] / figures["tenth_total_s"],
        "floor (every check dropped) / full refresh": figures["floor_cycle_s"] / figures["full_refresh_s"],
    }
    return Result(
        f"P10 plan + approve + apply of {days_in_all} daily partitions of {rows} rows (DuckDB) vs a full refresh",
        figures,
        ratios,
        f"<= 3x a full refresh, <= 2x the cycle of {fewer} days",
        ratios["cycle of every day / full refresh"] <= 3 and ratios[f"cycle of {days_in_all} days / of {fewer}"] <= 2,
    )


MEASURES = {
    "P1": lambda b, s, w: p1_fingerprint(b, s["p1_rows"]),
    "P2": lambda b, s, w: p2_apply_vs_table_size(b, s["p2_rows"]),
    "P3": lambda b, s, w: p3_against_microbatch(b, s["p3_rows"], s["p3_days"]),
    "P4": lambda b, s, w: p4_seed_scenario(b, w, s["warm_up"]),
    "P5": lambda b, s, w: p5_memory(b, s["p5_rows"]),
    "P6": lambda b, s, w: p6_history(b, s["p6_rows"]),
    "P7": lambda b, s, w: p7_against_full_rebuild(b, s["p7_rows"]),
    "P8": lambda b, s, w: p8_fresh_unindexed(b, s["p8_rows"]),
    "P9": lambda b, s, w: p9_stale_scan(b, s["p9_rows"]),
    "P10": lambda b, s, w: p10_many_small_partitions(b, s["p10"]),
}


def machine() -> str:
    cpus = os.cpu_count()
    memory = ""
    try:
        kib = int(
            next(
                line for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal")
            ).split()[1]
        )
        memory = f", {kib / 2**20:.1f} GiB RAM"
    except (OSError, StopIteration, ValueError):
        pass
    return f"{platform.machine()}, {cpus} CPUs{memory}, {platform.system()} {platform.release()}"


def options(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, checked (the suite checks the commands docs/performance.md shows with it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (CI): the harness runs, figures are noise")
    parser.add_argument(
        "--warm",
        action="store_true",
        help="fork commands from a warm interpreter (the suite's harness test: it runs, faster; the "
        "import of dbt leaves both sides of every ratio)",
    )
    parser.add_argument("--only", default=",".join(MEASURES), help="comma-separated measures, e.g. P1,P4")
    parser.add_argument("--json", type=Path, default=None, help="also write the results as JSON here")
    parser.add_argument(
        "--keep-log",
        type=Path,
        default=None,
        help="copy dbt's JSON log of the run here (every statement and its time: the profile)",
    )
    args = parser.parse_args(argv)
    args.chosen = [m.strip().upper() for m in args.only.split(",") if m.strip()]
    unknown = [m for m in args.chosen if m not in MEASURES]
    if unknown:
        parser.error(f"unknown measure(s) {', '.join(unknown)}; known: {', '.join(MEASURES)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = options(argv)
    sizes = SIZES["quick" if args.quick else "full"]
    chosen = args.chosen

    cluster = None
    server = server_from_environment()
    if server is None:
        cluster = ThrowawayCluster()
        server = cluster.server = cluster.start()
    workdir = Path(tempfile.mkdtemp(prefix="dbt_backfill_bench_"))
    results: list[Result] = []
    try:
        bench = Bench(server, workdir, sizes["repeat"], warm=args.warm)
        postgres = bench.sql("show server_version")[0][0]
        print(
            f"dbt-backfill benchmarks ({'quick' if args.quick else 'full'} sizes) on PostgreSQL {postgres}, "
            f"{machine()}",
            flush=True,
        )
        try:
            for name in chosen:
                result = MEASURES[name](bench, sizes, workdir)
                results.append(result)
                print(f"\n{result.measure}  (target: {result.target})", flush=True)
                for key, value in result.figures.items():
                    print(f"  {key:34s} {value:.3f}" if isinstance(value, float) else f"  {key:34s} {value}")
                for key, value in result.ratios.items():
                    print(f"  ratio {key:28s} {value:.2f}x")
                print(f"  target {'met' if result.met else 'MISSED'}", flush=True)
        finally:
            bench.close()
            if args.keep_log and (bench.dir / "logs" / "dbt.log").exists():
                shutil.copy(bench.dir / "logs" / "dbt.log", args.keep_log)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        if cluster:
            cluster.stop()
    if args.json:
        args.json.write_text(json.dumps([r.__dict__ for r in results], indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
