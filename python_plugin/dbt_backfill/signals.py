"""SIGINT and SIGTERM held while a command finishes what belongs together: the first signal is noted and said on
stderr, the command stops where it is safe; a second one stops it at once (KeyboardInterrupt). One home for the
plan's last writes and for apply's and rollback's partitions."""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any, Callable


@contextlib.contextmanager
def holding_signals(saying: Callable[[str], str], on_second: Callable[[], None] = lambda: None) -> Iterator[list[str]]:
    """While the block runs, the first SIGINT or SIGTERM is appended (by name) to the list the block gets, and
    `saying(name)` is printed on stderr; a second one calls `on_second` and raises KeyboardInterrupt. Outside the
    main thread (signals reach only that one) the block runs as it is."""
    received: list[str] = []
    if threading.current_thread() is not threading.main_thread():
        yield received
        return

    def hold(signum: int, frame: Any) -> None:
        if received:
            on_second()
            raise KeyboardInterrupt
        received.append(signal.Signals(signum).name)
        print(f"dbt-backfill: {saying(received[0])}", file=sys.__stderr__, flush=True)

    previous = {sig: signal.signal(sig, hold) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield received
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
