"""Recorded matches: a match file (JSONL, one event a line) read, checked and adjudicated a line at
a time, and written back sealed. ``adj check``, ``adj import`` and the service's imports use it."""
