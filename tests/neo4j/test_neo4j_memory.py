"""The memory API over Neo4j: the database searches, writes one transaction an ingest, and is
shared: what one Memory ingests, the next one (or another process) finds there."""

import json
import os
import signal
import subprocess
import sys

import pytest

from graphmem import Memory
from graphmem.index.query import Query
from graphmem.store.neo4j.store import Neo4jStore
from graphmem.index.options import MemoryOptions
from graphmem.store.neo4j.checks import delete
from graphmem.store.users import owner, scoped
from graphmem.errors import DataError, Neo4jUnavailable
from graphmem.answer.reader import ABSTAIN

from tests.conftest import REPO
from tests.neo4j.test_neo4j import emptied

CONV = "memory-api-test"
OTHER = "memory-api-other"
TURNS = [
    {"id": "mt1", "speaker": "Ann", "text": "I adopted a dog called Rex yesterday!", "date": "2023-05-08", "conversation": CONV},
    {"id": "mt2", "speaker": "Bob", "text": "Congrats! I went hiking in the Alps last week.", "date": "2023-05-08", "conversation": CONV},
]


@pytest.fixture
def clean():
    yield from emptied(CONV, OTHER)


def _count(client, conv=CONV):
    return client.run("MATCH (t:Turn {conversation: $c}) RETURN count(t) AS n", c=conv)[0]["n"]


def test_ingest_search_ask_and_a_second_memory_finds_it_in_the_database(clean):
    mem = Memory(backend="neo4j")
    assert mem.ingest(TURNS) == 2
    assert mem.search("Who went hiking in the Alps?", k=1, conversation=CONV) == ["mt2"]
    assert mem.ask("When did Ann adopt a dog?", conversation=CONV).reply == "7 May 2023"
    stored = clean.run("MATCH (t:Turn {conversation: $c}) RETURN t.id AS id ORDER BY id", c=CONV)
    assert [r["id"] for r in stored] == ["mt1", "mt2"]
    people = clean.run("MATCH (p:Person {conversation: $c})-[:SUBJECT_OF]->(:Assertion) RETURN DISTINCT p.name AS n", c=CONV)
    assert {r["n"] for r in people} >= {"Ann", "Bob"}  # claims were read and kept, not just turns

    again = Memory(backend="neo4j")
    assert again.search("Who went hiking in the Alps?", k=1, conversation=CONV) == ["mt2"]
    again.ingest([{"id": "mt3", "speaker": "Ann", "text": "Rex chewed my slippers.", "date": "2023-05-09", "conversation": CONV}])
    assert _count(clean) == 3
    assert mem.search("slippers", k=1, conversation=CONV) == ["mt3"]  # the first memory sees it at once


def test_lucene_proposes_the_askers_turns_as_the_ranking_weighs_them(clean):
    """With one candidate a search, Lucene's own choice decides: its query weighs the asker's mark,
    so the person's turn, which the boost puts first, is the one proposed; a conversation that
    meets its assistant late has its earlier person turns re-marked."""
    chat = [{"id": "u1", "speaker": "user", "text": "My book is Dune.", "conversation": CONV},
            {"id": "u2", "speaker": "user", "text": "I like sleep.", "conversation": CONV},
            {"id": "a1", "speaker": "assistant", "text": "Dune is a great book! A book a week, a book a day.", "conversation": CONV}]
    Memory(backend="neo4j").ingest(chat[:2])
    Memory(backend="neo4j").ingest(chat[2:])  # the assistant speaks: u1 and u2 become the asker's
    marks = clean.run("MATCH (t:Turn {conversation: $c}) RETURN t.id AS id, t.marks AS marks ORDER BY id", c=CONV)
    assert {r["id"]: "#asker" in (r["marks"] or "").split() for r in marks} == {"a1": False, "u1": True, "u2": True}
    one = Neo4jStore(MemoryOptions(), candidates=1)
    try:
        assert one.search(Query.parse("What book am I reading?"), 1, CONV)[0][0].id == "u1"  # (turn, score)
        assert one.search(Query.parse("Which book is good?"), 1, CONV)[0][0].id == "a1"  # no first person: the assistant's many "book"s
    finally:
        one.close()


