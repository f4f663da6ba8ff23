"""The bounded JSON reader's short cut for compact lines gives what the full check gives.

``read_json`` skips the walk of a line that is short, has few brackets and is compact, its keys in
any order (as every exported or sealed line is, and what most tools write). These tests hold it to
the full check: any JSON object gives the same value either way, and what the full check refuses
is still refused when it looks compact.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.engine.inputs import MAX_DEPTH, read_json
from adjudicator.engine.protocol import Malformed
from events.envelope import canonical

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@given(st.dictionaries(st.text(max_size=8), json_values, max_size=6))
def test_a_canonical_line_reads_as_json_reads_it(obj):
    """Small values: within every limit, so both ways accept them, with the same value."""
    try:
        text = canonical(obj).decode()
    except UnicodeEncodeError:  # a lone surrogate has no canonical bytes
        return
    assert read_json(text, "line 1") == obj == json.loads(text)


@given(st.dictionaries(st.text(max_size=8), json_values, max_size=6))
def test_a_compact_line_in_any_key_order_reads_as_json_reads_it(obj):
    text = json.dumps(dict(reversed(list(obj.items()))), separators=(",", ":"), ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return
    assert read_json(text, "line 1") == obj == json.loads(text)


@pytest.mark.parametrize("text", ['{"a":1,"a":1}', '{"b":{"a":1,"a":2},"a":0}', '{"z":0,"a":1,"a":1}'])
def test_a_key_given_twice_is_refused_on_a_short_line(text):
    with pytest.raises(Malformed) as got:
        read_json(text, "line 3")
    assert got.value.message == "line 3: key 'a' is given twice in one object"


def test_nesting_beyond_the_limit_is_refused_on_a_short_line():
    text = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    with pytest.raises(Malformed) as got:
        read_json(text, "line 2")
    assert "nested more than 32 levels deep" in got.value.message


def test_an_escaped_lone_surrogate_is_refused_on_a_short_line():
    with pytest.raises(Malformed) as got:
        read_json('{"a":"\\ud800"}', "line 4")
    assert got.value.path.startswith("line 4")
