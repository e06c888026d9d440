"""How xdist (`-n 2 --dist loadgroup`, see the Makefile) shares the tests between its two workers."""

from __future__ import annotations

import pytest

ENGINES = ("postgres", "duckdb", "spark")
SPARK_GROUP = "spark"


ICEBERG_GROUP = "spark_iceberg"


def _runs_on_spark(item: pytest.Item) -> bool:
    return any(mark.name == "spark" for mark in item.iter_markers())


def _runs_on_iceberg(item: pytest.Item) -> bool:
    return any(mark.name == "iceberg" for mark in item.iter_markers())


def group_for_xdist(items: list[pytest.Item]) -> None:
    """Every Spark test, of every module, in one group: one worker runs them all, so the run starts one Spark
    Connect server (a JVM that wants both cores while it works) and never two at once. The tests that share a
    module-scoped project stay together with it (its fixture built once, per adapter). Everything else goes to
    whichever worker is free. Must run before xdist's own collection hook, which reads the groups."""
    for item in items:
        if _runs_on_iceberg(item):
            # Iceberg's own server (its spark_catalog is Iceberg's): a group of its own, started on the other worker
            group = ICEBERG_GROUP
        elif _runs_on_spark(item):
            group = SPARK_GROUP
        else:
            shared = sorted(
                name
                for name, definitions in item._fixtureinfo.name2fixturedefs.items()
                if definitions[-1].scope == "module"
            )
            if not shared:
                continue
            params = item.callspec.params if hasattr(item, "callspec") else {}
            # no brackets in a group name: xdist reads a name after "@" only when no "]" follows it
            # a value that names itself (an adapter); an object parametrized at module scope (a test case) has a repr
            # holding its address, which differs between the workers' collections
            named = [str(params[name]) for name in shared if isinstance(params.get(name), (str, int, bool))]
            group = ":".join([item.module.__name__, *named])
        item.add_marker(pytest.mark.xdist_group(group))


def _group(item: pytest.Item) -> str | None:
    return next((mark.args[0] for mark in item.iter_markers("xdist_group")), None)


ENGINE_FIXTURES = {"projects", "trips", "postgres_server", "postgres_cluster", "spark_server"}


def _without_an_engine(item: pytest.Item) -> bool:
    return not ENGINE_FIXTURES & set(getattr(item, "fixturenames", ()))


def order_for_xdist(items: list[pytest.Item]) -> None:
    """The order xdist hands out units of work in (run with `--no-loadscope-reorder`, which keeps it): the Spark
    group first, the longest unit starting first, and the Iceberg group (a server of its own) second, the other
    worker's first unit (test_suite_scheduling checks both); then one test on its own, because each worker is handed two
    units to begin with and the Spark worker runs its second only once Spark is done; then the other groups,
    largest first, and the single tests last, filling whichever worker is free: those that drive a real engine
    first, those that need none (milliseconds each, in process) at the very end, so the two workers end together.
    Within a unit, pytest's order."""
    sizes: dict[str, int] = {}
    for item in items:
        group = _group(item)
        if group:
            sizes[group] = sizes.get(group, 0) + 1
    spark = [item for item in items if _group(item) == SPARK_GROUP]
    iceberg = [item for item in items if _group(item) == ICEBERG_GROUP]
    grouped = sorted(
        (item for item in items if _group(item) not in (None, SPARK_GROUP, ICEBERG_GROUP)),
        key=lambda item: -sizes[_group(item)],
    )  # stable: a group's tests stay in pytest's order
    alone = sorted((item for item in items if _group(item) is None), key=_without_an_engine)  # stable
    # the Iceberg group (its own server) right after Spark's: the first unit of the other worker
    items[:] = spark + iceberg + alone[:1] + grouped + alone[1:]
