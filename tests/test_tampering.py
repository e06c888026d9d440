"""An adversary between plan and apply (issue 15): someone who can write the stage schema, the target's triggers or
the server's settings changes what apply or rollback would read. Each case runs the real commands on PostgreSQL
and DuckDB (where the engine has the case) and asserts the exit status, the message and every published table's
rows: nothing outside the approved partitions is ever written, and a refused partition is left as it was."""

import json
import re
import secrets
import sys
import threading
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
import yaml
from backends import ENGINE_INDEPENDENT, POSTGRES_ONLY, TRANSACTIONAL_ADAPTERS
from conftest import trips_on
from test_resilience import FaultLock, reached, start, wait_until

trips = trips_on(TRANSACTIONAL_ADAPTERS)

PUBLISHED = ["analytics.fct_trips", "analytics.fct_trips_volatile", "raw.trip_events"]


def snapshot(project):
    """Every row of every published table (a query: call it after the project reached its saved states)."""
    return {relation: project.rows(relation) for relation in PUBLISHED}


def approved(project):
    """The seed scenario planned (three days) and approved: (packet path, packet as data)."""
    from dbt_backfill.packet import Packet

    path = project.planned_seed()
    approval = project.approve(path)
    assert approval.returncode == 0, approval.output
    # the written plan names the packet's SHA-256, and approve says which document it is (its own SHA-256)
    sha256 = Packet.read(path).sha256()
    assert f"SHA-256 `{sha256}`" in path.with_suffix(".md").read_text()
    assert f"The written plan {path.with_suffix('.md')} (sha256 " in approval.stdout, approval.stdout
    assert "names this packet's SHA-256" in approval.stdout
    return path, yaml.safe_load(path.read_text())


def relation(ref):
    return f"{ref['schema']}.{ref['identifier']}"


def add_row_of_another_partition(project, table, trip_date, copied_from=None, new_key=True):
    """Copy one row of `copied_from` (default: `table`), under a new trip_id unless `new_key` is false, into
    `table`'s partition `trip_date` (a SQL expression; null allowed)."""
    project.query(f"create table analytics.bf_forged as select * from {copied_from or table} order by trip_id limit 1")
    project.query(
        f"update analytics.bf_forged set trip_id = trip_id + {9000 if new_key else 0}, trip_date = {trip_date}"
    )
    project.query(f"insert into {table} select * from analytics.bf_forged")
    project.query("drop table analytics.bf_forged")


def refused(result, says):
    assert result.returncode == 3, result.output
    first_line = result.stderr.strip().splitlines()[0]
    assert first_line.startswith("refused: "), result.stderr
    assert says in result.stderr, result.stderr


def test_rows_put_into_a_backup_for_other_partitions_are_never_restored(trips):
    path, packet = approved(trips)
    before = snapshot(trips)
    assert trips.backfill("apply", str(path)).returncode == 0
    backup = relation(packet["partitions"][0]["backup_relation"])
    add_row_of_another_partition(trips, backup, "cast('2020-01-01' as date)")
    add_row_of_another_partition(trips, backup, "null")

    rolled_back = trips.backfill("rollback", str(path))

    assert rolled_back.returncode == 0, rolled_back.output
    assert snapshot(trips) == before  # the two forged rows were in the backup, never in the target


def test_rows_put_into_a_stage_for_other_partitions_are_never_published(trips):
    path, packet = approved(trips)
    stage = relation(packet["partitions"][0]["stage_relation"])
    add_row_of_another_partition(trips, stage, "cast('2020-01-01' as date)")
    before = snapshot(trips)

    result = trips.backfill("apply", str(path))

    refused(result, "the stage of partition 2026-03-01 changed after approval")
    assert snapshot(trips) == before


def test_a_stage_given_another_column_or_type_is_refused_before_any_partition_is_written(trips):
    """The approved stages are checked together before the first write (one read of them all): a later stage's
    columns or types changed since the approval stop the apply there, naming that partition, with nothing written
    (a column added was refused, on DuckDB, only inside that partition's write, after the first was committed).
    One approval, two alterations in turn (the suite's budget)."""
    path, packet = approved(trips)
    stage = relation(packet["partitions"][1]["stage_relation"])
    before = snapshot(trips)

    trips.query(f"alter table {stage} add column bf_extra integer")
    another_column = trips.backfill("apply", str(path))

    refused(
        another_column,
        "the stage of partition 2026-03-02 changed after approval (its columns are now bf_extra, fare, status, "
        "trip_date, trip_id, updated_at, not the target's fare, status, trip_date, trip_id, updated_at)",
    )
    assert snapshot(trips) == before

    trips.query(f"alter table {stage} drop column bf_extra")
    # the canonical text trims a decimal's zeros: the digest is the same, the total's text is not
    trips.query(f"alter table {stage} alter column fare type decimal(18, 4)")
    a_wider_type = trips.backfill("apply", str(path))

    refused(a_wider_type, "the stage of partition 2026-03-02 changed after approval (the same sha256 ")
    assert re.search(r"…, but the total of fare [0-9.]+ approved, [0-9.]+0 now\)", a_wider_type.stderr), (
        a_wider_type.stderr
    )
    assert snapshot(trips) == before


def test_a_stage_swapped_for_a_view_that_answers_differently_inside_the_write_is_refused(trips):
    """The view returns the approved rows to every check made outside a writing transaction, and one row more
    inside it (PostgreSQL: a transaction id is assigned once the transaction wrote; DuckDB: the statement that
    reads it creates a table)."""
    path, packet = approved(trips)
    stage = relation(packet["partitions"][0]["stage_relation"])
    inside_a_write = (
        "pg_current_xact_id_if_assigned() is not null"
        if trips.adapter == "postgres"
        else "current_query() ilike '%create table%'"
    )
    trips.query(f"alter table {stage} rename to kept_rows")
    schema = packet["partitions"][0]["stage_relation"]["schema"]
    trips.query(
        f"create view {stage} as select * from {schema}.kept_rows union all "
        f"select trip_id + 9000, trip_date, fare, status, updated_at from {schema}.kept_rows "
        f"where {inside_a_write}"
    )
    before = snapshot(trips)

    result = trips.backfill("apply", str(path))

    named = ".".join(part for part in packet["partitions"][0]["stage_relation"].values() if part)
    refused(
        result,
        f"the stage of partition 2026-03-01, {named}, is a view, not the table the plan built: someone replaced it",
    )
    assert snapshot(trips) == before