def test_ids_are_unique_within_the_memory_as_in_every_store(clean):
    mem = Memory(backend="neo4j")
    mem.ingest(TURNS)
    assert mem.ingest(TURNS) == 0  # the same turns again: nothing new
    with pytest.raises(DataError, match="record 0 \\(id 'mt1'\\): the memory holds id 'mt1' already, with other content"):
        mem.ingest([{**TURNS[0], "conversation": OTHER, "text": "My axolotl Quetzalli sleeps all day."}])
    assert _count(clean) == 2 and _count(clean, OTHER) == 0
    assert mem.search("adopted a dog", k=1, conversation=CONV) == ["mt1"]


def test_a_bad_record_writes_nothing(clean):
    mem = Memory(backend="neo4j")
    with pytest.raises(DataError, match="missing 'speaker'"):
        mem.ingest([TURNS[0], {"id": "bad", "text": "no speaker", "conversation": CONV}])
    assert _count(clean) == 0
    assert mem.ask("Who adopted a dog?", conversation=CONV).reply == ABSTAIN


def test_start_up_reads_nothing_in_bulk(clean):
    Memory(backend="neo4j").ingest(TURNS)
    mem = Memory(backend="neo4j")
    client = mem.store.client
    at_start = client.rows_read
    indexes = len(client.query("schema_state"))
    assert at_start in (0, indexes)  # nothing but the list of indexes (once per process), whatever the data
    client.rows_read = 0
    mem.search("hiking", k=1)
    # one row of statistics, then only the hits: no candidate travels. The knowledge updates' rules
    # read the first updates_window turns found, so that many come back for k = 1; without them, one.
    assert client.rows_read <= 1 + max(1, mem.options.updates_window)
    plain = Memory(backend="neo4j", options=MemoryOptions(updates=False))
    plain.store.client.rows_read = 0
    plain.search("hiking", k=1)
    assert plain.store.client.rows_read <= 2


def test_a_program_goes_on_with_a_loaded_conversation_keeping_its_captions_and_sessions(clean, dataset):
    from graphmem.store.neo4j.checks import delete as drop
    from graphmem.store.neo4j.checks import require_loaded
    from graphmem.store.neo4j.plan import plan
    from graphmem.claims.build import mirror
    from graphmem.store.neo4j.load import load_conversations

    conv = next(c for c in dataset.conversations if c.id == "conv-26")
    try:
        load_conversations(clean, [conv], replace=True)
        captions = "MATCH (t:Turn {conversation: 'conv-26'}) WHERE t.caption IS NOT NULL RETURN count(t) AS n"
        sessions = "MATCH (:Conversation {id: 'conv-26'})-[:HAS_SESSION]->(s) RETURN s.index AS n, s.date_text AS text ORDER BY n"
        before, held = clean.run(captions)[0]["n"], clean.run(sessions)
        assert before > 0 and len(held) == len(conv.sessions)
        mem = Memory(backend="neo4j")
        last = conv.sessions[-1]
        added = [{"id": "conv-26/new1", "speaker": conv.speakers[0], "conversation": "conv-26",
                  "text": "I finished the mural of the lighthouse today!", "date": last.date.isoformat()},
                 {"id": "conv-26/new2", "speaker": conv.speakers[1], "conversation": "conv-26",
                  "text": "A lighthouse mural, wow.", "date": "2024-01-02"}]
        assert mem.ingest(added) == 2
        assert clean.run(captions)[0]["n"] == before  # the loaded turns keep their captions
        after = clean.run(sessions)
        assert after[:len(held)] == held and len(after) == len(held) + 1  # a new day, a new sitting; the old kept
        session_of = "MATCH (s:Session)-[:HAS_TURN]->(t:Turn {key: $k}) RETURN s.index AS n"
        assert clean.run(session_of, k="conv-26/new1")[0]["n"] == last.index  # the same day joins its sitting
        assert _count(clean, "conv-26") == len(conv.turns) + 2
        assert mem.search("finished the lighthouse mural", k=1, conversation="conv-26") == ["conv-26/new1"]
        assert mem.search("LGBTQ support group", k=1, conversation="conv-26")[0].startswith("conv-26/D")
        assert any(c.turn_id == "conv-26/new1" for c in mem.claims("conv-26"))
        with pytest.raises(Exception, match="another reading|not loaded"):  # the bench reads only what it loaded
            require_loaded(clean, [plan(conv, mirror(conv)[1])])
    finally:
        drop(clean, "conv-26")


