"""Every refusal a careful engineer would expect, on PostgreSQL, DuckDB and Spark: each bad input gets exit status 3 (a
safety refusal) or 1 (bad input), one line that says what was wrong and that the target is unchanged — and the
tables prove it (every row of every published model is compared before and after). A refusal whose answer the
engine's own SQL computes (a cast, a type, the source's state, the engine's clock) runs on every engine; one the same
Python, Jinja or SQL decides over what the engine's leaves compute runs once, on DuckDB (docs/DECISIONS.md rows 77
and 87); those decided before dbt runs at all are in test_cli_in_process.py."""

from dataclasses import dataclass
from typing import Callable, Optional

import pytest
import yaml
from backends import ADAPTERS

DAYS = "2026-03-01,2026-03-02,2026-03-03"
PUBLISHED = ["analytics.fct_trips", "analytics.fct_trips_variant", "analytics.fct_trips_volatile", "raw.trip_events"]


@pytest.fixture(scope="module")
def published(request, projects, tmp_path_factory):
    """The seed scenario with every model published and a snapshot of every published table; two plans of
    fct_trips (the first approved) are made the first time a case needs a packet (`packets`)."""
    project = projects.new(request.param, tmp_path_factory.mktemp("refusals"))
    project.publish_stale_target()
    project.packets_by_name = {}
    project.snapshot = {relation: project.rows(relation) for relation in PUBLISHED}
    yield project
    project.close()


def packets(project):
    """The project's packets by name: `first` (approved) and `second`, two plans of fct_trips made on first use
    (only the packet cases need them, and they run on DuckDB alone: a Spark plan costs ~30 s)."""
    if not project.packets_by_name:
        for name in ("first", "second"):
            out = project.dir / "backfills" / f"{name}.yml"
            planned = project.backfill("plan", "fct_trips", "--partitions", DAYS, "--out", str(out))
            assert planned.returncode == 0, planned.output
            project.packets_by_name[name] = out
        assert project.approve(project.packets_by_name["first"]).returncode == 0
    return project.packets_by_name


@dataclass(frozen=True)
class Case:
    id: str
    args: Callable  # project -> the dbt-backfill arguments
    exit: int
    says: str
    prepare: Optional[Callable] = None  # project -> None, run before the command
    # decided in Python before any SQL (the packet, the approval, the arguments): the same on every engine, so run
    # once, on DuckDB (no server)
    engine_free: bool = False
    # decided by the same SQL or Jinja on every engine over what the engine's leaves compute (two builds'
    # fingerprints, key counts, row counts, a gate's totals, the model's column names), and those leaves are proved
    # on every engine by test_canonical_fingerprint (same fingerprint, key counts and totals on the three) and by
    # every plan (its columns): run once, on DuckDB (on Spark each case cost 10-65 s, on PostgreSQL 4-10 s)
    above_the_engine: bool = False
    # the test that runs this refusal on every engine already (with the same project and command): here on DuckDB
    on_every_engine_in: str = ""


def plan(model="fct_trips", partitions=DAYS, *extra):
    return lambda project: ["plan", model, "--partitions", partitions, *extra]


def packet(name, command="apply"):
    return lambda project: [command, str(packets(project)[name])]


def edited_copy(source, edit):
    """Copy a packet (approval included) to edited.yml and change it there."""

    def prepare(project):
        data = yaml.safe_load(packets(project)[source].read_text())
        edit(data)
        target = project.dir / "backfills" / "edited.yml"
        target.write_text(yaml.safe_dump(data, sort_keys=False))
        project.packets_by_name["edited"] = target

    return prepare


def approval_copied(project):
    data = yaml.safe_load(packets(project)["second"].read_text())
    data["approval"] = yaml.safe_load(packets(project)["first"].read_text())["approval"]
    target = project.dir / "backfills" / "forged.yml"
    target.write_text(yaml.safe_dump(data, sort_keys=False))
    project.packets_by_name["forged"] = target


def stage_altered(project):
    first = yaml.safe_load(packets(project)["first"].read_text())
    stage = first["partitions"][2]["stage_relation"]
    project.backend.update(f"{stage['schema']}.{stage['identifier']}", "fare = fare + 1", "trip_id = 1010")


FAILING_GATE = "{variant_checks: [{total_matches_control: {column: fare, query: 'select 1', tolerance: 0}}]}"


def force_approved(project):
    """The failed-gate packet with an approval bound to its exact content, as a careless hand could add."""
    from dbt_backfill.packet import Approval, Packet

    path = project.dir / "backfills" / "gated.yml"
    gated = Packet.read(path)
    gated.approved(Approval("Careless Hand", "2026-03-21T00:00:00+00:00", gated.sha256())).write(path)


def drop_scope(data):
    data["partitions"] = data["partitions"][:1]


def raise_total(data):
    data["partitions"][0]["fingerprint"]["totals"]["fare"] = "999.00"