def test_a_backup_swapped_for_a_view_after_the_apply_is_refused_by_the_rollback(trips):
    """The rollback reads the backup as apply reads a stage: a view standing in for it (here, one that answers with
    the backup's rows and one more) is refused before it is read, and the partition keeps the applied rows."""
    path, packet = approved(trips)
    applied = trips.backfill("apply", str(path))
    assert applied.returncode == 0, applied.output
    backup = relation(packet["partitions"][0]["backup_relation"])
    schema = packet["partitions"][0]["backup_relation"]["schema"]
    trips.query(f"alter table {backup} rename to kept_rows")
    trips.query(
        f"create view {backup} as select * from {schema}.kept_rows union all "
        f"select trip_id + 9000, trip_date, fare, status, updated_at from {schema}.kept_rows"
    )
    before = snapshot(trips)

    result = trips.backfill("rollback", str(path))

    named = ".".join(part for part in packet["partitions"][0]["backup_relation"].values() if part)
    refused(
        result,
        f"the backup of partition 2026-03-01, {named}, is a view, not the table the apply made: someone "
        "replaced it. Nothing of this partition was written. Partitions restored before it: none; this "
        "partition and the rest are unchanged. It is not restored from: find out who replaced it",
    )
    assert snapshot(trips) == before


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_a_row_written_into_the_stage_after_applys_checks_is_caught_on_the_rows_it_would_insert(trips):
    """apply checks every stage before its first transaction; the row arrives after that check, while apply
    holds at a fault point inside the partition's transaction. The copy it inserts from is read and checked there."""
    path, packet = approved(trips)
    stage = relation(packet["partitions"][0]["stage_relation"])
    before = snapshot(trips)
    lock = FaultLock(trips)
    try:
        applying = start(trips, ["apply", str(path)], fault_point="after_backup")
        wait_until(reached(trips, "after_backup"), "apply to reach its fault point")
        add_row_of_another_partition(trips, stage, "cast('2026-03-01' as date)")
    finally:
        lock.release()
    _, stderr = applying.communicate(timeout=300)

    assert applying.returncode == 3, stderr
    assert (
        "the stage of partition 2026-03-01, read inside the transaction that writes it, is not the approved one"
        in stderr
    ), stderr
    assert "this partition and the rest are unchanged" in stderr
    assert snapshot(trips) == before


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)  # DuckDB: one process holds the file
def test_a_row_another_session_writes_into_the_partition_being_replaced_waits_for_the_commit_and_is_kept(trips):
    """An attack of 2026-12-07: a session that takes no backfill lock (a hand-written insert) committed a row into
    the partition after apply had backed it up; the delete took it with the partition, apply said every partition
    equalled the approval, and the row was in neither the target nor the backup, nor brought back by rollback. The
    partition's transaction now holds the table against writers from its first statement: the insert waits for the
    commit, then lands beside the approved rows, and rollback, finding the partition changed since the apply,
    refuses rather than remove it."""
    path, _ = approved(trips)
    writer = trips.backend.server.connect(trips.backend.database)
    inserting = threading.Thread(
        target=lambda: writer.cursor().execute(
            "insert into analytics.fct_trips (trip_id, trip_date, fare, status, updated_at) "
            "values (9001, date '2026-03-01', 1.00, 'completed', timestamptz '2026-03-01 12:00:00+00')"
        )
    )
    lock = FaultLock(trips)
    try:
        applying = start(trips, ["apply", str(path)], fault_point="after_backup")
        wait_until(reached(trips, "after_backup"), "apply to reach its fault point")
        inserting.start()
        wait_until(
            lambda: (
                trips.query(
                    "select count(*) from pg_stat_activity where wait_event_type = 'Lock' "
                    "and query like 'insert into analytics.fct_trips %'"
                )
                == [(1,)]
            ),
            "the insert to wait for the partition's transaction",
        )
    finally:
        lock.release()
    stdout, stderr = applying.communicate(timeout=300)
    inserting.join(timeout=300)
    writer.close()

    # the insert commits just after the partition's commit: the canary's checkpoint reads it, or just misses it
    assert applying.returncode in (0, 3), stdout + stderr
    if applying.returncode == 3:
        assert "the checkpoint after the canary failed: 2026-03-01" in stderr, stderr
        assert re.search(r"2026-03-01 +neither +6 ", stderr), stderr
    assert trips.query("select trip_date, fare from analytics.fct_trips where trip_id = 9001") == [
        (date(2026, 3, 1), Decimal("1.00"))
    ]
    before = snapshot(trips)
    rolled_back = trips.backfill("rollback", str(path), "--by", "test")
    refused(
        rolled_back,
        "partition 2026-03-01 is neither as planned nor as approved (sha256 ba36b5dfbdb4… now): it changed after the "
        "apply, so restoring the backup would overwrite that change. Partitions restored before it: none",
    )
    assert snapshot(trips) == before


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)  # DuckDB: one process holds the file
def test_clean_while_apply_holds_its_first_partition_is_refused_and_the_apply_finishes(trips):
    """clean took no lock: run while apply held its canary partition, it dropped the later stages and apply failed."""
    path, _ = approved(trips)
    stages = trips.tables_in("analytics_backfill")
    lock = FaultLock(trips)
    try:
        applying = start(trips, ["apply", str(path)], fault_point="before_commit")
        wait_until(reached(trips, "before_commit"), "apply to hold its first partition")
        cleaned = trips.backfill("clean", str(path), "--drop-backups")
        during = trips.tables_in("analytics_backfill")
    finally:
        lock.release()
    stdout, stderr = applying.communicate(timeout=300)

    refused(cleaned, "analytics.fct_trips is locked by another apply or rollback")
    assert set(stages) <= set(during)  # nothing dropped; apply's backups are new
    assert applying.returncode == 0, stdout + stderr
    assert trips.query(
        "select count(*), sum(fare) from analytics.fct_trips where trip_date between "
        "date '2026-03-01' and date '2026-03-03'"
    ) == [(13, Decimal("349.00"))]


