"""A real public package, as a new user brings it: Fivetran's dbt_mixpanel v0.16.1 (Apache-2.0, vendored with its
two dependencies and their licences: tests/packages/*/VENDORED.md), installed into a client project
(tests/packages/mixpanel_client) that declares meta.backfill for `mixpanel__event`: an incremental delete+insert on
`unique_event_id`, deduplicated per day by `mp_processing_time_ms`, re-reading its last 7 days, with a run-level
`current_date as dbt_run_date`. Sixty days of events are published, late corrections of six kinds land outside
the lookback (and one inside it), the live job runs, and a full refresh into schemas of its own is the oracle.
`stale` must name exactly the partitions the full refresh changes; the repair it prints, run as printed (CLI and
pure dbt), must leave the table equal to the full refresh and every other partition as it was; a rollback must
give the table back byte for byte."""

from __future__ import annotations

import random
import re
import shlex
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from backends import ENGINE_INDEPENDENT, TRANSACTIONAL_ADAPTERS
from vendored_client import VendoredClient, ok, values_sql

MODEL = "mixpanel__event"
DOWNSTREAM = ["mixpanel__daily_events", "mixpanel__monthly_events", "mixpanel__sessions"]  # no meta.backfill
RUN_LEVEL = "dbt_run_date"  # meta.backfill.exclude_columns in the client project
START, DAYS, PUBLISHED_DAYS = date(2026, 9, 1), 60, 58
CORRECTED_AT = "2026-11-03 09:00:00"
COLUMNS = (
    "_fivetran_id varchar(32), _fivetran_synced timestamp, time timestamp, name varchar(32), distinct_id varchar(8), "
    "insert_id varchar(32), mp_processing_time_ms bigint, properties varchar(64), city varchar(16), os varchar(16), "
    "browser varchar(16)"
)


def day(index: int) -> str:
    return (START + timedelta(days=index)).isoformat()


def events() -> list[tuple]:
    """The connector's `event` rows (the columns the package reads), deterministic: 30-45 a day, about 5% of them
    retried by the SDK (the same insert_id processed again later, which the package's dedupe drops)."""
    rng = random.Random(61)
    rows = []
    for index in range(DAYS):
        midnight = datetime.combine(START + timedelta(days=index), datetime.min.time())
        for n in range(rng.randint(30, 45)):
            at = midnight + timedelta(seconds=rng.randint(0, 86399))
            row = (
                f"f-{index:02d}-{n:03d}",
                str(midnight + timedelta(days=1, hours=3)),
                str(at),
                rng.choice(["Page View", "Sign Up", "Add To Cart", "Purchase"]),
                f"u{rng.randint(1, 30):03d}",
                f"ins-{index:02d}-{n:03d}",
                1000 + rng.randint(0, 5000),
                '{"plan": "' + rng.choice(["free", "pro"]) + '"}',
                rng.choice(["Lisbon", "Oslo", "Austin", "Pune", "Osaka"]),
                rng.choice(["iOS", "Android", "Mac OS X"]),
                rng.choice(["Chrome", "Safari", None]),
            )
            rows.append(row)
            if rng.random() < 0.05:
                rows.append((row[0] + "-r", *row[1:6], row[6] + 700, row[7], "Retry City", *row[9:]))
    return rows