WRITER = r"""
import sys
from graphmem import Memory
conv, name, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
mem = Memory(backend="neo4j")
for i in range(n):
    mem.ingest([{"id": f"{name}-{i}", "speaker": name, "text": f"{name} says thing number {i} about the garden.",
                 "conversation": conv, "date": "2023-06-01"}])
    print(f"{name}-{i}", flush=True)
"""


@pytest.mark.parametrize("writers", [2, 4])
def test_concurrent_writers_into_one_conversation_lose_nothing(clean, writers):
    n = 40
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, CONV, f"w{j}", str(n)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env) for j in range(writers)]
    acked = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
        acked.append(out.split())
    rows = clean.run("MATCH (t:Turn {conversation: $c}) RETURN t.id AS id, t.position AS position ORDER BY position", c=CONV)
    ids = [r["id"] for r in rows]
    assert sorted(ids) == sorted(i for a in acked for i in a)  # every acknowledged turn, none twice
    assert [r["position"] for r in rows] == list(range(writers * n))  # one order, decided in the database
    for a in acked:  # each writer's turns in the order it wrote them
        assert [i for i in ids if i in set(a)] == a
    searched = Memory(backend="neo4j").search("garden thing number 7", k=writers, conversation=CONV)
    assert sorted(searched) == sorted(f"w{j}-7" for j in range(writers))


KILLED = r"""
import sys, time
from graphmem import Memory
from graphmem.store.neo4j import client as nc
conv = sys.argv[1]
mem = Memory(backend="neo4j")
run = nc.Transaction.run
def stalled(self, name, **params):
    out = run(self, name, **params)
    if name == "index_turns":  # turns, sessions and people written, the transaction still open
        print("mid", flush=True)
        time.sleep(60)
    return out
nc.Transaction.run = stalled
mem.ingest([{"id": f"k{i}", "speaker": "Ann" if i % 2 else "Bob", "text": f"Turn {i} about kites.",
             "conversation": conv} for i in range(50)])
"""


def test_a_write_killed_mid_transaction_leaves_no_partial_turn(clean):
    Memory(backend="neo4j").ingest(TURNS)
    terms = "MATCH (x:Term {stem: 'kite'}) RETURN x.df AS df"
    before = clean.run(terms)
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    p = subprocess.Popen([sys.executable, "-c", KILLED, CONV], stdout=subprocess.PIPE, text=True, env=env)
    assert p.stdout.readline().strip() == "mid"
    p.send_signal(signal.SIGKILL)
    p.wait(timeout=30)
    assert _count(clean) == 2  # the killed ingest left nothing, the earlier one everything
    assert clean.run(terms) == before
    mem = Memory(backend="neo4j")
    assert mem.ingest([{"id": "k1", "speaker": "Ann", "text": "Kites again.", "conversation": CONV}]) == 1
    assert _count(clean) == 3


def test_unreachable_neo4j_is_one_clear_error():
    with pytest.raises(Neo4jUnavailable, match="cannot reach Neo4j at bolt://127.0.0.1:1"):
        Memory(backend="neo4j", uri="bolt://127.0.0.1:1")


