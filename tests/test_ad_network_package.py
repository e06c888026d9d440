"""Issue 53: dbt-backfill on the kind of project people really have. A vendor package (tests/packages/
ad_network_reporting, written for this suite in the shape of public ad-reporting packages: an incremental merge that
re-merges its last 31 days, money in double columns, a run-level `last_updated`, the package's own macros called
unqualified, data tests, a downstream model) installed into a client project (tests/packages/ad_client) that
declares meta.backfill for it. ~1,900 source rows over 120 days are published, late corrections of seven kinds land,
the live job runs (it fixes what falls inside its lookback), and a full refresh into a schema of its own is the
oracle. Then `stale` must name exactly the partitions a full refresh changes, and the repair through the CLI and
through pure dbt must leave the table equal to that full refresh, every other partition as it was, and a rollback
must give the table back byte for byte."""

from __future__ import annotations

import json
import random
import re
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
import yaml
from backends import ENGINE_INDEPENDENT, TRANSACTIONAL_ADAPTERS
from vendored_client import ORACLE, VendoredClient, ok, values_sql

MODEL = "ad_network__campaign_report"
DOWNSTREAM = "ad_network__account_report"
RUN_LEVEL = "last_updated"  # meta.backfill.exclude_columns in the client project

START = date(2026, 6, 1)
DAYS = 120
PUBLISHED_DAYS = 118  # the first publication holds days 0..117; days 118 and 119 land with the corrections
ACCOUNTS = {1: (11, 12, 13, 14), 2: (21, 22, 23, 24)}
DEVICES = ("mobile", "desktop")
GOALS = ("purchase", "signup", "lead")
CORRECTED_AT = "2026-09-29 10:00:00"


def day(index: int) -> str:
    return (START + timedelta(days=index)).isoformat()


def synced(index: int) -> str:
    """The connector syncs each day's report the next morning."""
    return (datetime.combine(START, datetime.min.time()) + timedelta(days=index + 1, hours=6)).isoformat(sep=" ")


