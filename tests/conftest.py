import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from backends import ADAPTERS
from postgres_cluster import ThrowawayCluster, server_from_environment
from project import ProjectFactory
from scheduling import group_for_xdist, order_for_xdist


@pytest.fixture(scope="session")
def postgres_cluster():
    """The throwaway cluster the suite started (None when DBT_BACKFILL_TEST_PG_HOST points at a server)."""
    if server_from_environment():
        yield None
        return
    cluster = ThrowawayCluster()
    try:
        cluster.server = cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def postgres_server(postgres_cluster):
    """A real PostgreSQL: DBT_BACKFILL_TEST_PG_HOST if set, else a throwaway cluster torn down at the end."""
    return postgres_cluster.server if postgres_cluster else server_from_environment()


def _throwaway_spark(catalog: str):
    from spark_connect import ThrowawaySparkConnect

    spark = ThrowawaySparkConnect(catalog)
    try:
        yield spark.start()
    finally:
        spark.stop()


@pytest.fixture(scope="session")
def spark_server():
    """A throwaway Spark Connect server whose spark_catalog is Delta's (Hive/parquet and Delta tables), started on
    first use and stopped at the end: one per run, as those Spark tests are in one xdist group (tests/scheduling.py)."""
    yield from _throwaway_spark("delta")


@pytest.fixture(scope="session")
def spark_iceberg_server():
    """A Spark Connect server whose spark_catalog is Iceberg's (tests/spark_connect.py): the Iceberg tests' group
    (tests/scheduling.py) starts it on the worker that runs them."""
    yield from _throwaway_spark("iceberg")


@pytest.fixture(scope="session")
def projects(request, tmp_path_factory):
    """Throwaway projects on their own databases (see project.ProjectFactory); servers start on first use."""
    server_fixtures = {
        "postgres": "postgres_server",
        "spark": "spark_server",
        "delta": "spark_server",
        "iceberg": "spark_iceberg_server",
    }
    servers_in_use: set[str] = set()

    def servers(adapter):
        if adapter not in server_fixtures:
            return {}
        server = request.getfixturevalue(server_fixtures[adapter])
        if adapter not in servers_in_use:
            servers_in_use.add(adapter)
            # Session finalizers run last in, first out, and this one is added after the server's own: the states
            # saved on a server are dropped while it still answers, never after it stopped.
            request.node.addfinalizer(lambda: factory.drop_saved_states(adapter))
        return {server_fixtures[adapter]: server}

    # a name of its own per run and xdist worker: databases on a shared server (DBT_BACKFILL_TEST_PG_HOST) never meet
    process = f"{os.getpid()}_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    factory = ProjectFactory(tmp_path_factory.mktemp("projects"), process, servers)
    if factory.warm:
        request.addfinalizer(factory.warm.close)
    return factory


def trips_on(adapters, audit_table=False):
    """The `trips` fixture over `adapters`: a module whose tests need what only some engines give (transactions,
    triggers, locks) binds `trips = trips_on(TRANSACTIONAL_ADAPTERS)`. `audit_table`: its owner made the audit table
    first (what stale scans record their vouches in; TripsProject.with_audit_table)."""

    @pytest.fixture(params=adapters)
    def trips(request, projects, tmp_path):
        """The seed scenario on its own database, per adapter: a stale fct_trips, corrections waiting in the source."""
        project = projects.new(request.param, tmp_path).publish_stale_target()
        if audit_table:
            project.with_audit_table()
        yield project
        project.close()

    return trips


trips = trips_on(ADAPTERS)


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config, items):
    group_for_xdist(items)  # before every other implementation: xdist's own reads the groups
    result = yield
    order_for_xdist(items)  # after all of them: pytest's reordering by fixture would undo it
    return result
