{#
  How an approval was proven, read from the audit trail (`partitions`, `history` and the notes that name a run say
  it): "key SHA256:… of <principal>" for each key its `approved` row's detail says signed it (_signatures_said wrote
  them), and "the login of role <role>" for each role in `logins`, the roles whose own login recorded it and did not
  withdraw it (PostgreSQL names each row's writer; no role can write another's name). None: nothing proves who
  approved, a typed name.
#}
{% macro _approval_proof(detail, logins=[]) %}
  {% set each = [] %}
  {% for principal, key in modules.re.findall('([^,;()]+?) \\(key ([^,()]+), signed [^()]*\\)',
                                               (detail or '').partition('; signed by ')[2]) %}
    {% do each.append('key ' ~ key ~ ' of ' ~ principal.strip()) %}
  {% endfor %}
  {% for role in logins %}{% do each.append('the login of role ' ~ role) %}{% endfor %}
  {{ return(each | join(', ') if each else none) }}
{% endmacro %}
