"""The memory tells person-assistant dialogue by who speaks, and leaves two-party dialogue alone."""

from __future__ import annotations

from graphmem.bench.research.store import research_memory
from graphmem.bench.research.strategies import Strategies
from graphmem.answer.reader import ReaderSettings
from graphmem.domain import Turn
from graphmem.memory.api import Memory
from graphmem.index.options import MemoryOptions
from graphmem.index.shape import is_assistant, reader_settings, reads_reply

USER = Turn("u", "user", "I named my hamster Billy.", None, "s1", 0)
BOT = Turn("a", "assistant", "Billy is a lovely name for a hamster!", None, "s1", 1)
ANN = Turn("x", "Ann", "I adopted a dog.", None, "c", 0)
BOB = Turn("y", "Bob", "What is its name?", None, "c", 1)


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
    bulk = research_memory(Strategies(rerank=lambda found, named: found))  # a strategy: the research index
    live.ingest(_turns())
    bulk.ingest(_turns())
    assert bulk.search(QUESTION, k=4) == live.search(QUESTION, k=4)
    assert bulk.search(QUESTION, k=1) == ["u"]


BOOK = [{"id": "u1", "speaker": "user", "text": "I am reading a book called Dune and love it.", "conversation": "s1"},
        {"id": "a1", "speaker": "assistant", "conversation": "s1",
         "text": "Reading is great! A good book before bed helps. Book apps for reading: Goodreads tracks every book you read."},
        {"id": "u2", "speaker": "user", "text": "Thanks for the tips on sleep.", "conversation": "s2"}]


def test_a_first_person_question_prefers_the_askers_own_turn():
    on, off = Memory(), Memory(options=MemoryOptions(asker=False))
    on.ingest(BOOK)
    off.ingest(BOOK)
    assert off.search("What book am I currently reading?") == ["a1", "u1"]  # the assistant's many "book"s
    assert on.search("What book am I currently reading?") == ["u1", "a1"]
    for q in ("Which book is good for reading?", "What book do you recommend?"):  # no first person: alike
        assert on.search(q) == off.search(q), q
    two = Memory()  # two people: no asker's turns, whoever speaks
    two.ingest([{**t, "speaker": "Ann" if t["speaker"] == "user" else "Bob"} for t in BOOK])
    assert two.store.index.askers.count == 0


def _as_chat(dataset) -> tuple[list[dict], list[str]]:
    """LoCoMo as person-assistant chat: each conversation's first speaker the user, the other the
    assistant; its questions about the user asked in the first person."""
    records, questions = [], []
    for c in dataset.conversations:
        user = c.speakers[0]
        records += [{"id": f"{c.id}/{t.id}", "speaker": "user" if t.speaker == user else "assistant",
                     "text": t.text, "date": t.date, "conversation": c.id} for t in c.turns]
        questions += [q.text.replace(user, "I") for q in c.questions if user in q.text][:40]
    return records, questions


def test_askers_are_kept_live_as_the_bulk_index_and_a_reopened_file_keep_them(dataset, tmp_path):
    records, questions = _as_chat(dataset)
    # users' turns first, the assistants' later: each conversation's first assistant turn marks its earlier ones
    order = sorted(range(len(records)), key=lambda i: (records[i]["speaker"] == "assistant", i))[:4000]
    live = Memory(path=tmp_path / "chat.db")
    for start in range(0, len(order), 50):
        live.ingest([records[i] for i in order[start:start + 50]])
    fed = [records[i] for i in order]
    bulk = research_memory(Strategies(rerank=lambda found, named: found))  # a strategy: the research index
    bulk.ingest(fed)
    assert live.store.index.askers.count == int(live.store.index.askers.mine.view().sum()) > 0
    for q in questions:
        assert live.search(q) == bulk.search(q), q
    live.close()
    with Memory(path=tmp_path / "chat.db") as again:
        assert [again.search(q) for q in questions] == [bulk.search(q) for q in questions]
    plain = Memory(options=MemoryOptions(asker=False))
    plain.ingest(fed)
    assert sum(bulk.search(q) != plain.search(q) for q in questions) > 0  # the rule does reorder
