{# On Spark the table is partitioned by the day (a backfill replaces one partition at a time), stored as the var spark_file_format says: parquet (a Hive table, the default), delta or iceberg. #}
{{ config(materialized='incremental', incremental_strategy='append',
          partition_by=(['trip_date'] if target.type == 'spark' else none),
          file_format=(var('spark_file_format', 'parquet') if target.type == 'spark' else none)) }}

{{ latest_trip_versions(source('raw', 'trip_events')) }}
