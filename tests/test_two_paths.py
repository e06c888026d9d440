"""One home for every rule (issue 40): what a plan is asked for is read by the package (macros/plan/_resolve_plan:
meta.backfill and its keys' types, order_by, the materialization, the partition values and their ranges, the run's
id; _vacant_refusal: partitions with no rows on either side), and the CLI calls it. So `dbt-backfill plan` and
`dbt run-operation dbt_backfill.plan_backfill` refuse the same requests, as the same kind of failure, with the same
words; a plan either takes gets a run id of the same form. On DuckDB, through real dbt (the engine's leaves are
proved by each engine's own tests)."""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from backends import ENGINE_INDEPENDENT

MODEL = "fct_trips_variant"
# (what is asked, the partitions, the variant model's --vars, the words both paths say)
REFUSED_BEFORE_ANY_BUILD = [
    (
        "an empty range",
        "2026-03-05..2026-03-01",
        {},
        'partition range "2026-03-05..2026-03-01" is empty: its first value comes after its last. Nothing was changed.',
    ),
    (
        "a range of neither dates nor integers",
        "v1..v2",
        {},
        'partition range "v1..v2" is not first..last of two ISO dates (2026-01-01..2026-03-31) or two integers '
        "(1..12). Nothing was changed.",
    ),
    (
        "a day no calendar has",
        "2026-02-27..2026-02-30",
        {},
        'partition range "2026-02-27..2026-02-30" names a day no calendar has. Nothing was changed.',
    ),
    (
        "ranges over the cap together",
        "1..9999,10000..19998,19999..29997",
        {},
        "the partitions named come to more than 10,000 values (every range and value together). Nothing was changed.",
    ),
    (
        "a value named twice",
        "2026-03-01,2026-02-28..2026-03-02",
        {},
        'partition(s) "2026-03-01" named more than once. Nothing was changed.',
    ),
    (
        "a value holding a control character",
        "2026-03-01,x\nrefused: forged line",
        {},
        'partition value "x\\nrefused: forged line" holds a control or invisible character ("\\n", character 2): no '
        "partition is named so. Nothing was changed.",
    ),
    (
        "an empty item",
        "2026-03-01,,2026-03-02",
        {},
        "partitions must be a comma-separated list of partition values, none empty, got 2026-03-01,,2026-03-02. "
        "Nothing was changed.",
    ),
    (
        "an order_by entry that is no column and direction",
        "2026-03-01",
        {"variant_order_by": ["updated_at newest"]},
        'meta.backfill.order_by of fct_trips_variant: "updated_at newest" is not a column optionally followed by asc '
        "or desc (e.g. `updated_at desc`: the newest version of a key wins). Nothing was changed.",
    ),
    (
        "a business key that is not a list of names",
        "2026-03-01",
        {"variant_business_key": [{"trip_id": 1}]},
        "meta.backfill.business_key of fct_trips_variant must be a column name or a list of column names, not "
        '[{"trip_id": 1}]. Nothing was changed.',
    ),
    (
        "a cost warning that is not positive",
        "2026-03-01",
        {"variant_cost_warning": {"rows": -1}},
        "meta.backfill.cost_warning of fct_trips_variant must be {rows: N, bytes: N} with positive integers, not "
        '{"rows": -1}. Nothing was changed.',
    ),
    (
        "checks that are not one-key mappings",
        "2026-03-01",
        {"variant_checks": "row_count_change_pct"},
        "meta.backfill.checks of fct_trips_variant must be a list of one-key mappings (e.g. - row_count_change_pct: "
        '10), not "row_count_change_pct". Nothing was changed.',
    ),
    (
        "a watermark of an unknown kind",
        "2026-03-01",
        {"variant_watermark": {"table": "analytics.fct_trips_variant"}},
        "meta.backfill.watermark of fct_trips_variant must be one of {column: <col>}, {relation: <schema.table>} or "
        '{query: <sql>}, not {"table": "analytics.fct_trips_variant"}. Nothing was changed.',
    ),
    (
        "a window with a negative side",
        "2026-03-01",
        {"variant_input_window": {"after": -1}},
        "meta.backfill.input_window of fct_trips_variant must be {before: N, after: N}: how many days before and "
        "after a partition its inputs' event_time may lie for the partition's rows (corrections that arrive up to "
        '30 days later: {after: 30}), each a whole number >= 0, not {"after": -1}. Nothing was changed.',
    ),
    (
        "a depends_on_window with an unknown side",
        "2026-03-01",
        {"variant_depends_on_window": {"later": 3}},
        "meta.backfill.depends_on_window of fct_trips_variant must be {before: N, after: N}: how many partitions "
        "before and after a changed partition of its parents its own rows depend on (a trailing 28-day metric: "
        '{after: 27}), each a whole number >= 0, not {"later": 3}. Nothing was changed.',
    ),
    (
        "a view, always current",
        "2026-03-01",
        {"variant_materialized": "view"},
        "fct_trips_variant is materialized as a view: it runs its SQL on every read, so it is always current and "
        "there is nothing to repair. Nothing was changed.",
    ),
    (
        "a table without a reason",
        "2026-03-01",
        {"variant_materialized": "table"},
        "fct_trips_variant is materialized as a table: its next `dbt run` rebuilds it whole from its sources, "
        "replacing whatever a backfill writes (rebuilding it is the repair). To replace partitions until then, say "
        'why: --allow-table "<reason>" (pure dbt: allow_table: <reason>), kept in the packet. Nothing was changed.',
    ),
]
RUN_ID = re.compile(r"[0-9]{8}_[0-9]{6}_p[0-9a-f]{3}")


