"""Bad records and hostile text against Neo4j: refused in one line before anything is written, or
written and found; a search of any text never breaks; a search asks for as many turns as it likes.

Each record of the table is either refused with one ``DataError`` line (its batch writes nothing)
or written and searchable, never a traceback; every string of Lucene's and Cypher's syntax is
searched, everywhere and within conversations whose ids hold that syntax too, and finds what the
memory in RAM finds over the same turns.
"""

from __future__ import annotations

import pytest

from graphmem import Memory
from graphmem.errors import DataError
from graphmem.store.neo4j.checks import delete
from graphmem.store.neo4j.search import CANDIDATES

from tests.neo4j.test_neo4j import server_or_skip

CONV = "records-test"
LUCENE_CONV = '*:* OR "x\\" \\ scope:(a)'
CYPHER_CONV = '") OR 1=1 // } MATCH (n) DETACH DELETE n'
CONVERSATIONS = (CONV, LUCENE_CONV, CYPHER_CONV, "a b", "x a b y", "quokkas")

SYNTAX = ['*:*', '") OR 1=1 //', "\\", "a\\", '"', "'", "AND", "OR NOT", "[a TO b]", "{x}", "title:foo", "~2 ^3",
          '+-&&||!(){}[]^"~*?:\\/', "MATCH (n) DETACH DELETE n", "$q.k", "`x`", "\x00", "scope:(a) terms:heron"]
"""Query syntax of Lucene and Cypher, as user text."""


def _rec(id_: object, text: object = "hello", speaker: object = "Ann", **more: object) -> dict:
    return {"id": id_, "speaker": speaker, "text": text, "conversation": CONV, **more}


REFUSED = [
    (_rec(5), "'id' must be a non-empty string"),
    (_rec("b1", speaker=None), "'speaker' must be a non-empty string"),
    (_rec("b1", text=["hi"]), "'text' must be a non-empty string"),
    (_rec("b1", date=20230101), "'date' must be a string, not int"),
    (_rec("b1", conversation=["x"]), "'conversation' must be a non-empty string"),
    (_rec("b1", text="a lone \udc80"), "'text' is not valid Unicode"),
    (_rec("b1", speaker="A\ud800"), "'speaker' is not valid Unicode"),
    (_rec("b1\udfff"), "'id' is not valid Unicode"),
    (_rec("b1", turn=2**63), "'turn' must be a whole number from 0 to 2\\*\\*63 - 1"),
    (_rec("b1", turn=10**30), "'turn' must be a whole number"),
    (_rec("b1", turn=-1), "'turn' must be a whole number"),
    (_rec("b1", turn=True), "'turn' must be a whole number"),
    (_rec("b1", turn=1.0), "'turn' must be a whole number"),
    (_rec(""), "'id' must be a non-empty string"),
    (_rec("b1", speaker=""), "'speaker' must be a non-empty string"),
    (_rec("b1", ""), "'text' must be a non-empty string"),  # an empty text is refused (records.visible)
    (_rec("b1", conversation=""), "'conversation' must be a non-empty string"),
    (_rec("b1", date="0000-01-01"), "cannot read the date"),
    (_rec("b1", date="10000-01-01"), "cannot read the date"),
    (_rec("i" * 20_000), "'id' is 20000 characters long, more than 1000"),
    (_rec("b1", speaker="S" * 20_000), "'speaker' is 20000 characters long, more than 200"),
    (_rec("b1", conversation="c" * 20_000), "'conversation' is 20000 characters long, more than 1000"),
    (_rec("b1", user="u" * 20_000), "'user' is 20000 characters long, more than 200"),
    (_rec("w-nul\x00id"), "'id' holds a control character"),  # a name holds none: a user's keys are marked with one
    (_rec("b1", speaker="A\x00nn"), "'speaker' holds a control character"),
    (_rec("b1", conversation="c\x01"), "'conversation' holds a control character"),
    (_rec("b1", ""), "'text' must be a non-empty string"),  # was written once: every store now refuses it
    (_rec("b1", "\u200b"), "'text' shows no character \\(only spaces or invisible ones\\)"),
]

ASKED_TEXT = 100_000
"""The longest text the test also asks about: the readable reply's phrase search
(``graphmem.answer.readable._phrase``) weighs every run of words in a clause, a cost that grows with
the square of the clause, so one clause of a 1 MB text would take the reader an hour."""