ECHO_INTO_2020 = (
    "insert into analytics.fct_trips (trip_id, trip_date, fare, status, updated_at) "
    "select {row}.trip_id + 9000, date '2020-01-01', {row}.fare, {row}.status, {row}.updated_at "
    "where {row}.trip_id < 9000"
)
# Ways the target's owner can make a write of its rows run code that writes elsewhere, each refused as named.
HIDDEN_WRITERS = {
    "trigger": (
        [
            "create function analytics.bf_echo() returns trigger language plpgsql as $$ begin "
            + ECHO_INTO_2020.format(row="new")
            + "; return null; end $$",
            "create trigger bf_echo after insert on analytics.fct_trips for each row "
            "execute function analytics.bf_echo()",
        ],
        "has trigger bf_echo on analytics.fct_trips, which run",
    ),
    "check-constraint": (
        [
            "create function analytics.bf_echo(t analytics.fct_trips) returns boolean language plpgsql as $$ "
            "begin " + ECHO_INTO_2020.format(row="t") + "; return true; end $$",
            "alter table analytics.fct_trips add constraint bf_echo check (analytics.bf_echo(fct_trips))",
        ],
        "has check constraint bf_echo on analytics.fct_trips, which run",
    ),
    "index-expression": (
        [
            "create function analytics.bf_same(i int) returns int language sql immutable as 'select i'",
            "create index bf_echo on analytics.fct_trips ((analytics.bf_same(trip_id)))",
        ],
        "has index analytics.bf_echo, which run",
    ),
    "check-running-sql-text": (
        [
            "alter table analytics.fct_trips add constraint bf_echo "
            "check (query_to_xml('select 1', false, false, '') is not null)"
        ],
        "has check constraint bf_echo on analytics.fct_trips, which run",
    ),
    "inheriting-table-trigger": (
        [
            "create table analytics.bf_child (extra int) inherits (analytics.fct_trips)",
            "create function analytics.bf_echo() returns trigger language plpgsql as $$ begin return old; end $$",
            "create trigger bf_echo before delete on analytics.bf_child for each row "
            "execute function analytics.bf_echo()",
        ],
        "has trigger bf_echo on analytics.bf_child, which run",
    ),
    "rule": (
        ["create rule bf_echo as on delete to analytics.fct_trips do also " + ECHO_INTO_2020.format(row="old")],
        "has rule bf_echo on analytics.fct_trips, which run",
    ),
    "cascading-foreign-key": (
        [
            "alter table analytics.fct_trips add constraint bf_trip unique (trip_id)",
            "create table analytics.bf_child (trip_id int references analytics.fct_trips (trip_id) on delete cascade)",
        ],
        "has foreign key bf_child_trip_id_fkey of analytics.bf_child, which run",
    ),
    "domain-check": (
        [
            "create function analytics.bf_ok(v numeric) returns boolean language plpgsql as $$ begin "
            "return true; end $$",
            "create domain analytics.bf_fare as numeric(10, 2) check (analytics.bf_ok(value))",
            "alter table analytics.fct_trips alter column fare type analytics.bf_fare",
        ],
        "has check constraint bf_fare_check of domain analytics.bf_fare (column fare), which run",
    ),
    "row-security": (
        [
            "alter table analytics.fct_trips enable row level security",
            "create policy bf_everything on analytics.fct_trips using (true)",
        ],
        "has row security on analytics.fct_trips, which run",
    ),
}


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
@pytest.mark.parametrize("writer", list(HIDDEN_WRITERS))
def test_code_that_runs_when_the_target_is_written_stops_the_apply(trips, writer):
    """A trigger, a CHECK constraint calling a function, row security: each runs when apply deletes or inserts, and
    may write (or hide rows) outside the partition."""
    path, _ = approved(trips)
    statements, says = HIDDEN_WRITERS[writer]
    for statement in statements:
        trips.query(statement)
    before = snapshot(trips)

    result = trips.backfill("apply", str(path))

    refused(result, says)
    assert "may write outside partition 2026-03-01" in result.stderr
    assert "Nothing of this partition was written. Partitions replaced before it: none" in result.stderr
    assert snapshot(trips) == before


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_a_stage_whose_row_security_runs_the_owners_code_is_never_read_by_the_applier(trips):
    """The confused deputy through a read: row security runs its policies' functions as whoever reads, so a stage
    owner's policy would write the target with the applier's privileges the moment apply reads the stage."""
    path, packet = approved(trips)
    owner = as_role(trips, "planner", ["grant usage on schema analytics_backfill to {role}"])
    stage = relation(packet["partitions"][0]["stage_relation"])
    trips.query(
        "create function analytics_backfill.bf_echo() returns boolean language plpgsql as $$ begin "
        "insert into analytics.fct_trips select trip_id + 9000, date '2020-01-01', fare, status, updated_at "
        "from analytics.fct_trips where trip_id = 1001; return true; end $$"
    )
    trips.query(f"alter table {stage} owner to {owner}")
    trips.query(f"alter table {stage} enable row level security")
    trips.query(f"create policy bf_echo on {stage} using (analytics_backfill.bf_echo())")
    before = snapshot(trips)

    result = trips.backfill("apply", str(path))

    refused(
        result,
        "has policy bf_echo, row security: reading it would run code its owner chose, with the "
        "applier's privileges. It was not read.",
    )
    assert snapshot(trips) == before


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_a_partition_value_cannot_end_its_literal_when_standard_conforming_strings_is_off(trips):
    trips.publish_stale_target()
    trips.query(f"alter database {trips.backend.database} set standard_conforming_strings = off")
    before = snapshot(trips)
    value = "\\' as text); delete from analytics.fct_trips where trip_id = 1001; commit; select 1; --"

    result = trips.backfill("plan", "fct_trips", "--partitions", value)

    assert result.returncode == 1, result.output
    assert "is not a valid date for trip_date" in result.stderr, result.stderr
    assert snapshot(trips) == before


@pytest.mark.parametrize("typed, becomes", [(" 2026-03-01", "2026-03-01"), ("2026-3-1", "2026-03-01")])
def test_a_partition_value_the_column_type_would_rewrite_is_refused_not_trimmed(trips, typed, becomes):
    trips.publish_stale_target()
    before = snapshot(trips)

    result = trips.backfill("plan", "fct_trips", "--partitions", f"2026-03-02,{typed}")

    assert result.returncode == 1, result.output
    assert f'partition value "{typed}" becomes "{becomes}" as a date (trip_date)' in result.stderr.lower(), (
        result.stderr
    )
    assert (
        f"did you mean {becomes}? A partition is named exactly as the column holds it, so that no two spellings "
        f"name one partition."
    ) in result.stderr
    assert snapshot(trips) == before
    assert not trips.packets()


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)  # DuckDB's varchar(10) does not truncate
def test_a_partition_value_a_varchar_column_would_truncate_is_refused(trips):
    """A varchar(10) partition column: '2026-03-01XYZ' passed the cast, which truncates, and partition 2026-03-01
    was replaced while the packet said 2026-03-01XYZ."""
    text_day = ["--vars", "{text_day: true}"]
    trips.query("drop table analytics.fct_trips_variant")
    built = trips.dbt("run", "-s", "fct_trips_variant", *text_day)
    assert built.returncode == 0, built.output
    assert trips.query(
        "select data_type, character_maximum_length from information_schema.columns where "
        "table_name = 'fct_trips_variant' and column_name = 'trip_date'"
    ) == [("character varying", 10)]
    before = snapshot(trips)
    variant = trips.rows("analytics.fct_trips_variant")

    result = trips.backfill("plan", "fct_trips_variant", "--partitions", "2026-03-02,2026-03-01XYZ", *text_day)

    assert result.returncode == 1, result.output
    assert (
        'partition value "2026-03-01XYZ" becomes "2026-03-01" as a character varying(10) (trip_date): did you '
        "mean 2026-03-01?"
    ) in result.stderr, result.stderr
    assert snapshot(trips) == before
    assert trips.rows("analytics.fct_trips_variant") == variant
    assert not trips.packets()


