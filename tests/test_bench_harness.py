"""The benchmark harness runs (bench/run.py --quick, on the suite's PostgreSQL), so it cannot rot. Its figures at
these sizes are noise: speed is the benchmark's business, never a test's. --warm forks its commands from the
suite's warm interpreter (tests/warm_interpreter.py), as every other test's: the harness's code paths are the same.
Three measures run here, P1 (the fingerprint against the COPY floor), P4 (a whole plan, approve, apply cycle with
its log profile) and P9 (the stale scan): every part of the harness they share, in about a third of the time all
nine took (the suite's budget, DECISIONS row 137); the others run with the benchmark itself (docs/performance.md)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.postgres
def test_the_benchmark_harness_runs_in_quick_mode(postgres_server, tmp_path):
    env = {
        **os.environ,
        "DBT_BACKFILL_TEST_PG_HOST": postgres_server.host,
        "DBT_BACKFILL_TEST_PG_PORT": str(postgres_server.port),
        "DBT_BACKFILL_TEST_PG_USER": postgres_server.user,
        "DBT_BACKFILL_TEST_PG_PASSWORD": postgres_server.password,
    }
    out = tmp_path / "results.json"
    completed = subprocess.run(
        [sys.executable, str(REPO / "bench" / "run.py"), "--quick", "--warm", "--only", "P1,P4,P9", "--json", str(out)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
    results = json.loads(out.read_text())
    assert [r["measure"][:2] for r in results] == ["P1", "P4", "P9"]
    for result in results:
        assert result["ratios"] and all(value > 0 for value in result["ratios"].values()), result
        assert result["met"] in (True, False)
    assert "ratio fingerprint / COPY floor" in completed.stdout
    assert postgres_server.password not in completed.stdout + completed.stderr


def test_an_unknown_measure_is_a_usage_error():
    completed = subprocess.run(
        [sys.executable, str(REPO / "bench" / "run.py"), "--only", "P99"], capture_output=True, text=True
    )
    assert completed.returncode == 2 and "unknown measure(s) P99" in completed.stderr
