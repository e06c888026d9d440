"""Trust anchors no one it defends against can rewrite (issue 38), on PostgreSQL with non-superuser roles as
docs/security.md describes them: the session a check approved is the session that writes, whatever appears on its
search_path while it waits for a lock."""

import json
import re
import secrets
import shlex
from decimal import Decimal
from pathlib import Path

import pytest
import yaml
from backends import ENGINE_INDEPENDENT, POSTGRES_ONLY
from conftest import trips_on
from test_resilience import start, wait_until
from test_tampering import as_role, refused

trips = trips_on(POSTGRES_ONLY)

ROOT = Path(__file__).resolve().parent.parent

TEXT_DAY = ["--vars", "{text_day: true}"]  # fct_trips_variant's day as varchar(10): `=` on it has no exact built-in
VARIANT = "analytics.fct_trips_variant"
PUBLISHED = [VARIANT, "analytics.fct_trips", "raw.trip_events"]
DAY = "2026-03-02"


def snapshot(project):
    return {relation: project.rows(relation) for relation in PUBLISHED}


def varchar_day_planned(trips):
    """fct_trips_variant published with a varchar(10) day, its 2026-03-02 rows then written wrong (fare + 1), and a
    packet repairing that day, approved: (packet path, the rows a correct apply leaves)."""
    trips.query(f"drop table {VARIANT}")
    built = trips.dbt("run", "-s", "fct_trips_variant", *TEXT_DAY)
    assert built.returncode == 0, built.output
    right = trips.rows(VARIANT)
    trips.query(f"update {VARIANT} set fare = fare + 1 where trip_date = '{DAY}'")
    path = trips.dir / "backfills" / "varchar_day.yml"
    planned = trips.backfill("plan", "fct_trips_variant", "--partitions", DAY, "--out", str(path), *TEXT_DAY)
    assert planned.returncode == 0, planned.output
    assert trips.approve(path).returncode == 0
    return path, right


def applier_role(trips):
    """The applier with exactly the grants docs/security.md lists, its search_path PostgreSQL's default
    ("$user", public), and no schema of its own's name yet."""
    role = as_role(
        trips,
        "applier",
        [
            "grant usage on schema analytics, raw to {role}",
            f"grant select, insert, delete on {VARIANT} to {{role}}",
            "grant select on raw.trip_events to {role}",
            "grant usage, create on schema analytics_backfill to {role}",
            "grant select on all tables in schema analytics_backfill to {role}",
            "grant insert on analytics_backfill.dbt_backfill_audit to {role}",
        ],
    )
    assert trips.query(f"select count(*) from pg_namespace where nspname = '{role}'") == [(0,)]
    return role


def planner_role(trips):
    """A role that may create schemas (the planner's usual grant) and read the stage schema: no right on the
    target, and none to act as the applier."""
    database = trips.query("select current_database()")[0][0]
    return as_role(
        trips,
        "planner",
        [f"grant create on database {database} to {{role}}", "grant usage on schema analytics_backfill to {role}"],
    )


def always_equal_operator(schema):
    """An exact `=(varchar, varchar)`: a closer match than the built-in text equality for a varchar column, in
    whichever schema it stands on the path."""
    return (
        f'create function "{schema}".always_equal(character varying, character varying) returns boolean '
        f"language sql immutable as 'select true'; "
        f'create operator "{schema}".= (leftarg = character varying, rightarg = character varying, '
        f'function = "{schema}".always_equal)'
    )


def waiting_for(trips, relation):
    schema, identifier = relation.split(".")
    return lambda: (
        trips.query(
            "select count(*) from pg_locks l join pg_class c on c.oid = l.relation join pg_namespace n on "
            f"n.oid = c.relnamespace where not l.granted and n.nspname = '{schema}' and c.relname = '{identifier}'"
        )[0][0]
        > 0
    )


