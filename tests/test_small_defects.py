"""Issue 53's smaller defects, each found on a real package: a cleaned run reported "open", a refusal listing every
kept stage on one line, a planner's estimate shown as the rows apply writes, a partition planned unchanged then
"skipped" without a word, `stale` saying "nothing vouching" right after a recorded write, and `history` cutting a
value in half. DuckDB: none of these is engine-specific (the words are the package's Jinja, the same everywhere)."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from backends import ENGINE_INDEPENDENT
from dbt_backfill.demo import BACKFILL_DAYS as SEED_DAYS

PUBLISHED = ["analytics.fct_trips", "analytics.fct_trips_variant", "analytics.fct_trips_volatile", "raw.trip_events"]


def snapshot(project):
    """Every row of every published table."""
    return {relation: project.rows(relation) for relation in PUBLISHED}


def run_ids(project, event):
    return [
        run_id
        for (run_id,) in project.query(
            f"select run_id from analytics_backfill.dbt_backfill_audit where event = '{event}' order by recorded_at"
        )
    ]


# -- a cleaned run is not open ------------------------------------------------------------------------------------


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_run_cleaned_before_any_apply_is_named_cleaned_not_open_in_a_later_review(trips):
    first = trips.plan("fct_trips", ["2026-03-01"], "--out", str(trips.dir / "backfills" / "first.yml"))
    assert first.returncode == 0, first.output
    [run_id] = run_ids(trips, "planned")
    before = snapshot(trips)

    cleaned = trips.backfill("clean", "--run", run_id, "--by", "Rita Ops")
    assert cleaned.returncode == 0, cleaned.output
    assert cleaned.stdout.startswith(f"Run {run_id}: dropped 2 relation(s): "), cleaned.stdout
    (trips.dir / "backfills" / "first.yml").unlink()  # the user deletes the packet no apply can use now
    second_path = trips.dir / "backfills" / "second.yml"
    second = trips.plan("fct_trips", ["2026-03-01", "2026-03-02"], "--out", str(second_path))

    assert second.returncode == 0, second.output
    finding = yaml.safe_load(second_path.read_text())["review"]["checks"][2]["finding"]
    # the lock's sentence ends with its period; the cleaned run is said as what it is, never "open"
    assert (
        "apply refuses while a run holds it. Other runs over these partitions: "
        f"run {run_id} (planned {finding.split('(planned ')[1][:19]}, 2026-03-01): cleaned at "
    ) in finding, finding
    assert (
        finding.endswith(" (by Rita Ops): its stages are dropped, so its packet can no longer be applied.")
        and ": open" not in finding
    ), finding
    assert finding in second.stdout  # the plan's own review says the same
    assert snapshot(trips) == before  # plans and a clean only read the target


# -- a "builds differ" refusal stays short ----------------------------------------------------------------------


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_builds_differ_refusal_counts_its_kept_stages_and_names_a_few_on_both_paths(trips):
    before = snapshot(trips)
    days = "2026-03-01,2026-03-02"
    random_fare = ["--vars", "{random_fare: true}"]

    cli = trips.backfill("plan", "fct_trips_variant", "--partitions", days, *random_fare)
    pure = trips.dbt(
        "run-operation", "dbt_backfill.plan_backfill", *random_fare,
        "--args", json.dumps({"model": "fct_trips_variant", "partitions": days}),
    )  # fmt: skip

    assert cli.returncode == 3, cli.output
    assert pure.returncode != 0 and "dbt_backfill refused (builds_differ)" in pure.output, pure.output
    cli_run, pure_run = run_ids(trips, "plan_failed")
    for run_id, output, drop in [
        (cli_run, cli.stderr, f"`dbt-backfill clean --run {cli_run}`"),
        (pure_run, pure.output, f"`dbt run-operation dbt_backfill.clean_backfill --args '{{run_id: {pure_run}}}'`"),
    ]:
        stem = rf"\S+\.analytics_backfill\.fct_trips_variant__{run_id}__p0"
        said = re.search(
            rf"Its 4 stages are kept so the two builds can be compared: {stem}_a, {stem}_b and 2 more named alike "
            rf"\(__p<n>_a and __p<n>_b for the plan's partition n, from 0\); drop them with {re.escape(drop)}\.",
            output,
        )
        assert said, output
        assert f"{run_id}__p1_" not in output  # the rest counted, not listed
        kept = trips.query(
            "select table_name from information_schema.tables where table_schema = 'analytics_backfill' "
            f"and table_name like 'fct_trips_variant__{run_id}__p%' order by 1"
        )
        assert len(kept) == 4  # kept, as said, to be compared
    assert snapshot(trips) == before


# -- the seed scenario repaired: the plan's figures, its words on an unchanged day, the stale scan after ---------


@pytest.fixture(scope="module")
def repaired(projects, tmp_path_factory):
    """The seed scenario planned (three days, 2026-03-03 already right), approved, applied, then scanned by `stale`:
    the commands' outputs, the packet and the rows before and after."""
    project = projects.new("duckdb", tmp_path_factory.mktemp("repaired")).publish_stale_target()
    path = project.dir / "backfills" / "seed.yml"
    before = snapshot(project)
    planned = project.plan("fct_trips", SEED_DAYS, "--out", str(path))
    assert planned.returncode == 0, planned.output
    packet = yaml.safe_load(path.read_text())
    stages = {
        p["value"]: [
            project.query(f"select count(*) from {p[kind]['schema']}.{p[kind]['identifier']}")[0][0]
            for kind in ("stage_relation", "stage_b_relation")
        ]
        for p in packet["partitions"]
    }
    assert project.approve(path).returncode == 0
    applied = project.backfill("apply", str(path))
    assert applied.returncode == 0, applied.output
    after = snapshot(project)
    backups = {
        p["value"]: project.query(
            f"select count(*) from {p['backup_relation']['schema']}.{p['backup_relation']['identifier']}"
        )[0][0]
        for p in packet["partitions"]
        if p["value"] != "2026-03-03"
    }
    scan = project.backfill("stale", "fct_trips", "--json")
    yield {
        "project": project, "path": path, "packet": packet, "planned": planned, "applied": applied, "scan": scan,
        "stages": stages, "backups": backups, "before": before, "after": after,
    }  # fmt: skip
    project.close()


