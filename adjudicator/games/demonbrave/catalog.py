"""The rule-card catalog (rules §10.3). THIS IS A SAMPLE.

The seed prints the text of one rule card only (``<J>``, DB-EFF-11). Everything else here is
either the chapter's hypothetical test cards (DB-EFF-13: ``T-NEG``, ``T-REV``, ``T-BURN``,
``T-BOUNCE``), placeholders whose text is not transcribed (all fields unknown, DB-EFF-12), or
sample cards made up to show the primitive ops (ids ``SAMPLE-...``). None of them except
``<J>`` is a real DemonBrave card. A match may bring its own catalog in ``match_started``.

Op templates may use "$TARGET" (the first of the activation's ``targets``), "$CONTROLLER"
and "$OPPONENT".
"""

from __future__ import annotations

from adjudicator.games.demonbrave.events import Effect, RuleCard

_REVERSE = ({"op": "REVERSE_ORDER", "scope": "ALL", "duration": {"kind": "END_PHASE", "turn": "CURRENT"}},)

SAMPLE_CATALOG: tuple[RuleCard, ...] = (
    RuleCard(
        id="J",
        label="<J>",
        source="S:49-51",
        effects=(
            Effect(
                effect_id="J.reverse",
                summary="strength order of playing cards reversed until the end phase of the current turn",
                canonical_ops=_REVERSE,
            ),
        ),
    ),
    RuleCard(
        id="T-NEG",
        label="<T-NEG>",
        source="DB-EFF-13 (hypothetical test card)",
        effects=(
            Effect(
                effect_id="T-NEG.negate",
                summary="negate the targeted chain entry",
                usable_in_opponent_turn=True,
                canonical_ops=({"op": "NEGATE", "entry_id": "$TARGET"},),
            ),
        ),
    ),
    RuleCard(
        id="T-REV",
        label="<T-REV>",
        source="DB-EFF-13 (hypothetical test card)",
        effects=(Effect(effect_id="T-REV.reverse", summary="as <J>", usable_in_opponent_turn=False, canonical_ops=_REVERSE),),
    ),
    RuleCard(
        id="T-BURN",
        label="<T-BURN>",
        source="DB-EFF-13 (hypothetical test card)",
        effects=(
            Effect(
                effect_id="T-BURN.burn",
                summary="each player loses 1 life",
                canonical_ops=(
                    {"op": "LOSE_LIFE", "player": "$CONTROLLER", "amount": 1},
                    {"op": "LOSE_LIFE", "player": "$OPPONENT", "amount": 1},
                ),
            ),
        ),
    ),
    RuleCard(
        id="T-BOUNCE",
        label="<T-BOUNCE>",
        source="DB-EFF-13 (hypothetical test card)",
        effects=(
            Effect(
                effect_id="T-BOUNCE.bounce",
                summary="return one of the activator's field cards to their hand",
                usable_in_opponent_turn=True,
                canonical_ops=({"op": "MOVE", "card": "$TARGET", "from": "field", "to": "hand", "player": "$CONTROLLER"},),
            ),
        ),
    ),
    RuleCard(
        id="SAMPLE-GUARD",
        label="<SAMPLE-GUARD>",
        source="sample (made up to show SET_STATUS)",
        effects=(
            Effect(
                effect_id="SAMPLE-GUARD.protect",
                summary="one of the activator's cards cannot be trashed until the end phase",
                usable_in_opponent_turn=True,
                limit_per_turn=1,
                canonical_ops=(
                    {"op": "SET_STATUS", "target": "$TARGET", "status": "CANNOT_BE_TRASHED", "player": "$CONTROLLER", "duration": {"kind": "END_PHASE"}},
                ),
            ),
        ),
    ),
    RuleCard(
        id="SAMPLE-HEAL",
        label="<SAMPLE-HEAL>",
        source="sample (made up to show GAIN_LIFE and a per-game limit)",
        effects=(
            Effect(
                effect_id="SAMPLE-HEAL.heal",
                summary="the activator gains 1 life, once per game",
                usable_in_opponent_turn=False,
                limit_per_game=1,
                canonical_ops=({"op": "GAIN_LIFE", "player": "$CONTROLLER", "amount": 1},),
            ),
        ),
    ),
    RuleCard(
        id="SAMPLE-RALLY",
        label="<SAMPLE-RALLY>",
        source="sample (made up to show RESET_ATTACK)",
        effects=(
            Effect(
                effect_id="SAMPLE-RALLY.again",
                summary="one of the activator's units may attack once more this turn",
                usable_in_opponent_turn=False,
                limit_per_turn=1,
                canonical_ops=({"op": "RESET_ATTACK", "unit": "$TARGET", "player": "$CONTROLLER"},),
            ),
        ),
    ),
) + tuple(
    RuleCard(
        id=f"X-{n}",
        label=f"<X-{n}>",
        source="placeholder (text not transcribed; DB-EFF-12)",
        effects=(Effect(effect_id=f"X-{n}.effect", summary="unknown"),),
    )
    for n in range(1, 6)
)
