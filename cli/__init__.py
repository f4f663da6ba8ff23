"""The ``adj`` command: parse, call ``adjudicator``, print text or JSON. It knows no rules."""
