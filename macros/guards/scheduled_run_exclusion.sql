{#
  Whether the scheduled run of `node` cannot write the table while apply replaces a partition, and how:
  {scheduled_run_waits: bool, how: sentence[, alternative: what to do instead, where the engine has no lock]}.
  Feeds check 3 of the review. `layout`: how the engine stores the target (_target_layout; Spark: its format).
#}
{% macro scheduled_run_exclusion(node, layout={}) %}
  {{ return((dbt_backfill._format_leaf('scheduled_run_exclusion', (layout or {}).get('provider') or (node.config.get('file_format') if node else none)) or adapter.dispatch('scheduled_run_exclusion', 'dbt_backfill'))(node, layout)) }}
{% endmacro %}

{% macro default__scheduled_run_exclusion(node, layout={}) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.scheduled_run_exclusion is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{# PostgreSQL: only the backfill_lock() pre-hook makes the scheduled run wait for apply. #}
{% macro postgres__scheduled_run_exclusion(node, layout={}) %}
  {% set hooks = (node.config.get('pre-hook') or node.config.get('pre_hook') or []) if node else [] %}
  {% set locked = [] %}
  {% for hook in hooks if 'backfill_lock' in (hook.sql if hook is mapping else hook | string) %}{% do locked.append(hook) %}{% endfor %}
  {% if locked %}
    {{ return({'scheduled_run_waits': true, 'how': "the model's pre-hook dbt_backfill.backfill_lock() makes the scheduled run wait while apply holds the table's lock, and apply refuses to start while a run holds it"}) }}
  {% endif %}
  {{ return({'scheduled_run_waits': false, 'how': 'the model has no dbt_backfill.backfill_lock() pre-hook: a scheduled run does not wait for apply and could write the table while a partition is replaced'}) }}
{% endmacro %}

{# DuckDB: one writing process per database file; a scheduled run cannot open it while apply holds it. #}
{% macro duckdb__scheduled_run_exclusion(node, layout={}) %}
  {{ return({'scheduled_run_waits': true, 'how': 'DuckDB admits one writing process per database file: a scheduled run cannot open it while apply holds it, and apply refuses while a run holds it'}) }}
{% endmacro %}

{# Spark: no lock exists that the scheduled run and apply could share. #}
{% macro spark__scheduled_run_exclusion(node, layout={}) %}
  {{ return({'scheduled_run_waits': false, 'how': 'Spark has no lock that a scheduled run and apply can share: nothing stops the live job from writing the table while a partition is overwritten. Run the apply outside the job\'s schedule (pause it), or on a table format with optimistic concurrency (Delta, Iceberg), whose conflicting commit fails instead',
             'alternative': 'pause the model\'s scheduled job for the apply (there is no lock to take on Spark), and run verify after it'}) }}
{% endmacro %}
