{# A model's meta.backfill as its node declares it (under config.meta, or the node's own meta), unread: the mapping,
   or none. Every reader of a model's contract starts here; _backfill_spec checks and normalizes it. #}
{% macro _meta_backfill(node) %}
  {{ return((node.config.meta or {}).get('backfill') or (node.meta or {}).get('backfill')) }}
{% endmacro %}
