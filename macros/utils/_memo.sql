{# A dict that lives for this dbt invocation, one per `kind`, kept in `graph` under the invocation's id (as
   _relation_columns keeps the columns): where a macro remembers what it computed from its arguments alone, so that
   computing it again costs no macro calls. dbt runs each macro call and each adapter.dispatch through Python (a
   dispatch that falls through to a default__ leaf raises and catches an exception per miss, each reading the whole
   environment), and the same texts were rebuilt thousands of times in an apply of 100 partitions (issue 57). #}
{% macro _memo(kind) %}
  {{ return(graph.setdefault('dbt_backfill_memo_' ~ kind, {}).setdefault(invocation_id, {})) }}
{% endmacro %}