WRITTEN = [  # (record, a query that must find it)
    (_rec("w-turn-max", "The biggest turn number, a pangolin.", turn=2**63 - 1), "pangolin"),
    (_rec("w-year1", "I planted the oak yesterday, last week and last year.", date="0001-01-01"), "oak yesterday"),
    (_rec("w-year9999", "I will plant the elm tomorrow, next week and next year.", date="9999-12-31T23:59:59"),
     "elm tomorrow"),
    (_rec("w-1mb", ("lorem ipsum okapi " * 60_000)[:1_000_000]), "okapi"),
    (_rec("w-1mb-word", "x" * 1_000_000), None),
    (_rec("w-10k-word", "zebra " + "q" * 10_000), "zebra"),
    (_rec("w-nul-text", "nul\x00byte walrus"), "walrus"),
    (_rec("a/b/c", "an id with slashes heron"), "heron"),
    (_rec("it's \"quoted\"", "a quoted id pelican"), "pelican"),
    (_rec('") OR 1=1 //', "a cypher id flamingo"), "flamingo"),
    (_rec("*:*", "a lucene id albatross"), "albatross"),
    (_rec("\\", "a backslash id osprey"), "osprey"),
    (_rec("w-syntax", 'lucene text *:* ") OR 1=1 // \\ AND OR NOT TO [a TO b] {x} ~2 ^3 "unclosed swift'), "swift"),
    (_rec("w-syntax-speaker", "a hostile speaker swallow", speaker='*:* "Ann\\'), "swallow"),
    (_rec("w-lucene-conv", "a lucene conversation kestrel", conversation=LUCENE_CONV), "kestrel"),
    (_rec("w-cypher-conv", "a cypher conversation merlin", conversation=CYPHER_CONV), "merlin"),
    (_rec("w-long", "a long id and conversation crane", conversation="c" * 1000), "crane"),
    (_rec("i" * 1000, "the longest id ibis"), "ibis"),
    (_rec("w-long-speaker", "the longest speaker stork", speaker="S" * 200), "stork"),
]


@pytest.fixture(scope="module")
def client():
    c = server_or_skip()
    for conv in CONVERSATIONS + ("c" * 1000,):
        delete(c, conv)
    yield c
    for conv in CONVERSATIONS + ("c" * 1000,):
        delete(c, conv)
    c.close()


@pytest.fixture(scope="module")
def memories(client):
    """The memory in Neo4j and one in RAM, both holding the same good turn to start with."""
    good = [_rec("good", "A good turn about a heron by the lake.")]
    mem, ram = Memory(backend="neo4j"), Memory()
    assert mem.ingest(good) == ram.ingest(good) == 1
    yield mem, ram
    mem.close()


def _held(client) -> int:
    return client.run("MATCH (t:Turn) WHERE t.conversation IN $c RETURN count(t) AS n", c=list(CONVERSATIONS))[0]["n"]


@pytest.mark.parametrize("bad, message", REFUSED, ids=[m[:40] for _, m in REFUSED])
def test_a_bad_record_is_refused_in_one_line_before_anything_is_written(client, memories, bad, message):
    mem, _ = memories
    before = _held(client)
    with pytest.raises(DataError, match=r"record 1 \(id .*\): " + message) as err:
        mem.ingest([_rec("refused-batch-mate", "written with a bad record: never"), bad])
    assert "\n" not in str(err.value) and len(str(err.value)) < 400, str(err.value)
    assert _held(client) == before


@pytest.mark.parametrize("good, asked", WRITTEN, ids=[str(r["id"])[:20] for r, _ in WRITTEN])
def test_a_hostile_record_is_written_and_searchable_as_in_ram(memories, good, asked):
    mem, ram = memories
    assert mem.ingest([good]) == ram.ingest([good]) == 1
    conv = good["conversation"]
    assert any(t.id == good["id"] and t.text == good["text"] for t in mem.turns(conv))  # kept verbatim
    if asked is not None:
        found = mem.search(asked, k=50, conversation=conv)
        assert good["id"] in found and set(found) == set(ram.search(asked, k=50, conversation=conv))
    if len(good["text"]) <= ASKED_TEXT:
        assert isinstance(mem.ask(f"What about {asked or 'it'}?", conversation=conv).reply, str)


@pytest.fixture(scope="module")
def hostile(memories):
    """Both memories holding every record of :data:`WRITTEN` (whichever the test above wrote already)."""
    mem, ram = memories
    for good, _ in WRITTEN:
        mem.ingest([good])
        ram.ingest([good])
    return mem, ram


@pytest.mark.parametrize("text", SYNTAX)
def test_query_syntax_in_user_text_never_breaks_a_search(hostile, text):
    mem, ram = hostile
    for conv in (CONV, LUCENE_CONV, CYPHER_CONV):
        for q in (text, f"Who said {text} about the heron?"):
            assert set(mem.search(q, k=50, conversation=conv)) == set(ram.search(q, k=50, conversation=conv)), (q, conv)
    assert isinstance(mem.search(text, k=5), list) and isinstance(mem.ask(text).reply, str)


def test_a_search_of_one_conversation_keeps_to_it_whatever_its_id_holds(client):
    mem = Memory(backend="neo4j")
    mem.ingest([{"id": f"s-{c}", "speaker": "Ann", "text": "The puffin sang.", "conversation": c}
                for c in ("a b", "x a b y")])
    assert mem.search("puffin", conversation="a b") == ["s-a b"]
    assert mem.search("puffin", conversation="x a b y") == ["s-x a b y"]
    mem.close()


def test_k_above_the_candidates_returns_k_turns_as_the_memory_in_ram_does(client):
    turns = [{"id": f"q{i}", "speaker": "Ann", "text": f"The quokka number {i} smiled.", "conversation": "quokkas"}
             for i in range(160)]
    mem, ram = Memory(backend="neo4j"), Memory()
    mem.ingest(turns)
    ram.ingest(turns)
    k = 150
    assert k > CANDIDATES
    for conv in ("quokkas", None):
        found = mem.search("quokka", k=k, conversation=conv)
        assert len(found) == k and len(set(found)) == k
        assert found == ram.search("quokka", k=k, conversation=conv)
    assert len(mem.search("quokka", k=500)) == 160
    mem.close()
