"""Two contracts a real ad-reporting package met (issue 53). Floating-point money in `additive`: a float column's
total is the exact sum of the decimals its values spell, whatever order the engine adds them in, so two builds of
the same rows never differ by a sum's rounding; a sample shows a float at 15 significant digits. And `business_key`
identifies one row in the whole table: a key that repeats across partitions in a full build (a campaign that has
a row every day) is refused as such, naming the fix (the partition column in the key), never as a row that moved."""

import pytest
import yaml
from backends import ENGINE_INDEPENDENT, TRANSACTIONAL_ADAPTERS
from reference_fingerprint import exact_total

SOURCES = {
    "version": 2,
    "sources": [{"name": "ads", "schema": "raw", "tables": [{"name": "ad_spend"}, {"name": "campaign_spend"}]}],
}

# the live job appends the new days; a restated day reaches the source after its day was published
MODEL_SQL = """{{{{ config(materialized='incremental', incremental_strategy='append') }}}}
select campaign_id, date_day, spend from {{{{ source('ads', '{table}') }}}}
{{% if is_incremental() %}}where date_day > (select max(date_day) from {{{{ this }}}}){{% endif %}}
"""

# 2026-05-01's floats add up to different doubles in different orders ((1e16 + 1) - 1e16 is 0, 1 + (1e16 - 1e16)
# is 1; (0.1 + 0.2) + 0.3 is 0.6000000000000001); the decimals they spell add up to 1.6 whatever the order.
# 2026-05-02 holds a sum's last-bit noise (477.32000000000005) that the source's restatement replaces.
PUBLISHED = [
    (1, "2026-05-01", "1e16"),
    (2, "2026-05-01", "1.0"),
    (3, "2026-05-01", "-1e16"),
    (4, "2026-05-01", "0.1"),
    (5, "2026-05-01", "0.2"),
    (6, "2026-05-01", "0.3"),
    (1, "2026-05-02", "477.32000000000005"),
    (2, "2026-05-02", "0.1"),
    (3, "2026-05-02", "0.2"),
]
CORRECTIONS = [
    "update raw.ad_spend set spend = 2.0 where campaign_id = 2 and date_day = '2026-05-01'",
    "update raw.ad_spend set spend = 480.1 where campaign_id = 1 and date_day = '2026-05-02'",
]
SPEND = "select campaign_id, cast(date_day as varchar(10)), spend from {} order by date_day, campaign_id"


def add_model(project, name, table, backfill, rows, corrections):
    """A model `name` over raw.`table`, published by `dbt run` from `rows`; then `corrections` reach the source."""
    project.query("create schema if not exists raw")
    project.query(f"create table raw.{table} (campaign_id integer, date_day date, spend double precision)")
    values = ", ".join(f"({c}, date '{d}', {s})" for c, d, s in rows)
    project.query(f"insert into raw.{table} values {values}")
    models = project.dir / "models"
    (models / "ads_sources.yml").write_text(yaml.safe_dump(SOURCES))
    (models / f"{name}.sql").write_text(MODEL_SQL.format(table=table))
    write_contract(project, name, backfill)
    run = project.dbt("run", "--select", name)
    assert run.returncode == 0, run.output
    for statement in corrections:
        project.query(statement)


def write_contract(project, name, backfill):
    model = {"name": name, "config": {"meta": {"backfill": backfill}}}
    (project.dir / "models" / f"{name}.yml").write_text(yaml.safe_dump({"version": 2, "models": [model]}))


@pytest.fixture(scope="module", params=TRANSACTIONAL_ADAPTERS)
def ads(request, projects, tmp_path_factory):
    project = projects.new(request.param, tmp_path_factory.mktemp("floats"))
    backfill = {"partition_by": "date_day", "business_key": ["campaign_id", "date_day"], "additive": ["spend"]}
    add_model(project, "ad_spend_daily", "ad_spend", backfill, PUBLISHED, CORRECTIONS)
    yield project
    project.close()


def test_a_float_total_is_exact_whatever_the_order_and_the_repair_applies(ads):
    out = ads.dir / "backfills" / "spend.yml"
    planned = ads.plan("ad_spend_daily", ["2026-05-01", "2026-05-02"], "--out", str(out))
    assert planned.returncode == 0, planned.output
    assert "builds differ" not in planned.output
    packet = yaml.safe_load(out.read_text())
    totals = {
        p["value"]: (p["target_before"]["totals"], p["builds"]["a"]["totals"], p["builds"]["b"]["totals"])
        for p in packet["partitions"]
    }
    # the exact sums of the decimals the values spell: no 0.6000000000000001, no lost 1 beside 1e16
    assert totals == {
        "2026-05-01": ({"spend": "1.6"}, {"spend": "2.6"}, {"spend": "2.6"}),
        "2026-05-02": ({"spend": "477.62000000000005"}, {"spend": "480.4"}, {"spend": "480.4"}),
    }
    assert totals["2026-05-01"][1]["spend"] == exact_total([1e16, 2.0, -1e16, 0.1, 0.2, 0.3], is_float=True)
    assert totals["2026-05-02"][0]["spend"] == exact_total([477.32000000000005, 0.1, 0.2], is_float=True)
    assert all(p["builds"]["a"]["sha256"] == p["builds"]["b"]["sha256"] for p in packet["partitions"])
    # the sample shows the float at 15 significant digits; what changed was decided on the exact texts
    [noisy] = [p for p in packet["partitions"] if p["value"] == "2026-05-02"]
    assert noisy["changes"]["sample"] == [
        {"key": "1|2026-05-02", "columns": {"spend": {"old": "477.32", "new": "480.1"}}}
    ]
    assert "spend 477.32 -> 480.1" in planned.stdout, planned.stdout
    assert ads.approve(out).returncode == 0
    applied = ads.backfill("apply", str(out))
    assert applied.returncode == 0, applied.output
    assert ads.query(SPEND.format("analytics.ad_spend_daily")) == ads.query(SPEND.format("raw.ad_spend"))
    verified = ads.backfill("verify", str(out))
    assert verified.returncode == 0, verified.output


