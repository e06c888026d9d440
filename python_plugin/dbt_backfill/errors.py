"""The two ways a command stops short. The CLI maps them to exit statuses; nothing else decides exit codes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dbt_backfill.causes import Cause


class BackfillError(Exception):
    """Bad input or configuration: the user can fix the command or the project (exit 1). `cause` names what the
    database said stopped it (causes.Cause) when it was the database, not the input. A command that writes and was
    stopped short raises it inside workflow.state.StoppedShort, with the target's state read afterwards."""

    cause: Cause | None = None
    last_step: Mapping[str, Any] | None = None  # the operation's last `step` ({doing, if_it_fails}) when dbt failed
    database_errors: tuple[str, ...] = ()  # dbt's error lines


class BackfillRefused(Exception):
    """A safety refusal: going on could make the target wrong (exit 3). The message says why, what to do,
    and what state the target is in."""

    def __init__(self, reason: str, message: str, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.details = dict(details or {})


class Interrupted(BackfillError):
    """The user stopped a command (Ctrl-C, SIGTERM): exit 130."""


def restated(failure: BackfillError | BackfillRefused, message: str) -> BackfillError | BackfillRefused:
    """The same failure (kind, reason, cause) with `message`: what a workflow read afterwards, added to it."""
    if isinstance(failure, BackfillRefused):
        return BackfillRefused(failure.reason, message, failure.details)
    said = type(failure)(message)
    said.cause, said.last_step, said.database_errors = failure.cause, failure.last_step, failure.database_errors
    return said
