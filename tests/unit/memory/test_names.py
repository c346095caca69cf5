"""A name no record may hold (a user over 200 characters, an id or conversation over 1,000) is refused by
every verb in the same words as by ``ingest``, not answered as a partition that happens to be empty."""

import pytest

from graphmem import Memory
from graphmem.errors import DataError

LONG_USER = "u" * 201
LONG_KEY = "c" * 1001


def _verbs(mem: Memory, **named: object) -> dict:
    return {"search": lambda: mem.search("hi", **named), "ask": lambda: mem.ask("hi", **named),
            "search_conversations": lambda: mem.search_conversations("hi", **named),
            "facts": lambda: mem.facts("Ann", **named), "turns": lambda: list(mem.turns(**named)),
            "forget": lambda: mem.forget(**named)}


@pytest.mark.parametrize(("named", "line"), [
    ({"user": LONG_USER}, "user is 201 characters long, more than 200 (every store keys by it)"),
])
def test_a_user_longer_than_a_record_may_hold_is_refused_by_every_verb_alike(named, line):
    mem = Memory()
    mem.ingest([{"id": "a", "speaker": "Ann", "text": "hi"}])
    for verb, call in _verbs(mem, **named).items():
        with pytest.raises(DataError) as refused:
            call()
        assert str(refused.value) == line, verb
    with pytest.raises(DataError, match=r"^record 0 \(id 'b'\): 'user' is 201 characters long, more than 200"):
        mem.ingest([{"id": "b", "speaker": "Ann", "text": "hi", "user": LONG_USER}])


def test_a_conversation_or_id_longer_than_a_record_may_hold_is_refused():
    mem = Memory()
    with pytest.raises(DataError, match="^conversation is 1001 characters long, more than 1000"):
        mem.search("hi", conversation=LONG_KEY)
    with pytest.raises(DataError, match="^an id is 1001 characters long, more than 1000"):
        mem.forget(ids=[LONG_KEY])
    assert mem.search("hi", user="u" * 200) == [], "200 characters is a user's limit, not past it"
