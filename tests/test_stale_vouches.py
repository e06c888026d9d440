"""A stale scan vouches only for what it saw, and only its trusted writers' vouches count (issue 54): a scan that
reads while a rollback's partition transaction is open vouches for rows the rollback then replaces, and the next
scans compare that partition all the same; a `stale_scan` row the applier inserts vouches for nothing; a partition
a scan found stale stays stale across a change of code and a --since; a partition whose rows changed since its
last vouch (every key twice: what `partitions` calls changed since its last recorded writer) is compared; after
`clean --drop-backups` of a later run, every "Next:" names the plan, never that run's rollback. Stale days are
checked against the brute-force build of the model (test_stale.differing_days)."""

from __future__ import annotations

import json
import re
import shlex

import pytest
import yaml
from backends import ENGINE_INDEPENDENT, POSTGRES_ONLY
from conftest import trips_on
from test_resilience import WAIT_LIMIT_S, FaultLock, held_at, start, wait_until
from test_stale import AGAIN, MODEL, TRACKED, differing_days, full_build, published, stale
from test_tampering import as_role

trips = trips_on([*POSTGRES_ONLY, *ENGINE_INDEPENDENT])

SEED_STALE = ["2026-03-01", "2026-03-02"]
VARIANT = f"analytics.{MODEL}"
AUDIT = "analytics_backfill.dbt_backfill_audit"
SCANNED = r"the stale scan of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC"


def with_audit_table(project):
    """The audit table made by the target's owner, as docs/security.md's recipe does first (a read-only command
    never makes it, so a scan without it records nothing)."""
    made = project.dbt("run-operation", "dbt_backfill.create_audit_table", "--args", json.dumps({"model": MODEL}))
    assert made.returncode == 0, made.output


def approved(project):
    """The seed's two stale days planned with TRACKED and approved: the packet's path."""
    out = project.dir / "backfills" / "repair.yml"
    planned = project.backfill(
        "plan", MODEL, "--partitions", "2026-03-01..2026-03-02", "--out", str(out), "--vars", TRACKED
    )
    assert planned.returncode == 0, planned.output
    assert project.approve(out).returncode == 0
    return out


def repaired(project):
    """The seed's two stale days planned, approved and applied with TRACKED: the packet's path."""
    out = approved(project)
    applied = project.backfill("apply", str(out), "--vars", TRACKED)
    assert applied.returncode == 0, applied.output
    assert differing_days(project) == []
    return out


