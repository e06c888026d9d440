"""Runs the suite's `dbt` and `dbt-backfill` commands in processes forked from an interpreter that has already
imported dbt, its adapters and pyspark's Connect client.

Each command is a real process running the real console script (`runpy` of `.venv/bin/dbt-backfill`, with its
own argv, working directory, environment and time zone, stdin from /dev/null, its stdout and stderr in files, and
the script's own exit, dbt_backfill.script: atexit handlers run, non-daemon threads joined). What it skips is the
import: 2.2 s for dbt and 5 s for pyspark's Connect client, measured on this machine, paid by every command of the
suite (docs/DECISIONS.md). Nothing of a command's own is imported here: dbt_backfill is imported by each child after its
environment is set, so a module that reads the environment at import reads the command's.

The server (`python warm_interpreter.py SOCKET`) takes one request per connection: a JSON line
{script, args, cwd, env, stdout, stderr}; it forks, and answers {"returncode": ...} once the child has exited
(negative: the signal that ended it), as subprocess does. It never runs a thread (fork would copy a held lock) and
exits when the process that started it closes its stdin.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import select
import socket
import sys
import time
from pathlib import Path

PRELOADED = (
    "dbt.cli.main",
    "dbt.adapters.postgres",
    "dbt.adapters.duckdb",
    "dbt.adapters.spark",
    "pyspark.sql.connect.session",
    "psycopg2",
    "duckdb",
)


def _child(request: dict, listener: socket.socket, connection: socket.socket) -> None:
    """In the forked child: become the command a shell would have started, then run its console script."""
    listener.close()
    connection.close()
    os.setsid()  # its own process group, as the test's own Popen-started commands are killed by group
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    time.tzset()
    stdin = os.open(os.devnull, os.O_RDONLY)
    stdout = os.open(request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    stderr = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    for source, target in ((stdin, 0), (stdout, 1), (stderr, 2)):
        os.dup2(source, target)
        os.close(source)
    sys.argv = [request["script"], *request["args"]]
    sys.path[0] = os.path.dirname(request["script"])  # as `python <script>` sets it: never this file's directory
    import runpy

    runpy.run_path(request["script"], run_name="__main__")  # its sys.exit ends the interpreter normally


# the classes dbt validates a project, its profile and its selectors against at the start of every command
CONFIG_SCHEMAS = (
    "dbt.contracts.project:ProjectFlags",
    "dbt.contracts.project:ProfileConfig",
    "dbt.contracts.project:Project",
    "dbt.contracts.project:PackageConfig",
    "dbt.contracts.project:Configuration",
    "dbt.contracts.selection:SelectorFile",
    "dbt.adapters.postgres.connections:PostgresCredentials",
    "dbt.adapters.duckdb.credentials:DuckDBCredentials",
    "dbt.adapters.spark.connections:SparkCredentials",
)


def _build_config_schemas() -> None:
    """dbt validates a project's configs against JSON schemas that mashumaro builds on first use and caches per
    class (`dbtClassMixin.json_schema`, an lru_cache): ~0.4 s of every command, measured. Built once here, before
    any fork, every child inherits them, as it inherits the imports. Only these: building every class's schema
    (17 s) left a heap whose copy-on-write made each child slower, not faster."""
    import importlib

    for name in CONFIG_SCHEMAS:
        module, _, attribute = name.partition(":")
        with contextlib.suppress(ModuleNotFoundError, AttributeError):  # an adapter this environment lacks
            getattr(importlib.import_module(module), attribute).json_schema()


def serve(path: str) -> None:
    for name in PRELOADED:
        try:
            __import__(name)
        except ModuleNotFoundError:  # an adapter this environment lacks (the lowest-dbt run has DuckDB alone)
            pass
    _build_config_schemas()
    # what was loaded is never collected: frozen, the children's collections skip it (and never write to its pages,
    # which each child would otherwise copy), as Python's docs advise before fork
    gc.freeze()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(16)
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    running: dict[int, socket.socket] = {}
    while True:
        readable, _, _ = select.select([listener, sys.stdin], [], [], 0.02 if running else 1.0)
        if sys.stdin in readable and not sys.stdin.buffer.read1(1):
            break  # the suite's process is gone
        if listener in readable:
            connection, _ = listener.accept()
            with connection.makefile("rb") as lines:
                request = json.loads(lines.readline())
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                _child(request, listener, connection)
                return  # a script that does not exit: the interpreter exits as it would, with status 0
            running[pid] = connection
        while running:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                break
            connection = running.pop(pid)
            code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
            with connection, contextlib.suppress(OSError):  # a test process gone meanwhile: nobody to tell
                connection.sendall((json.dumps({"returncode": code}) + "\n").encode())
    listener.close()


class WarmInterpreter:
    """The client: one server per test process, started on first use."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.socket_path = str(directory / "warm.sock")
        self._server = None
        self._count = 0

    def _start(self) -> None:
        import subprocess

        self._server = subprocess.Popen(
            [sys.executable, __file__, self.socket_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert self._server.stdout.readline() == "ready\n", "the warm interpreter did not start"

    def run(self, script: str, args: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, str, str]:
        if self._server is None or self._server.poll() is not None:
            self._start()
        self._count += 1
        out = self.directory / f"command_{self._count}.out"
        err = self.directory / f"command_{self._count}.err"
        request = {"script": script, "args": args, "cwd": str(cwd), "env": env, "stdout": str(out), "stderr": str(err)}
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.connect(self.socket_path)
            connection.sendall((json.dumps(request) + "\n").encode())
            with connection.makefile("rb") as lines:
                answer = lines.readline()
        assert answer, "the warm interpreter ended while a command ran"
        try:
            return json.loads(answer)["returncode"], _read(out), _read(err)
        finally:
            out.unlink(missing_ok=True)
            err.unlink(missing_ok=True)

    def close(self) -> None:
        if self._server is not None and self._server.poll() is None:
            self._server.stdin.close()
            self._server.wait(timeout=30)


def _read(path: Path) -> str:
    """As subprocess's text mode reads a pipe: UTF-8, universal newlines."""
    if not path.exists():
        return ""
    return path.read_bytes().decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")


if __name__ == "__main__":
    serve(sys.argv[1])