def rehashed(project, path, edit):
    """The approved packet edited and its approval re-bound to the new content, as someone with the file and this
    package's code could: the approval check of the file itself then passes."""
    from dbt_backfill.packet import Packet

    data = yaml.safe_load(path.read_text())
    edit(data)
    edited = Packet.from_dict(data)
    forged = edited.approved(
        type(edited.approval)(edited.approval.approved_by, edited.approval.approved_at, edited.sha256())
    )
    out = project.dir / "backfills" / "forged.yml"
    forged.write(out)
    return out


def point_at_the_source(data):
    data["target_relation"] = {**data["target_relation"], "schema": "raw", "identifier": "trip_events"}


def raise_a_fingerprint_total(data):
    data["partitions"][0]["fingerprint"]["totals"]["fare"] = "999.00"


def point_a_backup_at_a_published_table(data):
    data["partitions"][0]["backup_relation"] = {
        **data["partitions"][0]["backup_relation"],
        "schema": "analytics",
        "identifier": "fct_trips_volatile",
    }


# refused from the parse and the audit trail before any statement touches a table: the same Python and Jinja on every
# engine (PostgreSQL's check of who wrote an audit row is test_trust_anchors'): once, on DuckDB (DECISIONS row 87)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
@pytest.mark.parametrize(
    "edit, says",
    [
        (
            point_at_the_source,
            "as the target of fct_trips (planned with the profile's default target), but this "
            "project with target (the profile's default) resolves fct_trips to",
        ),
        (raise_a_fingerprint_total, "no plan wrote a packet with this content"),
        (point_a_backup_at_a_published_table, "as the backup of partition 2026-03-01, but this run's is"),
    ],
)
def test_an_edited_packet_with_a_re_bound_approval_is_refused_before_any_statement(trips, edit, says):
    path, _ = approved(trips)
    forged = rehashed(trips, path, edit)
    before = snapshot(trips)

    result = trips.backfill("apply", str(forged))

    refused(result, says)
    assert "The target is unchanged" in result.stderr
    assert snapshot(trips) == before


# refused by the packet's placement check (Python, from the parse) before anything is read: once, on DuckDB
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
@pytest.mark.parametrize(
    "schema, identifier",
    [
        ("analytics", "fct_trips"),  # a published table
        ("raw", None),  # the run's own name, in another schema than the model's stage schema
    ],
)
def test_clean_of_a_packet_pointing_its_stage_at_a_published_table_drops_nothing(trips, schema, identifier):
    path = trips.planned_seed()  # not approved: clean takes any packet
    data = yaml.safe_load(path.read_text())
    stage = data["partitions"][0]["stage_relation"]
    if identifier is None:
        trips.query(f"create table raw.{stage['identifier']} as select * from raw.trip_events")
    data["partitions"][0]["stage_relation"] = {
        **stage,
        "schema": schema,
        "identifier": identifier or stage["identifier"],
    }
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    stages = trips.tables_in("analytics_backfill")
    before = snapshot(trips)

    result = trips.backfill("clean", str(path))

    refused(result, "as the stage of partition 2026-03-01, but this run's is")
    assert "Nothing was dropped" in result.stderr
    assert snapshot(trips) == before
    assert trips.tables_in("analytics_backfill") == stages
    if identifier is None:
        assert trips.rows(f"raw.{stage['identifier']}") == before["raw.trip_events"]


@pytest.mark.parametrize("day, also_in", [("cast('2026-04-30' as date)", "2026-04-30"), ("null", "a NULL partition")])
def test_a_key_written_outside_the_scope_after_the_approval_is_not_published_twice(trips, day, also_in):
    """The live job wrote a trip of the approved stage into another day (or a row with no day) after the approval;
    the plan's cross-partition check said nothing then. apply checks again inside each partition's transaction."""
    path, packet = approved(trips)
    stage = relation(packet["partitions"][0]["stage_relation"])
    add_row_of_another_partition(trips, "analytics.fct_trips", day, copied_from=stage, new_key=False)
    before = snapshot(trips)

    result = trips.backfill("apply", str(path))

    refused(
        result,
        "writing partition 2026-03-01 would publish business key(s) the target now also holds outside "
        "the approved partitions: ",
    )
    assert f"(also in {also_in})" in result.stderr, result.stderr
    assert snapshot(trips) == before


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_the_stages_are_built_in_the_users_session_so_an_evening_event_keeps_its_day(trips):
    """The database's time zone is America/New_York and the model derives its day with updated_at::date. A trip
    updated at 21:30 in New York (02:30 UTC the next day) is on 2026-03-01 for `dbt run`; the backfill's builds
    must say the same, or the trip leaves its day (issue 15: built under a pinned UTC, it was lost)."""
    trips.query(f"alter database {trips.backend.database} set timezone = 'America/New_York'")
    trips.query(
        "insert into raw.trip_events values (990, 1990, date '2026-03-01', 12.50, 'completed', "
        "timestamptz '2026-03-02 02:30:00+00')"
    )
    trips.query("drop table analytics.fct_trips_variant")
    local_day = ["--vars", "{local_day: true}"]
    built = trips.dbt("run", "-s", "fct_trips_variant", *local_day)
    assert built.returncode == 0, built.output
    by_dbt_run = trips.rows("analytics.fct_trips_variant")
    assert "2026-03-01" in {str(row[1]) for row in by_dbt_run if row[0] == 1990}, by_dbt_run
    path = trips.dir / "backfills" / "local_day.yml"

    planned = trips.backfill(
        "plan", "fct_trips_variant", "--partitions", "2026-03-01,2026-03-02", *local_day, "--out", str(path)
    )
    # the builds equal what dbt run published, trip 1990 on 2026-03-01 included: nothing to change
    assert planned.returncode == 0, planned.output
    assert planned.stdout.startswith(
        "nothing to change: every partition of fct_trips_variant already holds exactly the rows its build gives"
    ), planned.stdout
    assert not path.exists()
    assert trips.rows("analytics.fct_trips_variant") == by_dbt_run


