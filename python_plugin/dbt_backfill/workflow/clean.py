"""clean: drop a run's stage and backup relations, keeping the backups while a rollback is still possible."""
from __future__ import annotations

import getpass
from pathlib import Path

from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.packet import Packet
from dbt_backfill.workflow.placement import refuse_elsewhere


def clean(runner: DbtRunner, path: Path, drop_backups: bool = False) -> list[str]:
    packet = Packet.read(path)
    refuse_elsewhere(runner, packet)
    invocation = runner.run_operation("clean_run", {
        **packet.scope_args(), "partitions": packet.partition_args(), "drop_backups": drop_backups,
        "packet_sha256": packet.sha256(), "cleaned_by": getpass.getuser()})
    return list(invocation.first("cleaned")["dropped"])
