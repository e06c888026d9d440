"""What Spark does not give and what dbt-backfill does instead, through real dbt invocations on the suite's local
Spark: no lock and no multi-statement transaction (the review says so and the plan does not promise one), and a
static partition overwrite that needs a table partitioned by the partition column (refused otherwise, the target
unchanged). Spark also runs the seed scenario, the refusals, the guards and the canonical fingerprint with the
other engines; this file holds only what is Spark's own."""
import pytest
import yaml

from dbt_backfill.demo import BACKFILL_DAYS

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def spark_trips(projects, tmp_path_factory):
    project = projects.new("spark", tmp_path_factory.mktemp("spark")).publish_stale_target()
    yield project
    project.close()


def plan(project):
    out = project.dir / "backfills" / f"seed-{len(project.packets())}.yml"
    result = project.plan("fct_trips", BACKFILL_DAYS, "--out", str(out))
    assert result.returncode == 0, result.output
    return out, yaml.safe_load(out.read_text())


def test_the_review_says_spark_has_no_lock_and_the_plan_promises_no_transaction(spark_trips):
    path, packet = plan(spark_trips)
    checks = {check["check"]: check for check in packet["review"]["checks"]}

    collision = checks["No collision with the scheduled run"]
    assert collision["severity"] == "warn"
    assert "Spark has no lock" in collision["finding"]
    assert "pause the model's scheduled job" in collision["safe_alternative"]
    assert "backfill_lock" not in collision["safe_alternative"]  # a PostgreSQL pre-hook would do nothing here
    assert packet["review"]["verdict"] == "RESTRUCTURE FIRST"
    assert "by one INSERT OVERWRITE statement" in checks["Idempotent writes"]["finding"]

    document = path.with_suffix(".md").read_text()
    assert "INSERT OVERWRITE ... PARTITION" in document
    assert "Spark has no multi-statement transaction" in document
    for promise in ("one transaction per partition", "inside the partition's transaction", "inside every transaction",
                    "its transaction rolls back"):
        assert promise not in document, promise
    assert "the partition is restored from its backup" in document


def test_a_target_not_partitioned_by_the_partition_column_is_refused_and_left_unchanged(spark_trips):
    path, _ = plan(spark_trips)
    assert spark_trips.approve(path).returncode == 0
    # the same rows in a table without partitions: fingerprints still match the plan, the overwrite would not fit
    with spark_trips.backend.session() as spark:
        spark.sql("create table analytics.fct_trips_flat using parquet as select * from analytics.fct_trips")
        spark.sql("drop table analytics.fct_trips")
        spark.sql("alter table analytics.fct_trips_flat rename to analytics.fct_trips")
    before = spark_trips.rows()

    result = spark_trips.backfill("apply", str(path))

    assert result.returncode == 3, result.output
    assert "analytics.fct_trips is not partitioned" in result.stderr
    assert "The target is unchanged" in result.stderr
    assert spark_trips.rows() == before