def test_rows_with_the_approved_fingerprint_but_not_its_commitment_are_not_written(trips):
    """The fingerprint's sum of 60-bit checksums can be made to collide by a planner who crafts rows (a minute of
    generalized-birthday search); the commitment, SHA-256 over the sorted row digests, cannot. Finding such rows is
    too slow for a test, so the operation is called as a planner could call it, with a commitment the stage's rows
    do not have: the copy apply inserts from is checked against it, and nothing is written."""
    from dbt_backfill.packet import Packet

    path, _ = approved(trips)
    packet = Packet.read(path)
    partitions = packet.partition_args()
    partitions[0]["commitment"] = "0" * 64
    args = {
        **packet.scope_args(),
        "partitions": partitions,
        "approval": packet.approval.to_dict(),
        "packet_sha256": packet.sha256(),
        "source": dict(packet.source),
    }
    before = snapshot(trips)

    result = trips.dbt("run-operation", "dbt_backfill.apply_partitions", "--args", json.dumps(args))

    assert result.returncode != 0, result.output
    assert (
        "the stage of partition 2026-03-01 has the approved fingerprint but not the approved commitment"
        in result.output
    ), result.output
    assert snapshot(trips) == before


# the escaping is Python's and the written plan's Jinja, over a text any engine returns as it was stored: once, on DuckDB
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_hostile_value_reaches_the_plan_document_and_the_terminal_escaped_and_bounded(trips):
    """A corrected status holding a newline, an HTML comment, a terminal escape sequence and 300 more characters."""
    hostile = "late\n<!-- approve without reading -->\x1b[2J" + "y" * 300
    trips.query(
        "insert into raw.trip_events select 991, trip_id, trip_date, fare, "
        f"'{hostile}', updated_at + interval '1' hour from raw.trip_events where event_id = "
        "(select min(event_id) from raw.trip_events where trip_date = date '2026-03-01')"
    )
    path = trips.dir / "backfills" / "hostile.yml"

    planned = trips.backfill("plan", "fct_trips", "--partitions", "2026-03-01", "--out", str(path))

    assert planned.returncode == 0, planned.output
    document = path.with_suffix(".md").read_text()
    assert "<!--" not in document and "\x1b" not in document and "\nlate" not in document
    assert '"late\\n&lt;!-- approve without reading --&gt;\\u001b\\[2Jyyy' in document, document
    assert "\x1b" not in planned.stdout and "\n<!--" not in planned.stdout, planned.stdout
    sample = yaml.safe_load(path.read_text())["partitions"][0]["changes"]["sample"]
    statuses = [s["columns"]["status"]["new"] for s in sample if "status" in s["columns"]]
    assert [len(status) for status in statuses if status.startswith("late\n<!--")] == [201], statuses


# apply compares the stage's commitment with the approved one, the same Jinja on every engine; each engine's
# commitment over every column is its canonical fingerprint tests', and the refusal of rows with the approved
# fingerprint but not its commitment runs on both (above)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_column_excluded_from_the_fingerprint_cannot_be_changed_in_the_stage_after_approval(trips):
    path = trips.dir / "backfills" / "excluded.yml"
    planned = trips.backfill(
        "plan", "fct_trips", "--partitions", "2026-03-01", "--exclude-columns", "status", "--out", str(path)
    )
    assert planned.returncode == 0, planned.output
    assert trips.approve(path).returncode == 0
    stage = relation(yaml.safe_load(path.read_text())["partitions"][0]["stage_relation"])
    trips.query(f"update {stage} set status = 'refunded'")
    before = snapshot(trips)

    result = trips.backfill("apply", str(path))

    refused(result, "the stage of partition 2026-03-01 has the approved fingerprint but not the approved commitment")
    assert "a column excluded from it" in result.stderr
    assert snapshot(trips) == before


def test_a_quoted_mixed_case_column_keeps_its_case_from_plan_to_apply(trips):
    """A column named "Amount" (quoted): the plan said SAFE TO RUN and apply always failed, the name lower-cased."""
    mixed_case = ["--vars", "{mixed_case_fare: true}"]
    trips.query("drop table analytics.fct_trips_variant")
    built = trips.dbt("run", "-s", "fct_trips_variant", *mixed_case)
    assert built.returncode == 0, built.output
    published = trips.rows("analytics.fct_trips_variant")
    trips.query('update analytics.fct_trips_variant set "Amount" = "Amount" + 1 where trip_date = date \'2026-03-01\'')
    path = trips.dir / "backfills" / "mixed_case.yml"

    planned = trips.backfill(
        "plan",
        "fct_trips_variant",
        "--partitions",
        "2026-03-01",
        "--additive",
        "Amount",
        *mixed_case,
        "--out",
        str(path),
    )
    assert planned.returncode == 0, planned.output
    packet = yaml.safe_load(path.read_text())
    assert "Amount" in packet["material_columns"]
    assert packet["partitions"][0]["changes"]["changed"] > 0
    assert trips.approve(path).returncode == 0
    applied = trips.backfill("apply", str(path), *mixed_case)

    assert applied.returncode == 0, applied.output
    assert trips.rows("analytics.fct_trips_variant") == published


def as_role(project, name, privileges):
    """A login role of this test's own (roles are the cluster's, so the name is made unique) with exactly the
    privileges given (statements with {role} in them), and a dbt target `name` that connects as it. Its password
    is the test's own, read from the environment like the profile's."""
    role = f"{name}_{secrets.token_hex(4)}"
    password = secrets.token_hex(16)
    project.query(f"create role {role} login password '{password}'")
    for statement in privileges:
        project.query(statement.format(role=role))
    profiles = yaml.safe_load((project.dir / "profiles.yml").read_text())
    outputs = profiles["dbt_backfill_integration_tests"]["outputs"]
    variable = f"BF_{name.upper()}_PASSWORD"
    outputs[name] = {**outputs["postgres"], "user": role, "password": "{{ env_var('" + variable + "') }}"}
    (project.dir / "profiles.yml").write_text(yaml.safe_dump(profiles))
    project.env[variable] = password
    return role


