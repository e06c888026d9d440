"""docs/DECISIONS.md is an index of the decisions, each a row on its subject's page under docs/decisions/ (issue 56,
item 6): every row is indexed once, under its number and page, the numbers run 1..N without a gap, and every row a
superseded mark names exists."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROW = re.compile(r"^\| (\d+)(?: \(superseded[^)]*\))? \|", re.M)


def test_every_decision_is_a_row_of_one_page_and_indexed_once_under_it():
    pages = sorted((REPO / "docs" / "decisions").glob("*.md"))
    assert pages
    on_page = {}
    for page in pages:
        for number in ROW.findall(page.read_text()):
            assert number not in on_page, f"row {number} is on {on_page.get(number)} and {page.name}"
            on_page[number] = page.stem
    index = (REPO / "docs" / "DECISIONS.md").read_text()
    indexed = dict(re.findall(r"^\| (\d+) \| .*? \| \[([\w-]+)\]\(decisions/[\w-]+\.md\) \|", index, re.M))
    assert indexed == on_page, set(indexed.items()) ^ set(on_page.items())
    assert sorted(map(int, on_page)) == list(range(1, len(on_page) + 1)), "the numbers run 1..N without a gap"
    for later in re.findall(r"superseded[^|]*? by row (\d+)", index):
        assert later in on_page, f"a superseded mark names row {later}, which does not exist"
