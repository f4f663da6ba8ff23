"""The chain's caches of what is derived from the catalog (``chain._effect_index``,
``chain.canonical_ops``) give what a fresh lookup and a fresh decoding give, every time."""

from __future__ import annotations

import msgspec
import pytest

from adjudicator.games.demonbrave import chain as CH
from adjudicator.games.demonbrave import ops as O
from adjudicator.games.demonbrave.catalog import SAMPLE_CATALOG
from adjudicator.games.demonbrave.events import Effect, RuleCard


def _values(target, controller="alice", opponent="bob"):
    return {"$TARGET": target, "$CONTROLLER": controller, "$OPPONENT": opponent}


def _fresh(effect, values):
    return O.decode_ops(O.substitute(list(effect.canonical_ops), values))


def test_effect_index_is_the_first_card_and_effect_with_the_id():
    first = Effect(effect_id="X.e", summary="first")
    catalog = (
        RuleCard(id="X", effects=(first, Effect(effect_id="X.e", summary="second"))),
        RuleCard(id="X", effects=(Effect(effect_id="X.other"),)),
    )
    index = CH._effect_index(catalog)
    assert index[("X", "X.e")] is first
    assert ("X", "X.other") not in index  # a second card with the id is never looked at
    assert CH._effect_index(catalog) is index
    for rc in SAMPLE_CATALOG:
        for e in rc.effects:
            assert CH._effect_index(SAMPLE_CATALOG)[(rc.id, e.effect_id)] is e


@pytest.mark.parametrize("rc", SAMPLE_CATALOG, ids=lambda rc: rc.id)
def test_canonical_ops_as_decoded_afresh(rc):
    for effect in rc.effects:
        if effect.canonical_ops is None:
            continue
        for values in (_values("E1"), _values("S3", "bob", "alice"), _values("E1"), _values("E2")):
            assert CH.canonical_ops(effect, values) == _fresh(effect, values)


def test_canonical_ops_follow_every_placeholder_the_effect_uses():
    effect = Effect(effect_id="T.x", canonical_ops=({"op": "MOVE", "card": "$TARGET", "from": "field", "to": "hand", "player": "$CONTROLLER"},))
    a = CH.canonical_ops(effect, _values("S3"))
    b = CH.canonical_ops(effect, _values("H4"))
    c = CH.canonical_ops(effect, _values("S3", "bob", "alice"))
    assert (a[0].card, b[0].card, c[0].player) == ("S3", "H4", "bob")
    assert CH.canonical_ops(effect, _values("S3", opponent="carol")) is a  # $OPPONENT is not used
    with pytest.raises(O.OpError, match="needs target"):  # a missing target is refused every time
        CH.canonical_ops(effect, _values(None))
    with pytest.raises(O.OpError, match="needs target"):
        CH.canonical_ops(effect, _values(None))


def test_canonical_ops_are_frozen():
    """Shared by every resolution with the same values: nothing in them may change."""
    for rc in SAMPLE_CATALOG:
        for effect in rc.effects:
            for op in CH.canonical_ops(effect, _values("E1")) if effect.canonical_ops else ():
                assert type(op).__struct_config__.frozen
                assert all(isinstance(v, (str, int, bool, tuple, type(None), msgspec.Struct)) for v in msgspec.structs.astuple(op))