def source_rows() -> tuple[list[tuple], list[tuple]]:
    """The two reports, deterministic: one impressions row per campaign, day and device (1,920), and conversions
    for about a third of the campaign-day-goals (double money, as the connector types it)."""
    rng = random.Random(53)
    impressions, conversions = [], []
    for index in range(DAYS):
        for account, campaigns in ACCOUNTS.items():
            for campaign in campaigns:
                for device in DEVICES:
                    shown = rng.randint(200, 20000)
                    spend = round(rng.uniform(2, 250), 2)
                    impressions.append(
                        (
                            account,
                            campaign,
                            day(index),
                            device,
                            spend,
                            rng.randint(0, shown // 20),
                            shown,
                            synced(index),
                        )
                    )
                for goal in GOALS:
                    if rng.random() < 0.35:
                        count = rng.randint(1, 9)
                        value = round(count * rng.uniform(3, 60), 2) if goal == "purchase" else 0.0
                        conversions.append((account, campaign, day(index), goal, count, value, synced(index)))
    return impressions, conversions


IMPRESSIONS_COLUMNS = (
    "account_id integer, campaign_id integer, date_day date, device varchar(16), spend double precision, "
    "clicks integer, impressions integer, synced_at timestamp"
)
CONVERSIONS_COLUMNS = (
    "account_id integer, campaign_id integer, date_day date, goal varchar(16), conversions integer, "
    "value double precision, synced_at timestamp"
)

# The late corrections, as the connector lands them after the first publication. The live job's lookback then
# re-merges the days from 2026-08-26 (its last day 2026-09-26, less 31 days): what lands before that stays wrong.
CORRECTIONS = [
    # restated spend on an old day
    f"update ad_network.impressions_report set spend = spend + 40.15, synced_at = '{CORRECTED_AT}' "
    f"where campaign_id = 13 and date_day = '{day(40)}'",
    # a refund: a negative conversion value
    f"insert into ad_network.conversions_report values (2, 22, '{day(55)}', 'purchase', -1, -25.5, '{CORRECTED_AT}')",
    # a deleted campaign-day
    f"delete from ad_network.impressions_report where campaign_id = 12 and date_day = '{day(70)}'",
    f"delete from ad_network.conversions_report where campaign_id = 12 and date_day = '{day(70)}'",
    # a deleted row (one device of a campaign-day)
    f"delete from ad_network.impressions_report where campaign_id = 24 and date_day = '{day(20)}' "
    "and device = 'desktop'",
    # rows for an old day
    f"insert into ad_network.impressions_report values (1, 14, '{day(5)}', 'tablet', 12.34, 7, 450, '{CORRECTED_AT}')",
    # late conversions inside the lookback (the live job picks them up) and outside it
    f"insert into ad_network.conversions_report values (1, 11, '{day(100)}', 'signup', 3, 0.0, '{CORRECTED_AT}')",
    f"insert into ad_network.conversions_report values (2, 23, '{day(80)}', 'lead', 2, 18.75, '{CORRECTED_AT}')",
    # a campaign key moved to another day (the network corrected the day it reported under)
    f"update ad_network.impressions_report set date_day = '{day(31)}', synced_at = '{CORRECTED_AT}' "
    f"where campaign_id = 21 and date_day = '{day(30)}'",
    f"update ad_network.conversions_report set date_day = '{day(31)}', synced_at = '{CORRECTED_AT}' "
    f"where campaign_id = 21 and date_day = '{day(30)}'",
]
# the partitions those corrections leave wrong after the live job: every one outside the lookback (day 100 is fixed)
CORRUPTED = [day(i) for i in (5, 20, 30, 31, 40, 55, 70, 80)]


class AdClientProject(VendoredClient):
    """The ad client project with the package and dbt-backfill installed (tests/vendored_client.py)."""

    def __init__(self, factory, adapter: str, workdir: Path) -> None:
        super().__init__(
            factory,
            adapter,
            workdir,
            "ad_client",
            ("ad_network_reporting",),
            "ad_client",
            "analytics",
            ORACLE,
            "date_day",
            # the account report's double columns: each is a sum over a day's campaigns, which a full refresh adds
            # in another order than the live job did (on PostgreSQL 15 of its 120 days differ in the last bit
            # before any repair); the campaign report's exactly
            rounded=(DOWNSTREAM,),
        )

    def publish_correct_and_run(self) -> None:
        """The history: the first publication (`dbt build`, the package's data tests included), the corrections,
        the live job (`dbt run`, its 31-day lookback), then the oracle. Saved, so every test starts from it."""
        ok(self.dbt("deps"))
        impressions, conversions = source_rows()
        published = [r for r in impressions if r[2] < day(PUBLISHED_DAYS)]
        self.query("create schema ad_network")
        self.backend.create_table("ad_network.impressions_report", IMPRESSIONS_COLUMNS, values_sql(published))
        published = [r for r in conversions if r[2] < day(PUBLISHED_DAYS)]
        self.backend.create_table("ad_network.conversions_report", CONVERSIONS_COLUMNS, values_sql(published))
        built = ok(self.dbt("build"))
        assert "PASS=" in built.stdout and "ERROR=0" in built.stdout, built.output

        later = [r for r in impressions if r[2] >= day(PUBLISHED_DAYS)]
        self.query(f"insert into ad_network.impressions_report values {values_sql(later)}")
        later = [r for r in conversions if r[2] >= day(PUBLISHED_DAYS)]
        self.query(f"insert into ad_network.conversions_report values {values_sql(later)}")
        for statement in CORRECTIONS:
            self.query(statement)
        ok(self.dbt("run"))  # the live job
        self.build_oracle_and_save("ad_stale")


# A run-operation reads only the root project's vars and the command line's: pure dbt is given the package's var that
# the model's SQL reads, as docs/pure-dbt.md says (the CLI compiles the model with dbt and needs nothing).
PACKAGE_VARS = "{ad_network__lookback_days: 31}"


@pytest.fixture(scope="module", params=TRANSACTIONAL_ADAPTERS)
def ad_client(request, projects, tmp_path_factory):
    project = AdClientProject(projects, request.param, tmp_path_factory.mktemp("ad_client"))
    try:
        project.publish_correct_and_run()
        yield project
    finally:
        project.close()


@pytest.fixture
def client(ad_client):
    """The client project as the live job left it: stale outside the lookback, the oracle beside it."""
    ad_client.restore()
    return ad_client


def test_the_live_job_leaves_exactly_the_corrections_outside_its_lookback_wrong(client):
    """The scenario itself, checked against the oracle alone: the live job fixed day 100 (inside the lookback), left
    the eight corrupted partitions, and moved `last_updated` in partitions no correction reached."""
    assert sorted(client.differing(MODEL, exclude=(RUN_LEVEL,))) == CORRUPTED
    assert sorted(client.differing(DOWNSTREAM)) == CORRUPTED
    assert len(client.differing(MODEL)) > 80  # the run-level column: stale against a full refresh almost everywhere


@pytest.mark.parametrize("ad_client", ENGINE_INDEPENDENT, indirect=True)  # the same macros on every engine
def test_stale_names_exactly_the_partitions_a_full_refresh_corrects_outside_the_lookback(client):
    scan = client.backfill("stale", MODEL, "--json")
    assert scan.returncode == 4, scan.output
    found = json.loads(scan.stdout.strip().splitlines()[-1])
    assert [s["value"] for s in found["stale"]] == CORRUPTED
    assert found["repair"]["cli"].startswith(f"dbt-backfill plan {MODEL} --partitions "), found["repair"]
    assert day(100) not in found["repair"]["cli"]
    # the change columns the client declared for the vendor's sources (its dbt_project.yml's `sources:`) are read
    assert {i["relation"].split(".")[-1]: i["changed_at"] for i in found["inputs"]} == {
        "impressions_report": "synced_at",
        "conversions_report": "synced_at",
    }, found["inputs"]
    assert not any("declare(s) no changed_at" in note for note in found["notes"]), found["notes"]


def test_the_cli_repairs_the_package_model_to_a_full_refresh_and_rolls_back_byte_for_byte(client):
    before = {table: client.partition_rows(table) for table in (MODEL, DOWNSTREAM)}
    packet = client.dir / "backfills" / "ad.yml"

    planned = ok(client.backfill("plan", MODEL, "--stale", "--out", str(packet)))
    assert f"Partitions: 8 value(s), {CORRUPTED[0]} … {CORRUPTED[-1]}." in planned.stdout, planned.output
    # the run-level column, excluded: its changes counted and said to be written unchecked
    rewritten = unchecked_rewrites(client)
    assert (
        f"Excluded column(s) {RUN_LEVEL}: written unchecked (the fingerprint leaves them out); apply rewrites them in "
        f"{rewritten} row(s) of 8 partition(s)"
    ) in planned.stdout, planned.output
    # two campaign-days are gone (one deleted, one moved to the next day): said, and approved knowingly
    assert (
        f"Review: RESTRUCTURE FIRST — Idempotent writes: 2 key(s) removed from {day(30)}, {day(70)}"
    ) in planned.stdout, planned.output
    assert f"Downstream (in order): {DOWNSTREAM} (same_partitions)" in planned.stdout, planned.output
    # the double column's totals are exact: the sum of the decimals its values spell, whatever order the engine adds
    at = client.columns(MODEL).index("spend")
    full_build = client.partition_rows(MODEL, ORACLE)
    for partition in yaml.safe_load(packet.read_text())["partitions"]:
        value = partition["value"]
        exact = (
            sum(Decimal(repr(r[at])) for r in before[MODEL][value]),
            sum(Decimal(repr(r[at])) for r in full_build[value]),
        )
        totals = (partition["target_before"]["totals"]["spend"], partition["builds"]["a"]["totals"]["spend"])
        assert tuple(Decimal(total) for total in totals) == exact, (value, totals)
    assert {table: client.partition_rows(table) for table in (MODEL, DOWNSTREAM)} == before  # a plan only reads
    ok(client.approve(packet))

    # the package's data tests are no downstream models: the cascade rebuilds the account report alone
    applied = ok(client.backfill("apply", str(packet), "--cascade"))
    assert "Nothing was changed" not in applied.output, applied.output
    assert f"Cascade: {DOWNSTREAM} applied: 8 partition(s) replaced, 0 already equal" in applied.stdout, applied.output
    verified = ok(client.backfill("verify", str(packet)))
    assert "every partition equals its approved fingerprint" in verified.stdout, verified.output
    after = {table: client.partition_rows(table) for table in (MODEL, DOWNSTREAM)}
    assert_repaired(client, before, after)

    # rollback, downstream first: both tables byte for byte as before
    cascaded = [path for path in client.packets() if path.name.startswith(f"{DOWNSTREAM}__")]
    assert len(cascaded) == 1, client.packets()
    for undo in (cascaded[0], packet):
        rolled_back = ok(client.backfill("rollback", str(undo), "--by", "Dana Owner"))
        assert f"restored {', '.join(CORRUPTED)}, each equal to its fingerprint before the apply" in rolled_back.stdout
    assert {table: client.partition_rows(table) for table in (MODEL, DOWNSTREAM)} == before

    # applied again, without --cascade: it names the downstream model it leaves stale, and the command that repairs it
    reapplied = ok(client.backfill("apply", str(packet)))
    assert "Nothing was changed" not in reapplied.output, reapplied.output
    assert f"Not rebuilt: {DOWNSTREAM} (downstream" in reapplied.stdout, reapplied.output
    next_command = re.search(r"Next: `dbt-backfill apply (\S+) --cascade`", reapplied.stdout)
    assert next_command and Path(client.dir, next_command.group(1)) == packet, reapplied.stdout
    assert client.partition_rows(MODEL) == after[MODEL] and client.partition_rows(DOWNSTREAM) == before[DOWNSTREAM]
    cascade = ok(client.backfill("apply", next_command.group(1), "--cascade"))  # the command as printed
    assert f"Cascade: {DOWNSTREAM} applied: 8 partition(s) replaced" in cascade.stdout, cascade.output
    assert {table: client.partition_rows(table) for table in (MODEL, DOWNSTREAM)} == after


def unchecked_rewrites(client) -> int:
    """Rows of the corrupted partitions whose key the repair keeps and whose excluded column it rewrites: counted
    from the target and the oracle (a full build), not from the plan."""
    days = ", ".join(f"'{value}'" for value in CORRUPTED)
    return client.query(
        f"select count(*) from analytics.{MODEL} as t join {ORACLE}.{MODEL} as o "
        "on o.campaign_id = t.campaign_id and o.date_day = t.date_day "
        f"where t.date_day in ({days}) and o.{RUN_LEVEL} <> t.{RUN_LEVEL}"
    )[0][0]


def assert_repaired(client, before, after) -> None:
    """The root equals the full refresh on every column it compares, and on every column in the repaired partitions
    (their `last_updated` is a full build's too); the downstream model equals its full refresh; every other
    partition holds exactly what it held."""
    assert client.differing(MODEL, exclude=(RUN_LEVEL,)) == {}
    assert not set(client.differing(MODEL)) & set(CORRUPTED)
    assert client.differing(DOWNSTREAM) == {}
    for table in (MODEL, DOWNSTREAM):
        untouched = set(before[table]) - set(CORRUPTED)
        assert {d: after[table].get(d) for d in untouched} == {d: before[table][d] for d in untouched}
        assert {d: after[table].get(d) for d in CORRUPTED} != {d: before[table].get(d) for d in CORRUPTED}


@pytest.mark.parametrize("ad_client", ENGINE_INDEPENDENT, indirect=True)  # the same macros on every engine
def test_pure_dbt_repairs_the_package_model_to_a_full_refresh_and_rolls_it_back(client):
    before = {table: client.partition_rows(table) for table in (MODEL, DOWNSTREAM)}
    partitions = "[" + ", ".join(f"'{value}'" for value in CORRUPTED) + "]"

    planned = ok(
        client.dbt(
            "run-operation",
            "dbt_backfill.plan_backfill",
            "--args",
            f"{{model: {MODEL}, partitions: {partitions}}}",
            "--vars",
            PACKAGE_VARS,
        )
    )
    plan = planned.result("plan_backfill")
    assert re.search(rf"Packet recorded in .*: run {plan['run_id']}, sha256 {plan['packet_sha256']}\.", planned.stdout)
    assert DOWNSTREAM in planned.stdout, planned.output
    assert {table: client.partition_rows(table) for table in (MODEL, DOWNSTREAM)} == before  # a plan only reads

    applied = ok(
        client.dbt(
            "run-operation",
            "dbt_backfill.apply_backfill",
            "--args",
            f"{{run_id: {plan['run_id']}, approved_sha256: {plan['packet_sha256']}, approved_by: Dana Owner}}",
        )
    )
    assert f"Applied run {plan['run_id']} to " in applied.stdout, applied.output
    assert f": 8 partition(s) replaced ({', '.join(CORRUPTED)}), 0 already equal" in applied.stdout, applied.output
    verified = ok(
        client.dbt("run-operation", "dbt_backfill.verify_backfill", "--args", f"{{run_id: {plan['run_id']}}}")
    )
    assert f"Verified run {plan['run_id']}: all 8 partition(s) of " in verified.stdout, verified.output
    assert client.differing(MODEL, exclude=(RUN_LEVEL,)) == {}
    assert not set(client.differing(MODEL)) & set(CORRUPTED)
    after = client.partition_rows(MODEL)
    untouched = set(before[MODEL]) - set(CORRUPTED)
    assert {d: after.get(d) for d in untouched} == {d: before[MODEL][d] for d in untouched}

    rolled_back = ok(
        client.dbt("run-operation", "dbt_backfill.rollback_backfill", "--args", f"{{run_id: {plan['run_id']}}}")
    )
    assert f"Rolled back run {plan['run_id']} on " in rolled_back.stdout, rolled_back.output
    assert f": 8 partition(s) restored ({', '.join(CORRUPTED)})" in rolled_back.stdout, rolled_back.output
    # both tables byte for byte as before (pure dbt has no --cascade: the plan lists the downstream model)
    assert {table: client.partition_rows(table) for table in (MODEL, DOWNSTREAM)} == before