# What apply and rollback use, and nothing more: no CREATE on the database, no right on another table of the
# target's schema, no ownership of the stages the plan made.
APPLIER_PRIVILEGES = [
    "grant usage on schema analytics, raw to {role}",
    "grant select, insert, delete on analytics.fct_trips to {role}",
    "grant select on raw.trip_events to {role}",
    "grant usage, create on schema analytics_backfill to {role}",
    "grant select on all tables in schema analytics_backfill to {role}",
    "grant insert on analytics_backfill.dbt_backfill_audit to {role}",
]


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_an_applier_with_only_the_privileges_apply_and_rollback_use_repairs_and_restores(trips):
    path, _ = approved(trips)
    before = snapshot(trips)
    applier = as_role(trips, "applier", APPLIER_PRIVILEGES)
    assert trips.query(
        f"select has_database_privilege('{applier}', current_database(), 'create'), "
        f"has_table_privilege('{applier}', 'analytics.fct_trips_volatile', 'insert')"
    ) == [(False, False)]

    applied = trips.backfill("apply", str(path), "--target", "applier")

    assert applied.returncode == 0, applied.output
    assert trips.query(
        "select count(*), sum(fare) from analytics.fct_trips where trip_date between "
        "date '2026-03-01' and date '2026-03-03'"
    ) == [(13, Decimal("349.00"))]
    verified = trips.backfill("verify", str(path), "--target", "applier")
    assert verified.returncode == 0, verified.output
    rolled_back = trips.backfill("rollback", str(path), "--target", "applier")
    assert rolled_back.returncode == 0, rolled_back.output
    assert snapshot(trips) == before


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_a_stage_owner_without_write_on_the_target_gets_nothing_into_it_through_the_applier(trips):
    """The confused deputy: a role that may not write the target but owns the stages (it planned) edits them after
    the approval, for the applier (who may write the target) to publish. It owns them, so no privilege check stops
    it; the commitment does, and the partition predicate bounds the rollback."""
    path, packet = approved(trips)
    owner = as_role(trips, "planner", ["grant usage on schema analytics_backfill to {role}"])
    stage = relation(packet["partitions"][0]["stage_relation"])
    backup = relation(packet["partitions"][0]["backup_relation"])
    trips.query(f"alter table {stage} owner to {owner}")
    trips.query(f"set role {owner}; update {stage} set fare = fare + 100 where trip_id = 1001; reset role")
    before = snapshot(trips)

    result = trips.backfill("apply", str(path))

    refused(result, "the stage of partition 2026-03-01 changed after approval")
    assert snapshot(trips) == before
    trips.query(f"update {stage} set fare = fare - 100 where trip_id = 1001")
    assert trips.backfill("apply", str(path)).returncode == 0
    trips.query(f"alter table {backup} owner to {owner}")
    trips.query(
        f"set role {owner}; insert into {backup} select trip_id + 9000, date '2020-01-01', fare, status, "
        f"updated_at from {backup}; reset role"
    )

    rolled_back = trips.backfill("rollback", str(path))

    assert rolled_back.returncode == 0, rolled_back.output
    assert snapshot(trips) == before  # the backup's forged rows were never restored


def test_a_column_name_holding_a_quote_is_refused_not_spliced_into_sql(trips):
    """dbt's adapter.quote does not double a quote inside a name: `x"; delete ...` would end the identifier."""
    path, _ = approved(trips)
    trips.query('alter table analytics.fct_trips add column "x""; --" integer')
    before = snapshot(trips)

    result = trips.backfill("apply", str(path))

    assert result.returncode == 1, result.output
    assert (
        'analytics.fct_trips has a column named "x\\"; --", which holds a quote or control character: '
        "dbt-backfill cannot quote it safely in SQL. Rename it."
    ) in result.stderr, result.stderr
    assert snapshot(trips) == before


# A stage changed so that what apply reads is no longer only the approved rows, each refused before it is read.
STAGE_TAMPERING = {
    "writable-by-others": (
        ["grant insert, update on {stage} to public"],
        "can be written by PUBLIC, not only by its owner",
    ),
    # PostgreSQL evaluates a partial index's predicate when it plans a read of the table: an "immutable" function of
    # the stage's owner would run as the applier at apply's first read of the stage
    "index-running-its-owners-code": (
        [
            "create function analytics_backfill.bf_one() returns int language sql immutable as 'select 1'",
            "create index bf_echo on {stage} (trip_id) where analytics_backfill.bf_one() = 1",
        ],
        "has index analytics_backfill.bf_echo: reading it would run code its owner chose",
    ),
}


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
@pytest.mark.parametrize("tampering", list(STAGE_TAMPERING))
def test_a_stage_that_is_not_only_the_approved_rows_is_not_read(trips, tampering):
    path, packet = approved(trips)
    statements, says = STAGE_TAMPERING[tampering]
    for statement in statements:
        trips.query(statement.format(stage=relation(packet["partitions"][0]["stage_relation"])))
    before = snapshot(trips)

    result = trips.backfill("apply", str(path))

    refused(result, says)
    assert snapshot(trips) == before


# the audit trail's own refusal of a second `planned` record: the same Jinja on every engine, once, on DuckDB
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_the_plans_record_of_a_packet_cannot_be_added_for_an_edited_one(trips):
    """The record that a plan wrote a packet is made once per run: the package's own audit_event refuses to make
    another, so an edited, re-hashed packet cannot be vouched for after the fact."""
    path, packet = approved(trips)
    forged = rehashed(trips, path, raise_a_fingerprint_total)
    from dbt_backfill.packet import Packet

    record = trips.dbt(
        "run-operation",
        "dbt_backfill.audit_event",
        "--args",
        json.dumps(
            {
                "target": packet["target_relation"],
                "event": "planned",
                "run_id": packet["run_id"],
                "fields": {"model": "fct_trips", "packet_sha256": Packet.read(forged).sha256()},
            }
        ),
    )
    assert record.returncode != 0, record.output
    assert "already has the packet its plan wrote recorded; a second record is refused" in record.output
    before = snapshot(trips)

    result = trips.backfill("apply", str(forged))

    refused(result, "no plan wrote a packet with this content")
    assert snapshot(trips) == before


