"""What `stale` reads and what it is given (issue 54, items 4, 6 and 8): a change column without a time zone is read
in the zone it declares, UTC by default, never the session's, so a correction stamped in UTC is found from a session
in Asia/Tokyo; `stale`, `partitions` and `history` never make the audit table (the planner's scheduled scan before
the owner made it left a table every applier command refused); and bad input is refused in plan's words: YAML's
rewritten partition values and a mapping, an empty `--since`, a `--limit` past what the database counts."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from backends import ENGINE_INDEPENDENT, POSTGRES_ONLY, TRANSACTIONAL_ADAPTERS
from conftest import trips_on
from project import BIN
from test_tampering import as_role

trips = trips_on([*POSTGRES_ONLY, *ENGINE_INDEPENDENT])

# the source windowed by the trip's day; `_loaded_at`, a timestamp without time zone, says when a row last changed
LOADED_AT = "{trip_events_event_time: trip_date, trip_events_changed_at: _loaded_at}"
AUDIT = "analytics_backfill.dbt_backfill_audit"
PUBLISHED = ["analytics.fct_trips", "raw.trip_events"]


def snapshot(project):
    return {relation: project.rows(relation) for relation in PUBLISHED}


def audit_tables(project) -> int:
    return project.query(
        "select count(*) from information_schema.tables where table_schema = 'analytics_backfill' "
        "and table_name = 'dbt_backfill_audit'"
    )[0][0]


def project_options(project) -> list[str]:
    return ["--project-dir", str(project.dir), "--profiles-dir", str(project.dir)]


def scan_in(project, timezone: str):
    """`dbt-backfill stale fct_trips --json` from a session in `timezone`: (exit status, stale values, document)."""
    run = project._run(
        [str(BIN / "dbt-backfill"), "stale", "fct_trips", "--json", "--vars", LOADED_AT, *project_options(project)],
        env=project.env_in_timezone(timezone),
    )
    found = json.loads(run.stdout.strip().splitlines()[-1])
    return run.returncode, [s["value"] for s in found["stale"]], found


def wall_time(zone: str) -> str:
    """Now, as a clock in `zone` shows it: what a loader writing `zone`'s local time stamps."""
    return datetime.now(UTC).astimezone(ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M:%S.%f")


@pytest.mark.parametrize("trips", TRANSACTIONAL_ADAPTERS, indirect=True)
def test_a_change_column_without_time_zone_is_read_as_utc_or_its_declared_zone_whatever_the_session(trips):
    """Asia/Tokyo is UTC+9. Read in the session's zone, a correction stamped in UTC a minute after a scan looked 9
    hours older than that scan, and an UPDATE in place moves no day's count: 2026-03-03 was never compared again. Read
    as UTC (the default), it is found; declared America/New_York (UTC-5), a correction stamped in New York's wall time
    is found from the same Tokyo session. 2026-02-28, which nothing changed, stays vouched for (not compared)."""
    trips.with_audit_table()  # where the scans record what they vouch for
    trips.query("alter table raw.trip_events add column _loaded_at timestamp")
    trips.query("update raw.trip_events set _loaded_at = timestamp '2026-03-25 00:00:00'")
    before = trips.rows()

    status, stale, _ = scan_in(trips, "Asia/Tokyo")
    assert (status, stale) == (4, ["2026-03-01", "2026-03-02"])  # the seed's two corrections, every day compared

    # a loader that stamps UTC corrects trip 1010 (2026-03-03) in place, after that scan
    trips.query(
        f"update raw.trip_events set fare = fare + 5, _loaded_at = timestamp '{wall_time('UTC')}' where event_id = 10"
    )
    status, stale, found = scan_in(trips, "Asia/Tokyo")
    assert (status, stale) == (4, ["2026-03-01", "2026-03-02", "2026-03-03"]), found
    [source] = found["inputs"]
    assert (source["changed_at"], source["changed_days"]) == ("_loaded_at", ["2026-03-03"]), source
    assert " ".join(next(s for s in found["stale"] if s["value"] == "2026-03-03")["why"]).startswith(
        f"{found['target'].rsplit('.', 2)[0]}.raw.trip_events changed on 2026-03-03 since the stale scan of"
    ), found["stale"]

    # the source declares its loader's zone: a correction stamped in New York's wall time, 5 hours behind UTC
    sources = trips.dir.parent / "models_example" / "models" / "sources.yml"
    declared = "changed_at: \"{{ var('trip_events_changed_at', none) }}\""
    assert declared in sources.read_text()
    sources.write_text(
        sources.read_text().replace(declared, declared + "\n              changed_at_time_zone: America/New_York")
    )
    trips.query(
        f"update raw.trip_events set fare = fare + 1, _loaded_at = timestamp '{wall_time('America/New_York')}' "
        "where event_id = 103"
    )
    status, stale, found = scan_in(trips, "Asia/Tokyo")
    assert (status, stale) == (4, ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04"]), found
    assert found["compared"] == 4  # 2026-02-28: vouched for by the last scan, nothing changed in its window
    assert trips.rows() == before  # only read


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_stale_partitions_and_history_never_make_the_audit_table_so_its_owner_still_can(trips):
    """docs/security.md's roles, before the target's owner made the audit table: the planner's scheduled `stale`,
    `partitions` and `history` make none (each says there is none, `stale` that it recorded nothing), and the owner's
    create_audit_table then makes it, which the applier trusts."""
    trips.query("drop schema if exists analytics_backfill cascade")
    roles = {name: as_role(trips, name, []) for name in ("live", "planner", "applier")}
    live = roles["live"]
    trips.query(
        f"alter table analytics.fct_trips owner to {live}; alter table raw.trip_events owner to {live}; "
        f"grant usage on schema analytics, raw to {live}"
    )
    from test_trust_anchors import roles_and_grants, run_recipe

    grants, make_the_audit_table, audit_grants = roles_and_grants()
    run_recipe(trips, grants, roles)
    before = snapshot(trips)

    scanned = trips.backfill("stale", "fct_trips", "--target", "planner")
    assert scanned.returncode == 4, scanned.output
    assert audit_tables(trips) == 0
    # the target it was given, repeated (--target, as the scan ran)
    assert (
        "Next: dbt-backfill plan fct_trips --partitions 2026-03-01..2026-03-02 --target planner\n" in scanned.stdout
    ), scanned.stdout
    [(database,)] = trips.query("select current_database()")
    nothing = "nothing is recorded for fct_trips (nothing was planned, or the table was dropped)."
    assert (
        f"Note: no audit table ({database}.{AUDIT}), so this scan was not recorded and vouches for nothing at the next "
        "one, which compares every partition again; a read-only command never makes the table: the first command "
        "that records makes it (a plan, an approval given with --target, an apply), or the target's owner first, with "
        "`dbt run-operation dbt_backfill.create_audit_table --args '{model: fct_trips}' --target planner`."
        in scanned.stdout
    ), scanned.stdout
    ledger = trips.backfill("partitions", "fct_trips", "--partitions", "2026-03-01", "--target", "planner")
    assert ledger.returncode == 0, ledger.output
    history = trips.backfill("history", "fct_trips", "--target", "planner")
    assert history.returncode == 0, history.output
    assert history.stdout == f"No audit table ({database}.{AUDIT}): {nothing}\n", history.stdout
    assert ledger.stdout.endswith(f"\nNo audit table ({database}.{AUDIT}): {nothing}\n"), ledger.stdout
    assert "no dbt-backfill write recorded" in ledger.stdout, ledger.stdout
    assert audit_tables(trips) == 0
    assert snapshot(trips) == before

    assert make_the_audit_table[:2] == ["dbt", "run-operation"]
    made = trips.dbt(*make_the_audit_table[1:], "--target", "live")
    assert made.returncode == 0, made.output
    run_recipe(trips, audit_grants, roles)
    assert trips.query(f"select tableowner from pg_tables where schemaname || '.' || tablename = '{AUDIT}'") == [
        (live,)
    ]
    trusted = trips.backfill("partitions", "fct_trips", "--partitions", "2026-03-01", "--target", "applier")
    assert trusted.returncode == 0, trusted.output
    assert snapshot(trips) == before


def refusal(result) -> str:
    """The package's refusal, as pure dbt's failure and the CLI's stderr both carry it."""
    marker = "<<dbt_backfill:error>>"
    if marker in result.output:
        return json.loads(result.output.split(marker, 1)[1].split("<</dbt_backfill>>", 1)[0])["message"]
    return (result.stderr.strip() or result.stdout.strip()).splitlines()[-1].strip()


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_bad_input_to_stale_and_history_is_refused_in_plans_words(trips):
    """find_stale takes its partitions by plan_backfill's rules: `[010]` (YAML's 8) and a mapping are refused in the
    same words and exit status, not by the database's cast. `stale --since ''` is bad input (as plan's --stale takes
    it), not "no --since". `--limit` past nine digits is refused in words by the option's one home, for the CLI
    and pure dbt alike, not by the database's bigint. Nothing is written: no audit table, the rows as they were."""
    before = snapshot(trips)
    said = {
        "[010]": "partition value 8 was read by YAML as the integer 8, and trip_date is date: YAML rewrites an unquoted "
        "value before dbt-backfill sees it",
        "{'2026-03-01': 1}": "partitions must be a list of values, or one comma-separated string, got a map.",
    }
    for partitions, words in said.items():
        args = "{model: fct_trips, partitions: " + partitions + "}"
        planned = trips.dbt("run-operation", "dbt_backfill.plan_backfill", "--args", args)
        scanned = trips.dbt("run-operation", "dbt_backfill.find_stale", "--args", args)
        assert planned.returncode == scanned.returncode == 1, scanned.output
        assert refusal(scanned) == refusal(planned), scanned.output
        assert refusal(scanned).startswith(words) and refusal(scanned).endswith("Nothing was changed."), scanned.output
        assert "invalid" not in scanned.output.lower(), scanned.output

    empty = (
        '--since must be a date or an ISO date-time (2026-03-01, 2026-03-01T09:30:00+02:00), got "". Nothing was read.'
    )
    for command in (["stale", "fct_trips", "--since", ""], ["plan", "fct_trips", "--stale", "--since", ""]):
        given = trips.backfill(*command)
        assert given.returncode == 1, given.output
        assert empty in given.stderr, given.stderr
        assert given.stdout == "", given.stdout

    huge = "100000000000000000000"
    said = f'limit must be a positive integer of at most 9 digits (1 to 999999999), got "{huge}". Nothing was read.'
    history = trips.backfill("history", "fct_trips", "--limit", huge)
    assert history.returncode == 1, history.output
    assert said in history.stderr and "out of range" not in history.output, history.stderr
    pure = trips.dbt(
        "run-operation", "dbt_backfill.backfill_history", "--args", "{model: fct_trips, limit: " + huge + "}"
    )
    assert pure.returncode == 1 and refusal(pure) == said, pure.output
    assert audit_tables(trips) == 0
    assert snapshot(trips) == before