# What both paths say is decided by the same macros over what the engine's leaves compute (_resolve_plan before any
# SQL; the fingerprints, proved on each engine by its own tests, after the builds): once, on DuckDB (DECISIONS rows
# 77 and 87). On PostgreSQL these 19 cases took 158 s of a run.
@pytest.fixture(scope="module", params=ENGINE_INDEPENDENT)
def published(request, projects, tmp_path_factory):
    project = projects.new(request.param, tmp_path_factory.mktemp("two_paths")).publish_stale_target()
    project.stages = stages(project)
    project.published = project.rows()
    yield project
    project.close()


def stages(project) -> list[str]:
    """What plans left in the stage schema: every relation but the audit table (a plan records its refusals)."""
    return [name for name in project.backend.tables_in("analytics_backfill") if name != "dbt_backfill_audit"]


def both_paths(project, partitions: str, variables: dict, **pure_args):
    """`dbt-backfill plan` and `dbt run-operation dbt_backfill.plan_backfill` asked the same, each as its user types
    it; each outcome as (the kind of failure or success, the whole output)."""
    given = ["--vars", json.dumps(variables)] if variables else []
    cli = project.backfill("plan", MODEL, "--partitions", partitions, *given)
    pure = project.dbt(
        "run-operation",
        "dbt_backfill.plan_backfill",
        *given,
        "--args",
        json.dumps({"model": MODEL, "partitions": partitions, **pure_args}),
    )
    cli_kind = {0: "done", 1: "error", 3: "refused"}.get(cli.returncode, f"exit {cli.returncode}")
    refused = "<<dbt_backfill:refused>>" in pure.output
    pure_kind = "done" if pure.returncode == 0 else "refused" if refused else "error"
    return (cli_kind, cli), (pure_kind, pure)


@pytest.mark.parametrize(
    "asked, partitions, variables, says", REFUSED_BEFORE_ANY_BUILD, ids=[case[0] for case in REFUSED_BEFORE_ANY_BUILD]
)
def test_both_paths_refuse_what_is_asked_the_same_way_before_anything_is_built(
    published, asked, partitions, variables, says
):
    (cli_kind, cli), (pure_kind, pure) = both_paths(published, partitions, variables)
    assert (cli_kind, pure_kind) == ("error", "error"), (cli.output, pure.output)
    assert cli.stderr.strip() == f"error: {says}", cli.stderr
    assert says in pure.output, pure.output
    # refused before any build: nothing built, nothing recorded, the target as published
    assert stages(published) == published.stages
    assert published.rows() == published.published


def test_both_paths_refuse_a_partition_neither_side_holds(published):
    (cli_kind, cli), (pure_kind, pure) = both_paths(published, "2027-01-01", {})
    says = (
        "partition(s) 2027-01-01 hold no rows in the target and none in the model's output: there is nothing to "
        "repair. Check the values (and their format). No packet was written and the target is unchanged."
    )
    assert (cli_kind, pure_kind) == ("error", "error"), (cli.output, pure.output)
    # found by one read before anything is built (_named_partitions); the CLI says what became of the stages
    assert cli.stderr.strip() == f"error: {says} It built no stages.", cli.stderr
    assert says in pure.output, pure.output
    assert stages(published) == published.stages
    assert published.rows() == published.published


