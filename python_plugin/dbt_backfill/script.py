"""The installed `dbt-backfill` script (pyproject's [project.scripts]): the CLI, and how its process ends."""

from __future__ import annotations

import atexit
import gc
import os
import sys
import threading
from typing import TextIO

from dbt_backfill.cli import main


def run() -> None:
    """The command, with fewer collections of the cyclic garbage collector, then an exit that skips the interpreter's
    teardown.

    A command that reached dbt holds its parsed project, adapters and Jinja environments; freeing them object by
    object at exit took 0.56-0.69 s of every plan and apply (measured, DECISIONS row 158), a cost no output waits
    for. What a normal exit does that matters still happens: the atexit handlers (logging's flush of dbt.log, and
    dbt-duckdb's close of a database kept open, among them), then stdout and stderr flushed, and a flush that fails
    ends with Python's own status for it, 120. The exit is the interpreter's own where another thread is still
    running, where the exit carries a message or a status no process can have, and under a profiler, a tracer or a
    debugger, whose report is written after the script returns."""
    # dbt's import, parse and Jinja make millions of short-lived objects: at Python's thresholds (700, 10, 10) a plan
    # of the seed ran ~560 collections, 0.63-0.66 s; at these 7, 0.20-0.24 s, for 2-4 MB more at its peak (row 158)
    gc.set_threshold(50_000, 50, 100)
    status: int | str | None = 0
    try:
        main(standalone_mode=True)  # click ends every command with SystemExit
    except SystemExit as ending:
        status = 0 if ending.code is None else ending.code
    others = [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon and t.is_alive()]
    watched = sys.getprofile() is not None or sys.gettrace() is not None
    if others or watched or not isinstance(status, int) or not 0 <= status <= 255:
        sys.exit(status)
    atexit._run_exitfuncs()
    os._exit(status if _flushed(sys.stdout, sys.stderr) else 120)


def _flushed(*streams: TextIO | None) -> bool:
    """Flush each stream as Python's exit does: one that is absent (started with its descriptor closed) or closed is
    passed over; one whose flush fails (a reader that went away) is a failed exit."""
    flushed = True
    for stream in streams:
        if stream is None or stream.closed:
            continue
        try:
            stream.flush()
        except OSError:
            flushed = False
    return flushed


if __name__ == "__main__":
    run()
