"""A throwaway Spark Connect server for the test suite: one local Spark (its own warehouse directory and Derby
metastore in a temp dir, a free port), started once per session and stopped at the end.

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


def _alive(pid: int) -> bool:
    """Running: a process that exited but was not reaped yet (state Z) is not."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


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

        session = SparkSession.builder.remote(self.url).create()
        # PySpark retries a call to a server it cannot reach for at least ten minutes (its default policy), per call;
        # the suite's server is on this machine, so a few seconds tell that it is gone and the test fails, not hangs
        session.client.set_retry_policies([DefaultPolicy(max_retries=4, max_backoff=2000)])
        return session


class ThrowawaySparkConnect:
    def __init__(self) -> None:
        import pyspark

        self.spark_home = Path(pyspark.__file__).parent
        self.dir = Path(tempfile.mkdtemp(prefix="dbt_backfill_spark_"))
        self.port = _free_port()
        self.env = {
            **os.environ,
            "SPARK_HOME": str(self.spark_home),
            "SPARK_LOG_DIR": str(self.dir / "logs"),
            "SPARK_PID_DIR": str(self.dir),
            "SPARK_IDENT_STRING": f"dbt_backfill_{self.port}",
        }
        self.server: SparkServer | None = None

    def start(self) -> SparkServer:
        subprocess.run(
            [
                str(self.spark_home / "sbin" / "start-connect-server.sh"),
                "--master",
                "local[2]",
                "--conf",
                f"spark.connect.grpc.binding.port={self.port}",
                "--conf",
                "spark.sql.catalogImplementation=hive",
                "--conf",
                f"spark.sql.warehouse.dir={self.dir / 'warehouse'}",
                "--conf",
                "spark.sql.session.timeZone=UTC",
                "--conf",
                "spark.ui.enabled=false",
                # two shuffle partitions for two cores and rows by the dozen (the default, 200, is sized for a
                # cluster): the change summary's joins take 2.4 s instead of 3.5 s each, warm
                "--conf",
                "spark.sql.shuffle.partitions=2",
                # every statement is a handful of rows once: compiling Java for it (whole-stage and expression
                # codegen) and re-planning it adaptively cost more CPU than they save, and the JVM shares the
                # two cores with the other xdist worker. A plan and apply of the seed scenario: 151 s -> 117 s
                # (DEVELOPING.md). Interpreted evaluation is Spark's own fallback: the same results.
                "--conf",
                "spark.sql.codegen.wholeStage=false",
                "--conf",
                "spark.sql.codegen.factoryMode=NO_CODEGEN",
                "--conf",
                "spark.sql.adaptive.enabled=false",
                "--driver-java-options",
                f"-Dderby.system.home={self.dir}",
            ],
            env=self.env,
            check=True,
            capture_output=True,
            cwd=self.dir,
        )
        server = SparkServer(f"sc://127.0.0.1:{self.port}")
        deadline = time.monotonic() + 180
        while True:
            try:
                # the port first: a session made before the server listens would retry for minutes when stopped
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                probe = server.new_session()
                try:
                    probe.sql("select 1").collect()
                finally:
                    probe.stop()
                return server
            except Exception as exc:  # not up yet: the JVM takes a while
                if time.monotonic() > deadline:
                    logs = "\n".join(p.read_text()[-3000:] for p in (self.dir / "logs").glob("*.out"))
                    raise RuntimeError(f"Spark Connect did not start on port {self.port}: {exc}\n{logs}") from exc
                time.sleep(2)

    def stop(self) -> None:
        # Spark's stop script sends SIGTERM and returns; wait for the JVM to go (then SIGKILL), so that nothing of the
        # run outlives it and its warehouse is not removed under a server still writing
        pid_files = list(self.dir.glob("*.pid"))
        pid = int(pid_files[0].read_text().strip()) if pid_files else None
        subprocess.run(
            [str(self.spark_home / "sbin" / "stop-connect-server.sh")],
            env=self.env,
            capture_output=True,
            cwd=self.dir,
            timeout=60,
        )
        if pid is not None:
            deadline = time.monotonic() + 30
            while _alive(pid) and time.monotonic() < deadline:
                time.sleep(0.5)
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(self.dir, ignore_errors=True)
