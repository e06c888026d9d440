"""dbt-backfill: repair published partitions of a dbt model safely, with evidence and approval."""

__version__ = "0.1.0"
