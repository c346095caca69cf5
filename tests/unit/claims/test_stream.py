"""Claims read turn by turn equal the bulk reading of the same turns, and re-read only what a
name learnt later changes."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest

from graphmem.claims.extract import extract
from graphmem.claims.records import Reading
from graphmem.claims.stream import ConversationClaims
from graphmem.domain import Conversation, Session, Turn


def _differences(a: Reading, b: Reading) -> int:
    """How many ways two readings differ: claims (position by position), and the rest as one each."""
    n = sum(x != y for x, y in zip(a.claims, b.claims)) + abs(len(a.claims) - len(b.claims))
    n += (a.turns != b.turns) + (a.speakers != b.speakers) + (a.dates != b.dates)
    return n + (a.people.names() != b.people.names()) + (a.people.keys != b.people.keys)


def _prefix(conv: Conversation, k: int) -> Conversation:
    """The conversation's first ``k`` turns, as the bulk reader takes a conversation."""
    keep = {t.id for t in conv.turns[:k]}
    return replace(conv, sessions=tuple(replace(s, turns=tuple(t for t in s.turns if t.id in keep))
                                        for s in conv.sessions))


def _fed(conv: Conversation, size: int, speakers: tuple[str, ...] | None) -> tuple[ConversationClaims, dict]:
    """The conversation fed ``size`` turns at a time, and its claims as the changes reported them."""
    cc = ConversationClaims(speakers)
    kept: dict = {}
    turns = conv.turns
    for start in range(0, len(turns), size):
        change = cc.add(turns[start:start + size])
        assert set(change.reread) <= {t.id for t in turns[:start]}
        kept.update(change.claims)
    return cc, kept


def test_one_turn_at_a_time_equals_the_bulk_reading(dataset):
    """All ten conversations: the reading, and the claims as the changes reported them."""
    differences = 0
    for conv in dataset.conversations:
        cc, kept = _fed(conv, 1, conv.speakers)
        bulk = extract(conv)
        differences += _differences(cc.reading, bulk)
        assert [c for t in conv.turns for c in kept[t.id]] == bulk.claims
    assert differences == 0


@pytest.mark.parametrize("size", [3, 40, 10_000])
def test_batches_with_speakers_learnt_equal_the_bulk_reading(dataset, size):
    """Speakers not given: the first two who speak, in that order."""
    for conv in dataset.conversations:
        cc, kept = _fed(conv, size, None)
        first = tuple(dict.fromkeys(t.speaker for t in conv.turns))
        bulk = extract(replace(conv, speakers=first))
        assert _differences(cc.reading, bulk) == 0, conv.id
        assert [c for t in conv.turns for c in kept[t.id]] == bulk.claims


def test_every_prefix_checked_equals_the_bulk_reading(dataset):
    conv = dataset.conversations[0]
    cc = ConversationClaims(conv.speakers)
    for k, turn in enumerate(conv.turns, start=1):
        cc.add([turn])
        if k % 37 == 0:
            assert _differences(cc.reading, extract(_prefix(conv, k))) == 0, k


def _turn(dia_id: str, speaker: str, text: str) -> Turn:
    return Turn(dia_id, speaker, text, datetime(2023, 5, 8), session=1)


def _conv(turns: list[Turn]) -> Conversation:
    return Conversation("c", ("Ann", "Bob"), (Session(1, turns[0].date, "", tuple(turns)),))


def test_a_name_learnt_later_rereads_only_the_turns_it_changes():
    early = [_turn("D1:1", "Ann", "Max loves the park."), _turn("D1:2", "Bob", "That sounds lovely."),
             _turn("D1:3", "Ann", "I went hiking.")]
    cc = ConversationClaims(("Ann", "Bob"))
    cc.add(early)
    before = {c.turn_id: c.subject for c in cc.claims}
    assert before["D1:1"] == "ann"  # a subject naming nobody known is the speaker's
    change = cc.add([_turn("D1:4", "Ann", "My son Max is five.")])
    assert change.reread == ("D1:1",)
    assert set(change.claims) == {"D1:1", "D1:4"}
    assert {c.subject for c in change.claims["D1:1"]} == {"max"}
    assert _differences(cc.reading, extract(_conv(early + [_turn("D1:4", "Ann", "My son Max is five.")]))) == 0


