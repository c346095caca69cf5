"""A query's arguments are checked once, by the memory (graphmem/memory/api.py ``_asked``), before
any store sees them: a k of the wrong type or below zero, or a conversation that is not an id, is
one DataError line, whichever verb was called and whichever store serves it."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import numpy as np
import pytest

from graphmem import Memory
from graphmem.domain import ABSTAIN
from graphmem.errors import DataError, GraphmemError

TURNS = [
    {"id": "d1", "speaker": "Ann", "text": "I adopted a dog called Rex yesterday!", "date": "2023-05-08", "conversation": "c1"},
    {"id": "d2", "speaker": "Bob", "text": "Congrats! I went hiking in the Alps last week.", "date": "2023-05-08", "conversation": "c1"},
]

VERBS = {
    "search": lambda mem, **kw: mem.search("Who adopted a dog?", **kw),
    "ask": lambda mem, **kw: mem.ask("Who adopted a dog?", **kw),
    "records_for": lambda mem, **kw: mem.records_for("Who adopted a dog?", **kw),
    "search_conversations": lambda mem, **kw: mem.search_conversations("Who adopted a dog?", **kw),
}


@pytest.fixture
def mem(tmp_path):
    """A saved memory whose store records every query that reaches it."""
    m = Memory(path=tmp_path / "m.db")
    m.ingest(TURNS)
    reached = []
    for name in ("search", "conversations"):
        real = getattr(m.store, name)
        setattr(m.store, name, lambda q, k, *rest, _real=real: reached.append(k) or _real(q, k, *rest))
    m.reached = reached
    yield m
    m.close()


@pytest.mark.parametrize("verb", VERBS)
@pytest.mark.parametrize("k", [1.5, "5", None, True, False, -1, 2.0, [3], np.float64(2)])
def test_a_k_that_is_not_a_whole_number_from_zero_is_one_line(mem, verb, k):
    with pytest.raises(DataError) as info:
        VERBS[verb](mem, k=k)
    message = str(info.value)
    assert message.startswith("k must be a whole number of results (0 or more)") and "\n" not in message
    assert mem.reached == []  # never reached the store


@pytest.mark.parametrize("verb", VERBS)
def test_k_zero_asks_nothing_and_numpy_ints_are_whole_numbers(mem, verb):
    empty = VERBS[verb](mem, k=0)
    assert (empty.reply, empty.cited) == (ABSTAIN, ()) if verb == "ask" else empty == []
    found = VERBS[verb](mem, k=np.int64(1))
    assert found.cited == ("d1",) if verb == "ask" else len(found) == 1
    asked = 1 if verb == "search_conversations" else max(1, mem.options.updates_window)  # the update rules' window
    assert mem.reached == [asked] and type(mem.reached[0]) is int


@pytest.mark.parametrize("verb", ["search", "ask", "records_for"])
@pytest.mark.parametrize("conversation", [1, b"c1", ["c1"], True])
def test_a_conversation_must_be_an_id_or_none(mem, verb, conversation):
    with pytest.raises(DataError, match=r"^conversation must be a non-empty string, not "):
        VERBS[verb](mem, conversation=conversation)
    assert mem.reached == []
    assert VERBS["search"](mem, conversation="c1", k=1) == ["d1"]
    assert VERBS["search"](mem, conversation="nowhere") == []


@pytest.mark.parametrize("asked_on", [20230509, 2023.5, ["2023-05-09"], object()])
def test_asked_on_of_an_odd_type_is_one_line(mem, asked_on):
    with pytest.raises(DataError, match="^asked_on must be a datetime, a date or a date string"):
        mem.search("What happened two days ago?", asked_on=asked_on)
    assert mem.search("What happened two days ago?", asked_on=date(2023, 5, 9)) == ["d1"]


def test_every_refusal_is_the_packages_own_error(mem):
    for verb in VERBS.values():
        for bad in ({"k": "5"}, {"k": -3}, {"asked_on": 5}):
            with pytest.raises(GraphmemError):
                verb(mem, **bad)


USERS = [{"id": "a", "speaker": "Ann", "text": "I live in Paris.", "conversation": "chat", "user": "u1"},
         {"id": "b", "speaker": "Bob", "text": "Paris is lovely.", "conversation": "chat", "user": "u1"}]
KEY = "\x01u1\x01"  # how the stores key user u1's ids and conversations (graphmem.store.users)

NAMED = {
    "search": lambda mem, **kw: mem.search("Paris", **kw),
    "ask": lambda mem, **kw: mem.ask("Where does Ann live?", **kw),
    "search_conversations": lambda mem, **kw: mem.search_conversations("Paris", **kw),
    "turns": lambda mem, **kw: list(mem.turns(**kw)),
    "facts": lambda mem, **kw: mem.facts("Ann", **kw),
    "claims": lambda mem, **kw: mem.claims("chat", **kw),
    "forget": lambda mem, **kw: mem.forget(ids=["a"], **kw),
}


@pytest.mark.parametrize("verb", NAMED)
@pytest.mark.parametrize("user", [5, ["u1"], "", " ", KEY + "x"])
def test_a_user_that_is_not_a_name_is_one_line(verb, user):
    mem = Memory()
    mem.ingest(USERS)
    with pytest.raises(DataError, match=r"^user (must be a non-empty string, not |'.*' holds a control character)"):
        NAMED[verb](mem, user=user)
    assert len(mem) == 2 and NAMED[verb](mem, user="u1") is not None


def test_a_key_made_by_hand_does_not_reach_another_users_turns():
    """Nothing crosses users: the stores' own keys for u1's turns, given with no user, are refused,
    not read as that user's conversation or ids."""
    mem = Memory()
    mem.ingest(USERS)
    for call in (lambda: mem.search("Paris", conversation=KEY + "chat"), lambda: list(mem.turns(conversation=KEY + "chat")),
                 lambda: mem.claims(KEY + "chat"), lambda: mem.forget(ids=[KEY + "a"]),
                 lambda: mem.forget(conversation=KEY + "chat")):
        with pytest.raises(DataError, match="holds a control character"):
            call()
    assert len(mem) == 2 and sorted(mem.search("Paris", user="u1")) == ["a", "b"]


@pytest.mark.parametrize("ids, message", [(5, "ids must be a list of ids, not int"), ([["a"]], "an id must be a non-empty string, not list"),
                                          ([5], "an id must be a non-empty string, not int"), ("a", "ids must be a list of ids, not one string")])
def test_ids_that_are_not_a_list_of_names_are_one_line(ids, message):
    mem = Memory()
    mem.ingest(USERS)
    with pytest.raises(DataError, match="^" + message + "$"):
        mem.forget(ids=ids, user="u1")
    assert len(mem) == 2


def test_a_moment_with_a_time_zone_is_refused_as_a_date_string_with_one_is():
    mem = Memory()
    mem.ingest(TURNS)
    aware = datetime(2023, 5, 9, tzinfo=timezone(timedelta(hours=-5)))
    for call in (lambda: mem.search("What happened two days ago?", asked_on=aware), lambda: mem.facts("Ann", as_of=aware),
                 lambda: mem.ingest([{**TURNS[0], "id": "d3", "date": aware}])):
        with pytest.raises(DataError, match="has a time zone; dates are kept without one"):
            call()
    assert len(mem) == 2 and mem.search("What happened two days ago?", asked_on=aware.replace(tzinfo=None)) == ["d1"]
