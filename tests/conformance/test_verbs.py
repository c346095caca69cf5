"""``update``, metadata and hits on every store: RAM, one SQLite file and Neo4j (``store`` in conftest.py).

An update is held to what a forgetting is held to: afterwards every search, answer, claim and fact is
that of a memory that ingested the new record in place of the old one (forgetting is tested as equal to
never ingesting, so the reference ingests the others, then the new records in the order they came).
A metadata filter selects before the k best are taken, and every store selects the same turns.
"""

from __future__ import annotations

import random

import pytest

from graphmem import Memory
from graphmem.errors import DataError, MisuseError
from tests.conformance.test_stores import CHAT, LEANING, QUESTIONS, _refusal

TAGS = {"c1": {"source": "email", "n": 1}, "c3": {"source": "chat", "flag": True}, "c5": {"source": "email", "n": 2.5},
        "h1": {"source": "chat", "n": 1.0}, "h3": {"source": "sms", "flag": False}, "u1": {"source": "email", "note": "é ok"}}
TAGGED = [{**r, "metadata": TAGS[r["id"]]} if r["id"] in TAGS else r for r in CHAT]

FILTERS = [{"source": "email"}, {"source": ["chat", "sms"]}, {"n": 1}, {"flag": True}, {"flag": False},
           {"source": "email", "n": 2.5}, {"source": "nowhere"}, {"n": "1"}]


def _locomo(dataset, ids=("conv-26", "conv-30")) -> list[dict]:
    convs = [c for c in dataset.conversations if c.id in ids]
    return [{"id": f"{c.id}/{t.id}", "speaker": t.speaker, "text": t.text, "date": t.date, "conversation": c.id}
            for c in convs for t in c.turns]


def _changed(record: dict, n: int, texts: list[str]) -> dict:
    """A new record for ``record``'s turn: another text, and by turns another speaker, date or metadata."""
    change = {"text": texts[n % len(texts)]}
    if n % 3 == 1:
        change["date"] = "2024-02-0%d" % (1 + n % 9)
    if n % 4 == 2:
        change["metadata"] = {"source": "edit", "n": n}
    return change


def test_an_update_leaves_a_memory_that_ingested_the_new_record(store, dataset):
    """40 LoCoMo turns changed one by one (text, date, metadata): the memory is a fresh one's that
    ingested the other turns and then the new records, in every search, answer, claim and fact."""
    records = _locomo(dataset)
    mem = store()
    for start in range(0, len(records), 300):
        mem.ingest(records[start:start + 300])
    mem.claims("conv-30")  # claims read before an update are read again after
    picked = random.Random(11).sample(records, 40)
    texts = [r["text"] for r in random.Random(12).sample(records, 40)]
    new = []
    for n, old in enumerate(picked):
        change = _changed(old, n, texts)
        turn = mem.update(old["id"], **change)
        new.append({**old, **change})
        assert (turn.id, turn.text, turn.conversation) == (old["id"], change["text"], old["conversation"])
    gone = {r["id"] for r in picked}
    fresh = Memory()
    fresh.ingest([r for r in records if r["id"] not in gone])
    fresh.ingest(new)
    assert len(mem) == len(fresh) == len(records) and list(mem.turns()) == list(fresh.turns())
    questions = [q.text for c in dataset.conversations if c.id in ("conv-26", "conv-30") for q in c.questions]
    for q in questions[::4][:80] + texts[:10]:
        assert mem.search(q, k=5) == fresh.search(q, k=5), q
    for q in questions[::7][:20]:
        assert mem.ask(q) == fresh.ask(q), q
    for conv in ("conv-26", "conv-30"):
        assert mem.claims(conv) == fresh.claims(conv), conv
    for who in ("Caroline", "Melanie", "Jon", "Gina"):
        assert mem.facts(who) == fresh.facts(who), who
    assert mem.search(texts[0], k=1, where={"source": "edit"}) == fresh.search(texts[0], k=1, where={"source": "edit"})


