"""Preferring what holds (graphmem.memory.updates): a later saying of what a question asks, by the
same person, comes before the earlier one it replaced; the day asked decides what is later."""

from __future__ import annotations

from graphmem import Memory
from graphmem.index.options import MemoryOptions

FOLLOWERS = [
    {"id": "old", "speaker": "user", "text": "I have 500 followers on Instagram and I post every day.",
     "date": "2023-05-01", "conversation": "s1"},
    {"id": "reply", "speaker": "assistant", "text": "Great work on Instagram! Followers grow with posts.",
     "date": "2023-05-01", "conversation": "s1"},
    {"id": "new", "speaker": "user", "text": "I just checked: 600 followers on Instagram now.",
     "date": "2023-06-01", "conversation": "s2"},
    {"id": "cat", "speaker": "user", "text": "My cat sleeps all day.", "date": "2023-06-02", "conversation": "s2"},
]
QUESTION = "How many followers do I have on Instagram?"


def _memory(records=FOLLOWERS, **options) -> Memory:
    mem = Memory(options=MemoryOptions(**options))
    mem.ingest(records)
    return mem


def test_the_later_saying_comes_first_and_the_earlier_follows():
    assert _memory(updates=False).search(QUESTION, k=2)[0] == "old"  # the store's order
    found = _memory().search(QUESTION, k=3)
    assert found[0] == "new" and found.index("old") < found.index("reply")


def test_what_was_said_after_the_day_asked_replaces_nothing():
    assert _memory().search(QUESTION, k=1, asked_on="2023-05-15") == ["old"]
    assert _memory().search(QUESTION, k=1, asked_on="2023-06-01") == ["new"]


def test_another_speakers_later_turn_replaces_nothing():
    records = [{**r, "speaker": "friend"} if r["id"] == "new" else r for r in FOLLOWERS]
    assert _memory(records).search(QUESTION, k=1) == _memory(records, updates=False).search(QUESTION, k=1)


def test_a_later_turn_that_covers_too_little_of_the_question_replaces_nothing():
    records = [{**r, "text": "I post on Instagram a lot."} if r["id"] == "new" else r for r in FOLLOWERS]
    assert _memory(records).search(QUESTION, k=1) == ["old"]


def test_a_question_about_the_earlier_state_is_left_as_found_unless_it_asks_for_now_too():
    assert _memory().search("How many followers did I initially have on Instagram?", k=1) == ["old"]
    assert _memory().search("How many followers did I have on Instagram before, and now?", k=1) == ["new"]


def test_the_confidence_reads_the_turns_a_turn_replaced():
    """A turn put first by the kinds' rule may not hold the question's words; the answer's
    confidence is that of the turn it replaced, so the memory does not fall silent."""
    move = [{"id": "m1", "speaker": "Alice", "text": "I live in Paris.", "date": "2023-01-10", "conversation": "c"},
            {"id": "m2", "speaker": "Bob", "text": "Lovely, Alice!", "date": "2023-01-10", "conversation": "c"},
            {"id": "m3", "speaker": "Alice", "text": "I moved from Paris to Berlin.", "date": "2023-06-02",
             "conversation": "c"}]
    mem, plain = _memory(move), _memory(move, updates=False)
    answer, before = mem.ask("Where does Alice live?"), plain.ask("Where does Alice live?")
    assert answer.cited[0] == "m3" and before.cited[0] == "m1"
    assert answer.confidence == before.confidence > 0
