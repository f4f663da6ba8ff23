"""The deck-list file reader every game uses."""

import pytest

from adjudicator.engine.decklist import entries
from adjudicator.engine.protocol import Malformed


def test_entries_split_on_spaces_commas_semicolons_and_lines_and_skip_comments():
    assert entries("A A, B;C  # normals\n\nD E\nF # special", "letters") == ["A", "A", "B", "C", "D", "E", "F"]


def test_a_json_array_is_read_as_it_is():
    assert entries('["S3", " HK", "JK1"]', "card ids") == ["S3", "HK", "JK1"]


@pytest.mark.parametrize(
    "text, message, path",
    [
        ("  \n", "the deck list is empty: list its letters", "line 1"),
        ('["A", 2]', "a JSON deck list is an array of letters (strings)", "$"),
        ("[A, B", "the deck list looks like JSON but does not decode", "$"),
    ],
)
def test_bad_deck_lists_are_malformed_with_a_path(text, message, path):
    with pytest.raises(Malformed) as err:
        entries(text, "letters")
    assert err.value.message.startswith(message) and err.value.path == path