def scanned_while_held(project, command, packet, point):
    """`command` of `packet` held at `point` inside its first partition's transaction while a scan runs, then let
    go to finish: the scan's (result, document)."""
    lock = FaultLock(project)
    try:
        process = held_at(project, [command, str(packet), "--vars", TRACKED], point)
        scan = stale(project, "--vars", TRACKED)
    finally:
        lock.release()
    assert process.wait(timeout=WAIT_LIMIT_S) == 0, process.stderr.read()
    return scan


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_scans_overlapping_an_apply_and_a_rollback_never_leave_a_stale_partition_vouched_for(trips):
    """A scan while the apply's first partition is held inside its transaction, then one while the rollback's is
    (its audit row written, dated by the transaction's start): the second reads the approved rows and vouches for
    them, then the rollback commits the rows from before. That vouch is dated after the rollback's audit row, yet
    the next scans compare the partition and find it stale."""
    out = approved(trips)
    during, found = scanned_while_held(trips, "apply", out, "before_commit")
    assert during.returncode == 4, during.output  # the apply not committed: the rows from before, stale
    assert [s["value"] for s in found["stale"]] == SEED_STALE and found["compared"] == 5  # the first scan
    assert differing_days(trips) == []

    during, found = scanned_while_held(trips, "rollback", out, "rollback_before_commit")
    assert during.returncode == 0, during.output  # the rollback not committed: the approved rows, equal
    assert found["stale"] == [] and found["compared"] == 2  # the two days found stale, written since
    assert differing_days(trips) == SEED_STALE  # the rollback put the rows from before back
    held = trips.rows(VARIANT)

    for _ in range(2):  # the next scan and the one after it: a finding holds until a write or a compare ends it
        after, found = stale(trips, "--vars", TRACKED)
        assert after.returncode == 4, after.output
        assert [s["value"] for s in found["stale"]] == differing_days(trips) == SEED_STALE
        assert found["repair"]["cli"] == f"dbt-backfill plan {MODEL} --partitions 2026-03-01..2026-03-02{AGAIN}"
        assert trips.rows(VARIANT) == held
    text = trips.backfill("stale", MODEL, "--vars", TRACKED)
    assert text.returncode == 4
    assert f"Next: dbt-backfill plan {MODEL} --partitions 2026-03-01..2026-03-02{AGAIN}\n" in text.stdout, text.stdout
    assert "Nothing is stale" not in text.stdout


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_a_stale_scan_row_the_applier_inserts_vouches_for_nothing(trips):
    """docs/security.md's applier may insert audit rows: one `stale_scan` row of its own, copying the last scan's
    binding and vouching for every day with the rows each holds, must not turn the owner's scan to "Nothing is
    stale"."""
    with_audit_table(trips)
    first, found = stale(trips, "--vars", TRACKED)
    assert first.returncode == 4 and [s["value"] for s in found["stale"]] == SEED_STALE, first.output
    applier = as_role(
        trips,
        "applier",
        [
            "grant usage on schema analytics, raw, analytics_backfill to {role}",
            f"grant select, insert, delete on {VARIANT} to {{role}}",
            "grant select on raw.trip_events to {role}",
            f"grant select, insert on {AUDIT} to {{role}}",
        ],
    )
    [(target, detail)] = trips.query(f"select target, detail from {AUDIT} where event = 'stale_scan'")
    forged = json.loads(detail)
    held = dict(forged.get("held") or {})
    for s in found["stale"]:  # the rows each stale day holds: what a scan that compared them would have recorded
        held[s["value"]] = f"{s['target']['row_count']}:{s['target']['sha256'][:16]}"
    forged.update({"stale": [], "vouched": [[forged["read_at"], ["2026-02-28..2026-03-04"]]], "held": held})
    trips.query(
        f"set role {applier}; insert into {AUDIT} (recorded_at, run_id, model, target, event, outcome, detail) "
        f"values (current_timestamp, 'forged_s', '{MODEL}', '{target}', 'stale_scan', 'none stale', "
        f"'{json.dumps(forged)}'); reset role"
    )
    assert trips.query(f"select recorded_by from {AUDIT} where run_id = 'forged_s'") == [(applier,)]
    before = trips.rows(VARIANT)

    again, found = stale(trips, "--vars", TRACKED)
    assert again.returncode == 4, again.output
    assert [s["value"] for s in found["stale"]] == differing_days(trips) == SEED_STALE
    why = {s["value"]: " ".join(s["why"]) for s in found["stale"]}
    assert re.fullmatch(SCANNED + " found it stale; nothing vouched for it since", why["2026-03-01"]), why
    planned = trips.backfill(
        "plan", MODEL, "--stale", "--out", str(trips.dir / "backfills" / "s.yml"), "--vars", TRACKED
    )
    assert planned.returncode == 0, planned.output
    assert "Partitions: 2 value(s), 2026-03-01 … 2026-03-02." in planned.stdout, planned.output
    assert trips.rows(VARIANT) == before


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_stale_finding_survives_a_change_of_code_and_a_since(trips):
    """A scan finds the seed's two days stale; one comment line added to the model (a new binding), then scans with
    --since and of other partitions: the two days are compared each time, never vouched for. Each scan says what
    backs the windows it followed changes through (item 2): the proof the plan before it recorded for this code,
    then, once the code changed, none, and why."""
    with_audit_table(trips)
    packet = yaml.safe_load(approved(trips).read_text())  # the plan proves the windows over the whole history
    first, found = stale(trips, "--vars", TRACKED)
    assert first.returncode == 4 and [s["value"] for s in found["stale"]] == SEED_STALE, first.output
    proof = found["windows"]["proof"]
    assert (proof["proven"], proof["run_id"]) == (True, packet["run_id"]), proof
    assert proof["said"] == (
        "the input windows it followed changes through (1 day(s) before each partition and 1 after, from "
        "meta.backfill.input_window) are those the proof over the whole history of "
        f"{proof['at']} (run {packet['run_id']}) holds for this code"
    ), proof
    model = trips.dir / "models" / f"{MODEL}.sql"
    model.write_text(model.read_text() + "\n-- reviewed: nothing changes\n")
    before = trips.rows(VARIANT)

    since, found = stale(trips, "--vars", TRACKED, "--since", "2026-04-01")
    assert since.returncode == 4, since.output
    proof = found["windows"]["proof"]
    assert proof["proven"] is False and proof["said"].startswith(
        "no proof over the whole history backs the input windows it followed changes through (1 day(s) before each "
        "partition and 1 after, from meta.backfill.input_window) for this code: the code changed since the last "
        "proof (the compiled SQL). A changed input row was followed only into the partitions those windows reach"
    ), proof
    assert [s["value"] for s in found["stale"]] == differing_days(trips) == SEED_STALE
    assert found["compared"] == 2  # --since vouches for the three days no scan found stale
    why = {s["value"]: " ".join(s["why"]) for s in found["stale"]}
    assert re.fullmatch(SCANNED + " found it stale; nothing vouched for it since", why["2026-03-02"]), why

    other, found = stale(trips, "--vars", TRACKED, "--partitions", "2026-02-28")
    assert other.returncode == 0 and found["stale"] == [], other.output
    model.write_text(model.read_text() + "-- and again\n")
    text = trips.backfill("stale", MODEL, "--vars", TRACKED, "--since", "2026-04-01")
    assert text.returncode == 4, text.output
    assert f"Next: dbt-backfill plan {MODEL} --partitions 2026-03-01..2026-03-02{AGAIN}\n" in text.stdout, text.stdout
    assert trips.rows(VARIANT) == before


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_one_answer_after_clean_drops_a_later_runs_backups_and_a_day_is_written_twice(trips):
    """Run A repairs 2026-03-01..03-02, run B (other code) rewrites 03-02 after it, then `clean b.yml
    --drop-backups`: clean says A's rollback of 03-02 is made impossible; `rollback a.yml` and `status a.yml` never
    say to roll back run B (that exits 3 now) but name the plan, which runs. Then a scan vouches for 03-01 and every
    row of it is written twice (no recorded write): `partitions` says it changed since its last recorded writer, and
    `stale` compares it and finds it stale."""
    a = repaired(trips)
    other = TRACKED[:-1] + ', status_expr: "upper(status)"}'
    b = trips.dir / "backfills" / "b.yml"
    planned = trips.backfill("plan", MODEL, "--partitions", "2026-03-02", "--out", str(b), "--vars", other)
    assert planned.returncode == 0, planned.output
    assert trips.approve(b).returncode == 0
    applied = trips.backfill("apply", str(b), "--vars", other)
    assert applied.returncode == 0, applied.output
    run_b = yaml.safe_load(b.read_text())["run_id"]

    run_a = yaml.safe_load(a.read_text())["run_id"]
    plan_again = f"dbt-backfill plan {MODEL} --partitions 2026-03-01,2026-03-02"

    cleaned = trips.backfill("clean", str(b), "--drop-backups")
    assert cleaned.returncode == 0, cleaned.output
    # the command repeats the vars clean ran with (DECISIONS row 154): b's, which its packet records (row 161)
    ran_with = shlex.quote(json.dumps(yaml.safe_load(other)))
    assert (
        f"Note: run {run_a} can no longer be rolled back on 2026-03-02: run {run_b} wrote over it there and its "
        f"backups are dropped now, so `dbt-backfill rollback {a} --vars {ran_with}` is refused (it would undo run "
        f"{run_b}, which nothing can undo now); to change it, plan again: `dbt-backfill plan {MODEL} --partitions "
        "2026-03-02`."
    ) in cleaned.stdout, cleaned.stdout
    held = trips.rows(VARIANT)

    rollback = trips.backfill("rollback", str(a))
    status = trips.backfill("status", str(a))
    assert (rollback.returncode, status.returncode) == (3, 0), rollback.output + status.output
    assert f"Run {run_b} cannot be rolled back there either: its backup " in rollback.stderr, rollback.output
    for said in (rollback.output, status.output):
        assert f"rollback {b}" not in said, said
        assert re.search(
            r"that run cannot be rolled back there: its backup \S+ is gone \(clean dropped it at ", said
        ), said
        assert f"plan again: `{plan_again}`" in said, said
    assert trips.rows(VARIANT) == held
    out = trips.dir / "backfills" / "again.yml"
    again = trips.backfill("plan", *plan_again.split()[2:], "--out", str(out))
    assert again.returncode == 0, again.output

    scanned, found = stale(trips, "--vars", TRACKED)
    assert scanned.returncode == 4 and [s["value"] for s in found["stale"]] == ["2026-03-02"], scanned.output  # B's
    trips.query(f"insert into {VARIANT} select * from {VARIANT} where trip_date = '2026-03-01'")
    held = trips.rows(VARIANT)
    ledger = trips.backfill("partitions", MODEL, "--partitions", "2026-03-01")
    assert ledger.returncode == 0, ledger.output
    assert f"changed since run {run_a}" in ledger.stdout, ledger.stdout

    result, found = stale(trips, "--vars", TRACKED)
    assert result.returncode == 4, result.output
    assert [s["value"] for s in found["stale"]] == ["2026-03-01", "2026-03-02"]  # 03-01: each trip twice
    day = found["stale"][0]
    assert (day["target"]["row_count"], day["model"]["row_count"]) == (10, 5)
    assert re.fullmatch(
        r"it holds 10 row\(s\), checksum …[0-9-]{1,12}, not what " + SCANNED + r" vouched for \(5 row\(s\), "
        r"checksum …[0-9-]{1,12}\)",
        " ".join(day["why"]),
    ), day["why"]
    assert any("no longer held the rows what vouched for them saw (2026-03-01)" in n for n in found["notes"]), found
    assert trips.rows(VARIANT) == held