def _trio(conv: Conversation) -> Conversation:
    """A LoCoMo conversation of three: every fifth turn said by a third speaker, Zed, who is
    addressed by the speaker after (or named: "Thanks, Caroline!" said by Zed is to Caroline)."""
    zed = {t.id for i, t in enumerate(conv.turns) if i % 5 == 4}
    sessions = tuple(replace(s, turns=tuple(replace(t, speaker="Zed") if t.id in zed else t for t in s.turns))
                     for s in conv.sessions)
    return replace(conv, speakers=tuple(dict.fromkeys(t.speaker for s in sessions for t in s.turns)), sessions=sessions)


@pytest.mark.parametrize("size", [1, 40])
def test_three_speakers_fed_in_batches_equal_the_bulk_reading(dataset, size):
    conv = _trio(dataset.conversations[0])
    bulk = extract(conv)
    assert len(bulk.people.speakers) == 3
    for speakers in (None, conv.speakers):
        cc, kept = _fed(conv, size, speakers)
        assert _differences(cc.reading, bulk) == 0
        assert [c for t in conv.turns for c in kept[t.id]] == bulk.claims


def test_a_third_party_who_starts_speaking_is_addressed_and_no_longer_introduced():
    """Cy, introduced as Ann's friend, speaks: the turns that named Cy are read again (a vocative
    now, not a mention), and "you" after Cy's turn is Cy."""
    early = [_turn("D1:1", "Ann", "My friend Cy bakes. Thanks, Cy, I love the cake."), _turn("D1:2", "Bob", "I went hiking.")]
    cc = ConversationClaims(None)
    cc.add(early)
    assert any("cy" in c.mentions for c in cc.claims)
    later = [_turn("D1:3", "Cy", "Thanks! I baked it on Sunday."), _turn("D1:4", "Bob", "You bake so well.")]
    change = cc.add(later)
    assert change.reread == ("D1:1",)
    assert not any("cy" in c.mentions for c in change.claims["D1:1"] if c.predicate != "call")
    assert len(cc.reading.people.speakers) == 3
    whole = Conversation("c", ("Ann", "Bob", "Cy"), (Session(1, early[0].date, "", tuple(early + later)),))
    assert _differences(cc.reading, extract(whole)) == 0


def test_restored_three_speakers_read_on_as_if_never_closed(dataset):
    conv = _trio(dataset.conversations[2])
    turns = conv.turns
    half = len(turns) // 2
    first = ConversationClaims(None)
    first.add(turns[:half])
    per_turn = [tuple(c for c in first.claims if c.turn_id == t.id) for t in turns[:half]]
    again = ConversationClaims.restore(None, turns[:half], per_turn)
    again.add(turns[half:])
    assert _differences(again.reading, extract(conv)) == 0


def test_one_speaker_is_read_and_you_names_no_one_until_a_second_speaks():
    cc = ConversationClaims(None)
    change = cc.add([_turn("D1:1", "Ann", "I adopted a dog. You would love him.")])
    assert [(c.subject, c.predicate) for c in change.claims["D1:1"]] == [("ann", "adopt")]  # "you": no one yet
    change = cc.add([_turn("D1:2", "Bob", "I went hiking.")])
    assert change.reread == ("D1:1",)  # whom it addresses changed: Bob now
    assert {(c.subject, c.predicate) for c in change.claims["D1:1"]} == {("ann", "adopt"), ("bob", "love")}


def test_restored_reads_on_as_if_never_closed(dataset):
    conv = dataset.conversations[1]
    turns = conv.turns
    half = len(turns) // 2
    first = ConversationClaims(conv.speakers)
    first.add(turns[:half])
    per_turn = [tuple(c for c in first.claims if c.turn_id == t.id) for t in turns[:half]]
    again = ConversationClaims.restore(conv.speakers, turns[:half], per_turn)
    for t in turns[half:]:
        again.add([t])
    assert _differences(again.reading, extract(conv)) == 0
