"""The approval packet: what a data owner reads and approves, and what `apply` executes.

YAML on disk, one file per run. Its SHA-256 is taken over a canonical JSON rendering of everything but the
approval block, so reformatting the YAML keeps an approval valid and any change of content voids it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import yaml

from dbt_backfill.errors import BackfillError
from dbt_backfill.fingerprint import Fingerprint

PACKET_VERSION = 1
MAX_PACKET_BYTES = 16 * 1024 * 1024  # a plan's packet is kilobytes; a file this large was not written by one


# libyaml's parser and emitter where PyYAML was built with it (the wheels are): a 100-partition packet (340 KB) is
# read in 0.16 s instead of 1.03 s and written in 0.12 s instead of 0.54 s, the same documents either way
# (DECISIONS row 157). PyYAML's own Python classes otherwise.
_SafeDumper: type = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
_SafeLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _NoAliasDumper(_SafeDumper):
    """Every value written out in full: a packet is read by people, and its reader refuses aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _load_without_aliases(text: str) -> Any:
    """safe_load without anchors and aliases: nested aliases expand exponentially (a few hundred bytes that take
    all memory), and no packet a plan writes has any. The text's events are read first and the first alias is
    refused before anything is composed (libyaml's composer cannot be told to refuse them itself)."""
    for event in yaml.parse(text, Loader=_SafeLoader):
        if isinstance(event, yaml.AliasEvent):
            mark = event.start_mark  # libyaml's own Mark type: said in the message the same way
            raise yaml.composer.ComposerError(None, None, "a packet holds no YAML aliases", mark)  # type: ignore[arg-type]
    return yaml.load(text, Loader=_SafeLoader)


@dataclass(frozen=True)
class RelationRef:
    database: str | None
    schema: str
    identifier: str

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RelationRef:
        return cls(database=data.get("database"), schema=str(data["schema"]), identifier=str(data["identifier"]))

    def to_dict(self) -> dict[str, Any]:
        return {"database": self.database, "schema": self.schema, "identifier": self.identifier}

    def __str__(self) -> str:
        return ".".join(part for part in (self.database, self.schema, self.identifier) if part)


@dataclass(frozen=True)
class Changes:
    added: int
    removed: int
    changed: int
    sample: tuple[Mapping[str, Any], ...] = ()  # changed rows: {key, columns: {column: {old, new}}}
    added_keys: tuple[str, ...] = ()  # a sample
    removed_keys: tuple[str, ...] = ()  # a sample
    # {target, stage, differing}: written by plans before the change summary compared rows exactly (DECISIONS row
    # 84); kept as read, so such a packet's SHA-256, and its approval, still hold
    buckets: Mapping[str, int] = field(default_factory=dict)
    # written by plans since issue 53 (absent from older packets, whose SHA-256 stays as written): the kept keys whose
    # excluded columns differ (apply rewrites them unchecked), each differing column's count of changed keys, and
    # the keys on both sides
    excluded: int | None = None
    columns: Mapping[str, int] | None = None
    compared: int | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Changes:
        return cls(
            added=int(data["added"]),
            removed=int(data["removed"]),
            changed=int(data["changed"]),
            sample=tuple(data.get("sample") or ()),
            added_keys=tuple(data.get("added_keys") or ()),
            removed_keys=tuple(data.get("removed_keys") or ()),
            buckets=dict(data.get("buckets") or {}),
            excluded=None if data.get("excluded") is None else int(data["excluded"]),
            columns=None if data.get("columns") is None else {str(k): int(v) for k, v in data["columns"].items()},
            compared=None if data.get("compared") is None else int(data["compared"]),
        )

    def to_dict(self) -> dict[str, Any]:
        written = {
            "added": self.added,
            "removed": self.removed,
            "changed": self.changed,
            "sample": [dict(s) for s in self.sample],
            "added_keys": list(self.added_keys),
            "removed_keys": list(self.removed_keys),
        }
        for name in ("excluded", "columns", "compared"):
            value = getattr(self, name)
            if value is not None:
                written[name] = dict(value) if isinstance(value, Mapping) else value
        return {**written, "buckets": dict(self.buckets)} if self.buckets else written


