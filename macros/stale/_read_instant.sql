{# The instant this read starts at (the transaction's, where the engine has one): everything read after it sees at
   least what was committed by then. #}
{% macro _read_instant() %}
  {{ return(dbt_backfill._utc_instant(dbt_backfill._execute('select cast(current_timestamp as ' ~ dbt.type_string()
                                                             ~ ') as bf_now').rows[0][0])) }}
{% endmacro %}