def linear_checksum(project, day, swap=None):
    """The day's rows and the plain sum of PostgreSQL's record hash, which d9411d7 held vouches against (linear in
    each field's hash), optionally with the fares of the trips `swap` = (a, b) exchanged."""
    fare = "fare"
    if swap:
        a, b = swap
        fare = (
            f"case when trip_id = {a} then (select fare from {VARIANT} where trip_id = {b}) "
            f"when trip_id = {b} then (select fare from {VARIANT} where trip_id = {a}) else fare end"
        )
    [(rows, total)] = project.query(
        f"select count(*), sum(hash_record_extended(row(trip_id, trip_date, {fare}, status, updated_at), 0)) "
        f"from {VARIANT} where trip_date = '{day}'"
    )
    return rows, total


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_fares_swapped_between_two_trips_of_a_vouched_day_are_seen(trips):
    """An attack on the checksum basis: hash_record_extended is linear in its fields' hashes (result*31 + hash, mod
    2^64), so exchanging one column's values between two rows of a partition could leave a plain sum of it equal. A
    hand UPDATE exchanges two trips' fares on a day a scan vouched for, a pair whose plain sum stays equal: the day
    is stale, and the next scan compares it (each row's hash is mixed again before the sum: _row_hash)."""
    with_audit_table(trips)
    first, found = stale(trips, "--vars", TRACKED)
    assert first.returncode == 4 and [s["value"] for s in found["stale"]] == ["2026-03-01", "2026-03-02"]

    swap = None
    for day in ("2026-02-28", "2026-03-03", "2026-03-04"):
        trip_fares = trips.query(f"select trip_id, fare from {VARIANT} where trip_date = '{day}' order by trip_id")
        for i, (a, fare_a) in enumerate(trip_fares):
            for b, fare_b in trip_fares[i + 1 :]:
                if fare_a != fare_b and linear_checksum(trips, day, (a, b)) == linear_checksum(trips, day):
                    swap = (day, a, b)
                    break
            if swap:
                break
        if swap:
            break
    assert swap, "no pair found"
    day, a, b = swap
    trips.query(
        f"update {VARIANT} t set fare = s.fare from (select {a} as trip_id, (select fare from {VARIANT} where "
        f"trip_id = {b}) as fare union all select {b}, (select fare from {VARIANT} where trip_id = {a})) s "
        f"where t.trip_id = s.trip_id"
    )
    assert day in differing_days(trips)  # the day no longer holds what the model builds

    again, found = stale(trips, "--vars", TRACKED)
    assert day in [s["value"] for s in found["stale"]], (swap, again.output)


