"""The installed `dbt-backfill` script (pyproject's [project.scripts]): the CLI, and how its process ends."""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import sys
import threading

from dbt_backfill.cli import main


def run() -> None:
    """The command, with fewer collections of the cyclic garbage collector, then an exit that skips the interpreter's
    teardown.

    A command that reached dbt holds its parsed project, adapters and Jinja environments; freeing them object by
    object at exit took 0.56-0.69 s of every plan and apply (measured, DECISIONS row 158), a cost no output waits
    for. What a normal exit does that matters still happens: the atexit handlers (logging's flush of dbt.log among
    them), then stdout and stderr flushed. Where another thread is still running, or the exit carries a message
    rather than a status, the exit is the interpreter's own."""
    # dbt's import, parse and Jinja make millions of short-lived objects: at Python's thresholds (700, 10, 10) a plan
    # of the seed ran ~560 collections, 0.63-0.66 s; at these 7, 0.20-0.24 s, for 2-4 MB more at its peak (row 158)
    gc.set_threshold(50_000, 50, 100)
    status: int | str | None = 0
    try:
        main(standalone_mode=True)  # click ends every command with SystemExit
    except SystemExit as ending:
        status = 0 if ending.code is None else ending.code
    others = [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon and t.is_alive()]
    if others or not isinstance(status, int):
        sys.exit(status)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a reader that went away: the status still stands
            stream.flush()
    os._exit(status)


if __name__ == "__main__":
    run()