def test_both_paths_refuse_two_builds_that_differ_in_the_same_words_and_give_runs_ids_of_one_form(published):
    # a random fare: the model does not give the same rows twice
    (cli_kind, cli), (pure_kind, pure) = both_paths(published, "2026-03-01", {"random_fare": True})
    assert (cli_kind, pure_kind) == ("refused", "refused"), (cli.output, pure.output)
    # the same words around each run's own fingerprints (random fares: each build its own)
    opening = "the two builds differ for partition(s) 2026-03-01 (2026-03-01: a 5 rows, fare "
    closing = (
        "). The model does not give the same rows twice from the same source (random(), now(), a newest-wins order "
        "with ties, an unordered limit). No packet was written and the target is unchanged."
    )
    assert cli.stderr.startswith(f"refused: {opening}") and closing in cli.stderr, cli.stderr
    assert f"dbt_backfill refused (builds_differ): {opening}" in pure.output and closing in pure.output, pure.output
    assert "Its stages are kept so the two builds can be compared: " in cli.stderr
    assert "Its stages are kept so the two builds can be compared: " in pure.output
    assert published.rows() == published.published
    # each path's refused run, as the audit trail records it: one form of run id
    runs = published.query(
        "select run_id from analytics_backfill.dbt_backfill_audit where event = 'plan_failed' "
        "and outcome = 'builds_differ' order by recorded_at desc limit 2"
    )
    assert len(runs) == 2 and all(RUN_ID.fullmatch(run_id) for (run_id,) in runs), runs
    for (run_id,) in runs:  # the stages kept to compare, then dropped as each path says
        published.backfill("clean", "--run", run_id)


def test_both_paths_write_a_plan_whose_gate_fails_for_review_only_and_refuse_it_in_the_same_words(published):
    gate = [{"total_matches_control": {"column": "fare", "query": "select 1", "tolerance": 0}}]
    (cli_kind, cli), (pure_kind, pure) = both_paths(published, "2026-03-01", {"variant_checks": gate})
    assert (cli_kind, pure_kind) == ("refused", "refused"), (cli.output, pure.output)
    says = "reconciliation gate(s) of meta.backfill.checks failed (total_matches_control:fare on 2026-03-01: 134.00, "
    assert cli.stderr.startswith(f"refused: {says}"), cli.stderr
    assert f"dbt_backfill refused (gate_failed): {says}" in pure.output, pure.output
    assert "approve and apply refuse it. The target is unchanged." in cli.stderr
    assert "apply_backfill refuses it. Fix the cause and plan again. The target is unchanged." in pure.output
    # later, approve (the CLI, which reads its packet without dbt) and apply_backfill say the packet's own record of
    # the refusal (macros/review/_review_refusal.sql): one reason, one message
    [packet] = re.findall(r"written for review \((\S+\.yml), ", cli.stderr)
    approved = published.backfill("approve", packet, "--by", "Dana Owner")
    recorded = pure.result("refused")["details"]
    applied = published.dbt(*pure_operation("apply_backfill", recorded))
    assert approved.returncode == 3 and approved.stderr.startswith(f"refused: {says}"), approved.stderr
    assert approved.stderr.endswith(
        "). The packet is for review only: approve and apply refuse it. Fix the cause and plan again. The target is "
        "unchanged.\n"
    ), approved.stderr
    refused = applied.result("refused")
    assert (refused["reason"], f"refused: {refused['message']}\n") == ("gate_failed", approved.stderr)
    # pure dbt's approve_backfill, as `dbt-backfill approve`: no approval is recorded
    given = published.dbt(*pure_operation("approve_backfill", recorded))
    assert given.returncode == 1 and given.result("refused") == refused, given.output
    # the recorded packet edited to pass (no refusal, gates passed, checks ok, verdict SAFE TO RUN), approved as edited:
    # the plan row's verdict, which the planner wrote, still refuses it
    [(text,)] = published.query(
        f"select detail from {AUDIT} where event = 'packet_recorded' and run_id = '{recorded['run_id']}'"
    )
    edited = json.loads(text)
    edited["review"].update({"refusal": None, "verdict": "SAFE TO RUN", "reason": "edited"})
    edited["gates"] = [{**gate, "passed": True} for gate in edited["gates"]]
    edited["review"]["checks"] = [{**check, "severity": "ok"} for check in edited["review"]["checks"]]
    edited_text = json.dumps(edited, sort_keys=True)
    published.backend.update(
        AUDIT,
        "detail = '" + edited_text.replace("'", "''") + "'",
        f"event = 'packet_recorded' and run_id = '{recorded['run_id']}'",
    )
    as_edited = {**recorded, "packet_sha256": hashlib.sha256(edited_text.encode()).hexdigest()}
    stopped = published.dbt(*pure_operation("apply_backfill", as_edited))
    assert stopped.returncode == 1 and stopped.result("refused")["reason"] == "review_blocked", stopped.output
    assert stopped.result("refused")["message"] == (
        "the review judged the plan BLOCK (edited). The packet is for review only: approve and apply refuse it. "
        "Fix the cause and plan again. The target is unchanged."
    )
    assert not published.query(f"select 1 from {AUDIT} where event in ('approval_given', 'approved', 'applied')")
    assert published.rows() == published.published


