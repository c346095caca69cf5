"""The store contract, checked below the memory: every method of :class:`graphmem.store.base.Store`
called directly on each store (RAM, a file, the benchmarks' bulk store; Neo4j in
``tests/neo4j/test_contract.py``, which runs :func:`exercise` too).

The conformance suite goes through ``Memory``, which validates and scopes before any store sees a
call; these cases hold each store to the shape every verb relies on (what each method takes and
returns), and a class that leaves a method out is no store at all.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem.data.metadata import where_argument
from graphmem.data.records import validate
from graphmem.domain import Claim, Turn
from graphmem.index.query import Query
from graphmem.bench.research.store import BulkStore
from graphmem.store.base import Store
from graphmem.store.ram.store import RamStore
from graphmem.store.sqlite.store import FileStore
from graphmem.store.users import scoped, scoped_turn

RECORDS = [
    {"id": "k1", "speaker": "Ann", "text": "I adopted a dog called Rex yesterday!", "date": "2023-05-08",
     "metadata": {"source": "email", "n": 1}},
    {"id": "k2", "speaker": "Bob", "text": "Congrats! I live in Paris and walk my dog by the river.", "date": "2023-05-08",
     "metadata": {"source": "chat"}},
    {"id": "k3", "speaker": "Ann", "text": "I moved from Paris to Berlin last month.", "date": "2023-06-02"},
    {"id": "k4", "speaker": "Cy", "text": "Rex loves the lake, I hear.", "date": "2023-06-03", "second": True},
]


def _turns(conversation: str, user: str | None) -> list[Turn]:
    records = [{k: v for k, v in r.items() if k != "second"}
               | {"conversation": conversation + ("-b" if r.get("second") else ""), "user": user} for r in RECORDS]
    return [scoped_turn(t) for t in validate(records)]


def exercise(store: Store, conversation: str = "contract", user: str | None = None) -> None:
    """Every method of the contract, called on ``store`` as the memory calls it (scoped keys)."""
    assert isinstance(store, Store) and isinstance(store.where, str) and store.where
    before = len(store)
    turns = _turns(conversation, user)
    key, conv = (lambda i: scoped(i, user)), scoped(conversation, user)
    store.add(turns)
    assert len(store) == before + 4
    assert store.held([key("k1"), key("k3"), key("nowhere")]) == {key("k1"): turns[0], key("k3"): turns[2]}
    assert store.held([]) == {}
    assert store.keys(conv, user) == [key("k1"), key("k2"), key("k3")]
    assert list(store.turns(conv, user)) == turns[:3]
    assert set(store.keys(None, user)) >= {key(f"k{i}") for i in range(1, 5)}
    query = Query.parse("Where does Rex the dog go?")
    found = store.search(query, 3, None, user)
    assert found and all(isinstance(t, Turn) and isinstance(s, float) and s > 0 for t, s in found)
    assert [s for _, s in found] == sorted((s for _, s in found), reverse=True)
    assert {t.id for t, _ in found} <= {t.id for t in turns}
    only = store.search(query, 3, None, user, where_argument({"source": "email"}))
    assert [t.id for t, _ in only] == [key("k1")] and dict(only[0][0].metadata) == {"source": "email", "n": 1}
    assert store.search(query, 3, None, user, where_argument({"source": ["nowhere"]})) == []
    assert all(t.conversation == conv for t, _ in store.search(query, 5, conv, user))
    assert store.search(Query.parse("zzqx"), 3, None, user) == []
    convs = store.conversations(query, 2, user)
    assert convs and set(convs) <= {conv, scoped(conversation + "-b", user)}
    assert store.conversations(query, 2, user, where_argument({"source": "chat"})) == [conv]
    claims = store.claims(conv)
    assert isinstance(claims, tuple) and all(isinstance(c, Claim) for c in claims)
    assert any(c.predicate == "adopt" for c in claims)
    assert all(isinstance(c, Claim) and c.subject == "ann" for c in store.claims_about("ann", user))
    assert store.speakers(conv) == ["Ann", "Bob"]
    weights = store.weights(query, [t for t, _ in found])
    assert weights.weight("dog") > 0 and set(weights.weights(["dog", "rex"])) <= {"dog", "rex"} and weights.unseen > 0
    assert store.build() is None
    new = scoped_turn(validate([{**RECORDS[1], "text": "I sail on the lake now.", "conversation": conversation,
                                 "user": user, "metadata": {"source": "sms"}}])[0])
    store.update([new])
    assert store.held([key("k2")]) == {key("k2"): new} and len(store) == before + 4
    assert [t.id for t, _ in store.search(Query.parse("sail"), 3, None, user)] == [key("k2")]
    assert store.search(Query.parse("river"), 3, None, user) == []
    assert store.keys(conv, user) == [key("k1"), key("k3"), key("k2")]  # an update comes last, as an ingest
    assert store.forget([key("k1"), key("nowhere")]) == 1
    assert store.held([key("k1")]) == {} and len(store) == before + 3
    assert store.forget([]) == 0
    assert store.forget(store.keys(None, user)) == 3 and len(store) == before


@pytest.mark.parametrize("kind", ["ram", "file", "bulk"])
def test_every_store_keeps_the_contract(kind: str, tmp_path: Path):
    store: Store = {"ram": lambda: RamStore(), "file": lambda: FileStore(tmp_path / "m.db"),
                    "bulk": lambda: BulkStore()}[kind]()
    try:
        exercise(store)
    finally:
        store.close()


def test_users_keys_are_kept_apart_below_the_memory(tmp_path: Path):
    """The same records of two users, side by side in one store: each user's calls see only theirs."""
    for store in (RamStore(), FileStore(tmp_path / "u.db")):
        store.add(_turns("contract", "other"))
        exercise(store, user="ann")
        assert len(store) == 4 and store.keys(None, "ann") == []
        store.close()


def test_a_class_that_leaves_a_method_out_is_no_store():
    """Every method is abstract: a store without ``forget`` cannot be made, rather than failing when
    the memory first forgets."""

    every = {name: (lambda self, *args, **kwargs: None) for name in Store.__abstractmethods__}
    type("Whole", (Store,), every)()  # all of them: a store
    partial = type("Partial", (Store,), {k: v for k, v in every.items() if k != "forget"})
    with pytest.raises(TypeError, match="forget"):
        partial()
    assert {"add", "held", "forget", "update", "turns", "keys", "search", "conversations", "claims", "claims_about",
            "speakers", "weights", "build", "__len__", "close"} == set(Store.__abstractmethods__)