def test_a_stage_holds_its_rows_as_the_published_table_types_them(trips):
    """The model types its columns otherwise than the published table, within a family (double for the table's real
    key, text for its varchar(20)): the plan passed a key that moved days, compared as a double (0.1005) with the
    table's real (0.1005 as a real), and apply published that key in two partitions. The stage now holds its rows
    cast to the table's types, so every check sees what the write makes; a type of another family is refused."""
    trips.query("alter table analytics.fct_trips_variant alter column trip_id type real using trip_id / 10000.0")
    trips.query("alter table analytics.fct_trips_variant alter column status type varchar(20)")
    as_double = "cast(trip_id / 10000.0 as double precision)"
    before, variant = snapshot(trips), trips.rows("analytics.fct_trips_variant")

    moved = trips.plan(
        "fct_trips_variant", ["2026-03-02"], "--vars", json.dumps({"key_expr": as_double, "move_trip": 1005})
    )
    refused(moved, "in 2026-03-02 and in 2026-03-01")
    assert "trip_id=0.1005 in 2026-03-02" in moved.stderr, moved.stderr
    other_family = trips.plan(
        "fct_trips_variant", ["2026-03-02"], "--vars", json.dumps({"key_expr": "cast(trip_id as varchar(10))"})
    )
    refused(other_family, "the model now produces trip_id as ")
    assert re.search(r"\(the target: (real|float)\)", other_family.stderr.lower()), other_family.stderr  # DuckDB's name
    assert (snapshot(trips), trips.rows("analytics.fct_trips_variant")) == (before, variant)

    # without the move, the repair applies, and the table holds what a build typed as the table gives
    path = trips.dir / "backfills" / "retyped.yml"
    days = ["2026-03-01", "2026-03-02", "2026-03-03"]
    planned = trips.plan("fct_trips_variant", days, "--vars", json.dumps({"key_expr": as_double}), "--out", str(path))
    assert planned.returncode == 0, planned.output
    assert trips.approve(path).returncode == 0
    applied = trips.backfill("apply", str(path), "--vars", json.dumps({"key_expr": as_double}))
    assert applied.returncode == 0, applied.output
    expected = trips.query("""
        select cast(trip_id / 10000.0 as real), trip_date, fare, cast(status as varchar(20)), updated_at
        from (select *, row_number() over (partition by trip_id order by updated_at desc, event_id desc) as r
              from raw.trip_events) v
        where r = 1""")
    assert trips.rows("analytics.fct_trips_variant") == sorted(expected, key=repr)


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_two_enum_types_are_two_types_though_postgresql_calls_both_user_defined(trips):
    """information_schema names every enum USER-DEFINED: a model producing another enum than the table's passed the
    plan and failed at apply with a message about the stage's code on read."""
    trips.query("create type analytics.status_a as enum ('completed', 'corrected', 'refunded')")
    trips.query("create type analytics.status_b as enum ('completed', 'corrected', 'refunded')")
    trips.query(
        "alter table analytics.fct_trips_variant alter column status type analytics.status_a "
        "using status::analytics.status_a"
    )
    before, variant = snapshot(trips), trips.rows("analytics.fct_trips_variant")
    result = trips.plan(
        "fct_trips_variant", ["2026-03-02"], "--vars", json.dumps({"status_expr": "cast(status as analytics.status_b)"})
    )
    refused(result, "the model now produces status as analytics.status_b (the target: analytics.status_a)")
    assert (snapshot(trips), trips.rows("analytics.fct_trips_variant")) == (before, variant)


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_a_search_path_naming_a_schema_others_may_create_in_is_refused_before_anything_is_done(trips):
    """CVE-2018-1058: PostgreSQL resolves `=` on a varchar column, `max` of a varchar or `count` of an integer to the
    closest match in any schema on the search_path, so a role that may create in one of them decides what the
    checks and the DELETE see. Planned and approved on a safe path, then run where the role's search_path names
    such a schema: every command refuses before it reads or writes anything; with CREATE revoked it goes ahead."""
    path, _packet = approved(trips)
    before, stages_before = snapshot(trips), trips.backend.tables_in("analytics_backfill")
    audit = "select event, partition_value from analytics_backfill.dbt_backfill_audit order by recorded_at, event"
    audit_before = trips.query(audit)
    mallory = f"mallory_{secrets.token_hex(3)}"
    trips.query(
        f"create role {mallory} nologin; create schema shared; grant usage, create on schema shared to {mallory}"
    )
    unsafe = {**trips.env, "PGOPTIONS": "-c search_path=analytics,shared"}
    options = ["--project-dir", str(trips.dir), "--profiles-dir", str(trips.dir)]
    other = trips.dir / "backfills" / "on_an_unsafe_path.yml"

    def run(*command):
        return trips._run([str(Path(sys.executable).parent / "dbt-backfill"), *command, *options], env=unsafe)

    try:
        for grantee, shown in (
            (mallory, f"may create: {mallory}"),
            ("public", "may create: PUBLIC (every role)"),
            (None, f"holds functions owned by {mallory}"),
        ):
            if grantee == "public":
                trips.query(f"revoke create on schema shared from {mallory}; grant create on schema shared to public")
            elif grantee is None:  # CREATE revoked, but what mallory made while allowed is still there
                trips.query(
                    f"revoke create on schema shared from public; create function shared.lower(text) returns "
                    f"text language sql as $$ select 'hijacked' $$; alter function shared.lower(text) owner "
                    f"to {mallory}"
                )
            for command in (
                ["apply", str(path)],
                ["plan", "fct_trips", "--partitions", "2026-03-01", "--out", str(other)],
                ["rollback", str(path)],
                ["history", "fct_trips"],
            ):
                result = run(*command)
                refused(
                    result,
                    f"the search_path of this session (analytics,shared) names schema(s) where roles that "
                    f"cannot act as {trips.backend.server.user} may create functions and operators, or "
                    f'have: "shared" ({shown}).',
                )
                assert "Nothing was done." in result.stderr
                assert snapshot(trips) == before and not other.exists()
                assert trips.backend.tables_in("analytics_backfill") == stages_before
        assert trips.query(audit) == audit_before  # nothing recorded: nothing happened
        trips.query("drop function shared.lower(text)")
        applied = run("apply", str(path))
        assert applied.returncode == 0, applied.output
        assert snapshot(trips)["analytics.fct_trips"] != before["analytics.fct_trips"]
    finally:
        trips.query(f"drop schema shared cascade; drop role {mallory}")


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_clean_never_reads_a_backup_someone_swapped_for_a_view_it_keeps_it(trips):
    """clean compares each backup with its partition to know whether a rollback still needs it: reading a view would
    run its functions with the cleaner's privileges. A backup that is not a plain table only its owner writes is not
    read, and kept."""
    path, packet = approved(trips)
    applied = trips.backfill("apply", str(path))
    assert applied.returncode == 0, applied.output
    rolled_back = trips.backfill("rollback", str(path), "--by", "Dana Owner")  # as before again: backups spare now
    assert rolled_back.returncode == 0, rolled_back.output
    backup = relation(packet["partitions"][0]["backup_relation"])
    trips.query("create table raw.calls (n int)")
    trips.query(
        "create function raw.tattle() returns int language sql as 'insert into raw.calls values (1) returning 1'"
    )
    trips.query(f"create table raw.kept as select * from {backup}")
    trips.query(f"drop table {backup}")
    trips.query(f"create view {backup} as select k.* from raw.kept k where raw.tattle() = 1")
    stages, before = trips.tables_in("analytics_backfill"), snapshot(trips)

    result = trips.backfill("clean", str(path))

    # not "can still be rolled back": nothing read it, so nothing says so
    refused(
        result,
        "the backups of 2026-03-01 (its backup is a view: not read) are kept unread or unlike the rows from "
        "before: nothing was dropped.",
    )
    assert trips.query("select count(*) from raw.calls") == [(0,)]  # the view was never read
    assert trips.tables_in("analytics_backfill") == stages and snapshot(trips) == before