AUDIT = "analytics_backfill.dbt_backfill_audit"


def pure_operation(operation: str, recorded: dict) -> tuple[str, ...]:
    """`dbt run-operation dbt_backfill.<operation>` on a recorded packet's run and SHA-256, as a user types it."""
    args = {"run_id": recorded["run_id"], "approved_sha256": recorded["packet_sha256"]}
    return ("run-operation", f"dbt_backfill.{operation}", "--args", json.dumps(args))


# -- the package's reading of meta.backfill, on any meta (the cases the CLI's Python copy was tested with) -------------


@pytest.fixture(scope="module")
def package(projects, tmp_path_factory):
    """A DuckDB project that only parses: what _backfill_spec returns is Jinja, the same on every engine."""
    project = projects.new("duckdb", tmp_path_factory.mktemp("spec"))
    yield project
    project.close()


def spec_of(project, meta, overrides=None):
    return project.dbt(
        "run-operation",
        "backfill_spec_of",
        "--args",
        json.dumps({"meta": meta, "overrides": overrides or {}}),
    )


BASE = {"partition_by": "trip_date", "business_key": ["trip_id"]}


@pytest.mark.duckdb
@pytest.mark.parametrize(
    "meta, overrides, resolved",
    [
        (
            {**BASE, "order_by": ["updated_at DESC"], "protected": True, "additive": ["fare"]},
            {"additive": "fare,tip", "business_key": None},
            {
                "business_key": ["trip_id"],
                "order_by": ["updated_at desc"],
                "additive": ["fare", "tip"],
                "protected": True,
            },
        ),
        ({**BASE, "watermark": {"column": "d"}}, {}, {"watermark": {"column": "d"}}),
        (BASE, {"watermark": "updated_at"}, {"watermark": {"column": "updated_at"}, "depends_on_window": {}}),
        ({**BASE, "depends_on_window": {"after": 27}}, {}, {"depends_on_window": {"before": 0, "after": 27}}),
        (
            {**BASE, "business_key": "trip_id", "checks": [{"row_count_change_pct": 5}], "cost_warning": {"rows": 10}},
            {},
            {"business_key": ["trip_id"], "checks": [{"row_count_change_pct": 5}], "cost_warning": {"rows": 10}},
        ),
    ],
)
def test_the_package_reads_meta_backfill_with_the_overrides_laid_on_top(package, meta, overrides, resolved):
    read = spec_of(package, meta, overrides)
    assert read.returncode == 0, read.output
    spec = read.result("spec")
    assert {key: spec[key] for key in resolved} == resolved


@pytest.mark.duckdb
@pytest.mark.parametrize(
    "meta, says",
    [
        (None, "fct_trips has no meta.backfill: declare at least partition_by and business_key"),
        (
            {"business_key": ["trip_id"]},
            "fct_trips: meta.backfill.partition_by (or --partition-by) must name one column",
        ),
        (
            {"partition_by": "trip_date"},
            "fct_trips: meta.backfill.business_key (or --business-key) must name the column",
        ),
        ({**BASE, "partiton_by": "x"}, "meta.backfill of fct_trips has unknown key(s) partiton_by; known keys are "),
        ({**BASE, "checks": {"row_count_change_pct": 5}}, "checks of fct_trips must be a list of one-key mappings"),
        ({**BASE, "checks": [{"a": 1, "b": 2}]}, "checks of fct_trips must be a list of one-key mappings"),
        ({**BASE, "cost_warning": {"tb": 1}}, "cost_warning of fct_trips must be {rows: N, bytes: N}"),
        ({**BASE, "watermark": {"column": "d", "query": "x"}}, "watermark of fct_trips must be one of {column: <col>}"),
        (
            {**BASE, "depends_on_window": {"after": "27"}},
            "depends_on_window of fct_trips must be {before: N, after: N}",
        ),
        (
            {**BASE, "depends_on_window": {"after": True}},
            "depends_on_window of fct_trips must be {before: N, after: N}",
        ),
    ],
)
def test_the_package_refuses_a_meta_backfill_it_cannot_read(package, meta, says):
    read = spec_of(package, meta)
    assert read.returncode == 1 and says in read.output, read.output