def raced(trips, command, locked, planner, user, target=("--target", "applier"), payload=always_equal_operator):
    """Run `command` as `user` (the dbt target `target`) while `locked` is held; once the command waits for it,
    create that user's "$user" schema (owned by the planner) holding `payload` (default: an always-true
    `=(varchar, varchar)`), and let the lock go in the same commit. Returns the command's (exit status, stdout,
    stderr)."""
    holder = trips.backend.server.connect(trips.backend.database)
    holder.autocommit = False
    try:
        with holder.cursor() as cursor:
            cursor.execute(f"lock table {locked} in access exclusive mode")
            process = start(trips, [*command, *target])
            try:
                wait_until(waiting_for(trips, locked), f"{command[0]} to wait for {locked}")
            except AssertionError:
                process.kill()
                raise AssertionError(f"{command[0]} never waited for {locked}: {process.communicate()}") from None
            cursor.execute(f"set role {planner}")
            cursor.execute(f'create schema "{user}"')
            cursor.execute(f'grant usage on schema "{user}" to "{user}"')
            cursor.execute(payload(user))
        holder.commit()
        out, err = process.communicate(timeout=600)
        return process.returncode, out, err
    finally:
        holder.close()
        trips.query(f'drop schema if exists "{user}" cascade')


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_a_user_schema_made_while_apply_rollback_and_clean_wait_for_a_lock_changes_nothing_they_do(trips):
    """The applier's path is the default `"$user", public` and no "$user" schema exists when the check runs. While
    apply waits for the stage (locked by its owner, the planner), the planner creates that schema holding an
    always-true `=(varchar, varchar)`: had a later statement resolved `=` through it, the DELETE of partition
    2026-03-02 would remove every day. The session keeps the path it checked (pg_catalog, public), and the write names
    pg_catalog's `=`: the apply replaces its one day and nothing else. The same race under rollback (waiting for the
    backup) and clean (waiting for a stage it drops)."""
    path, right = varchar_day_planned(trips)
    packet = yaml.safe_load(path.read_text())
    stage = "{schema}.{identifier}".format(**packet["partitions"][0]["stage_relation"])
    backup = "{schema}.{identifier}".format(**packet["partitions"][0]["backup_relation"])
    applier, planner = applier_role(trips), planner_role(trips)
    trips.query(f"alter table {stage} owner to {planner}")  # the planner's own stage, which it may lock
    before = snapshot(trips)
    assert before[VARIANT] != right

    status, out, err = raced(trips, ["apply", str(path)], stage, planner, applier)

    assert status == 0, out + err
    assert sorted(trips.rows(VARIANT)) == sorted(right)  # the one day repaired; every other day's rows as they were
    assert {k: v for k, v in snapshot(trips).items() if k != VARIANT} == {
        k: v for k, v in before.items() if k != VARIANT
    }

    status, out, err = raced(trips, ["rollback", str(path)], backup, planner, applier)

    assert status == 0, out + err
    assert snapshot(trips) == before  # the day as it was before the apply; nothing else touched

    stages_before = set(trips.tables_in("analytics_backfill"))
    # clean drops the planner's stages: run by the project's own role (the target's owner), whose "$user" schema the
    # planner makes while clean waits
    status, out, err = raced(trips, ["clean", str(path)], stage, planner, trips.backend.server.user, target=())

    assert status == 0, out + err
    assert snapshot(trips) == before
    left = set(trips.tables_in("analytics_backfill"))
    assert left < stages_before and "dbt_backfill_audit" in left
    dropped = stages_before - left
    assert all(packet["run_id"] in name for name in dropped), dropped  # only this run's relations


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_a_schema_on_the_path_the_applier_cannot_use_yet_is_refused_before_anything_is_done(trips):
    """A schema the planner made long ago, holding an always-true `=(varchar, varchar)`, named on the applier's
    search_path but without USAGE: invisible to current_schemas(), so a check of the usable path alone passes, and a
    GRANT USAGE while apply waits would put the operator under every later statement. The check reads the schemas
    the path names too: apply, rollback and clean refuse before they read or write anything, and the session's path
    would not have had it anyway (fixed at the check)."""
    path, _ = varchar_day_planned(trips)
    applier, planner = applier_role(trips), planner_role(trips)
    staged = f"staged_{secrets.token_hex(3)}"
    trips.query(f"set role {planner}; create schema {staged}; {always_equal_operator(staged)}; reset role")
    trips.query(f'alter role {applier} set search_path = "$user", {staged}, public')
    assert trips.query(f"select has_schema_privilege('{applier}', '{staged}', 'usage')") == [(False,)]
    before, stages_before = snapshot(trips), trips.tables_in("analytics_backfill")
    try:
        for command in (["apply", str(path)], ["rollback", str(path)], ["clean", str(path)]):
            result = trips.backfill(*command, "--target", "applier")
            refused(
                result,
                f'the search_path of this session ("$user", {staged}, public) names schema(s) where roles '
                f'that cannot act as {applier} may create functions and operators, or have: "{staged}" '
                f"(",
            )
            assert f"may create: {planner}" in result.stderr and f"holds functions owned by {planner}" in result.stderr
            assert snapshot(trips) == before
            assert trips.tables_in("analytics_backfill") == stages_before
    finally:
        trips.query(f"drop schema {staged} cascade")