@dataclass(frozen=True)
class PartitionPlan:
    value: str
    stage: RelationRef
    stage_b: RelationRef
    backup: RelationRef
    builds: Mapping[str, Fingerprint]
    fingerprint: Fingerprint  # the approved one: build a, equal to build b
    target_before: Fingerprint
    changes: Changes
    commitment: str | None = None  # commitment_digest of the approved stage: what apply checks on what it inserts
    target_before_commitment: str | None = None  # of the partition as the plan found it: what rollback restores

    @property
    def changed_by_the_repair(self) -> bool:
        """Whether the approved rows differ from the rows the plan found (every column: the commitments)."""
        return self.commitment != self.target_before_commitment

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PartitionPlan:
        return cls(
            value=str(data["value"]),
            stage=RelationRef.from_dict(data["stage_relation"]),
            stage_b=RelationRef.from_dict(data["stage_b_relation"]),
            backup=RelationRef.from_dict(data["backup_relation"]),
            builds={k: Fingerprint.from_dict(v) for k, v in data["builds"].items()},
            fingerprint=Fingerprint.from_dict(data["fingerprint"]),
            target_before=Fingerprint.from_dict(data["target_before"]),
            changes=Changes.from_dict(data["changes"]),
            commitment=None if data.get("commitment") is None else str(data["commitment"]),
            target_before_commitment=(
                None if data.get("target_before_commitment") is None else str(data["target_before_commitment"])
            ),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "stage": str(self.stage),
            "builds": {k: v.to_dict() for k, v in self.builds.items()},
            "fingerprint": self.fingerprint.to_dict(),
            "commitment": self.commitment,
            "target_before": self.target_before.to_dict(),
            "target_before_commitment": self.target_before_commitment,
            "changes": self.changes.to_dict(),
            "stage_relation": self.stage.to_dict(),
            "stage_b_relation": self.stage_b.to_dict(),
            "backup_relation": self.backup.to_dict(),
        }


@dataclass(frozen=True)
class Approval:
    approved_by: str
    approved_at: str
    packet_sha256: str
    despite: str | None = None  # the approver's reason for approving a packet reviewed RESTRUCTURE FIRST

    def to_dict(self) -> dict[str, Any]:
        return {
            "approved_by": self.approved_by,
            "approved_at": self.approved_at,
            "packet_sha256": self.packet_sha256,
            **({"despite": self.despite} if self.despite else {}),
        }


