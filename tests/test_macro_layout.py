"""The package shows its flow (issue 19, item 9; issue 40, item 2): macros live in folders named for the step a reader
looks for, each public macro documented in the yml of its folder, and utils/ holds only what several steps call.

Step-sized macros (issue 40, item 2):
  - no macro is longer than 80 lines (from its `{% macro` line to its `{% endmacro %}` line, both counted), unless
    the line directly above the `{% macro` line starts with `{# longer than 80 lines because` and says why;
  - one family per file. A file holds the macro it is named for, that macro's adapter leaves, and private helpers
    only that file uses. Checked as: every macro of `<folder>/<name>.sql` is `<name>` itself, an adapter leaf
    `<adapter>__<name>` (adapter: default, postgres, duckdb, spark), or a private macro `_<helper>` (or a leaf of
    one whose dispatch is in the file) that no other file under macros/ names outside a Jinja comment (a call
    `dbt_backfill._<helper>(`, a dispatch `adapter.dispatch('_<helper>', ...)`); a helper another file uses is a
    family of its own, in a file named for it;
  - `_plan` (plan/_plan.sql) is a short sequence of calls: within the 80 lines with no exception, and its steps'
    bodies live in the folders named for them (it calls into source_pin/, stage/, compare/, cost/, packet/ and
    review/).
"""

import re
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
MACROS = REPO / "macros"
STEPS = {
    "stale",
    "ledger",
    "approve",
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
    "session",
    "spec",
}
# an engine's leaf (adapter.dispatch), or a Spark table format's (utils/_format_leaf)
ADAPTER_LEAF = re.compile(r"^(default|postgres|duckdb|spark|delta|iceberg)__")
MAX_LINES = 80
LONGER_BECAUSE = "{# longer than 80 lines because"
MACRO_START = re.compile(r"{%-?\s*macro\s+(\w+)")
MACRO_END = re.compile(r"{%-?\s*endmacro\s*-?%}")


def _defined(path: Path) -> list[str]:
    return re.findall(r"{%-?\s*macro\s+(\w+)", path.read_text())


def _macros(path: Path) -> list[tuple[str, int, int]]:
    """(name, first line, last line) of every macro in the file, 0-based."""
    found, start, name = [], None, None
    for number, line in enumerate(path.read_text().splitlines()):
        match = MACRO_START.search(line)
        if match and start is None:
            start, name = number, match.group(1)
        if start is not None and MACRO_END.search(line):
            found.append((name, start, number))
            start = None
    return found


def _family(name: str) -> str:
    """The macro an adapter leaf belongs to (`postgres___hidden_writers` -> `_hidden_writers`); else the name."""
    return ADAPTER_LEAF.sub("", name)


def _code(path: Path) -> str:
    """The file without its Jinja comments: a macro named in a comment is not used there."""
    return re.sub(r"{#.*?#}", "", path.read_text(), flags=re.S)


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


def test_no_macro_is_longer_than_80_lines_unless_it_says_why():
    too_long = []
    for path in sorted(MACROS.rglob("*.sql")):
        lines = path.read_text().splitlines()
        for name, first, last in _macros(path):
            length = last - first + 1
            above = lines[first - 1].strip() if first > 0 else ""
            if length > MAX_LINES and not above.startswith(LONGER_BECAUSE):
                too_long.append(f"{name} ({path.relative_to(REPO)}): {length} lines")
    assert not too_long, (
        f"macros over {MAX_LINES} lines: {too_long}. Split them into step-sized macros, or say why not on the line "
        f"directly above: {LONGER_BECAUSE} ... #}}"
    )


def test_every_file_holds_one_family():
    files = sorted(MACROS.rglob("*.sql"))
    words = {path: set(re.findall(r"\w+", _code(path))) for path in files}  # `postgres___x` is one word, not `_x`
    strays = []
    for path in files:
        for name in _defined(path):
            family = _family(name)
            if family == path.stem:
                continue
            used_elsewhere = [
                str(other.relative_to(MACROS)) for other in files if other != path and family in words[other]
            ]
            if not family.startswith("_"):
                strays.append(f"{name} ({path.relative_to(REPO)}), a public macro")
            elif used_elsewhere:
                strays.append(f"{name} ({path.relative_to(REPO)}), used by {', '.join(used_elsewhere)}")
            elif family not in words[path]:
                strays.append(f"{name} ({path.relative_to(REPO)}), an adapter leaf of no macro of this file")
    assert not strays, (
        f"a file holds the macro it is named for, its adapter leaves and private helpers only it uses: {strays} "
        f"each belongs in a file named for its family (or nowhere, when nothing uses it)"
    )


def test_plan_is_a_short_sequence_of_calls_into_the_steps_folders():
    path = MACROS / "plan" / "_plan.sql"
    [(first, last)] = [(first, last) for name, first, last in _macros(path) if name == "_plan"]
    assert last - first + 1 <= MAX_LINES, (
        f"_plan is {last - first + 1} lines: its steps' bodies belong in their folders"
    )
    body = "\n".join(path.read_text().splitlines()[first : last + 1])
    home = {name: macro_path.parent.name for macro_path in MACROS.rglob("*.sql") for name in _defined(macro_path)}
    called = {home[name] for name in re.findall(r"dbt_backfill\.(\w+)\(", body) if name in home}
    missing = {"source_pin", "stage", "compare", "cost", "packet", "review"} - called
    assert not missing, (
        f"_plan calls into no macro of {sorted(missing)}: a step's body lives in the folder named for it"
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
    """A helper in utils/ is called from at least two steps' folders, directly or through other helpers of utils/
    (`_results_shown` is called by `_emit_result` and `_step`, which every step calls)."""
    callers = {}  # macro -> the files that call it
    for path in MACROS.rglob("*.sql"):
        for called in set(re.findall(r"dbt_backfill\.(\w+)\(", path.read_text())):
            callers.setdefault(called, set()).add(path)

    def steps_reaching(path: Path, seen: frozenset = frozenset()) -> set:
        steps = set()
        for name in _defined(path):
            for caller in callers.get(name, set()) - {path}:
                if caller.parent.name != "utils":
                    steps.add(caller.parent.name)
                elif caller not in seen:
                    steps |= steps_reaching(caller, seen | {path})
        return steps

    for path in (MACROS / "utils").glob("*.sql"):
        steps = steps_reaching(path)
        assert len(steps) >= 2, (
            f"utils/{path.name} is called from {sorted(steps) or 'no step'}: a helper one "
            f"step uses lives in that step's folder"
        )