def replace_day(project, day, rows):
    """The day's rows replaced by hand (no audit row): `rows` = [(trip_id, fare, status, updated_at)]."""
    values = ", ".join(f"({t}, '{day}', {f}, '{s}', '{u.isoformat()}')" for t, f, s, u in rows)
    project.query(f"delete from {VARIANT} where trip_date = '{day}'; insert into {VARIANT} values {values}")


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_a_day_fixed_between_the_checksum_read_and_the_comparison_then_put_back_is_compared_again(trips):
    """An attack on the checksum basis: a stale day fixed by hand while the scan waits between its checksum read and
    its comparison (behind a lock on its input, which it reads between the two), then the fix undone by hand. The
    scan compared the fixed rows and vouched for them with their own checksum, read with their fingerprint (not the
    one read before), so the stale rows put back differ from it and the next scan compares the day again."""
    with_audit_table(trips)
    day = "2026-03-01"
    stale_rows = sorted(published(trips)[day])
    fixed_rows = sorted(full_build(trips)[day])
    assert stale_rows != fixed_rows and day in differing_days(trips)

    lock = trips.backend.server.connect(trips.backend.database)
    lock.autocommit = False
    with lock.cursor() as cursor:
        cursor.execute("lock table raw.trip_events in access exclusive mode")
    try:
        scan = start(trips, ["stale", MODEL, "--json", "--vars", TRACKED])

        def waiting():
            return (
                trips.query(
                    "select count(*) from pg_locks l join pg_class c on c.oid = l.relation "
                    "where not l.granted and c.relname = 'trip_events'"
                )[0][0]
                > 0
            )

        wait_until(waiting, "the scan waiting on raw.trip_events")
        # what it read so far: the checksum of the stale rows (the target's statement already ran)
        replace_day(trips, day, fixed_rows)  # a hand fix, committed while the scan waits
    finally:
        lock.rollback()
        lock.close()
    out, err = scan.communicate(timeout=300)
    found = json.loads(out.strip().splitlines()[-1])
    assert scan.returncode == 4 and [s["value"] for s in found["stale"]] == ["2026-03-02"], out + err  # fixed, seen

    replace_day(trips, day, stale_rows)  # the fix undone by hand: the stale rows again
    assert day in differing_days(trips)

    again, found = stale(trips, "--vars", TRACKED)
    assert day in [s["value"] for s in found["stale"]], again.output