def test_cli_load_then_ask_and_search_over_neo4j(clean, tmp_path):
    from click.testing import CliRunner

    from graphmem.cli import main

    path = tmp_path / "turns.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in TURNS))
    loaded = CliRunner().invoke(main, ["load", "--data", str(path), "--quiet"])
    assert loaded.exit_code == 0, loaded.output
    assert "2 turns searchable" in loaded.output
    asked = CliRunner().invoke(main, ["ask", "When did Ann adopt a dog?", "--backend", "neo4j", "--conversation", CONV])
    assert asked.exit_code == 0, asked.output
    assert asked.output.splitlines()[0] == "reply: 7 May 2023"
    assert f"  {CONV}/mt1  Ann (8 May 2023): I adopted a dog" in asked.output  # cited as conversation/id
    found = CliRunner().invoke(main, ["search", "hiking in the Alps", "--backend", "neo4j", "--conversation", CONV, "-k", "1"])
    assert found.output.strip().startswith(f"{CONV}/mt2  Bob")


def test_cli_load_keeps_a_turn_files_turn_numbers(clean, tmp_path):
    from click.testing import CliRunner

    from graphmem.cli import main

    turns = [{**t, "turn": n} for t, n in zip(TURNS, (1, 4))]  # two turns missing: mt2 is no reply to mt1
    path = tmp_path / "turns.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in turns))
    assert CliRunner().invoke(main, ["load", "--data", str(path), "--quiet"]).exit_code == 0
    numbers = clean.run("MATCH (t:Turn {conversation: $c}) RETURN t.number AS n ORDER BY n", c=CONV)
    assert [r["n"] for r in numbers] == [1, 4]
    # with the gap, Bob's turn is not read as a reply to Ann's: "dog" finds Ann's turn alone
    assert Memory(backend="neo4j").search("Who adopted a dog?", k=2, conversation=CONV) == ["mt1"]


def test_forgetting_an_ingest_leaves_the_database_as_it_was(clean):
    """Nodes and relationships return to what they were before the ingest: turns, sessions, people,
    assertions, terms no turn holds any more, the conversation itself."""
    shape = ("MATCH (n) WITH count(n) AS nodes CALL () { MATCH ()-[r]->() RETURN count(r) AS rels }"
             " RETURN nodes, rels")
    before = clean.run(shape)
    mem = Memory(backend="neo4j")
    mem.ingest(TURNS + [{"id": "mt9", "speaker": "Ann", "text": "Zyxwv the quokka met Rex at the lake.",
                         "date": "2023-05-10", "conversation": CONV}])
    assert clean.run(shape) != before
    assert mem.forget(ids=["mt9"]) == 1 and mem.search("quokka zyxwv", k=1, conversation=CONV) == []
    assert mem.forget(conversation=CONV) == 2
    assert clean.run(shape) == before


def _written(client, conv=CONV) -> dict:
    """What the database holds of a conversation, but for its lock (a fresh value each write), its epoch
    (a fresh value each forgetting) and its sessions' numbers (a session forgetting empties goes, and
    the numbers after it stay): its turns with their search
    fields and places, sessions by day, people, assertions, relationships, and the terms its turns count in."""
    turns = client.run("MATCH (t:Turn {conversation: $c}) RETURN t {.*, session: null} AS t ORDER BY t.position",
                       c=conv)
    stems = sorted({x for r in turns for x in r["t"].get("bag") or []})
    return {
        "turns": turns,
        "conversation": client.run("MATCH (c:Conversation {id: $c}) RETURN c {.*, lock: null, epoch: null} AS c", c=conv),
        "sessions": client.run("MATCH (s:Session {conversation: $c}) RETURN s.day AS day ORDER BY day", c=conv),
        "people": client.run("MATCH (p:Person {conversation: $c}) RETURN p {.*} AS p ORDER BY p.key", c=conv),
        "assertions": client.run("MATCH (a:Assertion {conversation: $c}) RETURN a {.*} AS a ORDER BY a.key", c=conv),
        "links": client.run("MATCH (n {conversation: $c})-[r]->(m) RETURN CASE WHEN n:Session THEN toString(n.day)"
                            " ELSE n.key END AS a, type(r) AS r, m.key AS b ORDER BY a, r, b", c=conv),
        "terms": client.run("UNWIND $stems AS s MATCH (x:Term {stem: s}) RETURN s, x.df AS df, x.vdf AS vdf", stems=stems),
    }


