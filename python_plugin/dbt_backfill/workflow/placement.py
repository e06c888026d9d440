"""A packet runs only where it was planned: the adapter, database and relation it names must be what the current
project and target resolve for its model, checked from a parse before anything connects to a database."""

from __future__ import annotations

from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.errors import BackfillRefused
from dbt_backfill.packet import Packet


def refuse_elsewhere(runner: DbtRunner, packet: Packet) -> None:
    """Refuse a packet planned on another adapter, database or relation than the one this project's target resolves
    for its model. Nothing is read or written then, not even an audit row: the audit table of the other database
    is not this packet's."""
    adapter, relation = runner.resolve_model(packet.model)
    here = (adapter, relation.database or None, relation.schema, relation.identifier)
    planned = (packet.adapter, packet.target.database or None, packet.target.schema, packet.target.identifier)
    if here != planned:
        target = f"`{runner.options.target}`" if runner.options.target else "(the profile's default)"
        planned_with = f"dbt target `{packet.dbt_target}`" if packet.dbt_target else "the profile's default target"
        raise BackfillRefused(
            "packet_elsewhere",
            f"the packet names {packet.target} on {packet.adapter} as the target of {packet.model} (planned with "
            f"{planned_with}), but this project with target {target} resolves "
            f"{packet.model} to {relation} on {adapter or 'an unknown adapter'}: the packet is for another target or "
            f"database, or was edited. A packet runs only where it was planned: nothing was read or written, not even "
            f"an audit row. The target is unchanged. Run it without --target, with the --vars it was planned with (the "
            f"packet's `dbt_vars`, used when none are given unless they set a dbt_backfill_ var), or "
            f"plan again here.",
            {
                "planned": {"adapter": packet.adapter, **packet.target.to_dict()},
                "resolved": {"adapter": adapter, **relation.to_dict()},
            },
        )
