"""A throwaway Spark Connect server for the test suite: one local Spark (its own warehouse directory and Derby
metastore in a temp dir, a free port, the Delta and Iceberg runtime jars), started once per session and catalog and
stopped at the end.

dbt-spark's `session` method asks PySpark for a session; with SPARK_REMOTE set, PySpark 4 returns a Spark Connect
session to this server instead of starting a JVM inside every dbt invocation (15 s each). The tests look at the
tables through the same server with PySpark's Connect client.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


def _stop_sessions_only_explicitly() -> None:
    """PySpark Connect's SparkSession.__del__ closes its client, and closing any client shuts down the one release
    thread pool every session of the process shares. When the garbage collector finalises a session inside that pool's
    own `submit` (which holds the pool's lock, not reentrant, while it starts a thread), the thread waits on itself:
    a CI run hung in test_guards until CI's limit ended it. Every session here is stopped where it is made
    (`new_session`'s callers), so the finaliser has nothing left to do."""
    from pyspark.sql.connect.session import SparkSession

    SparkSession.__del__ = lambda self: None  # type: ignore[method-assign]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass(frozen=True)
class SparkServer:
    url: str

    def new_session(self):
        """A session of its own, to stop after use. Never the process's default session (getOrCreate): nothing
        stops that one, and at exit PySpark would try to release it on a server already gone, retrying for
        minutes."""
        from pyspark.sql import SparkSession
        from pyspark.sql.connect.client.retries import DefaultPolicy

        _stop_sessions_only_explicitly()
        session = SparkSession.builder.remote(self.url).create()
        # PySpark retries a call to a server it cannot reach for at least ten minutes (its default policy), per call;
        # the suite's server is on this machine, so a few seconds tell that it is gone and the test fails, not hangs
        session.client.set_retry_policies([DefaultPolicy(max_retries=4, max_backoff=2000)])
        return session


REPO = Path(__file__).resolve().parent.parent
# where `make spark-jars` puts the Delta and Iceberg runtime jars (requirements/spark-table-formats.pom, fetched by mvn)
SPARK_JARS = Path(os.environ.get("DBT_BACKFILL_SPARK_JARS", REPO / ".cache" / "spark-jars"))

# Each catalog is how its format's users configure Spark's own catalog (`spark_catalog`), the one dbt-spark's
# two-part names resolve in; the two cannot share one server. "delta": Delta's DeltaCatalog, which hands every table
# that is not Delta (the Hive/parquet tables) to Spark's session catalog as before. "iceberg": Iceberg's
# SparkSessionCatalog over the same Hive metastore, which does the same for tables that are not Iceberg.
CATALOGS = {
    "delta": {
        "spark.sql.extensions": "io.delta.sql.DeltaSparkSessionExtension",
        "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
    },
    "iceberg": {
        "spark.sql.extensions": "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions",
        "spark.sql.catalog.spark_catalog": "org.apache.iceberg.spark.SparkSessionCatalog",
        "spark.sql.catalog.spark_catalog.type": "hive",
        # Iceberg's Hive catalog opens its own metastore client on the same embedded Derby; its default connection
        # pool (BoneCP) is not among PySpark's jars, HikariCP is (Spark's own client is configured the same way)
        "spark.hadoop.datanucleus.connectionPoolingType": "HikariCP",
        # a commit swaps the table's metadata location in the metastore only if it is still the one the commit
        # started from (the metastore checks it inside its own transaction, HIVE-26882, in Hive 2.3.10), instead of
        # a Hive lock: the embedded metastore has no lock tables (Spark never creates Hive's transaction schema)
        "spark.hadoop.iceberg.engine.hive.lock-enabled": "false",
    },
}


def table_format_jars() -> list[Path]:
    jars = sorted(SPARK_JARS.glob("*.jar"))
    if not jars:
        raise RuntimeError(f"no Delta or Iceberg jars in {SPARK_JARS}: `make spark-jars` fetches them with mvn")
    return jars


class ThrowawaySparkConnect:
    def __init__(self, catalog: str = "delta") -> None:
        import pyspark

        self.catalog = catalog
        self.spark_home = Path(pyspark.__file__).parent
        self.dir = Path(tempfile.mkdtemp(prefix=f"dbt_backfill_spark_{catalog}_"))
        self.port = _free_port()
        self.env = {**os.environ, "SPARK_HOME": str(self.spark_home)}
        self.process: subprocess.Popen | None = None
        self.server: SparkServer | None = None

    def _conf(self) -> dict[str, str]:
        return {
            "spark.connect.grpc.binding.port": str(self.port),
            "spark.sql.catalogImplementation": "hive",
            "spark.sql.warehouse.dir": str(self.dir / "warehouse"),
            "spark.sql.session.timeZone": "UTC",
            "spark.ui.enabled": "false",
            # two shuffle partitions for two cores and rows by the dozen (the default, 200, is sized for a
            # cluster): the change summary's joins take 2.4 s instead of 3.5 s each, warm
            "spark.sql.shuffle.partitions": "2",
            # every statement is a handful of rows once: compiling Java for it (whole-stage and expression
            # codegen) and re-planning it adaptively cost more CPU than they save, and the JVM shares the
            # two cores with the other xdist worker. A plan and apply of the seed scenario: 151 s -> 117 s
            # (DEVELOPING.md). Interpreted evaluation is Spark's own fallback: the same results.
            "spark.sql.codegen.wholeStage": "false",
            "spark.sql.codegen.factoryMode": "NO_CODEGEN",
            "spark.sql.adaptive.enabled": "false",
            # Delta keeps each table version's state (its files) cached in this many partitions, and plans every
            # scan over it with a job of as many tasks: 50 by default, sized for a cluster. One here: a read of the
            # Delta tests' target 0.47 s -> 0.25 s on an idle server (DEVELOPING.md); the files and rows are the same
            "spark.databricks.delta.snapshotPartitions": "1",
            "spark.driver.extraJavaOptions": f"-Dderby.system.home={self.dir}",
            **CATALOGS[self.catalog],
        }

    def start(self) -> SparkServer:
        # spark-submit of the Connect server's class, in the foreground of a process of its own: PySpark's wheel
        # carries bin/ but (from 4.1) not sbin/start-connect-server.sh, which did the same through spark-daemon.sh
        command = [
            str(self.spark_home / "bin" / "spark-submit"),
            "--class",
            "org.apache.spark.sql.connect.service.SparkConnectServer",
            "--master",
            "local[2]",
            "--jars",
            ",".join(str(jar) for jar in table_format_jars()),
        ]
        for key, value in self._conf().items():
            command += ["--conf", f"{key}={value}"]
        command.append("spark-internal")
        log = (self.dir / "server.log").open("wb")
        self.process = subprocess.Popen(
            command, env=self.env, cwd=self.dir, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        server = SparkServer(f"sc://127.0.0.1:{self.port}")
        deadline = time.monotonic() + 180
        while True:
            try:
                if self.process.poll() is not None:
                    raise RuntimeError(f"the server exited with {self.process.returncode}")
                # the port first: a session made before the server listens would retry for minutes when stopped
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                probe = server.new_session()
                try:
                    probe.sql("select 1").collect()
                finally:
                    probe.stop()
                self.server = server
                return server
            except Exception as exc:  # not up yet: the JVM takes a while
                if time.monotonic() > deadline or self.process.poll() is not None:
                    logs = (self.dir / "server.log").read_text(errors="replace")[-3000:]
                    raise RuntimeError(f"Spark Connect did not start on port {self.port}: {exc}\n{logs}") from exc
                time.sleep(2)

    def stop(self) -> None:
        # SIGTERM, wait for the JVM to go (then SIGKILL), so that nothing of the run outlives it and its warehouse
        # is not removed under a server still writing
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)
