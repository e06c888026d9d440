{# Spark replaces a partition with INSERT OVERWRITE ... PARTITION, so there the table is partitioned by the day. #}
{{ config(materialized='incremental', incremental_strategy='append',
          partition_by=(['trip_date'] if target.type == 'spark' else none),
          file_format=(var('spark_file_format', 'parquet') if target.type == 'spark' else none)) }}

{{ latest_trip_versions(ref('trip_events_volatile')) }}
