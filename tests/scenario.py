"""The seed scenario (../models_example/data): loading the trip events into a database, and reading back."""
from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "models_example" / "data"
BACKFILL_DAYS = ["2026-03-01", "2026-03-02", "2026-03-03"]
NEIGHBOUR_DAYS = ["2026-02-28", "2026-03-04"]

CREATE_EVENTS = """
create schema if not exists raw;
create table if not exists raw.trip_events (
    event_id integer primary key,
    trip_id integer not null,
    trip_date date not null,
    fare numeric(10, 2) not null,
    status text not null,
    updated_at timestamp with time zone not null
)"""


def events(name: str) -> list[dict[str, str]]:
    with open(DATA / f"trip_events_{name}.csv", newline="") as f:
        return list(csv.DictReader(f))


def load_events(connection, name: str) -> None:
    """Insert one of the CSV files (published, corrections) into raw.trip_events."""
    with connection.cursor() as cursor:
        cursor.execute(CREATE_EVENTS)
        for row in events(name):
            cursor.execute(
                "insert into raw.trip_events values (%s, %s, %s, %s, %s, %s)",
                (row["event_id"], row["trip_id"], row["trip_date"], Decimal(row["fare"]), row["status"],
                 row["updated_at"]),
            )
