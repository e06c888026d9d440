import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from backends import ADAPTERS, make_backend  # noqa: E402
from postgres_cluster import ThrowawayCluster, server_from_environment  # noqa: E402
from project import TripsProject, prepare_template  # noqa: E402


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


@pytest.fixture(scope="session")
def spark_server():
    """A throwaway Spark Connect server, started on first use and stopped at the end of the session."""
    from spark_connect import ThrowawaySparkConnect
    spark = ThrowawaySparkConnect()
    try:
        yield spark.start()
    finally:
        spark.stop()


@pytest.fixture(scope="session")
def project_template(tmp_path_factory):
    return prepare_template(tmp_path_factory.mktemp("template"))


def new_project(adapter, request, template, workdir):
    server = request.getfixturevalue("postgres_server") if adapter == "postgres" else None
    spark = request.getfixturevalue("spark_server") if adapter == "spark" else None
    return TripsProject(make_backend(adapter, server, workdir, spark), template, workdir / "work")


def trips_on(adapters):
    """The `trips` fixture over `adapters`: a module whose tests need what only some engines give (transactions,
    triggers, locks) binds `trips = trips_on(TRANSACTIONAL_ADAPTERS)`."""
    @pytest.fixture(params=adapters)
    def trips(request, project_template, tmp_path):
        """The seed scenario on its own database, per adapter: a stale fct_trips, corrections waiting in the source."""
        project = new_project(request.param, request, project_template, tmp_path).publish_stale_target()
        yield project
        project.close()
    return trips


trips = trips_on(ADAPTERS)
