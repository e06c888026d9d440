"""The README's first command: the demo tells the seed story on DuckDB with no server, and leaves a project
that the commands it prints can be rerun in. The demo runs as a new process, as a user's; the README's commands after
it in the suite's warm interpreter (tests/warm_interpreter.py: each its own process, dbt imported once per worker)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from documented import EXCERPT_MARK, REPO, read_page

CLI = str(Path(sys.executable).with_name("dbt-backfill"))


@pytest.mark.duckdb
def test_demo_tells_the_seed_story_and_leaves_a_project_to_rerun(tmp_path, projects):
    directory = tmp_path / "demo"
    completed = subprocess.run(
        [CLI, "demo", "--dir", str(directory)], capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    output = completed.stdout + completed.stderr

    assert completed.returncode == 0, output
    assert "hold 13 trips, fare 417.00" in output
    assert "15 events for the same 13 trips" in output and "fare 429.00" in output
    assert "fare 417.00 -> 349.00; trip 1003 = 12.00, trip 1007 = 0.00" in output
    assert "2026-02-28 and 2026-03-04 hold the same 4 rows as before: unchanged" in output
    assert output.count("(exit status 3)") == 2  # apply before approval, and the volatile source
    # the day the corrections do not reach: said unchanged by the plan, so the apply's "skipped" is expected
    assert output.index("apply will skip it (nothing to write there): 2026-03-03") < output.index(
        "Already equal to the approval, skipped (nothing to change there, or an earlier apply got this far): 2026-03-03"
    )
    assert "the source changed between two reads" in output

    packet = yaml.safe_load((directory / "backfills" / "fct_trips_demo.yml").read_text())
    assert packet["approval"]["approved_by"] == "Dana Owner"
    assert [p["builds"]["a"]["sha256"] == p["builds"]["b"]["sha256"] for p in packet["partitions"]] == [True] * 3

    # the README's excerpt of this output: each of its lines is the demo's own, in order ("..." skips lines)
    readme = (REPO / "README.md").read_text().splitlines()
    start = readme.index(EXCERPT_MARK) + 2
    excerpt = readme[start : readme.index("```", start)]
    said = iter(line.rstrip() for line in output.splitlines())
    for line in excerpt:
        if line.strip() != "...":
            assert any(real == line.rstrip() for real in said), f"README's demo excerpt: {line!r} is not the demo's"

    # the README's commands to run by hand in the project left behind, as written (`source` and `cd` are the shell's)
    [block] = [block for block in read_page(REPO / "README.md").blocks if block.in_demo]
    for command in block.commands:
        if not command.runs:
            continue
        words = command.words
        if words[0] == "dbt-backfill" and projects.warm:
            rerun = subprocess.CompletedProcess(words, *projects.warm.run(CLI, words[1:], directory, dict(os.environ)))
        else:
            program = CLI if words[0] == "dbt-backfill" else words[0]
            rerun = subprocess.run(
                [program, *words[1:]], cwd=directory, capture_output=True, text=True, stdin=subprocess.DEVNULL
            )
        assert rerun.returncode == command.expected_status, (command.where(), rerun.stdout + rerun.stderr)
    assert "Applied " in rerun.stdout  # the last: the demo's repair undone, planned again and applied by hand
    again = yaml.safe_load((directory / "backfills" / "again.yml").read_text())
    assert [p["builds"]["a"]["sha256"] for p in again["partitions"]] == [
        p["builds"]["a"]["sha256"] for p in packet["partitions"]
    ]

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