ON_DAY = 'cast("time" as date)'
CORRECTIONS = [
    # the connector re-syncs a day with corrected geo-IP lookups
    f"update mixpanel.event set city = 'Porto', _fivetran_synced = '{CORRECTED_AT}' "
    f"where {ON_DAY} = '{day(10)}' and city = 'Lisbon'",
    # a GDPR deletion: one user's events of a day
    f"delete from mixpanel.event where {ON_DAY} = '{day(20)}' and distinct_id = 'u007'",
    # events weeks late (an offline mobile client)
    f"insert into mixpanel.event values ('late-05-1', '{CORRECTED_AT}', '{day(5)} 13:14:15', 'Purchase', 'u011', "
    f"'late-ins-1', 900, '{{\"plan\": \"pro\"}}', 'Oslo', 'iOS', null), ('late-05-2', '{CORRECTED_AT}', "
    f"'{day(5)} 21:00:00', 'Page View', 'u012', 'late-ins-2', 950, '{{}}', 'Pune', 'Android', 'Chrome')",
    # an earlier-processed copy of an event lands: the dedupe now keeps it, not the row published
    f"insert into mixpanel.event select _fivetran_id || '-early', '{CORRECTED_AT}', \"time\", name, distinct_id, "
    "insert_id, mp_processing_time_ms - 500, properties, 'Early City', os, browser from mixpanel.event "
    "where _fivetran_id = 'f-30-004'",
    # an event renamed by a tracking-plan fix (its event type, so its unique_event_id, changes)
    f"update mixpanel.event set name = 'Checkout', _fivetran_synced = '{CORRECTED_AT}' where _fivetran_id = 'f-40-002'",
    # a clock fix moves an event from one day to the next
    f"update mixpanel.event set \"time\" = '{day(16)} 00:05:00', _fivetran_synced = '{CORRECTED_AT}' "
    "where _fivetran_id = 'f-15-003'",
    # a late event inside the live job's 7-day lookback: the live run picks it up
    f"insert into mixpanel.event values ('late-55-1', '{CORRECTED_AT}', '{day(55)} 10:00:00', 'Sign Up', 'u020', "
    "'late-ins-3', 800, '{}', 'Austin', 'Mac OS X', 'Safari')",
]
# what those corrections leave wrong after the live job: every day outside its lookback (day 55 is fixed)
CORRUPTED = [day(i) for i in (5, 10, 15, 16, 20, 30, 40)]


class MixpanelClient(VendoredClient):
    def __init__(self, factory, adapter: str, workdir: Path) -> None:
        super().__init__(
            factory, adapter, workdir, "mixpanel_client", ("mixpanel", "fivetran_utils", "dbt_utils"),
            "mixpanel_client", "analytics_mixpanel", "full_refresh_mixpanel", "date_day",
        )  # fmt: skip

    def publish_correct_and_run(self) -> None:
        """The first publication (`dbt build`: the package's models and data tests), the later days and the
        corrections, the live job (`dbt run`), the oracle. Saved, so every test starts from it."""
        ok(self.dbt("deps"))
        rows = events()
        self.query("create schema mixpanel")
        self.backend.create_table(
            "mixpanel.event", COLUMNS, values_sql([r for r in rows if r[2] < day(PUBLISHED_DAYS)])
        )
        built = ok(self.dbt("build"))
        assert "PASS=" in built.stdout and "ERROR=0" in built.stdout, built.output
        self.query(f"insert into mixpanel.event values {values_sql([r for r in rows if r[2] >= day(PUBLISHED_DAYS)])}")
        for statement in CORRECTIONS:
            self.query(statement)
        ok(self.dbt("run"))  # the live job
        self.build_oracle_and_save("mixpanel")


@pytest.fixture(scope="module", params=TRANSACTIONAL_ADAPTERS)
def mixpanel(request, projects, tmp_path_factory):
    project = MixpanelClient(projects, request.param, tmp_path_factory.mktemp("mixpanel"))
    try:
        project.publish_correct_and_run()
        yield project
    finally:
        project.close()


@pytest.fixture
def client(mixpanel):
    mixpanel.restore()
    return mixpanel


def unchanged_but(client, before: dict[str, list[tuple]], repaired: list[str]) -> bool:
    after = client.partition_rows(MODEL)
    untouched = set(before) | set(after)
    return all(after.get(value) == before.get(value) for value in untouched - set(repaired))


def test_the_live_job_leaves_exactly_the_corrections_outside_its_lookback_wrong(client):
    assert sorted(client.differing(MODEL, exclude=(RUN_LEVEL,))) == CORRUPTED