# what YAML read, refused in the package's Jinja before any SQL: once, on DuckDB (DECISIONS row 115)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_every_pure_dbt_value_is_read_as_typed_or_refused_with_the_quoted_form(trips):
    """YAML reads an unquoted value by its own rules before the package sees it: `[010]` was the partition 8, and
    run ids of null, a list or a map were "read as a number". Each is refused, saying what YAML read and how to
    quote it, before anything is built; nothing in any published table changes."""
    tables = ["analytics.fct_trips", "raw.trip_events"]
    before = {t: trips.rows(t) for t in tables}
    stages = trips.tables_in("analytics_backfill")

    def plan_with(partitions):
        return trips.dbt(
            "run-operation", "dbt_backfill.plan_backfill", "--args", f"{{model: fct_trips, partitions: {partitions}}}"
        )

    for partitions, says in (
        (
            "[010]",
            "partition value 8 was read by YAML as the integer 8, and trip_date is date: YAML rewrites an "
            "unquoted value before dbt-backfill sees it (010 becomes 8, yes becomes true, 1.10 becomes 1.1). "
            "Quote each value as you mean it: partitions: ['<value>', ...]. Nothing was changed.",
        ),
        ("[1.10]", "partition value 1.1 was read by YAML as the number 1.1, and trip_date is date"),
        ("[yes]", "partition value true was read by YAML as the boolean true, and trip_date is date"),
        ("[~]", "partition value null was read by YAML as null, and trip_date is date"),
        ("[[a]]", 'partition value "[\\"a\\"]" was read by YAML as a list'),
        ("[{a: b}]", "was read by YAML as a map"),
        (
            '["2026-03-01\\nrefused: forged"]',
            'partition value "2026-03-01\\nrefused: forged" holds a control or '
            'invisible character ("\\n", character 11): no partition is named so. '
            "Nothing was changed.",
        ),
        (
            "['1..9999', '10000..19998', '19999..29997']",
            "the partitions named come to more than 10,000 values "
            "(every range and value together). Nothing was changed.",
        ),
        # a value holding `..`, in double quotes: that value, not a range (refused here by the date cast)
        ("['\"2026-03..2026-04\"']", 'partition value "2026-03..2026-04" is not a valid DATE for trip_date.'),
    ):
        result = plan_with(partitions)
        assert result.returncode == 1, (partitions, result.output)
        assert says in result.output, (partitions, result.output)
        assert "\nrefused: forged" not in result.output and "is not first..last" not in result.output
    for run_id, read in (
        ("null", "null"),
        ("[a]", "a list"),
        ("{a: b}", "a map"),
        ("20261204_085334_1234", "the integer 202612040853341234"),
    ):
        result = trips.dbt("run-operation", "dbt_backfill.verify_backfill", "--args", f"{{run_id: {run_id}}}")
        assert result.returncode == 1, result.output
        assert f"was read by YAML as {read}, not as the run id it was typed as" in result.output, result.output
        assert "Quote it: {run_id: '<the run id>'}." in result.output
    assert {t: trips.rows(t) for t in tables} == before
    assert trips.tables_in("analytics_backfill") == stages  # nothing was built


