"""The memory API: ingest, search, ask, and bad records (in-memory backend; Neo4j in test_neo4j_memory)."""

import dataclasses

import pytest

from graphmem import Memory
from graphmem.errors import DataError, MisuseError
from graphmem.answer.reader import ABSTAIN

TURNS = [
    {"id": "d1", "speaker": "Ann", "text": "I adopted a dog called Rex yesterday!", "date": "2023-05-08", "conversation": "c1"},
    {"id": "d2", "speaker": "Bob", "text": "Congrats! I went hiking in the Alps last week.", "date": "2023-05-08", "conversation": "c1"},
    {"id": "d3", "speaker": "Ann", "text": "Rex loves the beach. We go every Sunday.", "date": "1:56 pm on 9 May, 2023", "conversation": "c1"},
    {"id": "e1", "speaker": "Cleo", "text": "My dog hates the beach.", "conversation": "c2"},
]


@pytest.fixture
def mem():
    m = Memory()
    assert m.ingest(TURNS) == 4
    return m


def test_search_returns_turn_ids_best_first(mem):
    assert mem.search("Who went hiking in the Alps?", k=1) == ["d2"]
    assert mem.search("dog beach", k=5)[0] in {"d3", "e1"}
    assert len(mem.search("dog", k=2)) == 2
    assert mem.search("quantum chromodynamics", k=3) == []


def test_a_named_person_searches_their_conversations_first(mem):
    assert mem.search("Does Cleo like the beach?", k=1) == ["e1"]
    assert mem.search("Does Ann like the beach?", k=1) == ["d3"]
    assert mem.search("beach", k=5, conversation="c2") == ["e1"]


def test_a_turn_said_to_a_person_is_not_about_them():
    m = Memory()
    m.ingest([
        {"id": "a1", "speaker": "Ann", "conversation": "c",
         "text": "I finally painted the old lake near my grandmother's house at sunrise last weekend."},
        {"id": "b1", "speaker": "Bob", "text": "Thanks, Ann! The lake is lovely.", "conversation": "c"},
    ])
    # Bob's short turn names Ann only to address her: indexed as written it would win
    assert m.search("Ann lake", k=2) == ["a1", "b1"]


def test_a_reply_is_found_by_the_turn_it_answers():
    turns = [
        {"id": "n1", "speaker": "Nate", "text": "I just made coconut milk ice cream for the first time.", "date": "2023-05-08"},
        {"id": "j1", "speaker": "Jo", "text": "Ooh, how did it turn out?", "date": "2023-05-08"},
        {"id": "n2", "speaker": "Nate", "text": "Super good! It was rich and creamy.", "date": "2023-05-08"},
    ]
    m = Memory()
    m.ingest(turns)
    # n2 shares no word with the question; the turn it replies to (j1) does, so n2 comes
    # second, below j1 itself (the context field weighs half)
    assert m.search("How did it turn out?", k=2) == ["j1", "n2"]
    # numbered turns with a gap of two: the turns before were never ingested, so no context
    gap = Memory()
    gap.ingest([{**t, "turn": n} for t, n in zip(turns, (1, 2, 5))])
    assert gap.search("How did it turn out?", k=2) == ["j1"]
    # one turn missing: the turn two back stands in (in a two-party dialogue, the
    # speaker's own previous turn), found by number whatever the order of ingest
    one_missing = Memory()
    one_missing.ingest([{**t, "turn": n} for t, n in zip(turns, (1, 2, 4))][::-1])
    assert one_missing.search("How did it turn out?", k=2) == ["j1", "n2"]
    # a new sitting (another date) is not a reply to the last turn of the one before
    apart = Memory()
    apart.ingest([turns[1], {"id": "n3", "speaker": "Nate", "text": "Guess what, I adopted a turtle.", "date": "2023-05-09"}])
    assert apart.search("How did it turn out?", k=2) == ["j1"]


def test_research_settings_are_options_passed_in():
    """Each choice of the index can be measured against its alternative by building a memory
    with other options; memories with different options live side by side."""
    from graphmem.index.options import MemoryOptions

    turns = [
        {"id": "n1", "speaker": "Nate", "text": "I just made coconut milk ice cream for the first time.", "date": "2023-05-08"},
        {"id": "j1", "speaker": "Jo", "text": "Ooh, how did it turn out?", "date": "2023-05-08"},
        {"id": "n2", "speaker": "Nate", "text": "Super good! It was rich and creamy.", "date": "2023-05-08"},
    ]
    shipped, bare = Memory(), Memory(options=MemoryOptions(context=False))
    shipped.ingest(turns)
    bare.ingest(turns)
    assert shipped.search("How did it turn out?", k=2) == ["j1", "n2"]
    assert bare.search("How did it turn out?", k=2) == ["j1"]  # no second field: n2 shares no word
    assert Memory().options == MemoryOptions()
    with pytest.raises(dataclasses.FrozenInstanceError):
        shipped.options.context = False


