"""The memory tells person-assistant dialogue by who speaks, and leaves two-party dialogue alone."""

from __future__ import annotations

from graphmem.answer.reader import ReaderSettings
from graphmem.data.records import Record
from graphmem.memory.api import Memory
from graphmem.memory.options import MemoryOptions
from graphmem.memory.shape import is_assistant, reader_settings, reads_reply

USER = Record("u", "user", "I named my hamster Billy.", None, "s1", 0)
BOT = Record("a", "assistant", "Billy is a lovely name for a hamster!", None, "s1", 1)
ANN = Record("x", "Ann", "I adopted a dog.", None, "c", 0)
BOB = Record("y", "Bob", "What is its name?", None, "c", 1)


def test_roles_tell_the_shape():
    assert is_assistant("assistant") and is_assistant(" Assistant ") and not is_assistant("Ann")
    assert reads_reply(True, BOB, ANN) and not reads_reply(True, BOT, USER) and not reads_reply(True, USER, BOT)
    assert reads_reply(False, BOT, USER)


def test_reader_choice():
    base = ReaderSettings()
    assert reader_settings("assistant", base, [USER, BOT]).phrase
    assert not reader_settings("assistant", base, [ANN, BOB]).phrase
    assert reader_settings("always", base, [ANN]).phrase and not reader_settings("never", base, [BOT]).phrase


def _turns():
    return [{"id": "f", "speaker": "user", "text": "Tell me a recipe for pancakes.", "conversation": "s0", "turn": 0},
            {"id": "g", "speaker": "assistant", "text": "Mix flour, eggs and milk.", "conversation": "s0", "turn": 1},
            {"id": "u", "speaker": "user", "text": "I just named my hamster Billy.", "conversation": "s1", "turn": 0},
            {"id": "a", "speaker": "assistant", "text": "Billy is a lovely name for a hamster!",
             "conversation": "s1", "turn": 1}]


QUESTION = "What is the name of my hamster?"


def test_the_assistant_no_longer_outranks_the_user_through_the_users_words():
    told, untold = Memory(), Memory(options=MemoryOptions(shape=False))
    told.ingest(_turns())
    untold.ingest(_turns())
    # the assistant's reply echoes the user; with the user's turn as its second field it came first
    assert untold.search(QUESTION, k=1) == ["a"]
    assert told.search(QUESTION, k=1) == ["u"]


def test_the_bulk_index_reads_the_shape_as_the_live_one_does():
    live = Memory()
    bulk = Memory(options=MemoryOptions(rerank=lambda found, named: found))  # a strategy: the bulk index
    live.ingest(_turns())
    bulk.ingest(_turns())
    assert live._live is not None and bulk._live is None
    assert bulk.search(QUESTION, k=4) == live.search(QUESTION, k=4)
    assert bulk.search(QUESTION, k=1) == ["u"]