def days_rows(rows, day):
    return [row for row in rows if str(row[1]) == day]  # fct_trips: trip_id, trip_date, ...


@pytest.mark.duckdb
def test_the_rows_apply_writes_are_measured_from_the_builds_not_estimated(repaired):
    packet, stages, backups = repaired["packet"], repaired["stages"], repaired["backups"]
    cost = packet["cost"]
    assert cost["measured"] == ["build_write_rows", "apply_write_rows"]
    for p, c in zip(packet["partitions"], cost["partitions"]):
        value, before, after = p["value"], p["target_before"]["row_count"], p["builds"]["a"]["row_count"]
        assert c["value"] == value
        assert c["build_write_rows"] == sum(stages[value])  # the two builds' rows, counted in the stages
        # apply writes the backup of the rows now and then the rows after; nothing where the day is already right
        assert c["apply_write_rows"] == (0 if value == "2026-03-03" else before + after), (value, c)
    assert cost["total"]["apply_write_rows"] == 5 + 5 + 4 + 4  # 2026-03-01: 5 and 5, 2026-03-02: 4 and 4

    # what the apply then did: each backup holds the rows before, each partition the rows its build gave
    assert backups == {"2026-03-01": 5, "2026-03-02": 4}
    for p in packet["partitions"]:
        assert len(days_rows(repaired["after"]["analytics.fct_trips"], p["value"])) == p["builds"]["a"]["row_count"]
    markdown = repaired["path"].with_suffix(".md").read_text()
    assert "| est. rows read (builds) | est. bytes read | rows written (apply) |" in markdown
    rows = {line.split(" | ")[0][2:]: line for line in markdown.splitlines() if line.startswith("| 2026-03-0")}
    assert [
        rows[day].endswith(f" | {n} |") for day, n in [("2026-03-01", 10), ("2026-03-02", 8), ("2026-03-03", 0)]
    ] == [True] * 3, rows
    assert "Rows written (apply) are measured from the builds: the backup of the rows now, then the rows after." in (
        markdown
    )
    review = packet["review"]["checks"][4]["finding"]
    assert (
        "builds read ~" in review
        and " and write 26; apply writes 18 rows (rows written: measured from the builds)" in (review)
    ), review


