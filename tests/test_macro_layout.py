"""The package shows its flow (issue 19, item 9): macros live in folders named for the step a reader looks for,
one public macro per file (its adapter leaves beside it), each public macro documented in the yml of its folder,
and utils/ holds only what several steps call."""

import re
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
MACROS = REPO / "macros"
STEPS = {
    "ledger",
    "plan",
    "stage",
    "source_pin",
    "compare",
    "review",
    "cost",
    "packet",
    "apply",
    "replace",
    "rollback",
    "verify",
    "clean",
    "audit",
    "downstream",
    "guards",
    "fingerprint",
    "transaction",
    "utils",
}
ADAPTER_LEAF = re.compile(r"^(default|postgres|duckdb|spark)__")


def _defined(path: Path) -> list[str]:
    return re.findall(r"{%-?\s*macro\s+(\w+)", path.read_text())


def test_every_folder_names_a_step_and_every_file_holds_at_most_one_public_macro():
    folders = {path.name for path in MACROS.iterdir() if path.is_dir()}
    assert folders == STEPS, folders ^ STEPS
    for path in MACROS.rglob("*.sql"):
        public = [name for name in _defined(path) if not name.startswith("_") and not ADAPTER_LEAF.match(name)]
        assert len(public) <= 1, f"{path.relative_to(REPO)} defines {public}: one public macro per file"
        if public:
            assert public[0] == path.stem, (
                f"{path.relative_to(REPO)} defines {public[0]}: a file is named for its macro"
            )


def test_every_public_macro_is_documented_beside_it():
    for folder in (path for path in MACROS.iterdir() if path.is_dir()):
        documented = set()
        for yml in folder.glob("*.yml"):
            # dbt renders descriptions (docs), where this package's macros are undefined: Jinja there breaks every parse
            assert "{{" not in yml.read_text() and "{%" not in yml.read_text(), f"{yml.relative_to(REPO)} holds Jinja"
            documented |= {entry["name"] for entry in yaml.safe_load(yml.read_text()).get("macros", [])}
        for path in folder.glob("*.sql"):
            for name in _defined(path):
                if not name.startswith("_") and not ADAPTER_LEAF.match(name):
                    assert name in documented, f"{name} ({path.relative_to(REPO)}) has no entry in {folder.name}'s yml"


def test_utils_holds_only_what_several_steps_call():
    steps_calling = {}
    for path in MACROS.rglob("*.sql"):
        for called in set(re.findall(r"dbt_backfill\.(\w+)\(", path.read_text())):
            steps_calling.setdefault(called, set()).add(path.parent.name)
    for path in (MACROS / "utils").glob("*.sql"):
        callers = set().union(*(steps_calling.get(name, set()) for name in _defined(path))) - {"utils"}
        assert len(callers) >= 2, (
            f"utils/{path.name} is called from {sorted(callers) or 'no step'}: a helper one "
            f"step uses lives in that step's folder"
        )
