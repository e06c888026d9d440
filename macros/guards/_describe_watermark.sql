{# How a person names the watermark: max(col), the state relation, or the query. #}
{% macro _describe_watermark(state) %}
  {{ return('max(' ~ state.column ~ ')' if state.kind == 'column' else (state.relation if state.kind == 'relation' else state.query)) }}
{% endmacro %}