def test_updating_a_turn_others_read_by_leaves_a_memory_that_ingested_the_new_record(store):
    """Three speakers: the turn that made Max a person says something else, then a reply's turn changes
    speaker, then one changes back: every claim, fact and search is a fresh memory's each time."""
    mem = store()
    mem.ingest(LEANING)
    mem.claims("trio")
    order = [dict(r) for r in LEANING]
    for tid, change in (("t4", {"text": "The park was busy today."}), ("t5", {"speaker": "Cy"}),
                        ("t4", {"text": "My son Max is five and he loves cake."})):
        mem.update(tid, **change)
        old = next(r for r in order if r["id"] == tid)
        order = [r for r in order if r["id"] != tid] + [{**old, **change}]
        fresh = Memory()
        fresh.ingest(order)
        assert list(mem.turns()) == list(fresh.turns()), tid
        assert mem.claims("trio") == fresh.claims("trio"), tid
        for who in ("Ann", "Max", "Bob", "Cy"):
            assert mem.facts(who) == fresh.facts(who), (tid, who)
        for q in ("Who loves the park?", "Who bakes cake?", "What did Max do yesterday?", "Is the park busy?"):
            assert mem.search(q, k=3) == fresh.search(q, k=3), (tid, q)
            assert mem.ask(q) == fresh.ask(q), (tid, q)


def test_an_update_is_refused_or_a_no_op_alike(store):
    """An unknown id (or another user's), a bad new value: one DataError line, the same in every store,
    and nothing changed; an update to what is held writes nothing; a user's turn is updated in their part."""
    mem, here = store(), Memory()
    for memory in (mem, here):
        memory.ingest(CHAT + [{**CHAT[0], "user": "ann", "text": "Ann's own ice cream."}])
    for bad in (lambda m: m.update("nowhere", text="x"), lambda m: m.update("c1", text="x", user="bob"),
                lambda m: m.update("c1", metadata={"bad key": 1}), lambda m: m.update("c1", metadata={"k": [1]}),
                lambda m: m.update("c1", speaker=" "), lambda m: m.update("c1", date="someday"),
                lambda m: m.update("", text="x")):
        assert _refusal(lambda: bad(mem)) == _refusal(lambda: bad(here))
    assert _refusal(lambda: mem.update("nowhere", text="x")) == \
        "id 'nowhere': the memory holds no such turn (ingest it instead)"
    assert "update of id 'c1'" in _refusal(lambda: mem.update("c1", metadata={"bad key": 1}))
    assert list(mem.turns()) == list(here.turns()) and list(mem.turns(user="ann")) == list(here.turns(user="ann"))
    same = mem.update("c2")
    assert same == mem.get("c2") == here.get("c2") and list(mem.turns()) == list(here.turns())
    ann = mem.update("c1", text="Ann's own lemon sorbet.", user="ann")
    assert (ann.id, ann.user, ann.text) == ("c1", "ann", "Ann's own lemon sorbet.")
    assert mem.get("c1").text == CHAT[0]["text"] and mem.search("lemon sorbet", user="ann") == ["c1"]
    assert mem.search("lemon sorbet") == []


def test_metadata_is_kept_and_returned(store):
    """Every store gives back each turn's metadata as given: strings, whole numbers, floats, booleans."""
    mem, here = store(), Memory()
    for memory in (mem, here):
        assert memory.ingest(TAGGED) == len(TAGGED)
    assert list(mem.turns()) == list(here.turns())
    for tid, tags in TAGS.items():
        got = mem.get(tid).metadata
        assert dict(got) == tags and {k: type(v) for k, v in got.items()} == {k: type(v) for k, v in tags.items()}
    assert mem.get("c2").metadata == {} and mem.get("nowhere") is None
    assert mem.ingest(TAGGED) == 0  # the same records again: nothing new
    other = [{**TAGGED[0], "metadata": {"source": "email", "n": True}}]  # True is not 1: other content
    assert _refusal(lambda: mem.ingest(other)) == _refusal(lambda: here.ingest(other))


def test_a_filter_selects_before_the_k_best_in_every_store(store):
    """``where`` keeps to the turns whose metadata match it (a list: any of its values), in search,
    hits, ask and search_conversations, as the RAM memory does; k is filled from the matching turns."""
    mem, here = store(), Memory()
    for memory in (mem, here):
        memory.ingest(TAGGED)
    for where in FILTERS:
        for q in QUESTIONS:
            assert mem.search(q, k=3, where=where) == here.search(q, k=3, where=where), (q, where)
            assert mem.search_conversations(q, k=2, where=where) == here.search_conversations(q, k=2, where=where)
        assert mem.ask("What did Nate adopt?", where=where) == here.ask("What did Nate adopt?", where=where), where
    top = here.search("lake kayak Rex", k=2)
    assert "c5" not in top and mem.search("lake kayak Rex", k=2, where={"source": "email"})[0] == "c5"
    assert mem.search("lake", k=5, where={"flag": False}) == ["h3"]
    assert mem.search("lake", k=5, where={"n": 1}) == ["h1"]  # 1.0 is 1, and True is not
    for bad, line in (({"": 1}, "where: metadata name '' must be"), ({"source": []}, "where: metadata 'source' is given"),
                      ({"n": None}, "where: metadata 'n' must be a string"), ("source", "where must be an object")):
        assert _refusal(lambda: mem.search("lake", where=bad)).startswith(line)


