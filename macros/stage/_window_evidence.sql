{#
  The sentence the terminal and the written plan say of the windows' evidence (one text for both): what this plan
  checked and the whole-history proof it made or relies on.
#}
{% macro _window_evidence(windowing, proof, binding) %}
  {% if proof.due %}
    {{ return('proven over the whole history by this plan for this code (sha256 ' ~ binding.sha256[:12] ~ '…; '
        ~ proof.why ~ '): each partition\'s build b, from the whole inputs, equals its windowed build a') }}
  {% endif %}
  {{ return('checked around each partition in this plan: its build b, read ' ~ windowing.checked_before
      ~ ' day(s) before and ' ~ windowing.checked_after ~ ' after it (the declared window widened by a partition and its '
      ~ 'own reach on each side), equals its build a; proven over the whole history on ' ~ proof.last.at
      ~ ' for this code on partition(s) ' ~ dbt_backfill._few(proof.last.partitions | map('string') | list)
      ~ ' (sha256 ' ~ proof.last.sha256[:12] ~ '…, run ' ~ proof.last.run_id ~ ')') }}
{% endmacro %}
