{# The scan in lines a person reads on dbt's log: what was looked at, one line per stale partition (rows and SHA-256
   on both sides, the change by business key, the inputs that changed in its window), the notes, and the plan that
   repairs them on both paths. #}
{% macro _say_stale(result) %}
  {% set lines = [result.model ~ ' (' ~ result.target ~ '), read at ' ~ result.read_at[:19] ~ ' UTC: '
      ~ (result.stale | length ~ ' of ' if result.stale else 'none of ') ~ result.scope.count ~ ' partition(s) ('
      ~ result.scope.how ~ ') differ(s) from what the model builds now; ' ~ result.compared ~ ' compared with the model, '
      ~ (result.scope.count - result.compared) ~ ' unchanged since what vouches for them' ~ (':' if result.stale else '.')] %}
  {% for s in result.stale %}
    {% do lines.append('  ' ~ s.value ~ '  ' ~ ('missing from the target' if s.kind == 'missing' else 'target ' ~ s.target.row_count
        ~ ' row(s) sha256 ' ~ s.target.sha256[:12] ~ '…') ~ '  model ' ~ s.model.row_count ~ ' row(s) sha256 ' ~ s.model.sha256[:12]
        ~ '…  +' ~ s.added ~ ' -' ~ s.removed ~ ' ~' ~ s.changed ~ '  (' ~ s.why | join('; ') ~ ')') %}
  {% endfor %}
  {% if result.windows.proof %}{% do lines.append('Windows: ' ~ result.windows.proof.said ~ '.') %}{% endif %}
  {% for note in result.notes %}{% do lines.append('Note: ' ~ note ~ '.') %}{% endfor %}
  {% if result.repair %}
    {% if result.repair.first %}{% do lines.append('First: ' ~ result.repair.first ~ '.') %}{% endif %}
    {% do lines.append('Repair: ' ~ result.repair.cli) %}
    {% do lines.append('  (pure dbt: ' ~ result.repair.pure_dbt ~ ')') %}
  {% endif %}
  {% for line in lines %}{% do log(line, info=true) %}{% endfor %}
{% endmacro %}