CASES = [
    # 1. non-determinism
    Case(
        "volatile source",
        plan("fct_trips_volatile"),
        3,
        "the source changed between two reads",
        on_every_engine_in="test_seed_scenario.py::test_volatile_source_is_refused_before_any_stage_is_built",
    ),
    Case(
        "random() in the transform",
        plan("fct_trips_variant", DAYS, "--vars", "{random_fare: true}"),
        3,
        "the two builds differ for partition(s) 2026-03-01, 2026-03-02, 2026-03-03",
        above_the_engine=True,
    ),
    Case(
        "now() in the transform",
        plan("fct_trips_variant", "2026-03-02", "--vars", "{now_updated: true}"),
        3,
        "the two builds differ for partition(s) 2026-03-02",
    ),
    # 2. keys
    Case(
        "null business key",
        plan("fct_trips_variant", DAYS, "--vars", "{null_key_trip: 1003}"),
        3,
        "2026-03-01: 1 null, 0 duplicated",
        above_the_engine=True,
    ),
    Case(
        "duplicate business key",
        plan("fct_trips", "2026-03-01", "--business-key", "status"),
        3,
        "the business key does not identify one row per key",
        above_the_engine=True,
    ),
    Case(
        "key moved to a partition outside the scope",
        plan("fct_trips_variant", "2026-03-02", "--vars", "{move_trip: 1005}"),
        3,
        "trip_id=1005 in 2026-03-02 and in 2026-03-01",
        above_the_engine=True,
    ),
    # the stage's key typed otherwise than the published table's (text '01005', the integer 1005 once written):
    # compared as it is it misses the move, so the plan refuses the type before any comparison
    Case(
        "key moved, its type and text changed",
        plan("fct_trips_variant", "2026-03-02", "--vars", "{move_trip: 1005, text_key: true, padded_key: true}"),
        3,
        "the model now produces trip_id as ",
    ),  # on Spark too: the engine's own type names
    # the mirror: the partition the row left is named, the one a full build places it in is not
    Case(
        "key moved out to a partition not named",
        plan("fct_trips_variant", "2026-03-01", "--vars", "{move_trip: 1005}"),
        3,
        "trip_id=1005 leaves 2026-03-01 for 2026-03-02); replacing the named partitions alone would leave them in "
        "no partition. Add 2026-03-02 to --partitions",
        above_the_engine=True,
    ),
    # 3. scope
    Case(
        "empty stage where the target has rows",
        plan("fct_trips_variant", "2026-03-03", "--vars", "{drop_day: '2026-03-03'}"),
        3,
        "produces no rows for partition(s) 2026-03-03, where the target holds 4 rows",
        above_the_engine=True,
    ),
    Case(
        "partition that exists nowhere",
        plan("fct_trips", "2025-01-01"),
        1,
        "there is nothing to repair",
        above_the_engine=True,
    ),
    Case(
        "malformed partition value", plan("fct_trips", "2026-13-01"), 1, 'partition value "2026-13-01" is not a valid'
    ),
    Case(
        "partition value of the wrong type",
        plan("fct_trips", "2026-03-01,last tuesday"),
        1,
        'partition value "last tuesday" is not a valid',
    ),
    Case(
        "partition named twice in two spellings",
        plan("fct_trips", "2026-3-2,2026-03-02"),
        1,
        'partition value "2026-3-2" becomes "2026-03-02" as a',
    ),
    Case(
        "order_by with a direction that is not asc or desc",
        plan("fct_trips", DAYS, "--order-by", "updated_at newest"),
        1,
        '"updated_at newest" is not a column optionally followed by asc or desc',
        engine_free=True,
    ),
    Case(
        "order_by naming a column the model lacks",
        plan("fct_trips", DAYS, "--order-by", "loaded_at desc"),
        1,
        "has no column loaded_at (named as order_by)",
        above_the_engine=True,
    ),
    Case(
        "timestamp partition column",
        plan("fct_trips", "2026-03-01", "--partition-by", "updated_at"),
        1,
        "a partition column must hold whole partition values",
    ),
    # 4. approval integrity
    Case("apply without approval", packet("second"), 3, "the packet is not approved", engine_free=True),
    Case(
        "scope trimmed after approval",
        packet("edited"),
        3,
        "edited after approval",
        edited_copy("first", drop_scope),
        engine_free=True,
    ),
    Case(
        "fingerprint edited after approval",
        packet("edited"),
        3,
        "edited after approval",
        edited_copy("first", raise_total),
        engine_free=True,
    ),
    Case(
        "approval copied from another run",
        packet("forged"),
        3,
        "copied from another run",
        approval_copied,
        engine_free=True,
    ),
    Case("verify without approval", packet("second", "verify"), 3, "the packet is not approved", engine_free=True),
    # 5. the watermark
    # the prediction (max(updated_at) of the builds against the target's, typed by the engine) is made on every
    # engine by test_guards' allowed watermark move (`raised`); refusing a raised one is the same Python everywhere
    Case(
        "backfill would raise the live job's watermark",
        plan("fct_trips", DAYS, "--watermark-column", "updated_at"),
        3,
        "would raise the live job's watermark max(updated_at)",
        above_the_engine=True,
    ),
    # 6. configuration
    Case("unknown model", plan("fct_trip"), 1, "no model named fct_trip", engine_free=True),
    Case("model without meta.backfill", plan("trip_events_volatile"), 1, "has no meta.backfill", engine_free=True),
    Case(
        "missing partition column",
        plan("fct_trips", DAYS, "--partition-by", "trip_day"),
        1,
        "has no column trip_day (named as partition_by)",
        above_the_engine=True,
    ),
    Case(
        "missing key column",
        plan("fct_trips", DAYS, "--business-key", "trip_id,driver_id"),
        1,
        "has no column driver_id (named as business_key)",
        above_the_engine=True,
    ),
    Case(
        "additive column that is not numeric",
        plan("fct_trips", DAYS, "--additive", "status"),
        1,
        "additive column status is",
    ),
    Case(
        "excluded column that does not exist",
        plan("fct_trips", DAYS, "--exclude-columns", "loaded_at"),
        1,
        "has no column loaded_at (named as exclude_columns)",
        above_the_engine=True,
    ),
    # 7. injection: values and names reach SQL only as quoted literals or as columns that exist
    Case(
        "quote, semicolon and comment in a partition value",
        plan("fct_trips", "2026-03-01'); drop table analytics.fct_trips; --"),
        1,
        "is not a valid",
    ),
    # (fct_trips_variant: fct_trips' control query compares trip_date with {partition}, which a status value is not)
    Case(
        "quote in a text partition value",
        plan("fct_trips_variant", "completed' or '1'='1", "--partition-by", "status"),
        1,
        "there is nothing to repair",
    ),
    Case(
        "statement in a key column name",
        plan("fct_trips", DAYS, "--business-key", "trip_id; drop table analytics.fct_trips"),
        1,
        "has no column trip_id; drop table analytics.fct_trips",
        above_the_engine=True,
    ),
    Case(
        "quote in the partition column name",
        plan("fct_trips", DAYS, "--partition-by", 'trip_date" or "1'),
        1,
        'has no column trip_date" or "1',
        above_the_engine=True,
    ),
    # 8. reconciliation gates (meta.backfill.checks)
    Case(
        "failed reconciliation gate",
        plan("fct_trips_variant", DAYS, "--vars", FAILING_GATE, "--out", "backfills/gated.yml"),
        3,
        "reconciliation gate(s) of meta.backfill.checks failed",
        above_the_engine=True,
    ),
    Case(
        "applying a packet whose gate failed, approved by hand",
        lambda project: ["apply", "backfills/gated.yml"],
        3,
        "). The packet is for review only: approve and apply refuse it. Fix the cause and plan again.",
        force_approved,
        engine_free=True,
    ),
    Case(
        "unknown reconciliation check",
        plan("fct_trips_variant", DAYS, "--vars", "{variant_checks: [{within_budget: 1}]}"),
        1,
        'unknown check "within_budget"',
        above_the_engine=True,
    ),
    Case(
        "control query that fails",
        plan(
            "fct_trips_variant",
            DAYS,
            "--vars",
            "{variant_checks: [{total_matches_control: {column: fare, query: 'select nope'}}]}",
        ),
        1,
        "the control query of meta.backfill.checks total_matches_control failed (see the error below). Nothing "
        "was built; no packet was written and the target is unchanged.",
        above_the_engine=True,
    ),
    # stage altered last: it spoils the approved packet's stage for any case after it (its fingerprint, re-read by
    # apply, is compared with the approved one: above the engine)
    Case(
        "stage altered after approval",
        packet("first"),
        3,
        "the stage of partition 2026-03-03 changed after approval",
        stage_altered,
        above_the_engine=True,
    ),
]
# each case on the engines whose own SQL decides it; the rest on DuckDB alone (the case order kept: the last spoils)
RUNS = [
    pytest.param(adapter.values[0], case, marks=adapter.marks, id=f"{adapter.values[0]}-{case.id}")
    for adapter in ADAPTERS
    for case in CASES
    if adapter.values[0] == "duckdb" or not (case.engine_free or case.above_the_engine or case.on_every_engine_in)
]


@pytest.mark.parametrize("published, case", RUNS, indirect=["published"], scope="module")
def test_refusal_says_why_and_leaves_every_table_unchanged(published, case):
    if case.prepare:
        case.prepare(published)

    args = case.args(published)
    result = published.backfill(*args, dbt_options=args[0] != "approve")  # approve reads a file, no dbt

    assert result.returncode == case.exit, result.output
    first_line = result.stderr.strip().splitlines()[0]
    assert first_line.startswith("refused: " if case.exit == 3 else "error: "), result.stderr
    assert case.says in result.stderr, result.stderr
    assert "unchanged" in first_line or "Nothing was changed" in first_line, first_line
    for relation, rows in published.snapshot.items():
        assert published.rows(relation) == rows, f"{relation} changed"
    assert len(CASES) >= 25