def test_the_cli_repairs_the_real_package_to_a_full_refresh_as_printed_and_rolls_it_back_byte_for_byte(client):
    before = client.partition_rows(MODEL)
    scan = client.backfill("stale", MODEL)
    assert scan.returncode == 4, scan.output
    assert f"{len(CORRUPTED)} stale:" in scan.stdout, scan.stdout
    [repair] = re.findall(r"^Next: (dbt-backfill plan .*)$", scan.stdout, re.M)
    packet = client.dir / "backfills" / "mixpanel.yml"
    planned = ok(client.backfill(*shlex.split(repair)[1:], "--out", str(packet)))  # the command it printed
    assert [p["value"] for p in yaml.safe_load(packet.read_text())["partitions"]] == CORRUPTED
    assert client.partition_rows(MODEL) == before  # a scan and a plan only read
    # what is unknown, named: a new user's run read "confirm 1 unknown(s)" beside six gates in the written plan
    assert (
        "; confirm 4 unknown(s) among its gates: watermark untouched; "
        + "; ".join(f"the scope of downstream {m}" for m in DOWNSTREAM)
    ) in planned.stdout, planned.stdout

    ok(client.approve(packet))
    applied = ok(client.backfill("apply", str(packet)))
    # no downstream model is partitioned as this one: the cascade it names compares them, it rebuilds none
    assert (
        f"Next: `dbt-backfill apply {packet} --cascade` compares "
        + ", ".join(f"{m} (it declares no meta.backfill partition_by)" for m in DOWNSTREAM)
        + " with a full build and names the repair of what differs (the partitions applied here are skipped)."
    ) in applied.stdout, applied.stdout
    ok(client.backfill("verify", str(packet)))
    assert client.differing(MODEL, exclude=(RUN_LEVEL,)) == {}
    assert unchanged_but(client, before, CORRUPTED)
    again = client.backfill("stale", MODEL)
    assert again.returncode == 0, again.output

    ok(client.backfill("rollback", str(packet)))
    assert client.partition_rows(MODEL) == before


@pytest.mark.parametrize("mixpanel", ENGINE_INDEPENDENT, indirect=True)  # the same macros on every engine
def test_pure_dbt_repairs_the_real_package_to_a_full_refresh_as_printed_and_rolls_it_back(client):
    before = client.partition_rows(MODEL)
    # a run-operation renders the model with the root project's vars: the package's own, which its models read
    # without a default, are given on the command line (docs/pure-dbt.md), and every command it prints repeats them
    package_vars = "{mixpanel_sources: [], event_properties_to_pivot: [], event_custom_columns: []}"
    scan = client.dbt(
        "run-operation", "dbt_backfill.find_stale", "--args", f"{{model: {MODEL}}}", "--vars", package_vars
    )
    assert scan.returncode == 1, scan.output
    [repair] = re.findall(r"Repair them: (dbt run-operation .*)$", scan.stdout, re.M)
    planned = ok(client.dbt(*shlex.split(repair)[1:]))
    plan = planned.result("plan_backfill")
    assert client.partition_rows(MODEL) == before

    [apply] = re.findall(r"Once approved: (dbt run-operation .*)$", planned.stdout, re.M)
    applied = ok(client.dbt(*shlex.split(apply.replace("<name>", "Dana Owner"))[1:]))
    assert f": {len(CORRUPTED)} partition(s) replaced ({', '.join(CORRUPTED)}), 0 already equal" in applied.stdout
    verified = ok(
        client.dbt("run-operation", "dbt_backfill.verify_backfill", "--args", f"{{run_id: {plan['run_id']}}}")
    )
    assert f"Verified run {plan['run_id']}" in verified.stdout, verified.output
    assert client.differing(MODEL, exclude=(RUN_LEVEL,)) == {}
    assert unchanged_but(client, before, CORRUPTED)

    ok(client.dbt("run-operation", "dbt_backfill.rollback_backfill", "--args", f"{{run_id: {plan['run_id']}}}"))
    assert client.partition_rows(MODEL) == before
