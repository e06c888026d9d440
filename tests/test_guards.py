"""The guards around the core loop: the full-refresh block however dbt is asked (one pre-hook, on DuckDB), the
live job's watermark in its three forms (on PostgreSQL, DuckDB and Spark, each inside its engine's write), what --allow-* records and does (on Spark: the static overwrite empties a
partition that became empty, which a dynamic overwrite would leave as it was), and secrets that never surface."""

from decimal import Decimal

import pytest
import yaml
from backends import ENGINE_INDEPENDENT

WATERMARK_QUERY = "{variant_watermark: {query: 'select max(updated_at) from analytics.fct_trips_variant'}}"
WATERMARK_RELATION = "{variant_watermark: {relation: analytics.job_state}}"


def plan_packet(project, model, partitions, *args):
    out = project.dir / "backfills" / f"{model}-{len(project.packets())}.yml"
    result = project.backfill("plan", model, "--partitions", partitions, "--out", str(out), *args)
    assert result.returncode == 0, result.output
    return out, yaml.safe_load(out.read_text())


# the guard is one pre-hook, not dispatched: what it decides (dbt's should_full_refresh(), the invocation's --vars) is
# the same Jinja on every engine. Once, on DuckDB (PostgreSQL 16 s and Spark 23 s of the suite, DECISIONS row 115)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_full_refresh_is_blocked_however_dbt_is_asked_and_unprotected_models_pass(trips):
    before = trips.rows()
    for command in (
        ["run", "--full-refresh", "-s", "fct_trips"],  # the seed scenario's way
        ["build", "--full-refresh", "-s", "fct_trips"],
        ["run", "--full-refresh", "-s", "tag:trips"],
        ["run", "--full-refresh", "-s", "+fct_trips"],
    ):
        result = trips.dbt(*command)
        assert result.returncode != 0, command
        # the way out is named: repair partitions with a plan
        assert "fct_trips is protected" in result.output and "dbt-backfill plan fct_trips" in result.output, command
        assert trips.rows() == before, command

    # a project-level `+full_refresh: true`, no flag on the command line
    project_file = trips.dir / "dbt_project.yml"
    original = project_file.read_text()
    config = yaml.safe_load(original)
    config["models"]["dbt_backfill_integration_tests"]["+full_refresh"] = True
    project_file.write_text(yaml.safe_dump(config))
    try:
        result = trips.dbt("run", "-s", "fct_trips")
        assert result.returncode != 0 and "fct_trips is protected" in result.output
        assert trips.rows() == before
        assert trips.dbt("run", "-s", "trip_events_volatile").returncode == 0  # unprotected: not affected
    finally:
        project_file.write_text(original)
    assert trips.dbt("run", "--full-refresh", "-s", "trip_events_volatile", "job_state").returncode == 0


# the same pre-hook; its audit row is written by the leaves every apply's audit row is (DECISIONS row 115)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_full_refresh_goes_through_where_the_table_is_new_and_where_the_run_says_why(trips):
    from test_state_and_audit import add_output

    profile = yaml.safe_load((trips.dir / "profiles.yml").read_text())["dbt_backfill_integration_tests"]
    add_output(trips, "ci", {**profile["outputs"][profile["target"]], "schema": "ci_fresh"})
    # a fresh schema (CI, a new dev schema): nothing is published there, so there is nothing to protect
    fresh = trips.dbt("run", "--full-refresh", "-s", "fct_trips", "--target", "ci")
    assert fresh.returncode == 0, fresh.output
    built = trips.rows("ci_fresh.fct_trips")
    assert len(built) == trips.query("select count(distinct trip_id) from raw.trip_events")[0][0]
    # once published there, it is protected there too
    again = trips.dbt("run", "--full-refresh", "-s", "fct_trips", "--target", "ci")
    assert again.returncode != 0 and "fct_trips is protected" in again.output
    assert trips.rows("ci_fresh.fct_trips") == built

    # the published table, rebuilt on purpose: a reason is required, and recorded beside the table
    before = trips.rows()
    blank = trips.dbt("run", "--full-refresh", "-s", "fct_trips", "--vars", "{dbt_backfill_allow_full_refresh: ' '}")
    assert blank.returncode != 0 and 'the var must be a non-empty text, got " "' in blank.output, blank.output
    assert trips.rows() == before
    assert "dbt_backfill_audit" not in trips.backend.tables_in("analytics_backfill")
    # a reason left in dbt_project.yml is not this invocation's: it would let every later full refresh through
    project_file = trips.dir / "dbt_project.yml"
    original = project_file.read_text()
    project_file.write_text(original + "\nvars:\n  dbt_backfill_allow_full_refresh: 'always'\n")
    try:
        standing = trips.dbt("run", "--full-refresh", "-s", "fct_trips")
        assert standing.returncode != 0 and "fct_trips is protected" in standing.output, standing.output
    finally:
        project_file.write_text(original)
    assert trips.rows() == before
    reason = "fare changed type (ticket 42)"
    # docs/configuration.md's command, verbatim (test_documented_commands runs it as written too)
    allowed = trips.dbt(
        "run",
        "--full-refresh",
        "-s",
        "fct_trips",
        "--vars",
        '{dbt_backfill_allow_full_refresh: "fare changed type (ticket 42)"}',
    )
    assert allowed.returncode == 0, allowed.output
    assert trips.rows() == built != before  # rebuilt whole from the source, corrections included
    [(event, model, outcome, detail, approved_by)] = trips.query(
        "select event, model, outcome, detail, approved_by from analytics_backfill.dbt_backfill_audit"
    )
    assert (event, model, outcome, detail) == ("full_refresh", "fct_trips", "allowed", reason)
    assert approved_by.startswith("dbt run as ")
    history = trips.backfill("history", "fct_trips", "--json")
    assert [(e["event"], e["detail"]) for e in history.json()["events"]] == [("full_refresh", reason)]


