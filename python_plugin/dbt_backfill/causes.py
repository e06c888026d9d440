"""Why the database stopped a command, recognised from the adapter's own error text (PostgreSQL's messages for
its SQLSTATE classes 08 connection exception, 57P admin shutdown, 55P03 lock not available, 40P01 deadlock
detected, 57014 query canceled, 42501 insufficient privilege, 53 insufficient resources; DuckDB's and Spark's
equivalents), so that a lost
connection is never blamed on a partition value or the model's SQL. Only the database's words decide: a text
that matches nothing here is no cause, and the command's own explanation stands."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Cause:
    kind: str  # unreachable | server_shutdown | connection_lost | lock_timeout | deadlock | statement_timeout
    #            | permission_denied | disk_full
    says: str  # what happened, as a person says it


CAUSES = (
    (
        "unreachable",
        "the database is unreachable (no server answered)",
        r"could not connect to server|connection to server .* failed|Connection refused|failed to connect to all "
        r"addresses|StatusCode\.UNAVAILABLE",
    ),
    (
        "server_shutdown",
        "the database server ended the connection (an administrator's command, a shutdown or a restart)",
        r"terminating connection due to administrator command|the database system is (shutting down|starting up|in "
        r"recovery mode)|server shut down|57P0[1-3]",
    ),
    (
        "connection_lost",
        "the connection to the database was lost",
        r"server closed the connection unexpectedly|connection already closed|could not receive data from server|"
        r"could not send data to server|SSL connection has been closed unexpectedly|terminating connection due to "
        r"(idle|conflict)|no connection to the server|Broken pipe|Connection reset by peer|\bSQLSTATE\[?08",
    ),
    (
        "lock_timeout",
        "a lock could not be had in time (another session holds it)",
        r"canceling statement due to lock timeout|could not obtain lock|lock not available|55P03",
    ),
    (
        "deadlock",
        "the database ended a deadlock with another session by stopping this command (each waited for a lock the "
        "other held)",
        r"deadlock detected|40P01",
    ),
    (
        "statement_timeout",
        "a statement ran past the server's statement timeout and was canceled",
        r"canceling statement due to statement timeout|57014|statement timeout",
    ),
    (
        "permission_denied",
        "the database refused a permission this command needs",
        r"permission denied|must be owner of|42501|Access denied|insufficient privilege",
    ),
    (
        "disk_full",
        "the database ran out of disk space",
        r"No space left on device|could not extend file|disk full|53100|could not write to file",
    ),
)


def classify(text: str) -> Cause | None:
    """The first cause whose words the database's error contains, or None."""
    for kind, says, pattern in CAUSES:
        if re.search(pattern, text, re.IGNORECASE):
            return Cause(kind, says)
    return None
