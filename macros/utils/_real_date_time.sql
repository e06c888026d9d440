{# Whether an ISO text the caller's pattern already matched ('YYYY-MM-DD', optionally 'THH:MM[:SS]' and an offset)
   names a real day and time: fromisoformat raises a bare ValueError on 2026-02-30 or 25:00, which would reach the
   user as a Python error instead of the refusal its caller words. Checked field by field, since Jinja cannot catch. #}
{% macro _real_date_time(text) %}
  {% set fields = modules.re.match('([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[T ]([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?)?(?:[.][0-9]+)?(?:[+-]([0-9]{2}):([0-9]{2}))?', text | string) %}
  {% if fields is none %}{{ return(false) }}{% endif %}
  {% set year, month, day = fields.group(1) | int, fields.group(2) | int, fields.group(3) | int %}
  {% if year < 1 or month < 1 or month > 12 or day < 1 %}{{ return(false) }}{% endif %}
  {% set first = modules.datetime.date(year, month, 1) %}
  {% set days_in_month = 31 if month == 12 else (modules.datetime.date(year, month + 1, 1) - first).days %}
  {% set hour, minute, second = (fields.group(4) or 0) | int, (fields.group(5) or 0) | int, (fields.group(6) or 0) | int %}
  {% set offset_hours, offset_minutes = (fields.group(7) or 0) | int, (fields.group(8) or 0) | int %}
  {{ return(day <= days_in_month and hour <= 23 and minute <= 59 and second <= 59 and offset_hours <= 23
            and offset_minutes <= 59) }}
{% endmacro %}
