"""The suite's own scheduling holds: run a small suite shaped like ours under the same xdist options and check
where each test ran. (Under pytest 9, xdist 3.8 silently ignores every group: the constraint pins pytest 8.)"""

import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent

SMALL_SUITE = """
import pytest

@pytest.fixture(scope="module", params=[pytest.param("postgres", marks=pytest.mark.postgres),
                                        pytest.param("duckdb", marks=pytest.mark.duckdb),
                                        pytest.param("spark", marks=pytest.mark.spark)])
def shared(request):
    return request.param

@pytest.mark.parametrize("i", range(6))
def test_reads_the_shared_project(shared, i):
    pass

@pytest.mark.spark
@pytest.mark.parametrize("i", range(4))
def test_of_spark_alone(i):
    pass

@pytest.mark.spark
@pytest.mark.iceberg
@pytest.mark.parametrize("i", range(3))
def test_of_iceberg(i):
    pass

@pytest.mark.parametrize("i", range(6))
def test_on_its_own(i):
    pass

@pytest.fixture
def projects():  # the name of the suite's fixture of real databases
    return None

@pytest.mark.parametrize("i", range(4))
def test_on_an_engine(projects, i):
    pass
"""

CONFTEST = f"""
import sys
import pytest
sys.path.insert(0, {str(TESTS)!r})
from scheduling import group_for_xdist, order_for_xdist

@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config, items):
    group_for_xdist(items)
    result = yield
    order_for_xdist(items)
    return result
"""


def test_a_shared_project_stays_on_one_xdist_worker_and_each_spark_server_s_tests_run_first_on_one(tmp_path):
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_small.py").write_text(SMALL_SUITE)
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    postgres\n    duckdb\n    spark\n    iceberg\n")
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-v",
            "-n",
            "2",
            "--dist",
            "loadgroup",
            "--no-loadscope-reorder",
            "-p",
            "no:cacheprovider",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr

    workers = defaultdict(set)
    ran = re.findall(r"\[(gw\d)\] .*?PASSED \S*::(\w+)\[?([\w-]*)\]?(?:@(\S+))?", completed.stdout)
    assert len(ran) == 6 * 3 + 4 + 3 + 6 + 4, completed.stdout
    for worker, name, params, group in ran:
        workers[group or f"{name}[{params}]"].add(worker)
    assert {group for group in workers if ":" in group} == {"test_small:postgres", "test_small:duckdb"}
    assert all(len(where) == 1 for where in workers.values()), dict(workers)
    # every Spark test, the shared project's and the lone ones, in one group, and that group first on its worker
    assert sum(1 for *_, group in ran if group == "spark") == 6 + 4
    (spark_worker,) = workers["spark"]
    on_spark_worker = [group for worker, *_, group in ran if worker == spark_worker]
    assert on_spark_worker[:10] == ["spark"] * 10, on_spark_worker
    # the Iceberg tests (a server of their own) in a group of their own, first on the other worker
    (iceberg_worker,) = workers["spark_iceberg"]
    assert iceberg_worker != spark_worker
    on_iceberg_worker = [group for worker, *_, group in ran if worker == iceberg_worker]
    assert on_iceberg_worker[:3] == ["spark_iceberg"] * 3, on_iceberg_worker
    # the ungrouped tests were shared out: both workers ran something
    assert len(set().union(*workers.values())) == 2
    # the single tests that drive an engine are handed out before those that need none (the fillers at the end)
    for worker in ("gw0", "gw1"):
        names = [name for ran_on, name, *_ in ran if ran_on == worker]
        engine = [i for i, name in enumerate(names) if name == "test_on_an_engine"]
        free = [i for i, name in enumerate(names) if name == "test_on_its_own"]
        assert not engine or not free or max(engine) < min(free), names
