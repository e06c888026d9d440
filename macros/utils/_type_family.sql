{#
  The canonical-text family of a column type, across the type names PostgreSQL, DuckDB and Spark report
  (e.g. 'numeric(10,2)' / 'DECIMAL(10,2)', 'timestamp with time zone' / 'TIMESTAMP WITH TIME ZONE').
  The leaves of render_value render each family; canonical_text escapes every family whose text may hold \ or |.
#}
{% macro _type_family(data_type) %}
  {# a collation is not part of the family: Spark 4 reports a collated string as `string collate UTF8_LCASE` #}
  {% set full = (data_type | lower).split(' collate ')[0] | trim %}
  {# parameters anywhere: `numeric(10,2)`, and PostgreSQL's format_type `timestamp(3) with time zone` #}
  {% set t = modules.re.sub('\\s*\\([^()]*\\)', '', full).split('(')[0] | trim %}
  {# nested first: DuckDB's `varchar[]`, `integer[3]`, `struct(...)`, `map(...)`, `union(...)`; Spark's `array<...>`,
     `map<...>`, `struct<...>`. PostgreSQL reports its arrays as `ARRAY` and prints them unambiguously (quoted
     elements): those stay 'other'. #}
  {% if full.endswith(']') or t in ('struct', 'map', 'union', 'list') or modules.re.match('^(array|map|struct)<', full) %}
    {{ return('nested') }}
  {% elif t in ('text', 'character varying', 'varchar', 'character', 'char', 'bpchar', 'string', 'name', 'citext', 'enum') %}
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
  {# Spark's TIMESTAMP is an instant (a timestamptz) and its TIMESTAMP_NTZ the naive kind #}
  {% elif t == 'timestamp' and adapter.type() == 'spark' %}
    {{ return('timestamptz') }}
  {% elif t in ('timestamp', 'timestamp without time zone', 'datetime', 'timestamp_us', 'timestamp_ntz') %}
    {{ return('timestamp') }}
  {% elif t in ('timestamp with time zone', 'timestamptz') %}
    {{ return('timestamptz') }}
  {% elif t == 'uuid' %}
    {{ return('uuid') }}
  {% elif t in ('real', 'double precision', 'float', 'float4', 'float8', 'double') %}
    {{ return('float') }}
  {% elif t in ('bytea', 'blob', 'binary', 'varbinary', 'bytes') %}
    {{ return('binary') }}
  {% else %}
    {{ return('other') }}
  {% endif %}
{% endmacro %}
