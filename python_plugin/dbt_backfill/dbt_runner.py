"""The one place that invokes dbt and reads what the package's macros hand back.

dbt runs as a subprocess (`dbt <command> --log-format json`), as a user would run it: the user's profile,
project and adapter, nothing of dbt's internals imported. Macros return data as sentinel-wrapped JSON lines
on dbt's log (run-operation discards return values). Every command keeps its dbt invocations few and
constant, looping over partitions inside one operation, because each invocation costs seconds of start-up.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from dbt_backfill.errors import BackfillError, BackfillRefused
from dbt_backfill.packet import RelationRef

RESULT = re.compile(r"<<dbt_backfill:(?P<kind>[a-z_]+)>>(?P<payload>.*?)<</dbt_backfill>>", re.DOTALL)
ANSI = re.compile(r"\x1b\[[0-9;]*m")
SECRET_NAME = re.compile(r"PASSWORD|SECRET|TOKEN|PRIVATE_KEY|CREDENTIAL", re.IGNORECASE)
SUPPORTED_ADAPTERS = ("postgres", "duckdb", "spark")


def redact(text: str, environ: Mapping[str, str] | None = None) -> str:
    """Replace the value of every secret-looking environment variable (and DBT_ENV_SECRET_*) with ****."""
    environ = os.environ if environ is None else environ
    for name, value in environ.items():
        if value and len(value) >= 4 and (SECRET_NAME.search(name) or name.startswith("DBT_ENV_SECRET_")):
            text = text.replace(value, "****")
    return text


def require_supported_adapter(adapter_type: str) -> None:
    """Refuse, before anything runs, an adapter the package has no leaves for (its macros would raise mid-way)."""
    if adapter_type not in SUPPORTED_ADAPTERS:
        raise BackfillError(f"dbt-backfill supports {', '.join(SUPPORTED_ADAPTERS)}; this project's target uses "
                            f"{adapter_type or 'an unknown adapter'}. Nothing was changed.")


@dataclass(frozen=True)
class DbtOptions:
    project_dir: Path
    profiles_dir: Path | None = None
    target: str | None = None
    vars: str | None = None

    def flags(self) -> list[str]:
        flags = ["--project-dir", str(self.project_dir)]
        if self.profiles_dir:
            flags += ["--profiles-dir", str(self.profiles_dir)]
        if self.target:
            flags += ["--target", self.target]
        if self.vars:
            flags += ["--vars", self.vars]
        return flags


@dataclass(frozen=True)
class MacroResult:
    kind: str
    payload: Any


@dataclass(frozen=True)
class Invocation:
    returncode: int
    results: tuple[MacroResult, ...]
    errors: tuple[str, ...]

    def first(self, kind: str) -> Any | None:
        return next((r.payload for r in self.results if r.kind == kind), None)

    def all(self, kind: str) -> list[Any]:
        return [r.payload for r in self.results if r.kind == kind]


@dataclass(frozen=True)
class ModelNode:
    unique_id: str
    name: str
    relation: RelationRef
    compiled_sql: str
    materialized: str
    meta_backfill: Mapping[str, Any] | None
    dbt_version: str
    adapter_type: str


class DbtRunner:
    def __init__(self, options: DbtOptions, executable: str | None = None) -> None:
        self.options = options
        self.executable = executable or self._find_dbt()
        # Our own target path: the user's target/ (and its partial-parse state) stays theirs.
        self.target_path = Path(options.project_dir).resolve() / "target" / "dbt_backfill"

    @staticmethod
    def _find_dbt() -> str:
        beside_python = Path(sys.executable).with_name("dbt")
        if beside_python.exists():
            return str(beside_python)
        found = shutil.which("dbt")
        if not found:
            raise BackfillError("dbt is not installed in this environment (pip install dbt-core and an adapter).")
        return found

    def invoke(self, command: Sequence[str]) -> Invocation:
        # `dbt deps` is the one command here that writes no artifacts and takes no --target-path
        target_path = [] if command[0] == "deps" else ["--target-path", str(self.target_path)]
        args = [self.executable, *command, "--log-format", "json", *target_path, *self.options.flags()]
        completed = subprocess.run(args, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        results: list[MacroResult] = []
        errors: list[str] = []
        for line in completed.stdout.splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue
            message = ANSI.sub("", str(event.get("info", {}).get("msg", "")))
            for match in RESULT.finditer(message):
                results.append(MacroResult(match["kind"], json.loads(match["payload"])))
            if event.get("info", {}).get("level") == "error" and message.strip():
                errors.append(redact(message.strip()))
        if completed.returncode != 0 and not errors:
            tail = (completed.stderr or completed.stdout).strip().splitlines()[-5:]
            errors.append(redact("\n".join(tail)))
        return Invocation(completed.returncode, tuple(results), tuple(errors))

    def compile_model(self, model: str) -> ModelNode:
        """The model's SQL with full, non-incremental semantics (`--full-refresh` makes is_incremental() false
        at compile time), and what the manifest says of it."""
        invocation = self.invoke(["compile", "--select", model, "--full-refresh"])
        if invocation.returncode != 0:
            self._refuse_if_locked(invocation)
            raise BackfillError(f"dbt compile of {model} failed; nothing was changed.\n" + "\n".join(invocation.errors))
        manifest = json.loads((self.target_path / "manifest.json").read_text())
        matches = [n for n in manifest["nodes"].values() if n["resource_type"] == "model" and n["name"] == model]
        if not matches:
            raise BackfillError(f"no model named {model} in the dbt project at {self.options.project_dir}. "
                                f"Nothing was changed.")
        if len(matches) > 1:
            raise BackfillError(f"{len(matches)} models are named {model} ({', '.join(n['unique_id'] for n in matches)}); "
                                f"name one unambiguously. Nothing was changed.")
        node = matches[0]
        require_supported_adapter(manifest.get("metadata", {}).get("adapter_type", ""))
        meta = (node.get("config") or {}).get("meta") or node.get("meta") or {}
        return ModelNode(
            unique_id=node["unique_id"],
            name=node["name"],
            relation=RelationRef(node.get("database"), node["schema"], node.get("alias") or node["name"]),
            compiled_sql=node.get("compiled_code") or "",
            materialized=(node.get("config") or {}).get("materialized", ""),
            meta_backfill=meta.get("backfill"),
            dbt_version=manifest.get("metadata", {}).get("dbt_version", ""),
            adapter_type=manifest.get("metadata", {}).get("adapter_type", ""),
        )

    @staticmethod
    def _refuse_if_locked(invocation: Invocation) -> None:
        if any("Could not set lock on file" in e for e in invocation.errors):
            raise BackfillRefused("locked", "the DuckDB database file is held by another process (a dbt run, another "
                                            "apply): nothing was done. Try again when it has finished. The target is "
                                            "unchanged.")

    def run_operation(self, macro: str, args: Mapping[str, Any]) -> Invocation:
        """Run one of the package's operations. A `refused` result becomes BackfillRefused, an `error` result
        BackfillError; a failure without a result becomes BackfillError with dbt's own error lines."""
        invocation = self.invoke(["run-operation", f"dbt_backfill.{macro}", "--args", json.dumps(args)])
        refused = invocation.first("refused")
        if refused:
            raise BackfillRefused(refused["reason"], refused["message"], refused.get("details"))
        error = invocation.first("error")
        if error:
            raise BackfillError(error["message"])
        if invocation.returncode != 0:
            self._refuse_if_locked(invocation)
            steps = invocation.all("step")
            if steps:
                raise BackfillError(f"{steps[-1]['if_it_fails']}\n" + "\n".join(invocation.errors))
            raise BackfillError(f"dbt run-operation {macro} failed.\n" + "\n".join(invocation.errors))
        return invocation