def test_a_question_naming_a_day_finds_the_turn_that_tells_of_it_a_day_later():
    m = Memory()
    m.ingest([
        {"id": "s1", "speaker": "Sam", "text": "I went to a Weight Watchers meeting yesterday.", "date": "2023-12-05"},
        {"id": "s2", "speaker": "Sam", "text": "The meeting was fun, I learned a lot.", "date": "2023-12-04"},
        {"id": "s3", "speaker": "Sam", "text": "We kayaked on the lake.", "date": "2023-12-20"},
    ])
    # s1 was said on the 5th about the 4th; s2 was said on the 4th: both are that day's
    assert set(m.search("What was Sam doing on December 4, 2023?", k=2)) == {"s1", "s2"}
    assert m.search("What did Sam do in December 2023 on the lake?", k=1) == ["s3"]


def test_ask_replies_cites_and_abstains_like_the_bench(mem):
    a = mem.ask("When did Ann adopt a dog?")
    assert a.reply == "7 May 2023"  # "yesterday", resolved against the turn's date
    assert a.cited[0] == "d1" and 0 < a.confidence <= 1
    b = mem.ask("Where did Bob go hiking?")
    assert "Alps" in b.reply
    quiet = mem.ask("What is the capital of Mongolia?")
    assert quiet.reply == ABSTAIN and quiet.quiet


def test_a_question_about_something_never_said_is_less_sure():
    from graphmem.index.options import MemoryOptions

    question = "Where did Ann take Rex and her parrot?"  # "parrot": no turn holds it
    counted, left_out = Memory(), Memory(options=MemoryOptions(sure_unseen=False))
    for m in (counted, left_out):
        m.ingest(TURNS)
    assert left_out.ask(question).confidence > counted.ask(question).confidence > 0
    said = "Does Rex love the beach?"
    assert counted.ask(said).confidence == left_out.ask(said).confidence  # every term known: the same


def test_bad_records_name_the_record_and_ingest_nothing(mem):
    cases = [
        ({"speaker": "Ann", "text": "hi"}, "missing 'id'"),
        ({"id": "x1", "text": "hi"}, "missing 'speaker'"),
        ({"id": "x1", "speaker": "Ann"}, "missing 'text'"),
        ({"id": "x1", "speaker": "Ann", "text": 42}, "'text' must be"),
        ({"id": "d1", "speaker": "Ann", "text": "again"}, "holds id 'd1' already, with other content"),
        ({"id": "x1", "speaker": "Ann", "text": "hi", "date": "someday"}, "cannot read the date"),
        ({"id": "x1", "speaker": "Ann", "text": "hi", "turn": "3"}, "'turn' must be a whole number"),
        ({"id": "x1", "speaker": "Ann", "text": "hi", "turn": -1}, "'turn' must be a whole number"),
        ("just a string", "expected an object"),
    ]
    for bad, message in cases:
        with pytest.raises(DataError, match=message) as err:
            mem.ingest([{"id": "ok1", "speaker": "Ann", "text": "fine"}, bad])
        assert "record 1" in str(err.value)
        assert len(mem) == 4  # nothing half-ingested: the good record before it was not kept either
    assert mem.search("fine", k=1) == []


def test_empty_memory_and_bad_backend():
    assert Memory().search("anything") == []
    assert Memory().ask("anything").reply == ABSTAIN
    with pytest.raises(MisuseError, match="unknown backend"):
        Memory(backend="sqlite")


def test_chinese_queries_meet_english_turns():
    from graphmem.text import zh as lingo

    if not lingo.available():
        pytest.skip("the zh extra (CC-CEDICT) is not installed")
    m = Memory()
    m.ingest(TURNS)
    assert m.search("Bob 徒步 阿尔卑斯山", k=1) == ["d2"]


def test_jsonl_turns_are_read_and_bad_lines_named(tmp_path):
    import json

    from graphmem.data.dialogue import conversations
    from graphmem.data.records import read_jsonl, validate

    good = tmp_path / "turns.jsonl"
    good.write_text("\n".join(json.dumps(t) for t in TURNS[:3]) + "\n\n")
    records = read_jsonl(good)
    assert [r.id for r in records] == ["d1", "d2", "d3"]
    [conv] = conversations(records)
    assert conv.id == "c1" and conv.speakers == ("Ann", "Bob") and len(conv.sessions) == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(TURNS[0]) + "\n{oops\n")
    with pytest.raises(DataError, match=r"bad.jsonl: line 2: not JSON"):
        read_jsonl(bad)
    bad.write_text(json.dumps(TURNS[0]) + "\n" + json.dumps({"id": "z", "text": "hi"}) + "\n")
    with pytest.raises(DataError, match=r"bad.jsonl: line 2: missing 'speaker'"):
        read_jsonl(bad)
    third = validate([{"id": "q", "speaker": "Zed", "text": "hi", "conversation": "c1"}])
    assert conversations(records + third)[0].speakers == ("Ann", "Bob", "Zed")
    with pytest.raises(DataError, match="one speaker"):
        conversations(records[:1])
