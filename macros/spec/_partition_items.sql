{#
  The partition values a pure-dbt plan was given, each read one way: as the text typed. YAML reads an unquoted
  value by its own rules first (010 is the octal 8, 1_000 is 1000, yes is true, 1.10 is 1.1, ~ is null), so only
  a string, or an integer for an integer partition column, is taken as given; any other YAML value, or an integer
  for a column of another type, is refused with the quoted form to use. A value holding a control or invisible
  character is refused by its position: no partition is named so, and it would be printed raw.
  `partitions`: the operation's argument (a list, one value, or a comma-separated string); the partition column's type is read
  from `target_relation` only when a value is not a string. Returns the items as strings, ranges not yet expanded.
#}
{% macro _partition_items(partitions, partition_by, target_relation) %}
  {% set given = partitions.split(',') if partitions is string else partitions %}
  {# one unquoted value (`partitions: 2026-03-02`, YAML's date; an integer): a list of one, each item read below #}
  {% if given is not none and given is not mapping and given is not iterable %}{% set given = [given] %}{% endif %}
  {% if given is none or given is string or given is mapping or given is not iterable %}
    {% do dbt_backfill._fail('partitions must be a list of values, or one comma-separated string, got '
        ~ dbt_backfill._yaml_kind(given) ~ '. Nothing was changed.') %}
  {% endif %}
  {% if not given or '' in given %}
    {% do dbt_backfill._fail('partitions must be a comma-separated list of partition values, none empty, got '
        ~ dbt_backfill._shown_plain(partitions if partitions is string else tojson(partitions)) ~ '. Nothing was changed.') %}
  {% endif %}
  {% set items = [] %}
  {% for item in given %}
    {% if item is string %}
      {# every control, invisible format and line or paragraph separator character (Unicode categories Cc, Cf, Zl,
         Zp): the set the CLI's partitions file is read against (workflow/plan.py's hidden_character), equal to it
         code point by code point (tests/test_cli_in_process.py) #}
      {% set hidden = modules.re.search('[\\x00-\\x1f\\x7f-\\x9f\\xad\\u0600-\\u0605\\u061c\\u06dd\\u070f\\u0890-\\u0891\\u08e2\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb\\U000110bd\\U000110cd\\U00013430-\\U00013438\\U0001bca0-\\U0001bca3\\U0001d173-\\U0001d17a\\U000e0001\\U000e0020-\\U000e007f]', item) %}
      {% if hidden %}
        {% do dbt_backfill._fail('partition value ' ~ dbt_backfill._shown_plain(item) ~ ' holds a control or invisible character '
            ~ '(' ~ tojson(hidden.group(0)) ~ ', character ' ~ (hidden.start() + 1) ~ '): no partition '
            ~ 'is named so. Nothing was changed.') %}
      {% endif %}
      {% do items.append(item) %}
    {# an unquoted ISO day: YAML's date, whose text is exactly the day typed (YAML reads only YYYY-MM-DD as one) #}
    {% elif item.year is defined and item.hour is not defined %}
      {% do items.append(item.isoformat()) %}
    {% else %}
      {# read only here: most arguments are all strings, and the column need not be read for them #}
      {% set column_type = dbt_backfill._columns(target_relation, [partition_by], 'partition_by')[0].data_type %}
      {% if item is integer and item is not boolean and dbt_backfill._type_family(column_type) == 'integer' %}
        {% do items.append(item | string) %}
      {% else %}
        {% do dbt_backfill._fail('partition value ' ~ dbt_backfill._shown_plain(item | string if item.year is defined else tojson(item)) ~ ' was read by YAML as '
            ~ dbt_backfill._yaml_kind(item) ~ ', and ' ~ partition_by ~ ' is ' ~ column_type | lower ~ ': YAML rewrites an '
            ~ 'unquoted value before dbt-backfill sees it (010 becomes 8, yes becomes true, 1.10 becomes 1.1). Quote '
            ~ 'each value as you mean it: partitions: [\'<value>\', ...]. Nothing was changed.') %}
      {% endif %}
    {% endif %}
  {% endfor %}
  {{ return(items) }}
{% endmacro %}