AUDIT = "analytics_backfill.dbt_backfill_audit"


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_an_audit_table_someone_untrusted_owns_or_may_rewrite_is_refused_before_it_is_read_or_written(trips):
    """The audit trail decides whether a packet was planned, when its approval expires and what a rollback may do.
    A role that may only create in the stage schema created it first and granted INSERT to PUBLIC: its rows were then
    anyone's to forge. Now the table must be owned by its schema's owner (or a role trusted outright), no untrusted
    role may update, delete or truncate it, and PUBLIC may not write it: apply and plan refuse before anything."""
    from test_tampering import approved

    path, _ = approved(trips)
    mallory = f"mallory_{secrets.token_hex(3)}"
    me = trips.query("select current_user")[0][0]
    trips.query(f"create role {mallory} nologin; grant usage, create on schema analytics_backfill to {mallory}")
    before, stages_before = snapshot(trips), trips.tables_in("analytics_backfill")
    audit_rows = trips.query(f"select count(*) from {AUDIT}")
    try:
        for grant, says in (
            (f"grant update on {AUDIT} to {mallory}", f"{mallory} may UPDATE"),
            (f"grant delete on {AUDIT} to {mallory}", f"{mallory} may DELETE"),
            (f"grant pg_write_all_data to {mallory}", f"{mallory} may DELETE; {mallory} may UPDATE"),
            (f"grant truncate on {AUDIT} to {mallory}", f"{mallory} may TRUNCATE"),
            (f"grant insert on {AUDIT} to public", "PUBLIC (every role) may INSERT"),
            (
                f"alter table {AUDIT} owner to {mallory}",
                f"it is owned by {mallory}, whom {me} does not trust to keep it",
            ),
            # what an owner may leave behind, to run or hide rows when the trail is written or read
            (
                f"create function analytics_backfill.bf_same() returns trigger language plpgsql as "
                f"$$ begin return new; end $$; create trigger bf_audit before insert on {AUDIT} for each "
                f"row execute function analytics_backfill.bf_same()",
                "it has trigger bf_audit",
            ),
            (f"create rule bf_audit as on insert to {AUDIT} do also notify bf_audit", "it has rule bf_audit"),
            (
                f"create table analytics_backfill.bf_kid () inherits ({AUDIT})",
                "table analytics_backfill.bf_kid inherits from it (its rows are read as the trail's)",
            ),
            (
                f"create policy bf_hide on {AUDIT} as restrictive for select using (run_id <> 'x')",
                "it has row security policy bf_hide, not dbt-backfill's",
            ),
        ):
            trips.query(grant)
            # every command that reads or writes the trail; the first case through each of them
            for command in (
                ("apply", "rollback", "verify", "status", "clean") if grant.startswith("grant update") else ("apply",)
            ):
                result = trips.backfill(command, str(path))
                refused(result, f"{AUDIT} can be rewritten by roles the checks defend against: {says}")
                assert "Nothing was done." in result.stderr
                # the state read after a refused apply is refused for the same reason: said so, not as an outage
                assert "when it is back" not in result.stderr, result.stderr
                stages = [t for t in trips.tables_in("analytics_backfill") if "bf_kid" not in str(t)]
                assert snapshot(trips) == before and stages == stages_before
                assert trips.query(f"select count(*) from {AUDIT}") == audit_rows
            trips.query(
                f"alter table {AUDIT} owner to current_user; revoke all on {AUDIT} from {mallory}, public; "
                f"revoke pg_write_all_data from {mallory}; drop trigger if exists bf_audit on {AUDIT}; "
                f"drop rule if exists bf_audit on {AUDIT}; drop table if exists analytics_backfill.bf_kid; "
                f"drop policy if exists bf_hide on {AUDIT}"
            )

        # the case: the table created first, by a role that may merely create in the stage schema
        trips.query(
            f"create table analytics_backfill.audit_shape as select * from {AUDIT} limit 0; drop table {AUDIT}; "
            f"grant select on analytics_backfill.audit_shape to {mallory}"
        )
        trips.query(
            f"set role {mallory}; create table {AUDIT} as select * from analytics_backfill.audit_shape; "
            f"grant insert, select on {AUDIT} to public; reset role; drop table analytics_backfill.audit_shape"
        )
        planned = trips.backfill("plan", "fct_trips", "--partitions", "2026-03-02", "--out", "backfills/second.yml")
        refused(
            planned,
            f"{AUDIT} can be rewritten by roles the checks defend against: it is owned by "
            f"{mallory}, whom {me} does not trust to keep it (not a superuser, the database owner, the "
            f"target's owner, nor a role that can act as {me}); PUBLIC (every role) may INSERT; its rows "
            "do not name the roles that wrote them",
        )
        assert not (trips.dir / "backfills" / "second.yml").exists()
        assert snapshot(trips) == before
        assert trips.query(f"select count(*) from {AUDIT}") == [(0,)]  # nothing written into it
    finally:
        trips.query(f"drop table if exists {AUDIT}; drop owned by {mallory}; drop role {mallory}")


