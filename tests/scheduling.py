"""How xdist (`-n 2 --dist loadgroup`, see the Makefile) shares the tests between its two workers."""
from __future__ import annotations

import pytest

ENGINES = ("postgres", "duckdb", "spark")


def group_for_xdist(items: list[pytest.Item]) -> None:
    """A module's Spark tests on one worker (each worker that runs any starts its own Spark server, whose metastore
    the tests reset), and the tests that share a module-scoped project together with it (its fixture built once,
    per adapter). Everything else goes to whichever worker is free. Must run before xdist's own collection hook,
    which reads the groups."""
    for item in items:
        engines = {mark.name for mark in item.iter_markers() if mark.name in ENGINES}
        if "spark" in engines:
            group = f"{item.module.__name__}:spark"
        else:
            shared = sorted(name for name, definitions in item._fixtureinfo.name2fixturedefs.items()
                            if definitions[-1].scope == "module")
            if not shared:
                continue
            params = item.callspec.params if hasattr(item, "callspec") else {}
            # no brackets in a group name: xdist reads a name after "@" only when no "]" follows it
            group = ":".join([item.module.__name__, *(str(params[name]) for name in shared if name in params)])
        item.add_marker(pytest.mark.xdist_group(group))