def _status_generated_on_insert(project, ref, on_insert):
    """Rebuild the table `ref` names with the same columns and rows, except that `status` becomes a virtual generated
    column: its approved value to every read, `on_insert` to a read by an INSERT (DuckDB recomputes such a column
    on each read, and current_query() says which statement reads)."""
    table, schema = relation(ref), ref["schema"]
    rows = project.query(f"select trip_id, status from {table} order by trip_id")
    approved_status = "case trip_id " + " ".join(f"when {key} then '{status}'" for key, status in rows) + " end"
    columns = project.query(
        f"select column_name, data_type from information_schema.columns where table_schema = '{schema}'"
        f" and table_name = '{ref['identifier']}' order by ordinal_position"
    )
    declared = [
        f"status {data_type} as (case when current_query() ilike '%insert into%' then '{on_insert}' "
        f"else ({approved_status}) end)"
        if name == "status"
        else f"{name} {data_type}"
        for name, data_type in columns
    ]
    stored = ", ".join(name for name, _ in columns if name != "status")
    project.query(f"alter table {table} rename to kept_rows")
    project.query(f"create table {table} ({', '.join(declared)})")
    project.query(f"insert into {table} ({stored}) select {stored} from {schema}.kept_rows")
    project.query(f"drop table {schema}.kept_rows")


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_stage_or_backup_whose_column_is_computed_on_each_read_is_never_read(trips):
    """DuckDB's replacement reads the stage (a rollback, the backup) itself inside the partition's transaction, in
    one snapshot (issue 57: no private copy). A virtual generated column is computed again on every read, so it
    could answer the check with the approved rows and the insert with others: here a column left out of the
    fingerprint, `status`, reads 'EVIL' to an INSERT only. Found by an attack on 949fa3c, which published it."""
    path = trips.dir / "backfills" / "excluded.yml"
    planned = trips.backfill(
        "plan", "fct_trips", "--partitions", "2026-03-01", "--exclude-columns", "status", "--out", str(path)
    )
    assert planned.returncode == 0, planned.output
    assert trips.approve(path).returncode == 0
    packet = yaml.safe_load(path.read_text())["partitions"][0]
    _status_generated_on_insert(trips, packet["stage_relation"], "EVIL")
    before = snapshot(trips)

    result = trips.backfill("apply", str(path))

    named = ".".join(part for part in packet["stage_relation"].values() if part)
    refused(
        result,
        f"the stage of partition 2026-03-01, {named}, has generated column status: reading it would run code its "
        "owner chose, with the applier's privileges. It was not read. Nothing of this partition was written.",
    )
    assert snapshot(trips) == before

    # the same through the backup: rebuilt as it was planned, applied, then the backup made to answer differently
    trips.query(f"drop table {relation(packet['stage_relation'])}")
    planned = trips.backfill(
        "plan", "fct_trips", "--partitions", "2026-03-01", "--exclude-columns", "status", "--out", str(path)
    )
    assert planned.returncode == 0, planned.output
    assert trips.approve(path).returncode == 0
    assert trips.backfill("apply", str(path)).returncode == 0
    backup = yaml.safe_load(path.read_text())["partitions"][0]["backup_relation"]
    _status_generated_on_insert(trips, backup, "RESTORED_EVIL")
    before = snapshot(trips)

    result = trips.backfill("rollback", str(path))

    named = ".".join(part for part in backup.values() if part)
    refused(result, f"the backup of partition 2026-03-01, {named}, has generated column status")
    assert snapshot(trips) == before


def _fingerprints_said(project, table, column, values):
    """verify's read (fingerprint_partitions) of `values` of analytics.`table`, with their commitments:
    {value: (rows, sha256, commitment)}."""
    arguments = {
        "target": {
            "database": project.query("select current_database()")[0][0],
            "schema": "analytics",
            "identifier": table,
        },
        "partition_by": column,
        "business_key": ["id"],
        "material_columns": ["id", column, "v"],
        "partitions": values,
        "commitment": True,
    }
    result = project.dbt(
        "run-operation",
        "dbt_backfill.fingerprint_partitions",
        "--args",
        json.dumps(arguments),
        "--vars",
        "{dbt_backfill_debug: true}",
    )
    assert result.returncode == 0, result.output
    said = re.findall(r"<<dbt_backfill:fingerprints>>(.*?)<</dbt_backfill>>", result.output)[-1]
    return {
        str(item["value"]): (item["fingerprint"]["row_count"], item["fingerprint"]["sha256"], item["commitment"])
        for item in json.loads(said)["partitions"]
    }


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_partitions_read_together_have_the_fingerprints_each_has_alone(trips):
    """Issue 57 reads many partitions' fingerprints in one statement grouped by the partition column (the plan's rows
    before, apply's checkpoints, verify): each must be the one its own read gives. Text values that differ only in
    case are three partitions (an attack on 949fa3c made them two, and verify failed), and so are integers and
    dates; one value with no rows is read alone. The same of their commitments (_commitments_in_scope): one
    statement for the small partitions, a partition of more than 65,536 rows (bucket digits 1) committed to alone
    beside them, and partitions of 30,000 rows two to a statement (no statement takes more than 65,536 rows)."""
    cases = {
        "by_text": (
            "varchar",
            "(1, 'A', 1), (2, 'a', 2), (3, 'B', 3), (4, 'x''y', 4), (5, 'é z ', 5)",
            ["A", "a", "B", "x'y", "é z "],
        ),
        "by_integer": ("integer", "(1, 1, 1), (2, 2, 2), (3, 10, 3)", ["1", "2", "10", "11"]),
        "by_date": ("date", "(1, date '2026-03-01', 1), (2, date '2026-03-02', 2)", ["2026-03-01", "2026-03-02"]),
        "by_size": ("integer", "(1, 1, 1), (2, 2, 2), (3, 2, 3)", ["3", "1", "2"]),  # the large one first
        # three of 30,000 rows: two in one statement (60,000), the third alone (a statement takes up to 65,536)
        "by_sum": ("integer", "(1, 1, 1)", ["4", "1", "5", "6"]),
    }
    for table, (column_type, rows, values) in cases.items():
        trips.query(f"create table analytics.{table} (id integer, p {column_type}, v integer)")
        trips.query(f"insert into analytics.{table} values {rows}")
        if table == "by_size":  # partition 3: 70,000 rows, more than one statement of many commits to
            trips.query(f"insert into analytics.{table} select g, 3, g from range(4, 70004) as t(g)")
        if table == "by_sum":
            trips.query(f"insert into analytics.{table} select g, 4 + g % 3, g from range(2, 90002) as t(g)")
        together = _fingerprints_said(trips, table, "p", values)
        alone = {value: _fingerprints_said(trips, table, "p", [value])[value] for value in values}
        assert together == alone, (table, together, alone)
        assert len({sha256 for _, sha256, _ in together.values()}) == len(values), together
        assert len({commitment for _, _, commitment in together.values()}) == len(values), together
