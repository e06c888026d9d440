"""The README's first command: the demo tells the seed story on DuckDB with no server, and leaves a project
that the commands it prints can be rerun in."""
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

CLI = str(Path(sys.executable).with_name("dbt-backfill"))


@pytest.mark.duckdb
def test_demo_tells_the_seed_story_and_leaves_a_project_to_rerun(tmp_path):
    directory = tmp_path / "demo"
    completed = subprocess.run([CLI, "demo", "--dir", str(directory)], capture_output=True, text=True,
                               stdin=subprocess.DEVNULL)
    output = completed.stdout + completed.stderr

    assert completed.returncode == 0, output
    assert "hold 13 trips, fare 417.00" in output
    assert "15 events for the same 13 trips" in output and "fare 429.00" in output
    assert "fare 417.00 -> 349.00; trip 1003 = 12.00, trip 1007 = 0.00" in output
    assert "2026-02-28 and 2026-03-04 hold the same 4 rows as before: unchanged" in output
    assert output.count("(exit status 3)") == 2  # apply before approval, and the volatile source
    assert "the source changed between two reads" in output

    packet = yaml.safe_load((directory / "backfills" / "fct_trips_demo.yml").read_text())
    assert packet["approval"]["approved_by"] == "Dana Owner"
    assert [p["builds"]["a"]["sha256"] == p["builds"]["b"]["sha256"] for p in packet["partitions"]] == [True] * 3

    # the printed commands work by hand in the project left behind
    rerun = subprocess.run([CLI, "plan", "fct_trips", "--partitions", "2026-03-01"], cwd=directory,
                           capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    # applied already: every partition equals its build, so there is nothing to approve and no packet
    assert rerun.stdout.startswith("nothing to change: every partition of fct_trips already holds exactly the rows "
                                   "its build gives"), rerun.stdout

    # a second demo replaces the first (its project made afresh: the story itself is the one asserted above); a
    # directory that is not a demo is left alone
    from dbt_backfill.demo import MARKER, DemoProject
    DemoProject(directory).create()
    assert (directory / MARKER).exists() and not (directory / "backfills").exists()
    assert not (directory / "trips.duckdb").exists()
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "keep.txt").write_text("mine")
    refused = subprocess.run([CLI, "demo", "--dir", str(foreign)], capture_output=True, text=True)
    assert refused.returncode == 1 and "not a dbt-backfill demo" in refused.stderr
    assert (foreign / "keep.txt").read_text() == "mine"
