"""The dbt-core range the package declares is the range the suite runs (issue 19, item 7): pyproject.toml's
dependency, its adapter extras and dbt_project.yml's require-dbt-version name the same minors; `make test` runs
everything on the highest and the seed scenario on the lowest (requirements/lowest-dbt.txt, its own venv)."""

import os
import re
from pathlib import Path

import pytest
import yaml
from dbt.version import __version__ as dbt_version

REPO = Path(__file__).resolve().parents[1]


def _declared_range() -> tuple[tuple[int, int], tuple[int, int]]:
    """pyproject.toml's `dbt-core>=A.B,<C.D` as ((A, B), (C, D))."""
    pyproject = (REPO / "pyproject.toml").read_text()
    low, high = re.search(r'"dbt-core>=(\d+\.\d+),<(\d+\.\d+)"', pyproject).groups()
    return tuple(map(int, low.split("."))), tuple(map(int, high.split(".")))


def _minor(version: str) -> tuple[int, int]:
    return tuple(map(int, version.split(".")[:2]))


def test_every_place_that_states_the_dbt_range_states_the_same_one():
    (low_major, low_minor), (high_major, high_minor) = _declared_range()
    low, high = f"{low_major}.{low_minor}", f"{high_major}.{high_minor}"
    pyproject = (REPO / "pyproject.toml").read_text()
    for adapter in ("dbt-postgres", "dbt-duckdb", r"dbt-spark\[session\]"):
        assert re.search(rf'"{adapter}>={re.escape(low)},<{re.escape(high)}"', pyproject), adapter
    assert yaml.safe_load((REPO / "dbt_project.yml").read_text())["require-dbt-version"] == [f">={low}.0", f"<{high}.0"]
    constraints = (REPO / "requirements/test-constraints.txt").read_text()
    assert f"dbt-core>={low},<{high}" in constraints
    lowest = (REPO / "requirements/lowest-dbt.txt").read_text()
    assert f"dbt-core~={low}.0" in lowest and f"dbt-duckdb~={low}.0" in lowest


@pytest.mark.duckdb  # runs in the lowest-dbt venv too (make test-lowest-dbt runs the DuckDB tests of this file)
def test_the_dbt_running_the_suite_is_the_minor_it_is_meant_to_be():
    """The full suite on the highest declared minor, `make test-lowest-dbt` on the lowest: each run proves which."""
    low, high = _declared_range()
    highest_minor = (high[0], high[1] - 1)
    expected = low if os.environ.get("DBT_BACKFILL_EXPECTED_DBT") == "lowest" else highest_minor
    assert _minor(dbt_version) == expected, f"dbt-core {dbt_version} runs the suite; expected {expected}"