# the state table's watermark is its fingerprint, read as every fingerprint is (each engine's fingerprints are the
# canonical fingerprint tests'), and each engine's watermark inside its write is proved by the two tests below (a
# query watermark rolled back, a column watermark allowed to move): once, on DuckDB (on Spark it cost ~80 s)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_state_table_watermark_is_shown_in_the_plan_and_left_as_it_was(trips):
    state_before = trips.rows("analytics.job_state")
    path, packet = plan_packet(trips, "fct_trips_variant", "2026-03-01,2026-03-02", "--vars", WATERMARK_RELATION)
    assert packet["watermark"]["config"] == {"relation": "analytics.job_state"}
    assert packet["watermark"]["before"]["kind"] == "relation" and packet["watermark"]["after"] is None

    assert trips.approve(path).returncode == 0
    applied = trips.backfill("apply", str(path))
    assert applied.returncode == 0, applied.output
    assert trips.rows("analytics.job_state") == state_before
    assert trips.query(
        "select sum(fare) from analytics.fct_trips_variant where trip_date in ('2026-03-01', '2026-03-02')"
    ) == [(Decimal("222.00"),)]


def test_a_backfill_that_would_move_a_query_watermark_is_rolled_back(trips):
    path, packet = plan_packet(trips, "fct_trips_variant", "2026-03-01,2026-03-02", "--vars", WATERMARK_QUERY)
    assert packet["watermark"]["before"]["value"][0][0].startswith("2026-03-04 20:15:00")
    assert trips.approve(path).returncode == 0
    before = trips.rows("analytics.fct_trips_variant")

    result = trips.backfill("apply", str(path))

    assert result.returncode == 3, result.output
    assert "replacing partition 2026-03-01 would change the live job's watermark" in result.stderr
    undone = "pointed back at its old directory" if trips.adapter == "spark" else "its transaction was rolled back"
    assert undone in result.stderr and "Partitions replaced before it: none" in result.stderr
    assert trips.rows("analytics.fct_trips_variant") == before


def test_allowed_empty_partition_and_watermark_move_are_recorded_in_the_packet_and_applied(trips):
    path, packet = plan_packet(
        trips,
        "fct_trips_variant",
        "2026-03-02,2026-03-03",
        "--vars",
        "{drop_day: '2026-03-03'}",
        "--allow-empty",
        "2026-03-03 was a load test",
        "--watermark-column",
        "updated_at",
        "--allow-watermark-move",
        "the job is retired",
    )
    assert packet["allowances"] == {
        "empty_partitions": {"partitions": ["2026-03-03"], "reason": "2026-03-03 was a load test"},
        "watermark_move": {"reason": "the job is retired"},
    }
    assert packet["watermark"]["raised"] is True
    assert trips.approve(path).returncode == 0

    applied = trips.backfill("apply", str(path))

    assert applied.returncode == 0, applied.output
    assert trips.query("select count(*) from analytics.fct_trips_variant where trip_date = '2026-03-03'") == [(0,)]
    assert trips.query("select sum(fare) from analytics.fct_trips_variant where trip_date = '2026-03-02'") == [
        (Decimal("88.00"),)
    ]


@pytest.mark.postgres
def test_no_secret_appears_in_output_packets_logs_or_artifacts(postgres_server, projects, tmp_path):
    """The password written literally in profiles.yml and exported in the environment: every command, including
    failing ones, and everything they leave on disk, must be free of it."""
    project = projects.new("postgres", tmp_path)
    password = postgres_server.password
    profile = yaml.safe_load((project.dir / "profiles.yml").read_text())
    profile["dbt_backfill_integration_tests"]["outputs"]["postgres"]["password"] = password
    (project.dir / "profiles.yml").write_text(yaml.safe_dump(profile))
    project.env["PGPASSWORD"] = password
    try:
        project.play_publication()  # the real `dbt run` with the literal password, not a saved state
        path = project.dir / "backfills" / "secret.yml"
        outputs = [
            # a var holding the secret: the packet records no vars that hold one (they cannot be masked inside YAML
            # text), and the commands on it below run as before, without
            project.backfill(
                "plan",
                "fct_trips",
                "--partitions",
                "2026-03-01",
                "--out",
                str(path),
                "--vars",
                f'{{note: "{password}"}}',
            ),
            project.backfill("apply", str(path)),  # refused: not approved
            project.approve(path),
            project.backfill("apply", str(path), "--json"),
            project.backfill("verify", str(path)),
            project.backfill("plan", "fct_trips", "--partitions", "2026-13-01"),  # a database error
            project.backfill("plan", "fct_trips_volatile", "--partitions", "2026-03-01", "--json"),  # refused
        ]
        assert [o.returncode for o in outputs] == [0, 3, 0, 0, 0, 1, 3]
        assert "dbt_vars" not in yaml.safe_load(path.read_text())
        for output in outputs:
            assert password not in output.stdout and password not in output.stderr
        left_on_disk = [
            f
            for f in project.dir.rglob("*")
            if f.is_file() and f.name != "profiles.yml" and "dbt_packages" not in f.parts
        ]
        assert any(f.name == "dbt.log" for f in left_on_disk) and any(f.suffix == ".yml" for f in left_on_disk)
        for file in left_on_disk:
            assert password not in file.read_text(errors="replace"), file
        # nor in the compiled templates the commands keep between them (a profile's value is rendered as a template)
        from dbt_backfill.template_cache import default_directory

        kept = [f for f in default_directory().iterdir() if f.is_file()]
        assert kept and not any(password.encode() in f.read_bytes() for f in kept)
    finally:
        project.close()
