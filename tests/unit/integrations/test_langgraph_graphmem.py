"""What the LangGraph store adds over LangGraph's own cases: namespaces as graphmem's users and
conversations, the values as turns the memory searches, a file that keeps both, and puts that
change nothing when one of them is refused."""

from __future__ import annotations

import pytest

from tests.conftest import IN_CI

if not IN_CI:  # the extra is installed in CI (.ci/run), where its absence fails the import below
    pytest.importorskip("langgraph.store.base")

from langgraph.store.base import PutOp  # noqa: E402

from graphmem import Memory  # noqa: E402
from graphmem.errors import DataError, MisuseError  # noqa: E402
from graphmem.integrations.langgraph import GraphmemStore  # noqa: E402


def test_a_namespace_is_a_user_and_a_conversation_of_the_memory():
    mem = Memory()
    store = GraphmemStore(mem, index={"fields": ["text"]})
    store.put(("ann", "memories"), "m1", {"text": "I adopted a dog called Rex.", "speaker": "Ann"})
    store.put(("bob", "memories"), "m1", {"text": "My dog Rex is a beagle."})
    (turn,) = mem.turns(user="ann")
    assert (turn.user, turn.conversation, turn.speaker, turn.text) == \
        ("ann", "ann.memories", "Ann", "I adopted a dog called Rex.")
    assert next(mem.turns(user="bob")).speaker == "user"  # a value naming no speaker: the store's speaker=
    assert [r.namespace for r in store.search(("ann",), query="Rex")] == [("ann", "memories")]  # never Bob's
    assert {r.namespace[0] for r in store.search((), query="Rex")} == {"ann", "bob"}  # every user's
    assert mem.search("Who is Rex?", user="bob") and mem.search("beagle", user="ann") == []


def test_a_file_keeps_the_items_and_their_turns(tmp_path):
    path = tmp_path / "agent.db"
    with Memory(path=path) as mem, GraphmemStore(mem, index={"fields": ["text"]}) as store:
        store.put(("ann", "memories"), "m1", {"text": "I moved to Lisbon in May.", "tags": ["move"]})
        assert store.side.where == f"{path}.langgraph"
    with Memory(path=path) as mem, GraphmemStore(mem, index={"fields": ["text"]}) as store:
        item = store.get(("ann", "memories"), "m1")
        assert item.value == {"text": "I moved to Lisbon in May.", "tags": ["move"]}
        assert store.search(("ann",), query="Where did Ann move?")[0].key == "m1"
        store.put(("ann", "memories"), "m1", {"text": "I moved to Porto in June."})  # a re-put after reopening
        assert store.search(("ann",), query="Porto")[0].key == "m1" and len(mem) == 1


def test_the_last_put_of_an_item_in_a_batch_wins():
    mem = Memory()
    store = GraphmemStore(mem)
    store.batch([PutOp(("a",), "k", {"text": "first words"}), PutOp(("a",), "k", {"text": "second words"})])
    assert store.get(("a",), "k").value == {"text": "second words"} and len(mem) == 1


def test_a_refused_put_changes_nothing():
    mem = Memory()
    store = GraphmemStore(mem, index={"fields": ["text"]})
    store.put(("a",), "k", {"text": "kept words"})
    with pytest.raises(DataError):  # a lone surrogate: no store can write it as UTF-8
        store.batch([PutOp(("a",), "k", {"text": "new words"}), PutOp(("b",), "k", {"text": "bad \ud800 words"})])
    assert store.get(("a",), "k").value == {"text": "kept words"}
    assert store.search(("a",), query="kept")[0].key == "k" and len(mem) == 1


def test_beside_neo4j_the_side_file_is_asked_for():
    class Elsewhere:
        where = "bolt://somewhere"

    class Held:
        store = Elsewhere()

    with pytest.raises(MisuseError, match="side="):
        GraphmemStore(Held())