def test_forgetting_turns_in_place_writes_what_an_ingest_of_the_rest_writes(clean):
    """Forgetting changes only what it changed (the turn that replied to a forgotten one, a vocative
    naming a speaker met only in it, the claims and people read from it, the places after it): the
    database then holds what an ingest of the kept turns alone writes, term counts included."""
    turns = TURNS + [
        {"id": "mt3", "speaker": "Cy", "text": "Hi Ann! I'm Cy, I sell boats in Qwvzu.", "date": "2023-05-08", "conversation": CONV},
        {"id": "mt4", "speaker": "Ann", "text": "Nice to meet you, Cy! My sister Jo lives there.", "date": "2023-05-08",
         "conversation": CONV},
        {"id": "mt5", "speaker": "Bob", "text": "Rex loves boats.", "date": "2023-05-11", "conversation": CONV},
        {"id": "mt6", "speaker": "Ann", "text": "He does! Jo sails too.", "date": "2023-05-12", "conversation": CONV},
    ]
    mem = Memory(backend="neo4j")
    mem.ingest(turns[:3])
    mem.ingest(turns[3:])
    assert mem.forget(ids=["mt3", "mt5"]) == 2
    after = _written(clean)
    assert [t["t"]["id"] for t in after["turns"]] == ["mt1", "mt2", "mt4", "mt6"]
    delete(clean, CONV)
    Memory(backend="neo4j").ingest([t for t in turns if t["id"] not in ("mt3", "mt5")])
    assert _written(clean) == after


def test_a_conversation_an_older_graphmem_refused_says_so_until_forgotten(clean):
    """A graphmem that read two-party dialogue alone marked a conversation with a third speaker
    refused and wrote none of its claims: asked for them now, it says why and what to do;
    forgotten and ingested again, it has them."""
    mem = Memory(backend="neo4j")
    trio = TURNS + [{"id": "mt3", "speaker": "Cy", "text": "I baked bread, Ann.", "date": "2023-05-09", "conversation": CONV}]
    mem.ingest(trio)
    want = mem.claims(CONV)
    clean.run("MATCH (c:Conversation {id: $c}) SET c.refused = 'a third speaker' "
              "WITH c MATCH (a:Assertion {conversation: $c}) DETACH DELETE a", c=CONV)
    with pytest.raises(DataError, match="two-party dialogue only .* forget it and ingest it again"):
        mem.claims(CONV)
    mem.forget(conversation=CONV)
    mem.ingest(trio)
    assert mem.claims(CONV) == want


def test_the_memory_marks_which_named_parties_are_people(clean):
    """Rex, a dog called Rex, is a named party of the conversation but no person; Bob's friend Jo
    is one; when a later turn says Jo is a puppy, Jo stops being one."""
    mem = Memory(backend="neo4j")
    mem.ingest(TURNS + [{"id": "mt3", "speaker": "Bob", "text": "My friend Jo loves dogs.", "date": "2023-05-09",
                         "conversation": CONV}])
    human = lambda: {r["id"]: r["human"] for r in clean.run(
        "MATCH (p:Person {conversation: $c}) RETURN p.id AS id, p.human AS human", c=CONV)}
    assert human() == {"ann": True, "bob": True, "rex": False, "jo": True}
    Memory(backend="neo4j").ingest([{"id": "mt4", "speaker": "Bob", "text": "Jo, my puppy, is asleep.",
                                     "date": "2023-05-10", "conversation": CONV}])
    assert human()["jo"] is False


