"""graphmem load on the store's write path: a reload changes nothing (nodes, search statistics,
counters), ``--replace`` and a clean-up remove turns by forgetting them (the one way, under the
conversation's lock), a conflict found anywhere stops the load before anything is written, and an
older graphmem's schema met on the same server is put right."""

from __future__ import annotations

import pytest

from tests.neo4j.test_neo4j import emptied, handmade

from graphmem.errors import GraphmemError
from graphmem.store.neo4j.store import forget_conversations, load_conversations
from graphmem.store.neo4j.write import Writer

CONVS = ("load-paths-a", "load-paths-b", "load-paths-c")
STATE = """
UNWIND $ids AS id
MATCH (c:Conversation {id: id})
RETURN c.id AS id, c.indexed AS indexed, c.length AS length, c.speakers AS speakers,
       COUNT { MATCH (n {conversation: id}) } AS nodes,
       COUNT { MATCH (:Turn {conversation: id})<-[r]-() } AS into_turns
ORDER BY id
"""
TERMS = "MATCH (x:Term) RETURN x.owner AS owner, x.stem AS stem, x.df AS df, x.vdf AS vdf ORDER BY owner, stem"


@pytest.fixture
def clean():
    yield from emptied(*CONVS)


def test_a_reload_changes_nothing(clean):
    convs = [handmade(CONVS[0]), handmade(CONVS[1], twist="noodles")]
    first = load_conversations(clean, convs, batch=2)
    state, terms = clean.run(STATE, ids=list(CONVS)), clean.run(TERMS)
    again = load_conversations(clean, convs, batch=5)
    assert [c.found for c in again.counts] == [c.found for c in first.counts]
    assert all(c.ok for c in again.counts)
    assert clean.run(STATE, ids=list(CONVS)) == state
    assert clean.run(TERMS) == terms  # no document frequency counted twice


def test_replace_and_clean_up_forget_under_the_lock(clean, monkeypatch):
    before = clean.run(TERMS)
    load_conversations(clean, [handmade(CONVS[0])])
    forgotten: list[dict] = []
    real = Writer.forget

    def spy(self, gone):
        forgotten.append(dict(gone))
        return real(self, gone)

    monkeypatch.setattr(Writer, "forget", spy)
    report = load_conversations(clean, [handmade(CONVS[0])], replace=True)
    assert report.counts[0].ok
    assert [set(g.values()) for g in forgotten] == [{CONVS[0]}]  # every turn, one forgetting
    assert len(forgotten[0]) == report.counts[0].found["turns"]
    assert forget_conversations(clean, [CONVS[0]]) == report.counts[0].found["turns"]
    assert clean.run(STATE, ids=[CONVS[0]]) == []
    assert clean.run("MATCH (n {conversation: $c}) RETURN count(n) AS n", c=CONVS[0])[0]["n"] == 0
    assert clean.run(TERMS) == before  # the search statistics given back


def test_replace_forgets_the_turns_a_program_added(clean):
    from graphmem.memory.api import Memory

    load_conversations(clean, [handmade(CONVS[0])])
    with Memory(backend="neo4j") as mem:
        mem.ingest([{"id": "added-1", "speaker": "Mei", "text": "I joined the hike too.", "conversation": CONVS[0]}])
    report = load_conversations(clean, [handmade(CONVS[0])], replace=True)
    assert report.counts[0].ok and report.counts[0].found["turns"] == 6


def test_a_conflict_anywhere_stops_the_load_before_anything_is_written(clean):
    load_conversations(clean, [handmade(CONVS[0])])
    changed = handmade(CONVS[0], twist="noodles")
    with pytest.raises(GraphmemError, match="holds other turns under this file.s ids.*--replace"):
        load_conversations(clean, [handmade(CONVS[2]), changed])
    assert clean.run(STATE, ids=[CONVS[2]]) == []


def test_what_an_older_graphmem_made_is_dropped_again(clean):
    """An older graphmem run on the same server (bench/against_base.py) makes its schema again; the
    next start drops it, though every index this version needs is online (an index of the old
    schema: a constraint of it, term_stem, cannot be made while users share stems)."""
    clean.run("CREATE INDEX term_vdf IF NOT EXISTS FOR (x:Term) ON (x.vdf)")
    try:
        clean.ensure_schema()
        assert "term_vdf" not in {r["name"] for r in clean.run("SHOW INDEXES YIELD name RETURN name")}
    finally:
        clean.run("DROP INDEX term_vdf IF EXISTS")


def test_a_failed_first_conversation_fails_the_load_without_waiting_for_it(clean, monkeypatch):
    """The second writer waits for the first's first commit; a first that fails releases it."""
    real = Writer.ingest

    def failing(self, turns, given=None):
        if turns and turns[0].conversation == CONVS[0]:
            raise GraphmemError("the server went away")
        return real(self, turns, given)

    monkeypatch.setattr(Writer, "ingest", failing)
    with pytest.raises(GraphmemError, match="went away"):
        load_conversations(clean, [handmade(CONVS[0]), handmade(CONVS[1]), handmade(CONVS[2])])
