{#
  The sentence the terminal and the written plan say of the windows' evidence (one text for both): what this plan
  checked and the whole-history proof it made or relies on; where excluded columns differ between two windowed
  builds (_window_excluded_check), that the windows are not proven for them.
#}
{% macro _window_evidence(windowing, proof, binding) %}
  {% set unsettled = windowing.get('excluded_unsettled') %}
  {% if unsettled %}
    {{ return('not proven for excluded column(s): in ' ~ dbt_backfill._few(unsettled | map('string') | list) ~ ' two '
        ~ 'windowed builds differ there (not deterministic), so they cannot be compared with the ' ~ ('whole' if proof.due
        else 'wider') ~ ' build; every other column of each partition\'s build b equals its windowed build a'
        ~ ('; no proof was recorded' if proof.due else '')) }}
  {% endif %}
  {% if proof.due %}
    {{ return('proven over the whole history by this plan for this code (sha256 ' ~ binding.sha256[:12] ~ '…; '
        ~ proof.why ~ '): each partition\'s build b, from the whole inputs, equals its windowed build a'
        ~ (', every column (the excluded ones too)' if windowing.get('excluded_compared') else '')) }}
  {% endif %}
  {{ return('checked around each partition in this plan: its build b, read ' ~ windowing.checked_before
      ~ ' day(s) before and ' ~ windowing.checked_after ~ ' after it (the declared window widened by a partition and its '
      ~ 'own reach on each side), equals its build a; proven over the whole history on ' ~ proof.last.at
      ~ ' for this code on partition(s) ' ~ dbt_backfill._few(proof.last.partitions | map('string') | list)
      ~ ' (sha256 ' ~ proof.last.sha256[:12] ~ '…, run ' ~ proof.last.run_id ~ ')') }}
{% endmacro %}