def test_deleting_a_conversation_leaves_no_term_behind(clean):
    """``graphmem load --replace`` and a clean-up delete through ``delete``: a term only that
    conversation held goes with it, as it does when the memory forgets the conversation."""
    Memory(backend="neo4j").ingest([{"id": "dq1", "speaker": "Ann", "text": "Qwxzy the okapi slept.",
                                     "date": "2023-05-10", "conversation": CONV},
                                    {"id": "dq2", "speaker": "Bob", "text": "Good night, Ann.", "date": "2023-05-10",
                                     "conversation": CONV}])
    assert clean.run("MATCH (x:Term {stem: 'qwxzi'}) RETURN count(x) AS n")[0]["n"] + \
        clean.run("MATCH (x:Term {stem: 'qwxzy'}) RETURN count(x) AS n")[0]["n"] == 1
    delete(clean, CONV)
    left = clean.run("MATCH (x:Term) WHERE x.stem IN ['qwxzi', 'qwxzy', 'okapi'] OR (x.df = 0 AND x.vdf = 0)"
                     " RETURN count(x) AS n")
    assert left[0]["n"] == 0


def test_facts_read_claims_holding_the_characters_their_fields_are_joined_with(clean):
    """``facts`` reads each claim as one string of fields joined by U+001F (mentions by U+001E); a claim
    holding either is read field by field instead, and the facts are the RAM memory's."""
    turns = [{"id": "fj1", "speaker": "Ann", "text": "I live in Paris\x1f and I work as a nurse\x1e now.",
              "date": "2023-05-08", "conversation": CONV},
             {"id": "fj2", "speaker": "Bob", "text": "Paris is lovely, Ann!", "date": "2023-05-08", "conversation": CONV}]
    mem, ram = Memory(backend="neo4j"), Memory()
    mem.ingest(turns)
    ram.ingest(turns)
    assert mem.facts("Ann") == ram.facts("Ann") and any("\x1f" in f.sentence for f in mem.facts("Ann"))


def test_a_database_of_terms_shared_by_users_is_counted_again_per_user(clean):
    """A database graphmem wrote before each user's statistics were their own held one Term per stem, no
    owner: the schema step counts every user's Terms again from the turns' fields (term_owners.cypher),
    to what this version's writes keep, and the searches are as before."""
    with Memory(backend="neo4j") as mem:
        mem.ingest(TURNS + [{**t, "user": "ann"} for t in TURNS])
        terms = "MATCH (x:Term) WHERE x.owner IN ['~none', $ann] RETURN x.owner AS o, x.stem AS s, x.df AS df, x.vdf AS vdf ORDER BY o, s"
        before = clean.run(terms, ann=owner("ann"))
        found = [mem.search("Who adopted a dog?", user=u) for u in (None, "ann")]
        clean.run("MATCH (x:Term) WHERE x.owner = $ann DETACH DELETE x", ann=owner("ann"))
        clean.run("MATCH (x:Term) WHERE x.owner = '~none' REMOVE x.owner")  # as the old writes left them
        assert _count_again(clean) > 0
        assert clean.run(terms, ann=owner("ann")) == before
        assert clean.run("MATCH (x:Term) WHERE x.owner IS NULL RETURN count(x) AS n")[0]["n"] == 0
        assert [mem.search("Who adopted a dog?", user=u) for u in (None, "ann")] == found
        assert _count_again(clean) == 0  # nothing left to count again
    delete(clean, scoped(CONV, "ann"))


def _count_again(client) -> int:
    """term_owners.cypher, with the schema step's bound (it reads every turn of the database)."""
    from graphmem.store.neo4j.client import STARTUP_WAIT, Transaction

    rows = client.execute(lambda tx: Transaction(tx, client).run("term_owners", p={}), True, "counting again", STARTUP_WAIT)
    return rows[0]["old"]
