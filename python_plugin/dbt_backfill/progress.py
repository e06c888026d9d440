"""What a person sees of a command while it runs, and what it measured of dbt (issue 57, items 3 and 4).

The progress line: one line on stderr, rewritten in place, naming the step, the partition, how many there are and
about how long is left, fed the package's results as dbt logs them (DbtRunner's observer). dbt's own log lines are
not shown (the CLI prints none), and a plan or apply of many partitions otherwise says nothing for minutes. Only
where stderr is a terminal and --json is not given: a log file or a pipe would keep every rewrite.

--timings: how long importing dbt, its parse and each invocation took, and the SQL time dbt logged in each, as a
table on stderr or the `timings` key of the JSON document. Nothing here reads or decides.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from typing import Any, Callable, TextIO

from dbt_backfill.dbt_runner import MacroResult, Timings
from dbt_backfill.shown import controls_escaped

# the commands whose operations loop over partitions, saying where they are (the package's _progress); apply
# --cascade plans and applies each model downstream too
WATCHED = frozenset({"plan", "apply", "rollback"})


def _a_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def about(seconds: float) -> str:
    """A time left as a person says it: 40 s, 3 min, 1 h 5 min."""
    if seconds < 59.5:
        return f"{max(1, round(seconds))} s"
    hours, minutes = divmod(round(seconds / 60), 60)
    return f"{hours} h {minutes} min" if hours and minutes else f"{hours} h" if hours else f"{minutes} min"


class Progress:
    """The progress line of one command. Called with every MacroResult as dbt logs it; writes only when the line's
    text changes, and `close()` clears it (before anything else is printed).

    A `progress` result ({step, partition, done, of}: emitted as each partition's work in a step begins, `done`
    partitions of that step already finished; the package's _progress) shows `plan: building stage a, partition
    2026-01-05 (12 of 100; about 40 s left)`: the 12th of 100 partitions under way and, once one is finished, the
    time since the step's first event divided by the partitions finished since then, times the `of - done` still
    to finish. A step's clock starts again when another step begins or its count goes back (a cascade's next
    model). A `step` result ({doing}) takes the line between the loops (`_in_flight`)."""

    def __init__(
        self, command: str, stream: TextIO, clock: Callable[[], float] = time.monotonic, width: int | None = None
    ) -> None:
        self.command = command
        self.stream = stream
        self.clock = clock
        self.width = width  # None: the terminal's own, read at each write (it may be resized)
        self._shown = 0  # characters of the line on the terminal now
        self._text = ""
        self._step: tuple[str, int] | None = None  # (step, of) of the progress in flight
        self._started = 0.0  # when that step's first event was read
        self._done_at_start = 0  # and its `done` (0, unless the loop began where an earlier run stopped)
        self._done = 0
        self._of = 0
        self._partition = ""  # the partition under way

    @classmethod
    def on_terminal(cls, command: str, as_json: bool, stream: TextIO | None = None) -> Progress | None:
        """A progress line for `command`, where a person watches: a command that loops over partitions, stderr a
        terminal, and no --json (its reader is a program)."""
        stream = sys.stderr if stream is None else stream  # the real stderr: dbt's invocations redirect sys.stderr
        return cls(command, stream) if command in WATCHED and not as_json and _a_terminal(stream) else None

    def __call__(self, result: MacroResult) -> None:
        if result.kind == "progress":
            self._progress(result.payload)
        elif result.kind == "step" and not self._in_flight(str(result.payload["doing"])):
            self._show(f"{self.command}: {result.payload['doing']}")

    def _in_flight(self, doing: str) -> bool:
        """Whether a step result is part of the progress shown: its step has partitions not yet begun, or the step
        names the partition under way (`building stage a of partition 2026-01-05`: that partition's own work)."""
        return self._done + 1 < self._of or bool(self._partition and self._partition in doing)

    def _progress(self, payload: Any) -> None:
        step, partition = str(payload["step"]), str(payload["partition"])
        done, of = int(payload["done"]), int(payload["of"])
        now = self.clock()
        if self._step != (step, of) or done < self._done:
            self._step, self._started, self._done_at_start = (step, of), now, done
        self._done, self._of, self._partition = done, of, partition
        counted = f"{min(done + 1, of)} of {of}"
        finished = done - self._done_at_start  # since the step's first event (done there, where a run resumed)
        if finished >= 1 and of > done:
            counted += f"; about {about((now - self._started) / finished * (of - done))} left"
        self._show(f"{self.command}: {step}, partition {partition} ({counted})")

    def _show(self, text: str) -> None:
        # partition values and the package's step texts come from the data (a packet someone else planned): escaped,
        # so that an escape sequence or a newline in them can neither move the cursor nor forge a line
        text = controls_escaped(text)
        width = self.width or self._columns()
        # one column short of the terminal's width: a line that wraps can no longer be rewritten with \r
        text = text if len(text) < width else text[: max(0, width - 2)] + "…"
        if text == self._text:
            return
        self.stream.write("\r" + text + " " * max(0, self._shown - len(text)))
        self.stream.flush()
        self._text, self._shown = text, len(text)

    def _columns(self) -> int:
        """The width of the terminal the line is written to (stdout may be a pipe when stderr is not), else 80."""
        try:
            columns = os.get_terminal_size(self.stream.fileno()).columns
        except (AttributeError, ValueError, OSError):  # no file descriptor (io.UnsupportedOperation is an OSError)
            columns = 0
        return columns or shutil.get_terminal_size((80, 24)).columns

    def close(self) -> None:
        """Clear the line (spaces over it, the cursor back at its start), so what is printed next starts clean."""
        if self._shown:
            self.stream.write("\r" + " " * self._shown + "\r")
            self.stream.flush()
        self._text, self._shown = "", 0


# --- --timings ---------------------------------------------------------------------------------------------------


def timings_json(timings: Timings) -> dict[str, Any]:
    invocations = timings.invocations
    return {
        "import_dbt_s": None if timings.import_s is None else round(timings.import_s, 3),
        "dbt_imported_before": timings.imported_before,
        "parse_s": round(sum(i.wall_s for i in invocations if i.name == "parse"), 3),
        "invocations": [
            {"name": i.name, "wall_s": round(i.wall_s, 3), "sql_s": round(i.sql_s, 3), "statements": i.statements}
            for i in invocations
        ],
        "total_wall_s": round(sum(i.wall_s for i in invocations), 3),
        "total_sql_s": round(sum(i.sql_s for i in invocations), 3),
        "total_statements": sum(i.statements for i in invocations),
    }


def timings_text(timings: Timings) -> str:
    """The table --timings ends a command's text output with: importing dbt, then each invocation (the parse first)
    with its wall time and the SQL time dbt logged in it, then the invocations' total."""
    if timings.import_s is None:
        return "Timings: dbt was not invoked."
    imported = f"{timings.import_s:.2f} s" + (" (already imported)" if timings.imported_before else "")
    rows = [
        [i.name, f"{i.wall_s:.2f} s", f"{i.sql_s:.2f} s" if i.statements else "-", str(i.statements)]
        for i in timings.invocations
    ]
    total = timings_json(timings)
    rows.append(
        [
            "all invocations",
            f"{total['total_wall_s']:.2f} s",
            f"{total['total_sql_s']:.2f} s",
            str(total["total_statements"]),
        ]
    )
    headers = ["dbt invocation", "wall", "SQL logged", "statements"]
    widths = [max(len(row[c]) for row in [headers, *rows]) for c in range(len(headers))]

    def line(cells: list[str]) -> str:  # names to the left, figures to the right
        return "  ".join([cells[0].ljust(widths[0]), *(cell.rjust(w) for cell, w in zip(cells[1:], widths[1:]))])

    rule = line(["-" * w for w in widths])
    return "\n".join(
        [f"Timings: importing dbt {imported}.", line(headers), rule, *map(line, rows[:-1]), rule, line(rows[-1])]
    )