# -- the audit trail as trusted as the approval: each row written by the role it vouches for ----------------------


def roles_and_grants():
    """docs/security.md's roles and grants recipe, as written there: (the grants before the audit table exists, the
    command that makes it, as its words, the grants after)."""
    section = (ROOT / "docs" / "security.md").read_text().split("## Roles and grants (PostgreSQL)", 1)[1]
    before, after = re.findall(r"```sql\n(.*?)```", section, re.S)
    [command] = re.findall(r"```bash\n(.*?)```", section, re.S)
    return before, shlex.split(command), after


def run_recipe(trips, block, roles):
    """One block of the recipe, its psql variables (`:"planner"`) given as psql would give them."""
    for name, role in roles.items():
        block = block.replace(f':"{name}"', f'"{role}"')
    trips.query(block)


def written_as(trips, role, sql):
    """`sql` run as `role` (SET ROLE in a session of its own: the role's privileges, no superuser's); returns the
    error it raised, or None."""
    connection = trips.backend.server.connect(trips.backend.database)
    connection.autocommit = True
    try:
        with connection.cursor() as cursor:
            cursor.execute(f'set role "{role}"')
            try:
                cursor.execute(sql)
            except Exception as error:  # the database's refusal is what the test reads
                return str(error).splitlines()[0]
        return None
    finally:
        connection.close()


