{#
  What backs the input windows a scan followed changes through, in words (issue 54): a scan names as candidates only
  the partitions whose windows reach a changed input row, so it relies on those windows as `plan` does. `proof`:
  _window_proof_due for this code (plan's rule: the last proof over the whole history for this binding, not failed
  since, within meta.backfill.window_proof_max_age). Returns {proven, at, run_id, said}; none when the inputs are
  read whole (no window to prove).
#}
{% macro _window_proof_said(model, windowing, proof) %}
  {% if windowing.mode != 'windowed' %}{{ return(none) }}{% endif %}
  {% set windows = windowing.before ~ ' day(s) before each partition and ' ~ windowing.after ~ ' after, from '
      ~ windowing.declared_by %}
  {% if proof.last %}
    {{ return({'proven': true, 'at': proof.last.at, 'run_id': proof.last.run_id,
               'said': 'the input windows it followed changes through (' ~ windows ~ ') are those the proof over the '
                   ~ 'whole history of ' ~ proof.last.at ~ ' (run ' ~ proof.last.run_id ~ ') holds for this code'}) }}
  {% endif %}
  {{ return({'proven': false, 'at': none, 'run_id': none,
             'said': 'no proof over the whole history backs the input windows it followed changes through (' ~ windows
                 ~ ') for this code: ' ~ proof.why ~ '. A changed input row was followed only into the partitions '
                 ~ 'those windows reach; were they too narrow, a partition it reaches beyond them would not have been '
                 ~ 'compared. The next plan of ' ~ model ~ ' proves them before it relies on them'}) }}
{% endmacro %}
