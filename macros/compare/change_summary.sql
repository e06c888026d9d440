{#
  What replacing a partition of `target_relation` with `stage_relation` changes, by business key:
  {added, removed, changed, sample: [{key, columns: {column: {old, new}}}], added_keys, removed_keys, columns,
  excluded, compared}. One pair of _change_summaries: the plan asks for every partition's at once.

  Computed in the database, in one statement: each side is read once as lean rows (canonical key, each column's
  canonical text: the text the fingerprint digests), the two are joined by key, and a key is changed when one of
  its canonical columns differs — compared exactly, not by a digest or a sum a crafted row could make collide, and
  without computing a SHA-256 per row (docs/DECISIONS.md, row 84). The counts come back by one aggregate over the
  differing rows only (with each column's count of the changed keys where it differs: `columns`) and the samples as
  the first `sample_size` keys of each kind (a top-N, no sort of the differences); only for the sampled changed
  keys are the columns read and compared, in a second, key-restricted statement.
  `excluded`: the exclude_columns (names), compared too but apart: a key whose material columns are equal and whose
  excluded ones differ is not `changed`; `excluded` counts the kept keys whose excluded columns differ (their values
  apply rewrites unchecked by the fingerprint), and the first key whose only change is there follows the changed
  ones in `sample` (one: a run-level column changes every row, and its samples would drown the corrections). `target_rows`: the target partition's row count, which gives `compared` (the keys on
  both sides, the base of the plan's run-level columns: _column_notes).
  Plain SQL over the dispatched leaf canonical_text.
  `typed_by`: the relation whose columns type the stage side (the stale scan's session table holds the model's rows
  cast to the target's types, and several partitions, so it is read typed by the target and filtered by partition).
#}
{% macro change_summary(target_relation, stage_relation, scope, partition_value, sample_size=5, typed_by=none,
                        excluded=[], target_rows=none) %}
  {{ return(dbt_backfill._change_summaries([{'target': target_relation, 'stage': stage_relation, 'value': partition_value,
      'target_rows': target_rows}], scope, sample_size, typed_by, excluded)[0]) }}
{% endmacro %}
