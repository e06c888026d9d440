{#
  The canonical-text family of a column type, across the type names PostgreSQL, DuckDB and Spark report
  (e.g. 'numeric(10,2)' / 'DECIMAL(10,2)', 'timestamp with time zone' / 'TIMESTAMP WITH TIME ZONE').
  The leaves of canonical_text render each family; anything unlisted renders as the engine's own text.
#}
{% macro _type_family(data_type) %}
  {# a collation is not part of the family: Spark 4 reports a collated string as `string collate UTF8_LCASE` #}
  {% set t = (data_type | lower).split(' collate ')[0].split('(')[0] | trim %}
  {% if t in ('text', 'character varying', 'varchar', 'character', 'char', 'bpchar', 'string', 'name', 'citext') %}
    {{ return('text') }}
  {% elif t in ('smallint', 'integer', 'bigint', 'int', 'int2', 'int4', 'int8', 'tinyint', 'hugeint',
                'utinyint', 'usmallint', 'uinteger', 'ubigint', 'uhugeint') %}
    {{ return('integer') }}
  {% elif t in ('numeric', 'decimal') %}
    {{ return('decimal') }}
  {% elif t in ('boolean', 'bool') %}
    {{ return('boolean') }}
  {% elif t == 'date' %}
    {{ return('date') }}
  {% elif t in ('timestamp', 'timestamp without time zone', 'datetime', 'timestamp_us') %}
    {{ return('timestamp') }}
  {% elif t in ('timestamp with time zone', 'timestamptz') %}
    {{ return('timestamptz') }}
  {% elif t == 'uuid' %}
    {{ return('uuid') }}
  {% elif t in ('real', 'double precision', 'float', 'float4', 'float8', 'double') %}
    {{ return('float') }}
  {% else %}
    {{ return('other') }}
  {% endif %}
{% endmacro %}
