"""A match presented to people: event lines, histories with their branches, outcomes and what
changed in the table's words (``render``, ``changes``), and the judge's desk page drawn from the
kit's board model (``page`` and its ``templates``), which the server's pages draw with too.
Reads a match; never changes one."""
