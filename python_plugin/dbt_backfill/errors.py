"""The two ways a command stops short. The CLI maps them to exit statuses; nothing else decides exit codes."""


class BackfillError(Exception):
    """Bad input or configuration: the user can fix the command or the project (exit 1)."""


class BackfillRefused(Exception):
    """A safety refusal: going on could make the target wrong (exit 3). The message says why, what to do,
    and what state the target is in."""

    def __init__(self, reason: str, message: str, details: dict | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.details = details or {}
