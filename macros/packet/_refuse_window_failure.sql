{#
  An approval holds only while nothing recorded since says its rows were built through too narrow a window.
  Refused here, under the table's lock and before anything is written (the target unchanged), when the trail
  (_window_proof_trail, read as a plan reads it) holds a failure not proven since:
    - on one of the packet's partitions, for any code: a later plan found that partition's window too narrow;
    - on any partition for the packet's own code, when the packet relied on a recorded proof instead of making
      its own: the proof it relied on no longer stands.
  A packet whose plan proved over the whole history cleared every earlier failure of its partitions with its own
  passed row; an unwindowed packet (its builds read the whole inputs) has nothing to check.
#}
{% macro _refuse_window_failure(target_relation, run_id, model, source, partitions, ledger) %}
  {% set proof = ((source or {}).get('windows') or {}).get('proof') %}
  {% if not proof or not proof.get('binding') %}{{ return(none) }}{% endif %}
  {% set trail = dbt_backfill._window_proof_trail(target_relation, proof.binding) %}
  {% if trail is none %}{{ return(none) }}{% endif %}
  {% set values = partitions | map(attribute='value') | map('string') | list %}
  {% set held = values | select('in', trail.outstanding.keys() | list) | list %}
  {% set own_code = [] if proof.get('proven_by_this_plan') else trail.of_this_code.keys() | sort %}
  {% set failed = held or own_code %}
  {% if failed %}
    {% do dbt_backfill._refuse('window_proof_failed',
        'the input window of partition(s) ' ~ dbt_backfill._few(failed) ~ ' was found too narrow since this packet was '
        ~ 'planned (run ' ~ (trail.outstanding if held else trail.of_this_code)[failed[0]] ~ '): '
        ~ ('the rows it would publish were built through that window' if held
           else 'the proof over the whole history it relied on no longer stands for its code') ~ '. Nothing was '
        ~ 'replaced; the target is unchanged. Plan again (the next plan proves the windows over the whole history): `'
        ~ dbt_backfill._plan_command(ledger, run_id, model, values | join(',')) ~ '`.',
        {'partitions': failed, 'binding': proof.binding}) %}
  {% endif %}
{% endmacro %}