@dataclass(frozen=True)
class Packet:
    run_id: str
    created_at: str
    model: str
    target: RelationRef
    adapter: str
    dbt_target: str | None
    partition_by: str
    business_key: tuple[str, ...]
    order_by: tuple[str, ...]
    additive: tuple[str, ...]
    exclude_columns: tuple[str, ...]
    material_columns: tuple[str, ...]
    code: Mapping[str, Any]
    source: Mapping[str, Any]
    partitions: tuple[PartitionPlan, ...]
    watermark: Mapping[str, Any] | None = None  # {config, before, after, raised}
    allowances: Mapping[str, Any] = field(default_factory=dict)  # what the planner allowed, with the reason
    review: Mapping[str, Any] = field(default_factory=dict)  # {checks: [...], verdict, reason}
    cost: Mapping[str, Any] = field(default_factory=dict)  # the planner's estimates, per partition and in total
    gates: tuple[Mapping[str, Any], ...] = ()  # meta.backfill.checks, evaluated: {check, partition, passed, ...}
    control: Mapping[str, Any] | None = None  # {value, fingerprint}: a partition outside the scope that must not change
    downstream: tuple[Mapping[str, Any], ...] = ()  # models downstream, topological order, with their mapping
    batch_size: int = 5
    cascade_of: Mapping[str, Any] | None = (
        None  # {run_id, packet_sha256, target_relation} of the root packet this one cascades from
    )
    expires_at: str | None = None  # ISO 8601, UTC: apply refuses the packet after it (meta.backfill.approval_ttl)
    # {excluded: {columns, rows, partitions, said} | None, run_level: {columns, partitions, said} | None}: what the
    # plan says of its columns (macros/review/_column_notes.sql); absent from packets written before issue 53
    column_notes: Mapping[str, Any] | None = None
    # the --vars the plan ran with, as given (YAML text), which every command on the packet passes dbt unless given
    # others: a var may decide the model's relation or be required to parse it; absent when the plan had none
    dbt_vars: str | None = None
    approval: Approval | None = None
    version: int = PACKET_VERSION

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "run_id": self.run_id,
            "created_at": self.created_at,
            "model": self.model,
            "target": str(self.target),
            "target_relation": self.target.to_dict(),
            "adapter": self.adapter,
            "dbt_target": self.dbt_target,
            **({"dbt_vars": self.dbt_vars} if self.dbt_vars is not None else {}),
            "partition_by": self.partition_by,
            "business_key": list(self.business_key),
            "order_by": list(self.order_by),
            "additive": list(self.additive),
            "exclude_columns": list(self.exclude_columns),
            "material_columns": list(self.material_columns),
            "code": dict(self.code),
            "source": dict(self.source),
            "partitions": [p.to_dict() for p in self.partitions],
            "watermark": dict(self.watermark) if self.watermark else None,
            "allowances": dict(self.allowances),
            "review": dict(self.review),
            "cost": dict(self.cost),
            "gates": [dict(g) for g in self.gates],
            "control": dict(self.control) if self.control else None,
            "downstream": [dict(d) for d in self.downstream],
            "batch_size": self.batch_size,
            "cascade_of": dict(self.cascade_of) if self.cascade_of else None,
            "expires_at": self.expires_at,
            **({"column_notes": dict(self.column_notes)} if self.column_notes is not None else {}),
            "approval": self.approval.to_dict() if self.approval else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Packet:
        """The packet the package built (macros/packet/_packet_document.sql), typed: every field read, one line each,
        in the order to_dict writes them; a field this version does not know is refused."""
        known = {f.name for f in fields(cls)} | {"target_relation"}  # `target` is written twice: text and relation
        unknown = sorted(set(data) - known)
        if unknown:
            raise BackfillError(
                f"the packet has unknown field(s) {', '.join(unknown)}: it was not written by this "
                f"version of dbt-backfill. The target is unchanged."
            )
        if data.get("version") != PACKET_VERSION:
            raise BackfillError(
                f"packet version {data.get('version')!r} is not supported (this dbt-backfill reads "
                f"version {PACKET_VERSION}). The target is unchanged."
            )
        approval = data.get("approval")
        return cls(
            version=PACKET_VERSION,
            run_id=str(data["run_id"]),
            created_at=str(data["created_at"]),
            model=str(data["model"]),
            target=RelationRef.from_dict(data["target_relation"]),
            adapter=str(data["adapter"]),
            dbt_target=data.get("dbt_target"),
            dbt_vars=data.get("dbt_vars"),
            partition_by=str(data["partition_by"]),
            business_key=tuple(data["business_key"]),
            order_by=tuple(data.get("order_by") or ()),
            additive=tuple(data.get("additive") or ()),
            exclude_columns=tuple(data.get("exclude_columns") or ()),
            material_columns=tuple(data["material_columns"]),
            code=dict(data["code"]),
            source=dict(data["source"]),
            partitions=tuple(PartitionPlan.from_dict(p) for p in data["partitions"]),
            watermark=data.get("watermark"),
            allowances=dict(data.get("allowances") or {}),
            review=dict(data.get("review") or {}),
            cost=dict(data.get("cost") or {}),
            gates=tuple(data.get("gates") or ()),
            control=data.get("control"),
            downstream=tuple(data.get("downstream") or ()),
            batch_size=int(data.get("batch_size") or 5),
            cascade_of=data.get("cascade_of"),
            expires_at=str(data["expires_at"]) if data.get("expires_at") else None,
            column_notes=data.get("column_notes"),
            approval=Approval(**{k: str(v) for k, v in approval.items()}) if approval else None,
        )

    def scope_args(self) -> dict[str, Any]:
        """What every operation on the target needs to know of the approved scope."""
        return {
            "run_id": self.run_id,
            "model": self.model,
            "target": self.target.to_dict(),
            "partition_by": self.partition_by,
            "business_key": list(self.business_key),
            "material_columns": list(self.material_columns),
            "additive": list(self.additive),
        }

    def partition_args(self) -> list[dict[str, Any]]:
        """Each partition as the apply, rollback and clean operations take it."""
        return [
            {
                "value": p.value,
                "stage": p.stage.to_dict(),
                "stage_b": p.stage_b.to_dict(),
                "backup": p.backup.to_dict(),
                "fingerprint": p.fingerprint.to_dict(),
                "commitment": p.commitment,
                "target_before": p.target_before.to_dict(),
                "target_before_commitment": p.target_before_commitment,
            }
            for p in self.partitions
        ]

    def vars_passed_on(self) -> str | None:
        """The plan's --vars that a command on this packet passes dbt when given none (as it does `dbt_target`), or
        None. Not vars dbt masked as a secret's (the packet comes back from the package through dbt's log, which
        writes `*****` for the value), nor vars that set one of the package's own (`dbt_backfill_*`: the audit
        schema, the approval policy): where the trail is read, and what an approval must be, are the operator's to
        say on the command line, not the file's being checked."""
        if self.dbt_vars is None or "*****" in self.dbt_vars:
            return None
        try:
            given = yaml.safe_load(self.dbt_vars)
        except yaml.YAMLError:
            return None
        if not isinstance(given, dict) or any(str(name).lower().startswith("dbt_backfill") for name in given):
            return None
        return self.dbt_vars

    @property
    def watermark_config(self) -> Mapping[str, str] | None:
        return (self.watermark or {}).get("config")

    def sha256(self) -> str:
        """SHA-256 of the packet's content, approval excluded."""
        content = self.to_dict()
        content.pop("approval")
        canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    def approved(self, approval: Approval) -> Packet:
        return replace(self, approval=approval)

    def write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(yaml.dump(self.to_dict(), Dumper=_NoAliasDumper, sort_keys=False, allow_unicode=True, width=120))
        tmp.replace(path)

    @classmethod
    def read(cls, path: Path) -> Packet:
        try:
            size = Path(path).stat().st_size
            if size > MAX_PACKET_BYTES:
                raise BackfillError(
                    f"{path} is {size} bytes, more than any packet a plan writes "
                    f"({MAX_PACKET_BYTES} at most). The target is unchanged."
                )
            data = _load_without_aliases(Path(path).read_text())
        except FileNotFoundError:
            raise BackfillError(f"no packet at {path}. The target is unchanged.") from None
        except yaml.YAMLError as error:
            raise BackfillError(f"{path} is not valid YAML ({error}). The target is unchanged.") from None
        if not isinstance(data, dict):
            raise BackfillError(f"{path} is not an approval packet. The target is unchanged.")
        try:
            return cls.from_dict(data)
        except (KeyError, TypeError, ValueError) as error:
            raise BackfillError(
                f"{path} is not a complete approval packet ({type(error).__name__}: {error}). The target is unchanged."
            ) from None


def plan_document_path(packet_path: Path) -> Path:
    """The written plan (Markdown) beside its packet."""
    return packet_path.with_suffix(".md")


def file_sha256(path: Path) -> str:
    """SHA-256 of a file's bytes: what `approve` prints of the written plan it read."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@dataclass(frozen=True)
class PacketFile:
    """A packet as a command reads it, once: the file it came from (which messages and next steps name) and its
    content. Every command on an existing packet takes one of these from the CLI."""

    path: Path
    packet: Packet

    @classmethod
    def read(cls, path: Path) -> PacketFile:
        return cls(Path(path), Packet.read(path))
