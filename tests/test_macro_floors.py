"""The macros' floors (issue 56, items 1 and 2): the macro twin of `lint-imports`. docs/layout.md declares the floors
of macros/ bottom up, a folder each or a few; a macro calls only macros on its own floor or below, two folders of
one floor never call each other both ways (a circle), and the verbs (the top floor) call no other verb. The calls
are read from the code, comments left out: `dbt_backfill.<macro>(`, `adapter.dispatch('<macro>'` and
`dbt_backfill._format_leaf('<macro>'`, a dispatch reaching each of its leaves (the engines', the table formats'). The last test plants a call up a floor, a circle and a verb calling a verb, and sees each refused."""

import re
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MACROS = REPO / "macros"
LEAF = re.compile(r"^(?:default|postgres|duckdb|spark|delta|iceberg)__")  # engines; Spark's table formats
FLOOR_LINE = re.compile(r"^floor (\d+)\s+((?:\w+/ )*\w+/)", re.M)


def floors(layout: str) -> list[list[str]]:
    """The floors the layout page declares, bottom first: the folders on each."""
    block = layout.split("## The macros, floor by floor", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    found = {int(number): folders.replace("/", "").split() for number, folders in FLOOR_LINE.findall(block)}
    assert sorted(found) == list(range(len(found))), f"floors numbered 0..N, each once: {sorted(found)}"
    return [found[number] for number in sorted(found)]


def calls(macros: Path) -> tuple[dict[str, str], dict[str, set[str]]]:
    """Each macro's folder (the top folder under macros/), and the macros each one calls."""
    folder_of, bodies = {}, {}
    for path in macros.rglob("*.sql"):
        code = re.sub(r"{#.*?#}", "", path.read_text(), flags=re.S)
        for name, body in re.findall(r"{%-?\s*macro\s+(\w+)\s*\((.*?){%-?\s*endmacro", code, flags=re.S):
            folder_of[name], bodies[name] = path.relative_to(macros).parts[0], body
    leaves: dict[str, set[str]] = {}
    for name in folder_of:
        leaves.setdefault(LEAF.sub("", name), set()).add(name)
    called = {}
    for name, body in bodies.items():
        named = re.findall(r"dbt_backfill\.(\w+)\s*\(", body)
        dispatched = re.findall(r"(?:adapter\.dispatch|dbt_backfill\._format_leaf)\(\s*'(\w+)'", body)
        called[name] = {n for n in named if n in folder_of} | {leaf for n in dispatched for leaf in leaves.get(n, ())}
    return folder_of, called


def violations(macros: Path, declared: list[list[str]]) -> list[str]:
    floor = {folder: number for number, folders in enumerate(declared) for folder in folders}
    folder_of, called = calls(macros)
    found = [f"{folder}/ is on no floor of docs/layout.md" for folder in sorted(set(folder_of.values()) - set(floor))]
    if found:
        return found
    verbs = set(declared[-1])
    between = set()
    for caller, names in sorted(called.items()):
        for name in sorted(names):
            here, there = folder_of[caller], folder_of[name]
            if here == there:
                continue
            between.add((here, there))
            if floor[there] > floor[here]:
                found.append(
                    f"{caller} ({here}/, floor {floor[here]}) calls {name} ({there}/, floor {floor[there]}): up"
                )
            elif here in verbs and there in verbs:
                found.append(f"{caller} ({here}/) calls {name} ({there}/): a verb calls another verb")
    for here, there in sorted(between):
        if here < there and (there, here) in between:
            found.append(f"{here}/ and {there}/ call each other: a circle between folders")
    return found


def test_every_call_goes_down_the_floors_or_stays_on_its_own():
    declared = floors((REPO / "docs" / "layout.md").read_text())
    assert not violations(MACROS, declared), "\n".join(violations(MACROS, declared))
    on_floors = sorted(folder for folders in declared for folder in folders)
    assert on_floors == sorted(path.name for path in MACROS.iterdir() if path.is_dir()), "each folder on one floor"


def test_a_planted_call_up_a_floor_and_a_circle_are_refused(tmp_path):
    declared = floors((REPO / "docs" / "layout.md").read_text())
    planted = tmp_path / "macros"
    shutil.copytree(MACROS, planted)
    helper = planted / "utils" / "_sql_literal.sql"
    helper.write_text(
        helper.read_text().replace("{% endmacro %}", "{% do dbt_backfill.plan_backfill('x') %}{% endmacro %}", 1)
    )
    stage = planted / "stage" / "_stage_schema.sql"
    stage.write_text(
        stage.read_text().replace("{% endmacro %}", "{% do dbt_backfill.estimate_query('x') %}{% endmacro %}", 1)
    )
    verb = planted / "verify" / "verify_backfill.sql"
    verb.write_text(
        verb.read_text().replace("{% endmacro %}", "{% do dbt_backfill.rollback_backfill('x') %}{% endmacro %}", 1)
    )
    found = violations(planted, declared)
    assert "_sql_literal (utils/, floor 0) calls plan_backfill (plan/, floor 9): up" in found, found
    assert "cost/ and stage/ call each other: a circle between folders" in found, found
    assert "verify_backfill (verify/) calls rollback_backfill (rollback/): a verb calls another verb" in found, found
    # the call up also closes a circle (plan/ calls utils/ everywhere); nothing else: the copy is main's code
    assert "plan/ and utils/ call each other: a circle between folders" in found, found
    assert len(found) == 4, found


def test_each_folder_of_the_layout_page_names_only_its_own_macros():
    """docs/layout.md describes each folder of macros/ by the macros it holds: every macro a folder's description
    names is defined in that folder, and every folder is described (a moved macro cannot leave its old claim)."""
    folder_of, _ = calls(MACROS)
    block = (REPO / "docs" / "layout.md").read_text().split("```text", 1)[1].split("```", 1)[0]
    described, current = {}, None
    for line in block.splitlines():
        starts = re.match(r"^  (\w+)/\s", line)
        if starts:
            current = starts.group(1)
            described[current] = line[starts.end() :]
        elif current and line.startswith(" " * 23):
            described[current] += " " + line.strip()
        else:
            current = None
    assert sorted(described) == sorted(path.name for path in MACROS.iterdir() if path.is_dir())
    elsewhere = [
        f"{folder}/ names {name}, which is in {folder_of[name]}/"
        for folder, text in described.items()
        for name in sorted(set(re.findall(r"\b_?[a-z][a-z0-9_]*\b", text)))
        if name in folder_of and folder_of[name] != folder
    ]
    assert not elsewhere, elsewhere


def test_the_layout_page_lists_exactly_the_operations_the_cli_runs():
    code = "\n".join(path.read_text() for path in (REPO / "python_plugin").rglob("*.py"))
    run = set(re.findall(r"run_operation\(\s*\"(\w+)\"", code))
    said = (REPO / "docs" / "layout.md").read_text().split("The CLI calls ", 1)[1].split("(each", 1)[0]
    assert set(re.findall(r"`(\w+)`", said)) == run, set(re.findall(r"`(\w+)`", said)) ^ run


def test_a_table_format_is_a_leaf_not_a_branch_inside_the_engines_leaves():
    """Delta and Iceberg are leaves (`delta__<macro>`, `iceberg__<macro>`, in a format's folder), chosen once by the
    table format (utils/_format_leaf) as an engine's are by adapter.dispatch (issue 56, item 5): no other macro
    compares a format with 'delta' or 'iceberg'."""
    branching = []
    for path in MACROS.rglob("*.sql"):
        if path.parent.name in ("delta", "iceberg") or path.stem == "_format_leaf":
            continue
        code = re.sub(r"{#.*?#}", "", path.read_text(), flags=re.S)
        if re.search(r"[=!]= '(?:delta|iceberg)'|in \([^)]*'(?:delta|iceberg)'", code):
            branching.append(str(path.relative_to(REPO)))
    assert not branching, branching


def test_every_macro_file_the_docs_and_the_code_name_exists():
    """A path `macros/<folder>/<file>.sql` named in the docs, the Python or the tests is a file of the package: a
    macro moved a floor down cannot leave a page or a test pointing at where it was."""
    named = set()
    for path in [*REPO.glob("*.md"), *(REPO / "docs").rglob("*.md"), *(REPO / "python_plugin").rglob("*.py"),
                 *(REPO / "tests").glob("*.py")]:  # fmt: skip
        if path.name != "test_macro_floors.py":
            named.update(re.findall(r"macros/[\w/]+\.sql", path.read_text()))
    ours, _ = calls(MACROS)  # a path named for one of this package's macros (other projects' macros/ aside)
    missing = sorted(name for name in named if Path(name).stem in ours and not (REPO / name).is_file())
    assert not missing, missing