def audit_row(run_id, event, detail, at="current_timestamp", **columns):
    """An INSERT of one audit row as someone with only the INSERT grant would write it."""
    values = {
        "run_id": run_id,
        "model": "fct_trips",
        "target": "analytics.fct_trips",
        "event": event,
        "detail": detail,
        **columns,
    }
    quoted = ", ".join("'" + str(value).replace("'", "''") + "'" for value in values.values())
    return f"insert into {AUDIT} (recorded_at, {', '.join(values)}) values ({at}, {quoted})"


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_rows_the_applier_or_the_planner_add_to_the_audit_trail_neither_void_an_approval_nor_vouch_for_a_packet(trips):
    """The three roles as docs/security.md grants them, live owning the target. Each may add rows to the audit trail
    (its INSERT grant), and did: the applier a `building_stages` row whose deadline passed in 2000, a `planned` row
    for a packet it edited and re-hashed, a `full_refresh`, a second `packet_recorded` for a pure-dbt run; the
    planner a `rolled_back`. Neither can write another role's name or switch the row security off, and a check
    believes a row only from a role that could have done what it says: the approval stands, the edited packet is
    refused, the ledger and the rollback read the applier's own rows."""
    from test_tampering import raise_a_fingerprint_total, rehashed

    trips.publish_stale_target()
    trips.query("drop schema if exists analytics_backfill cascade")
    roles = {name: as_role(trips, name, []) for name in ("live", "planner", "applier")}
    live, planner, applier = roles["live"], roles["planner"], roles["applier"]
    # live owns the source and the target (the fixture made their schemas)
    trips.query(
        f"alter table analytics.fct_trips owner to {live}; alter table raw.trip_events owner to {live}; "
        f"grant usage on schema analytics, raw to {live}"
    )
    grants, make_the_audit_table, audit_grants = roles_and_grants()
    run_recipe(trips, grants, roles)
    # a table the planner made is refused by the applier: what an owner did to it would stay with it
    assert trips.backfill("plan", "fct_trips", "--partitions", "2026-03-01", "--target", "planner").returncode == 0
    unchanged = snapshot(trips)
    kept_by_the_planner = trips.backfill("partitions", "fct_trips", "--target", "applier")
    refused(
        kept_by_the_planner,
        f"{AUDIT} can be rewritten by roles the checks defend against: it is owned by "
        f"{planner}, whom {applier} does not trust to keep it",
    )
    trips.query(f"drop table {AUDIT}")
    assert make_the_audit_table[:2] == ["dbt", "run-operation"]
    made = trips.dbt(*make_the_audit_table[1:], "--target", "live")
    assert made.returncode == 0, made.output
    run_recipe(trips, audit_grants, roles)
    path = trips.dir / "backfills" / "roles.yml"
    planned = trips.backfill(
        "plan", "fct_trips", "--partitions", "2026-03-01..2026-03-03", "--out", str(path), "--target", "planner"
    )
    assert planned.returncode == 0, planned.output
    assert trips.approve(path).returncode == 0
    run_id = yaml.safe_load(path.read_text())["run_id"]
    assert trips.query(f"select distinct recorded_by from {AUDIT}") == [(planner,)]
    assert snapshot(trips) == unchanged
    assert "must be owner" in written_as(trips, planner, f"alter table {AUDIT} no force row level security")

    # another role's name, or another time, is refused by the table itself; edits change nothing
    assert "violates row-level security policy" in written_as(
        trips, applier, audit_row(run_id, "building_stages", "{}", recorded_by=planner)
    )
    assert "violates row-level security policy" in written_as(
        trips, applier, audit_row(run_id, "approved", "{}", at="timestamptz '2000-01-01'")
    )
    assert "permission denied" in written_as(trips, applier, f"update {AUDIT} set detail = null")
    # what the INSERT grant does allow: rows in its own name
    expired = json.dumps(
        {"stage_schema": "analytics_backfill", "partitions": 3, "expires_at": "2000-01-01T00:00:00+00:00"}
    )
    assert written_as(trips, applier, audit_row(run_id, "building_stages", expired)) is None
    forged = rehashed(trips, path, raise_a_fingerprint_total)
    from dbt_backfill.packet import Packet

    assert (
        written_as(trips, applier, audit_row(run_id, "planned", "forged", packet_sha256=Packet.read(forged).sha256()))
        is None
    )

    edited = trips.backfill("apply", str(forged), "--target", "applier")
    refused(edited, "no plan wrote a packet with this content")
    assert snapshot(trips) == unchanged

    applied = trips.backfill("apply", str(path), "--target", "applier")
    assert applied.returncode == 0, applied.output
    assert trips.query(
        "select count(*), sum(fare) from analytics.fct_trips where trip_date between "
        "date '2026-03-01' and date '2026-03-03'"
    ) == [(13, Decimal("349.00"))]
    assert trips.query(f"select distinct recorded_by from {AUDIT} where event = 'partition_replaced'") == [(applier,)]

    # the planner may not write the target: its `rolled_back` row says nothing of it; only the target's owner
    # rebuilds it, so the applier's `full_refresh` says nothing either; and no DELETE removes a row
    assert (
        written_as(
            trips,
            planner,
            audit_row(run_id, "rolled_back", "by the planner", partition_value="2026-03-01", outcome="restored"),
        )
        is None
    )
    assert written_as(trips, applier, audit_row("refresh1", "full_refresh", "forged", approved_by="live_job")) is None
    rows = trips.query(f"select count(*) from {AUDIT}")
    assert written_as(trips, live, f"delete from {AUDIT}") is None
    assert trips.query(f"select count(*) from {AUDIT}") == rows
    ledger = trips.backfill("partitions", "fct_trips", "--partitions", "2026-03-01", "--json", "--target", "applier")
    assert ledger.returncode == 0, ledger.output
    [entry] = ledger.json()["partitions"]
    assert (entry["run_id"], entry["event"], entry["holds_writer"]) == (run_id, "replaced", True), entry
    rolled_back = trips.backfill("rollback", str(path), "--target", "applier")
    assert rolled_back.returncode == 0, rolled_back.output
    assert snapshot(trips) == unchanged
    # what it leaves downstream only advises: a trail this role cannot trust for daily_fares (live, who owns the
    # table, does not own daily_fares) is not read, and said so, never a refusal after the restores
    assert (
        f"Not read downstream: the audit trail of daily_fares (it is owned by {live}, whom {applier} does not trust to "
        "keep it"
    ) in rolled_back.stdout, rolled_back.stdout

    # pure dbt: a second `packet_recorded` and an expired `building_stages`, in the applier's name, change nothing
    pure = trips.dbt(
        "run-operation",
        "dbt_backfill.plan_backfill",
        "--args",
        "{model: fct_trips, partitions: 2026-03-01..2026-03-03}",
        "--target",
        "planner",
    )
    assert pure.returncode == 0, pure.output
    pure_run, sha256 = pure.result("plan_backfill")["run_id"], pure.result("plan_backfill")["packet_sha256"]
    [(recorded,)] = trips.query(f"select detail from {AUDIT} where event = 'packet_recorded' and run_id = '{pure_run}'")
    assert written_as(trips, applier, audit_row(pure_run, "packet_recorded", recorded)) is None
    assert written_as(trips, applier, audit_row(pure_run, "building_stages", expired)) is None
    applied = trips.dbt(
        "run-operation",
        "dbt_backfill.apply_backfill",
        "--args",
        f"{{run_id: '{pure_run}', approved_sha256: '{sha256}', approved_by: Dana Owner}}",
        "--target",
        "applier",
    )
    assert applied.returncode == 0, applied.output
    assert snapshot(trips) != unchanged
    rolled_back = trips.dbt(
        "run-operation", "dbt_backfill.rollback_backfill", "--args", f"{{run_id: '{pure_run}'}}", "--target", "applier"
    )
    assert rolled_back.returncode == 0, rolled_back.output
    assert snapshot(trips) == unchanged

    # an audit table of an earlier version names no writer: the applier refuses it; its owner's first command (a
    # status) brings it up to date, the rows it had keeping no writer, and a packet planned before is planned again
    trips.query(
        f"drop policy dbt_backfill_read on {AUDIT}; drop policy dbt_backfill_own_rows on {AUDIT}; "
        f"alter table {AUDIT} no force row level security, disable row level security, drop column recorded_by"
    )
    rows = trips.query(f"select count(*) from {AUDIT}")[0][0]
    earlier = trips.backfill("apply", str(path), "--target", "applier")
    refused(
        earlier,
        f"{AUDIT} can be rewritten by roles the checks defend against: its rows do not name the roles "
        "that wrote them (it was made before rows were attributed, or its row level security was changed "
        "since).",
    )
    assert (
        "any dbt-backfill command its owner runs on this model (status included) brings an earlier table up to "
        "date" in earlier.stderr
    )
    status = trips.backfill("status", str(path), "--target", "live")
    assert status.returncode == 0, status.output
    assert trips.query(f"select count(*) filter (where recorded_by is null), count(*) from {AUDIT}") == [(rows, rows)]
    replanned = trips.backfill("apply", str(path), "--target", "applier")
    refused(replanned, "no plan wrote a packet with this content")
    assert snapshot(trips) == unchanged