@pytest.mark.duckdb
def test_a_day_planned_unchanged_is_said_already_equal_so_the_apply_skipping_it_is_expected(repaired):
    plan_lines = repaired["planned"].stdout.splitlines()
    table_row = next(line for line in plan_lines if line.startswith("2026-03-03"))
    assert table_row.endswith("+0 -0 ~0"), table_row
    assert "Already equal to its build, apply will skip it (nothing to write there): 2026-03-03" in plan_lines
    markdown = repaired["path"].with_suffix(".md").read_text()
    assert (
        "Already equal to its build (fingerprint and commitment), so apply will skip it and write nothing there: "
        "2026-03-03." in markdown
    )
    assert (
        "Already equal to the approval, skipped (nothing to change there, or an earlier apply got this far): 2026-03-03"
        in repaired["applied"].stdout
    ), repaired["applied"].stdout
    # the day said unchanged is unchanged; the two others hold their builds
    before, after = repaired["before"]["analytics.fct_trips"], repaired["after"]["analytics.fct_trips"]
    assert days_rows(after, "2026-03-03") == days_rows(before, "2026-03-03")
    assert {day: days_rows(after, day) != days_rows(before, day) for day in ("2026-03-01", "2026-03-02")} == {
        "2026-03-01": True,
        "2026-03-02": True,
    }
    assert {r: rows for r, rows in repaired["after"].items() if r != "analytics.fct_trips"} == {
        r: rows for r, rows in repaired["before"].items() if r != "analytics.fct_trips"
    }


@pytest.mark.duckdb
def test_stale_right_after_a_recorded_write_says_the_write_is_why_it_compared(repaired):
    scan, run_id = repaired["scan"], repaired["packet"]["run_id"]
    assert scan.returncode == 0, scan.output  # the repair left nothing stale
    found = json.loads(scan.stdout.strip().splitlines()[-1])
    notes = found["notes"]
    written = next(note for note in notes if " were reached by a recorded run since anything vouched for them " in note)
    # the apply replaced 2026-03-01 and 2026-03-02 and took 2026-03-03 (already equal) as its own: each a write
    assert written.startswith(
        f"3 partition(s) were reached by a recorded run since anything vouched for them (2026-03-01: run {run_id} (approved by Dana "
        "Owner) replaced it at "
    ), written
    assert "found it already holding its approved rows at " in written and written.endswith(
        "), so they were compared outright: a run's rows were built at its plan, by the code of then (or are the "
        "rows from before, after a rollback), so no run vouches for a partition"
    ), written
    # the two days no write reached: nothing vouched for them, and the note no longer claims "no recorded write"
    assert (
        "2 partition(s) had nothing vouching for them (no earlier scan of this code vouched for them, no --since), "
        "so they were compared outright"
    ) in notes
    assert found["compared"] == 5 and found["stale"] == []
    assert snapshot(repaired["project"]) == repaired["after"]  # the scan only read


# -- history never cuts a value -----------------------------------------------------------------------------------


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_history_shortens_a_long_stale_outcome_at_a_value_and_counts_the_rest(trips):
    # six days the model now builds and the target lacks: the scan's outcome names six values, 71 characters
    days = ["2026-03-10", "2026-03-12", "2026-03-14", "2026-03-16", "2026-03-18", "2026-03-20"]
    trips.with_audit_table()  # where the scan records its outcome
    trips.query(
        "insert into raw.trip_events values "
        + ", ".join(f"({9001 + n}, {9001 + n}, date '{day}', 10.00, 'completed', timestamptz '{day} 09:00:00+00')"
                    for n, day in enumerate(days))
    )  # fmt: skip
    scan = trips.backfill("stale", "fct_trips", "--partitions", ",".join(days))
    assert scan.returncode == 4, scan.output
    before = snapshot(trips)

    cli = trips.backfill("history", "fct_trips")
    pure = trips.dbt("run-operation", "dbt_backfill.backfill_history", "--args", "{model: fct_trips}")

    assert cli.returncode == 0 and pure.returncode == 0, (cli.output, pure.output)
    shown = "stale: 2026-03-10,2026-03-12,2026-03-14,2026-03-16,… +2 more"
    assert len(shown) <= 60
    for output in (cli.stdout, pure.stdout):
        [line] = [line for line in output.splitlines() if "stale_scan" in line and "<<dbt_backfill" not in line]
        assert line.rstrip().endswith(shown), line
    # the whole outcome stays in the trail and in --json
    [(outcome,)] = trips.query("select outcome from analytics_backfill.dbt_backfill_audit where event = 'stale_scan'")
    assert outcome == "stale: " + ",".join(days)
    as_json = trips.backfill("history", "fct_trips", "--json")
    [event] = [e for e in as_json.json()["events"] if e["event"] == "stale_scan"]
    assert (event["said"], event["shown"]) == (outcome, shown)
    assert snapshot(trips) == before


# -- the README's front page stays a front page ----------------------------------------------------------------


def test_the_readme_front_page_stays_under_15_kb():
    from documented import REPO

    size = len((REPO / "README.md").read_bytes())
    assert size < 15_000, f"README.md is {size} bytes: move reference material to docs/ (issue 53)"
