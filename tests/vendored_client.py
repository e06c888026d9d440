"""A client project that installs vendored dbt packages (tests/packages/, each with its licence) and dbt-backfill
from this repository, on a database of its own, driven by the same commands as TripsProject (forked from the
suite's warm interpreter). Its profile has a second output, `full_refresh`, whose schemas hold the oracle: the same
models built from scratch by `dbt run --full-refresh --target full_refresh`."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml
from backends import make_backend
from project import REPO, TripsProject, _base_env

PACKAGES = Path(__file__).resolve().parent / "packages"
ORACLE = "full_refresh"  # the profile output (and the schema prefix) the oracle is built in


def values_sql(rows: list[tuple]) -> str:
    """Rows as the VALUES list of an insert: numbers as Python spells them, NULL, and text quoted."""

    def literal(value) -> str:
        if value is None:
            return "null"
        return repr(value) if isinstance(value, (int, float)) else "'" + str(value).replace("'", "''") + "'"

    return ", ".join("(" + ", ".join(literal(value) for value in row) + ")" for row in rows)


def ok(command, status: int = 0):
    assert command.returncode == status, command.output
    return command


class VendoredClient(TripsProject):
    """`client`: the client project's directory under tests/packages/ (its dbt_project.yml names profile
    `profile`); `packages`: the vendored packages beside it, installed with `local:` in this order. The tables
    compared are in `schema` (the oracle's in `oracle`), partitioned by `partition_by`; the double columns of the
    tables in `rounded` are compared at 9 decimals (a sum a full refresh adds in another order can differ in its
    last bit)."""

    def __init__(
        self,
        factory,
        adapter: str,
        workdir: Path,
        client: str,
        packages: tuple[str, ...],
        profile: str,
        schema: str,
        oracle: str,
        partition_by: str,
        rounded: tuple[str, ...] = (),
    ) -> None:
        self.factory = factory
        self.adapter = adapter
        self.slot = -1
        for name in (*packages, client):
            shutil.copytree(PACKAGES / name, workdir / name)
        self.dir = workdir / client
        local = [{"local": f"../{name}"} for name in packages] + [{"local": str(REPO)}]
        (self.dir / "packages.yml").write_text(yaml.safe_dump({"packages": local}))
        self.backend = make_backend(adapter, f"bf_{factory.process}_{client[:6]}", self.dir, **factory.servers(adapter))
        output = self.backend.profile_output()
        outputs = {adapter: output, ORACLE: {**output, "schema": ORACLE}}
        (self.dir / "profiles.yml").write_text(yaml.safe_dump({profile: {"target": adapter, "outputs": outputs}}))
        self.env = {**_base_env(), **self.backend.env()}
        self.state = None
        self.saved = None
        self.schema, self.oracle, self.partition_by, self.rounded = schema, oracle, partition_by, rounded

    def close(self) -> None:
        if self.saved is not None:
            self.backend.drop_state(self.saved)
        self.backend.close()

    def build_oracle_and_save(self, name: str) -> None:
        """The oracle, into the `full_refresh` schemas (its own target path: dbt's partial-parse state for the live
        target stays as it is); then the database saved, so every test starts from it."""
        ok(self.dbt("run", "--full-refresh", "--target", ORACLE, "--target-path", "target_oracle"))
        self.saved = self.backend.save_state(self.dir.parent, name)

    def restore(self) -> None:
        self.backend.restore_state(self.saved)
        shutil.rmtree(self.dir / "backfills", ignore_errors=True)

    # -- looking at the tables ------------------------------------------------------------------------------
    def typed_columns(self, table: str, schema: str | None = None) -> list[tuple[str, str]]:
        return self.query(
            "select column_name, data_type from information_schema.columns "
            f"where table_schema = '{schema or self.schema}' and table_name = '{table}' order by ordinal_position"
        )

    def columns(self, table: str, schema: str | None = None) -> list[str]:
        return [name for name, _ in self.typed_columns(table, schema)]

    def differing(self, table: str, schema: str | None = None, exclude: tuple[str, ...] = ()) -> dict[str, tuple]:
        """Per partition, the rows of the table not in the oracle's and the oracle's not in it (EXCEPT ALL both
        ways), over every column but `exclude`."""
        listed = []
        for name, data_type in self.typed_columns(table, schema):
            if name in exclude:
                continue
            rounded = table in self.rounded and data_type.lower() in ("double", "double precision")
            listed.append(f'cast("{name}" as decimal(38, 9)) as "{name}"' if rounded else f'"{name}"')
        columns = ", ".join(listed)
        ours, theirs = f"{schema or self.schema}.{table}", f"{self.oracle}.{table}"
        found: dict[str, list[int]] = {}
        for side, (left, right) in enumerate(((ours, theirs), (theirs, ours))):
            for value, count in self.query(
                f"select cast({self.partition_by} as varchar), count(*) from (select {columns} from {left} "
                f"except all select {columns} from {right}) as d group by {self.partition_by}"
            ):
                found.setdefault(value, [0, 0])[side] = count
        return {value: tuple(counts) for value, counts in sorted(found.items())}

    def partition_rows(self, table: str, schema: str | None = None) -> dict[str, list[tuple]]:
        """Every row, every column, by partition, in a fixed order: what `unchanged` and `byte-identical` compare."""
        at = self.columns(table, schema).index(self.partition_by)
        by_partition: dict[str, list[tuple]] = {}
        for row in self.rows(f"{schema or self.schema}.{table}"):
            by_partition.setdefault(str(row[at]), []).append(row)
        return by_partition