@pytest.mark.parametrize("metadata, line", [
    ("email", "'metadata' must be an object of names to values, not str"),
    ({"a b": 1}, "metadata name 'a b' must be 1 to 64 letters"),
    ({"k": {"nested": 1}}, "metadata 'k' must be a string, a number or a boolean, not dict"),
    ({"k": float("nan")}, "metadata 'k' is nan; a number must be finite"),
    ({"k": 2**63}, "metadata 'k' is a whole number outside 64 bits"),
    ({"k": "x" * 1001}, "metadata 'k' is 1001 characters long, more than 1000"),
    ({f"k{i}": i for i in range(65)}, "'metadata' holds 65 names, more than 64"),
])
def test_bad_metadata_is_one_line_naming_the_record_in_every_store(store, metadata, line):
    mem = store()
    records = [CHAT[0], {**CHAT[1], "metadata": metadata}]
    assert _refusal(lambda: mem.ingest(records)).startswith(f"record 1 (id 'c2'): {line}")
    assert len(mem) == 0


def test_hits_are_the_search_with_scores(store):
    """``hits`` gives search's turns whole, best first, each with the score the RAM memory gives it."""
    mem, here = store(), Memory()
    for memory in (mem, here):
        memory.ingest(TAGGED)
    for q in QUESTIONS:
        for where in (None, {"source": "email"}):
            hits, there = mem.hits(q, k=4, where=where), here.hits(q, k=4, where=where)
            assert [h.id for h in hits] == mem.search(q, k=4, where=where) == [h.id for h in there], q
            assert [h.turn for h in hits] == [h.turn for h in there], q
            assert [h.score for h in hits] == pytest.approx([h.score for h in there], rel=1e-9), q
    hit = mem.hits("What did Nate adopt?", k=1)[0]
    assert (hit.id, hit.speaker, hit.conversation, dict(hit.metadata)) == ("c5", "Nate", "friends", TAGS["c5"])
    assert hit.text == CHAT[4]["text"] and hit.date is not None and hit.score > 0


def test_a_read_only_memory_updates_nothing(tmp_path):
    path = tmp_path / "ro.db"
    with Memory(path=path) as writer:
        writer.ingest(CHAT)
    with Memory(path=path, read_only=True) as reader, pytest.raises(MisuseError, match="read-only"):
        reader.update("c1", text="x")
    with pytest.raises(DataError):
        Memory().update("c1", text="x")


MOVES = [
    {"id": "w1", "speaker": "Alice", "text": "I live in Paris and I work as a nurse.", "date": "2023-01-10",
     "metadata": {"source": "chat"}},
    {"id": "w2", "speaker": "Bob", "text": "Paris is lovely in spring.", "date": "2023-01-10", "metadata": {"source": "chat"}},
    {"id": "w3", "speaker": "Alice", "text": "I moved from Paris to Berlin last month.", "date": "2023-06-02",
     "metadata": {"source": "email"}},
]


def test_a_filter_keeps_the_facts_of_turns_it_leaves_out_from_answering_in_every_store(store):
    """A fact is read from its turn: asked with ``where``, a filtered-out turn's fact neither answers
    nor ends the fact that does ("I moved to Berlin" said in an email, asked of the chats: Paris)."""
    mem, here = store(), Memory()
    for memory in (mem, here):
        memory.ingest(MOVES)
    for memory in (mem, here):
        assert memory.ask("Where does Alice live?").reply == "Berlin"
        chats = memory.ask("Where does Alice live?", where={"source": "chat"})
        assert chats.reply == "Paris" and chats.measure == "fact" and chats.source == "w1"
        emails = memory.ask("Where does Alice live?", where={"source": "email"})
        assert "w1" not in emails.cited and "w2" not in emails.cited
        assert memory.ask("What is Alice's job?", where={"source": "email"}).measure != "fact"
    assert mem.ask("Where does Alice live?", where={"source": "chat"}) == here.ask("Where does Alice live?",
                                                                                  where={"source": "chat"})
