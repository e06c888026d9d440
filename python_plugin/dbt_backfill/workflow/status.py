"""status: what each partition a packet names holds now, read from the database, and the command to run next."""

from __future__ import annotations

from dbt_backfill.causes import classify
from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.errors import BackfillError, BackfillRefused
from dbt_backfill.packet import PacketFile
from dbt_backfill.workflow.placement import refuse_elsewhere
from dbt_backfill.workflow.state import TargetState, read_state, why_unreadable


def status(runner: DbtRunner, opened: PacketFile) -> TargetState:
    packet, path = opened.packet, opened.path
    refuse_elsewhere(runner, packet)
    try:
        return read_state(runner, packet, path)
    except BackfillRefused:
        raise  # the database answered: it refused to be read as it is (an unsafe session, an untrusted trail)
    except BackfillError as failure:
        cause = classify(str(failure))
        # "when it is back" only where something is away: a permission or a full disk does not come back by itself
        again = (
            "as a role that may read the target, its stages and its audit table"
            if cause and cause.kind == "permission_denied"
            else "when it is back"
        )
        raise BackfillError(
            f"state unknown: {why_unreadable(failure)}; run `dbt-backfill status {path}` {again}."
        ) from failure
