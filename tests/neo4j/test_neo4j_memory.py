"""The memory API over Neo4j: what one Memory ingests, the next one finds there."""

from dataclasses import asdict

import pytest

from graphmem import Memory
from graphmem.neo4j.load import delete
from graphmem.errors import DataError, Neo4jUnavailable
from graphmem.answer.reader import ABSTAIN

from tests.neo4j.test_neo4j import server_or_skip

CONV = "memory-api-test"
TURNS = [
    {"id": "mt1", "speaker": "Ann", "text": "I adopted a dog called Rex yesterday!", "date": "2023-05-08", "conversation": CONV},
    {"id": "mt2", "speaker": "Bob", "text": "Congrats! I went hiking in the Alps last week.", "date": "2023-05-08", "conversation": CONV},
]


@pytest.fixture
def clean():
    client = server_or_skip()
    delete(client, CONV)
    yield client
    delete(client, CONV)
    client.close()


def test_ingest_search_ask_and_a_second_memory_starts_from_the_database(clean):
    mem = Memory(backend="neo4j")
    assert mem.ingest(TURNS) == 2
    assert mem.search("Who went hiking in the Alps?", k=1) == ["mt2"]
    assert mem.ask("When did Ann adopt a dog?").reply == "7 May 2023"
    stored = clean.run("MATCH (t:Turn {conversation: $c}) RETURN t.id AS id ORDER BY id", c=CONV)
    assert [r["id"] for r in stored] == ["mt1", "mt2"]
    people = clean.run("MATCH (p:Person {conversation: $c})-[:SUBJECT_OF]->(:Assertion) RETURN DISTINCT p.name AS n ORDER BY n", c=CONV)
    assert {r["n"] for r in people} >= {"Ann", "Bob"}  # claims were read and kept, not just turns

    again = Memory(backend="neo4j")
    assert again.search("Who went hiking in the Alps?", k=1, conversation=CONV) == ["mt2"]
    more = {"id": "mt3", "speaker": "Ann", "text": "Rex chewed my slippers.", "date": "2023-05-09", "conversation": CONV}
    again.ingest([more])
    turns = clean.run("MATCH (t:Turn {conversation: $c}) RETURN count(t) AS n", c=CONV)[0]["n"]
    assert turns == 3


def test_turn_numbers_are_kept_and_both_backends_search_alike(clean):
    turns = [
        {"id": "mn1", "speaker": "Nate", "text": "I made coconut milk ice cream.", "date": "2023-05-08", "turn": 1},
        {"id": "mj1", "speaker": "Jo", "text": "Ooh, how did it turn out?", "date": "2023-05-08", "turn": 2},
        {"id": "mn2", "speaker": "Nate", "text": "Super good! Rich and creamy.", "date": "2023-05-08", "turn": 3},
        {"id": "mn3", "speaker": "Nate", "text": "And the turtles loved the leftovers.", "date": "2023-05-08", "turn": 5},
    ]
    turns = [{**t, "conversation": CONV} for t in turns]
    Memory(backend="neo4j").ingest(turns)
    stored = Memory(backend="neo4j")
    assert [r.turn for r in stored.records if r.conversation == CONV] == [1, 2, 3, 5]
    here = Memory()  # every record the database holds (ids made unique), so the same BM25 statistics
    here.ingest([{**asdict(r), "id": f"{r.conversation}/{r.id}"} for r in stored.records])
    for q in ("How did it turn out?", "ice cream", "Nate coconut"):
        found = [f"{CONV}/{i}" for i in stored.search(q, k=4, conversation=CONV)]
        assert found and found == here.search(q, k=4, conversation=CONV)


def test_a_bad_record_writes_nothing(clean):
    mem = Memory(backend="neo4j")
    with pytest.raises(DataError, match="missing 'speaker'"):
        mem.ingest([TURNS[0], {"id": "bad", "text": "no speaker", "conversation": CONV}])
    assert clean.run("MATCH (t:Turn {conversation: $c}) RETURN count(t) AS n", c=CONV)[0]["n"] == 0
    assert mem.ask("Who adopted a dog?", conversation=CONV).reply == ABSTAIN


def test_unreachable_neo4j_is_one_clear_error():
    with pytest.raises(Neo4jUnavailable, match="cannot reach Neo4j at bolt://127.0.0.1:1"):
        Memory(backend="neo4j", uri="bolt://127.0.0.1:1")


def test_cli_load_then_ask_and_search_over_neo4j(clean, tmp_path):
    import json

    from click.testing import CliRunner

    from graphmem.cli import main

    path = tmp_path / "turns.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in TURNS))
    loaded = CliRunner().invoke(main, ["load", "--data", str(path), "--quiet"])
    assert loaded.exit_code == 0, loaded.output
    asked = CliRunner().invoke(main, ["ask", "When did Ann adopt a dog?", "--backend", "neo4j", "--conversation", CONV])
    assert asked.exit_code == 0, asked.output
    assert asked.output.splitlines()[0] == "reply: 7 May 2023"
    assert f"  {CONV}/mt1  Ann (8 May 2023): I adopted a dog" in asked.output
    found = CliRunner().invoke(main, ["search", "hiking in the Alps", "--backend", "neo4j", "--conversation", CONV, "-k", "1"])
    assert found.output.strip().startswith(f"{CONV}/mt2  Bob")


def test_cli_load_keeps_a_turn_files_turn_numbers(clean, tmp_path):
    import json

    from click.testing import CliRunner

    from graphmem.cli import main

    turns = [{**t, "turn": n} for t, n in zip(TURNS, (1, 4))]  # two turns missing: mt2 is no reply to mt1
    path = tmp_path / "turns.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in turns))
    assert CliRunner().invoke(main, ["load", "--data", str(path), "--quiet"]).exit_code == 0
    stored = Memory(backend="neo4j")
    here = Memory()
    here.ingest(turns)
    assert [r for r in stored.records if r.conversation == CONV] == here.records  # turn numbers included
    # with the gap, Bob's turn is not read as a reply to Ann's: "dog" finds Ann's turn alone
    assert stored.search("Who adopted a dog?", k=2, conversation=CONV) == ["mt1"]
