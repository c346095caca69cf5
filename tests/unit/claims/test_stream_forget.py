"""Claims forgotten turn by turn (:meth:`ConversationClaims.forget`) equal a fresh reading of the turns
kept, and report exactly the kept turns whose claims changed."""

from __future__ import annotations

import random
from datetime import datetime

import pytest

from graphmem.claims.stream import ConversationClaims
from graphmem.domain import Turn

from .test_stream import _differences, _trio


def _fresh(turns: list[Turn], speakers: tuple[str, ...] | None) -> ConversationClaims:
    cc = ConversationClaims(speakers)
    cc.add(turns)
    return cc


def _forget_and_check(cc: ConversationClaims, turns: list[Turn], ids: set[str],
                      speakers: tuple[str, ...] | None) -> list[Turn]:
    """Forget ``ids`` from ``cc`` (holding ``turns``); check it against a fresh reading of the rest."""
    before = {t.id: tuple(c for c in cc.claims if c.turn_id == t.id) for t in turns}
    change = cc.forget(ids)
    kept = [t for t in turns if t.id not in ids]
    fresh = _fresh(kept, speakers)
    assert _differences(cc.reading, fresh.reading) == 0
    now = {t.id: tuple(c for c in fresh.claims if c.turn_id == t.id) for t in kept}
    assert change.claims == {d: c for d, c in now.items() if c != before[d]}
    assert set(change.reread) <= set(now)
    return kept


@pytest.mark.parametrize("three", [False, True])
def test_forgetting_equals_a_fresh_reading_of_the_rest(dataset, three):
    """Every LoCoMo conversation (and each as a trio, where whom "you" means hangs on the turn before):
    single turns forgotten at random, then five at once, then the first turn (its speaker may stop
    being the first to speak), each checked; then the turns held back are added, and checked too."""
    rng = random.Random(3)
    for conv in dataset.conversations:
        conv = _trio(conv) if three else conv
        turns, held_back = list(conv.turns[:-3]), list(conv.turns[-3:])
        speakers = None if conv.id != dataset.conversations[0].id else conv.speakers
        cc = _fresh(turns, speakers)
        for ids in ({rng.choice(turns).id}, {rng.choice(turns).id}, {t.id for t in rng.sample(turns, 5)}):
            turns = _forget_and_check(cc, turns, ids, speakers)
        turns = _forget_and_check(cc, turns, {turns[0].id}, speakers)
        cc.add(held_back)
        assert _differences(cc.reading, _fresh(turns + held_back, speakers).reading) == 0, conv.id


def _turn(dia_id: str, speaker: str, text: str) -> Turn:
    return Turn(dia_id, speaker, text, datetime(2023, 5, 8), session=1)


def test_forgetting_the_turn_that_named_someone_reads_the_earlier_turn_again():
    """"My son Max is five." made Max a person: without it, "Max loves the park." is Ann's again,
    and that turn alone is read again and reported."""
    turns = [_turn("D1:1", "Ann", "Max loves the park."), _turn("D1:2", "Bob", "That sounds lovely."),
             _turn("D1:3", "Ann", "I went hiking."), _turn("D1:4", "Ann", "My son Max is five.")]
    cc = _fresh(turns, None)
    assert {c.subject for c in cc.claims if c.turn_id == "D1:1"} == {"max"}
    change = cc.forget({"D1:4"})
    assert set(change.claims) == {"D1:1"} and {c.subject for c in change.claims["D1:1"]} == {"ann"}
    assert _differences(cc.reading, _fresh(turns[:3], None).reading) == 0


def test_forgetting_a_turn_moves_whom_the_next_turn_addresses():
    """Three speakers: "you" is the speaker of the turn before. Forget Cy's turn and Bob's "You bake
    so well." is said to Ann, as a conversation without Cy's turn reads it."""
    turns = [_turn("D1:1", "Ann", "I went hiking."), _turn("D1:2", "Cy", "I baked a cake."),
             _turn("D1:3", "Bob", "I love it."), _turn("D1:4", "Cy", "Thanks! I baked it on Sunday."),
             _turn("D1:5", "Bob", "You bake so well.")]
    cc = _fresh(turns, None)
    kept = _forget_and_check(cc, turns, {"D1:4"}, None)
    assert [t.id for t in kept] == ["D1:1", "D1:2", "D1:3", "D1:5"]


def test_losing_a_speaker_reads_the_rest_afresh():
    turns = [_turn("D1:1", "Ann", "I adopted a dog."), _turn("D1:2", "Bob", "I went hiking."),
             _turn("D1:3", "Ann", "My dog is called Rex.")]
    cc = _fresh(turns, None)
    change = cc.forget({"D1:2"})
    assert change.reread == ("D1:1", "D1:3")  # one speaker left: read as notes, their own claims kept
    assert {(c.turn_id, c.subject) for c in cc.claims} == {("D1:1", "ann"), ("D1:3", "ann")}
    assert _differences(cc.reading, _fresh([turns[0], turns[2]], None).reading) == 0


def test_forgetting_what_is_not_held_changes_nothing():
    turns = [_turn("D1:1", "Ann", "I adopted a dog."), _turn("D1:2", "Bob", "I went hiking.")]
    cc = _fresh(turns, None)
    assert cc.forget({"D9:9"}).claims == {} and len(cc) == 2


def test_a_restored_conversation_forgets_as_a_read_one(dataset):
    conv = dataset.conversations[4]
    turns = list(conv.turns)
    read = _fresh(turns, None)
    per_turn = [tuple(c for c in read.claims if c.turn_id == t.id) for t in turns]
    cc = ConversationClaims.restore(None, turns, per_turn)
    _forget_and_check(cc, turns, {turns[len(turns) // 2].id, turns[7].id}, None)



def test_a_word_no_longer_written_in_lower_case_can_name_someone_again():
    """"rex" written three times in lower case is an ordinary word, so "My dog Rex" named nobody and
    its sentence was let go; forget one of them and Rex is a candidate again: the sentence is parsed
    again, Rex is met, and the turns naming Rex are read again."""
    turns = [_turn("D1:1", "Ann", "My dog Rex is sweet."), _turn("D1:2", "Bob", "The rex and the rex."),
             _turn("D1:3", "Ann", "A rex too."), _turn("D1:4", "Bob", "Rex loves the park.")]
    cc = _fresh(turns, None)
    assert "rex" not in cc.reading.people.keys
    _forget_and_check(cc, turns, {"D1:3"}, None)
    assert "rex" in cc.reading.people.keys and {c.subject for c in cc.claims if c.turn_id == "D1:4"} == {"rex"}
