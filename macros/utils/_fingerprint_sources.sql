{# One read of every relation the model reads: {relation name: fingerprint}, in its own transaction, so a
   now() or clock_timestamp() in a source differs between two reads. #}
{% macro _fingerprint_sources(sources) %}
  {% set read = {} %}
  {% for source in sources %}
    {% set relation = dbt_backfill._relation(source) %}
    {% set columns = [] %}
    {% for name in dbt_backfill._column_names(relation) %}{% do columns.append(name) %}{% endfor %}
    {% if not columns %}
      {{ exceptions.raise_compiler_error("dbt_backfill: the model reads " ~ relation ~ ", which does not exist or has no columns. Nothing was built and the target is unchanged.") }}
    {% endif %}
    {% do read.update({dbt_backfill._relation_name(relation): dbt_backfill.fingerprint_relation(relation, dbt_backfill._columns(relation, columns, 'source column'))}) %}
  {% endfor %}
  {% do dbt_backfill._commit() %}
  {{ return(read) }}
{% endmacro %}

{# The relations whose fingerprints differ between two reads, with both sha256 prefixes. #}
{% macro _moved_sources(first, second) %}
  {% set moved = [] %}
  {% for name, fingerprint in first.items() %}
    {% if second.get(name) != fingerprint %}
      {% do moved.append({'relation': name, 'first': fingerprint.sha256[:12], 'second': (second.get(name) or {}).get('sha256', '')[:12]}) %}
    {% endif %}
  {% endfor %}
  {{ return(moved) }}
{% endmacro %}