def concat_that_raises(schema):
    """An exact `concat(text, text)`: a closer match than the built-in variadic one, in whichever schema it stands
    on the path; it says so when it runs."""
    return (
        f'create function "{schema}".concat(text, text) returns text language plpgsql as '
        "$$ begin raise exception 'mallory ran as %', current_user; end $$"
    )


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_a_user_schema_made_while_a_plan_waits_is_not_on_the_path_its_builds_run_under(trips):
    """The model's SQL runs under the session's own search_path, given back after the checks. A role that may
    create schemas made the planner's "$user" schema, holding a closer `concat`, while the plan waited for the
    source: the path given back is the schemas the check resolved, so the model never calls it (before, it ran
    as the planner, with every right the planner has)."""
    mallory = f"mallory_{secrets.token_hex(3)}"
    database, me = trips.query("select current_database(), current_user")[0]
    trips.query(f"create role {mallory} nologin; grant create on database {database} to {mallory}")
    before = snapshot(trips)
    try:
        status, out, err = raced(
            trips,
            ["plan", "fct_trips_variant", "--partitions", DAY, "--vars", "{status_expr: 'concat(status, status)'}"],
            "raw.trip_events",
            mallory,
            me,
            target=(),
            payload=concat_that_raises,
        )
    finally:
        trips.query(f"drop owned by {mallory}; drop role {mallory}")
    # never called; the check that runs again after the builds then finds the schema and refuses the plan
    assert "mallory ran" not in out + err
    assert status == 3, out + err
    assert err.startswith(
        'refused: the search_path of this session ("$user", public) names schema(s) where roles that '
        f'cannot act as {me} may create functions and operators, or have: "{me}"'
    ), err
    assert snapshot(trips) == before


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_an_audit_table_swapped_while_apply_runs_is_refused_in_the_transaction_that_would_write_it(trips):
    """The schema's owner may drop the audit table: once apply had checked it, a table of someone else's with a
    trigger took its place while the first partition's transaction was open, so that the partition's audit row
    would run that trigger as the applier. Each audit row is written after locking the table and checking it again,
    in the same transaction: the partition is rolled back, and nothing the trigger would do happens."""
    from test_resilience import FaultLock, reached
    from test_tampering import approved

    path, _ = approved(trips)
    mallory = f"mallory_{secrets.token_hex(3)}"
    trips.query(f"create role {mallory} nologin")
    before = snapshot(trips)
    lock = FaultLock(trips)
    try:
        applying = start(trips, ["apply", str(path)], fault_point="after_backup")
        wait_until(reached(trips, "after_backup"), "apply to reach its fault point")
        trips.query(
            f"create table analytics_backfill.swapped as select * from {AUDIT}; drop table {AUDIT}; "
            f"alter table analytics_backfill.swapped rename to dbt_backfill_audit; "
            f"create function analytics_backfill.bf_echo() returns trigger language plpgsql as $$ begin "
            f"insert into analytics.fct_trips (trip_id, trip_date, fare, status, updated_at) values "
            f"(900001, date '2025-06-15', 999, 'forged', now()); return new; end $$; "
            f"create trigger bf_echo before insert on {AUDIT} for each row execute function "
            f"analytics_backfill.bf_echo(); alter table {AUDIT} owner to {mallory}"
        )
    finally:
        lock.release()
    _, stderr = applying.communicate(timeout=300)
    try:
        assert applying.returncode == 3, stderr
        assert (
            stderr.startswith("refused: the audit table ")
            and (f"{AUDIT} can be rewritten by roles the checks defend against: it is owned by {mallory}") in stderr
        ), stderr
        assert "it has trigger bf_echo" in stderr
        assert snapshot(trips) == before
    finally:
        trips.query(f"drop table {AUDIT}; drop function analytics_backfill.bf_echo(); drop role {mallory}")