@pytest.mark.parametrize("ads", ENGINE_INDEPENDENT, indirect=True, scope="module")
def test_a_float_no_decimal_holds_exactly_is_refused_with_its_column(ads):
    # 1e-20 has more than 18 decimal places: its total could not be exact, and the plan says so before writing
    ads.query("insert into raw.ad_spend values (9, date '2026-05-03', 1e-20)")
    before = ads.query(SPEND.format("analytics.ad_spend_daily"))
    refused = ads.plan("ad_spend_daily", ["2026-05-03"])
    assert refused.returncode == 1, refused.output
    assert (
        "additive column spend (DOUBLE) holds 1 value(s) its total cannot hold exactly: a float is totalled as the "
        "decimal its text spells, with at most 20 integer digits and 18 decimal places, and no NaN or infinity"
    ) in refused.stderr, refused.stderr
    assert "Leave spend out of additive" in refused.stderr
    assert ads.query(SPEND.format("analytics.ad_spend_daily")) == before
    assert ads.tables_in("analytics_backfill") == ["dbt_backfill_audit"]  # its stages dropped
    ads.query("delete from raw.ad_spend where date_day = '2026-05-03'")


# Every campaign has a row every day: [campaign_id] identifies a row within a day, not in the table.
CAMPAIGN_DAYS = [(c, f"2026-05-0{d}", f"{c}{d}.5") for d in (1, 2, 3) for c in (1, 2)]


@pytest.mark.parametrize("ads", ENGINE_INDEPENDENT, indirect=True, scope="module")
def test_a_key_that_repeats_across_partitions_is_refused_as_such_and_the_partition_column_fixes_it(ads):
    # the keys' rule is the same Jinja and plain SQL on every engine (keys_repeated): DuckDB, in the floats' project
    campaigns = ads
    backfill = {"partition_by": "date_day", "business_key": ["campaign_id"], "additive": ["spend"]}
    restated = ["update raw.campaign_spend set spend = 99.5 where campaign_id = 1 and date_day = '2026-05-02'"]
    add_model(campaigns, "campaign_daily", "campaign_spend", backfill, CAMPAIGN_DAYS, restated)
    before = campaigns.query(SPEND.format("analytics.campaign_daily"))
    stages = campaigns.tables_in("analytics_backfill")
    out = campaigns.dir / "backfills" / "campaigns.yml"
    refused = campaigns.plan("campaign_daily", ["2026-05-02"], "--out", str(out))
    assert refused.returncode == 3, refused.output
    assert refused.stderr.startswith(
        "refused: business_key [campaign_id] repeats across partitions (a full build of the model holds "
        "campaign_id=1 in 3 partitions, 2026-05-01 to 2026-05-03; campaign_id=2 in 3 partitions, 2026-05-01 to "
        "2026-05-03): it identifies a row only within a partition, and the plan needs a key that identifies one row "
        "in the whole table to tell a row that moved between partitions. Include the partition column in "
        "business_key ([campaign_id, date_day]). No packet was written and the target is unchanged."
    ), refused.stderr
    assert "moved" not in refused.stderr.split("No packet was written")[0].replace("a row that moved between", "")
    # pure dbt: the same rule, the same words (plan_backfill runs the same _plan_refusal)
    pure = campaigns.dbt(
        "run-operation",
        "dbt_backfill.plan_backfill",
        "--args",
        '{"model": "campaign_daily", "partitions": "2026-05-02"}',
    )
    assert pure.returncode != 0 and "<<dbt_backfill:refused>>" in pure.output, pure.output
    said = refused.stderr.removeprefix("refused: ").split(" Its stages")[0].strip()
    assert f"dbt_backfill refused (business_key_repeats): {said}" in pure.output, pure.output
    assert not out.exists()
    assert campaigns.tables_in("analytics_backfill") == stages  # its stages dropped
    assert campaigns.query(SPEND.format("analytics.campaign_daily")) == before

    # the fix the refusal names: the key with the partition column plans, applies and repairs the day
    backfill = {"partition_by": "date_day", "business_key": ["campaign_id", "date_day"], "additive": ["spend"]}
    write_contract(campaigns, "campaign_daily", backfill)
    planned = campaigns.plan("campaign_daily", ["2026-05-02"], "--out", str(out))
    assert planned.returncode == 0, planned.output
    assert campaigns.approve(out).returncode == 0
    applied = campaigns.backfill("apply", str(out))
    assert applied.returncode == 0, applied.output
    after = campaigns.query(SPEND.format("analytics.campaign_daily"))
    assert after == campaigns.query(SPEND.format("raw.campaign_spend"))
    assert [row for row in after if row not in before] == [(1, "2026-05-02", 99.5)]
