"""Every command the README and docs/ show runs here as written (issue 19, item 1), in page order, on DuckDB, in a
project holding the published seed scenario; every transcript in them is the real output of the commands above it
(`make docs` writes them, this test regenerates and compares). The conventions: documented.py."""

import importlib.util
import json
import os
import re
import subprocess
import sys

import pytest
from backends import ENGINE_INDEPENDENT
from conftest import trips_on
from documented import (
    BENCH,
    EXCERPT_MARK,
    PLACEHOLDERS,
    PULL_REQUEST,
    REPO,
    RUN,
    SET_UP,
    comparable,
    pages,
    rewrite_transcript,
    transcript,
)
from project import BIN

trips = trips_on(ENGINE_INDEPENDENT)
_spec = importlib.util.spec_from_file_location("bench_run", REPO / "bench" / "run.py")
bench = importlib.util.module_from_spec(_spec)  # bench/run.py, for its option parser
sys.modules["bench_run"] = bench
_spec.loader.exec_module(bench)
WRITE = os.environ.get("DBT_BACKFILL_WRITE_DOCS") == "1"
PAGES = pages()
RUNNABLE = [
    page
    for page in PAGES
    if any(c.runs for b in page.blocks if not (b.in_demo or b.in_pull_request) for c in b.commands)
]


def test_the_pages_follow_the_conventions_the_suite_runs_them_by():
    for page in PAGES:
        for block in page.blocks:
            for command in block.commands:
                if command.words[:2] == [BENCH, "bench/run.py"]:
                    bench.options(command.words[2:])  # exits (SystemExit) on an option the benchmark does not take
                    continue
                assert command.words[0] in RUN + SET_UP + PULL_REQUEST, (
                    f"{command.where()}: `{command.words[0]}` is not a command the suite runs or a set-up step"
                )
                unknown = set(re.findall(r"<[^<>\s]+>", command.text)) - set(PLACEHOLDERS)
                assert not unknown, f"{command.where()}: placeholders {unknown}; only {PLACEHOLDERS} are filled in"
        # a command shown with `$ ` in an output block would run nowhere: it must be a transcript's
        in_console, transcript_lines = None, set()
        for block in page.blocks:
            if block.transcript:
                transcript_lines.update(range(*block.transcript))
        for number, line in enumerate(page.lines):
            if line.startswith("```console") or line.startswith("```text"):
                # the README's excerpt of the demo is checked line by line against the demo (test_demo.py)
                in_console = None if number and page.lines[number - 1] == EXCERPT_MARK else line
            elif line.startswith("```"):
                in_console = None
            elif in_console and re.match(r"\$ (dbt|dbt-backfill) ", line.strip()) and number not in transcript_lines:
                raise AssertionError(
                    f"{page.name}:{number + 1}: `{line.strip()}` is shown in an output block that "
                    f"is no transcript; put the command in a ```bash block"
                )


# Every page runs on DuckDB, where its transcripts are compared. What differs by engine under the pages' commands is
# each engine's own tests': the repair down to clean and history on PostgreSQL (test_seed_scenario, test_resilience),
# the full-refresh guard and its pre-hooks (test_guards), the dbt Cloud path's recorded SHA-256 (test_plan_review).
# The commands themselves, their words and exit statuses, are the same on every engine (DECISIONS rows 67 and 87).
PAGE_RUNS = [pytest.param(page, id=page.name) for page in RUNNABLE]


@pytest.mark.parametrize("page", PAGE_RUNS)
@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_every_documented_command_runs_as_written(trips, page):
    env = {**trips.env, "DBT_PROFILES_DIR": str(trips.dir)}  # where a reader's ~/.dbt/profiles.yml would be
    filled: dict[str, str] = {}
    written = []
    for block in page.blocks:
        if block.in_demo or block.in_pull_request:
            continue
        said = []
        for command in block.commands:
            if not command.runs:
                continue
            words = command.words
            for placeholder in PLACEHOLDERS:
                if any(placeholder in word for word in words):
                    assert placeholder in filled, (
                        f"{command.where()}: {placeholder} before any plan_backfill logged one"
                    )
                    words = [word.replace(placeholder, filled[placeholder]) for word in words]
            if words[0] == "cat":
                completed = subprocess.run(words, cwd=trips.dir, capture_output=True, text=True)
                status, stdout, stderr = completed.returncode, completed.stdout, completed.stderr
            else:
                result = trips._run([str(BIN / words[0]), *words[1:]], env)
                status, stdout, stderr = result.returncode, result.stdout, result.stderr
            assert status == command.expected_status, (
                f"{command.where()} on {trips.adapter}: `{command.text}` exited {status}, the page says "
                f"{command.expected_status}\n{stdout}\n{stderr}"
            )
            recorded = re.search(r"<<dbt_backfill:plan_backfill>>(.*?)<</dbt_backfill>>", stdout)
            if recorded:
                result = json.loads(recorded.group(1))
                filled.update({"<run_id>": result["run_id"], "<sha256>": result.get("packet_sha256") or ""})
            said += transcript(command, status, stdout, stderr)
        if block.transcript and trips.adapter == "duckdb":
            shown = page.lines[block.transcript[0] : block.transcript[1]]
            if WRITE:
                if comparable("\n".join(shown)) != comparable("\n".join(said)):  # else left as it was: no churn
                    written.append((block, said))
            else:
                assert comparable("\n".join(shown)) == comparable("\n".join(said)), (
                    f"{page.name}:{block.transcript[0]}: the transcript is not what the commands print now; "
                    f"`make docs` regenerates it"
                )
    for block, said in sorted(written, key=lambda item: item[0].transcript[0], reverse=True):
        rewrite_transcript(page, block, said)
