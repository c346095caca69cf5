"""The store contract, checked below the memory: every method of :class:`graphmem.store.base.Store`
called directly on each store (RAM, a file; the benchmarks' bulk store in
``tests/unit/research/test_contract.py`` and Neo4j in ``tests/neo4j/test_contract.py``, which run
:func:`exercise` too: a product test imports no research code).

The conformance suite goes through ``Memory``, which validates before any store sees a call; these
cases hold each store to the shape every verb relies on (what each method takes and
returns), and a class that leaves a method out is no store at all.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem.data.metadata import where_argument
from graphmem.data.records import validate
from graphmem.domain import Claim, Turn
from graphmem.index.query import Query
from graphmem.store.base import Store
from graphmem.store.ram.store import RamStore
from graphmem.store.sqlite.store import FileStore

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
    return validate(records)


def exercise(store: Store, conversation: str = "contract", user: str | None = None) -> None:
    """Every method of the contract, called on ``store`` as the memory calls it: the user and the
    names a caller gives, never a store's key; every turn, id, conversation and claim given back
    named as the caller named it."""
    assert isinstance(store, Store) and isinstance(store.where, str) and store.where
    before = len(store)
    turns = _turns(conversation, user)
    conv = conversation
    store.add(turns)
    assert len(store) == before + 4
    assert store.held(["k1", "k3", "nowhere"], user) == {"k1": turns[0], "k3": turns[2]}
    assert store.held([], user) == {}
    assert store.keys(conv, user) == ["k1", "k2", "k3"]
    assert list(store.turns(conv, user)) == turns[:3]
    assert set(store.keys(None, user)) >= {f"k{i}" for i in range(1, 5)}
    query = Query.parse("Where does Rex the dog go?")
    found = store.search(query, 3, None, user)
    assert found and all(isinstance(t, Turn) and isinstance(s, float) and s > 0 for t, s in found)
    assert [s for _, s in found] == sorted((s for _, s in found), reverse=True)
    assert {t for t, _ in found} <= set(turns)
    only = store.search(query, 3, None, user, where_argument({"source": "email"}))
    assert [t.id for t, _ in only] == ["k1"] and dict(only[0][0].metadata) == {"source": "email", "n": 1}
    assert store.search(query, 3, None, user, where_argument({"source": ["nowhere"]})) == []
    assert all(t.conversation == conv and t.user == user for t, _ in store.search(query, 5, conv, user))
    assert store.search(Query.parse("zzqx"), 3, None, user) == []
    convs = store.conversations(query, 2, user)
    assert convs and set(convs) <= {conv, conversation + "-b"}
    assert store.conversations(query, 2, user, where_argument({"source": "chat"})) == [conv]
    claims = store.claims(conv, user)
    assert isinstance(claims, tuple) and all(isinstance(c, Claim) for c in claims)
    assert any(c.predicate == "adopt" for c in claims) and {c.turn_id for c in claims} <= {"k1", "k2", "k3"}
    about = store.claims_about("ann", user)
    assert about and all(isinstance(c, Claim) and c.subject == "ann" and c.turn_id in {"k1", "k3"} for c in about)
    assert store.speakers(conv, user) == ["Ann", "Bob"]
    weights = store.weights(query, [t for t, _ in found], user)
    assert weights.weight("dog") > 0 and set(weights.weights(["dog", "rex"])) <= {"dog", "rex"} and weights.unseen > 0
    assert store.build() is None
    new = validate([{**RECORDS[1], "text": "I sail on the lake now.", "conversation": conversation,
                     "user": user, "metadata": {"source": "sms"}}])[0]
    store.update([new])
    assert store.held(["k2"], user) == {"k2": new} and len(store) == before + 4
    assert [t.id for t, _ in store.search(Query.parse("sail"), 3, None, user)] == ["k2"]
    assert store.search(Query.parse("river"), 3, None, user) == []
    assert store.keys(conv, user) == ["k1", "k3", "k2"]  # an update comes last, as an ingest
    assert store.forget(["k1", "nowhere"], user) == 1
    assert store.held(["k1"], user) == {} and len(store) == before + 3
    assert store.forget([], user) == 0
    assert store.forget(store.keys(None, user), user) == 3 and len(store) == before


def apart(store: Store, user: str = "ann", other: str = "bob", none: str | None = None) -> None:
    """Two users' turns under the same ids and conversations, side by side in one store, and the
    turns of no user too (``none``: a third user in a database others' tests keep turns of no user
    in): each user's calls read only theirs, and an update or a forget of one user's
    turn leaves the other's turn of the same id as it was."""
    mine, theirs, nobody = _turns("contract", user), _turns("contract", other), _turns("contract", none)
    before = len(store)
    store.add(mine + theirs + nobody)
    assert len(store) == before + 12
    for who, held in ((user, mine), (other, theirs), (none, nobody)):
        assert store.held(["k1", "k2"], who) == {"k1": held[0], "k2": held[1]}
        assert store.keys("contract", who) == ["k1", "k2", "k3"] and list(store.turns("contract", who)) == held[:3]
        assert {t.user for t, _ in store.search(Query.parse("Rex the dog"), 9, None, who)} == {who}
        assert {c.turn_id for c in store.claims("contract", who)} <= {"k1", "k2", "k3"}
        assert store.speakers("contract", who) == ["Ann", "Bob"]
    changed = validate([{**RECORDS[1], "text": "I sail on the lake now.", "conversation": "contract", "user": user}])[0]
    store.update([changed])
    assert store.held(["k2"], user) == {"k2": changed}
    assert store.held(["k2"], other) == {"k2": theirs[1]} and store.held(["k2"], none) == {"k2": nobody[1]}
    assert store.search(Query.parse("sail"), 9, None, other) == [] == store.search(Query.parse("sail"), 9, None, none)
    assert store.forget(["k1", "k2"], user) == 2
    assert store.held(["k1", "k2"], user) == {}
    assert store.held(["k1", "k2"], other) == {"k1": theirs[0], "k2": theirs[1]}
    assert store.held(["k1", "k2"], none) == {"k1": nobody[0], "k2": nobody[1]}
    assert [t.id for t, _ in store.search(Query.parse("adopted a dog called Rex"), 1, None, other)] == ["k1"]
    for who in (user, other, none):
        store.forget(store.keys(None, who), who)
    assert len(store) == before


@pytest.mark.parametrize("kind", ["ram", "file"])
def test_every_store_keeps_the_contract(kind: str, tmp_path: Path):
    store: Store = {"ram": lambda: RamStore(), "file": lambda: FileStore(tmp_path / "m.db")}[kind]()
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
        apart(store)
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


def test_the_memory_does_no_keying():
    """``Memory`` hands every store the user and the names a caller gave: no module of the memory
    imports the stores' keying (graphmem.store.users), nor names the mark a key is made with."""
    import ast

    import graphmem.memory

    for path in Path(graphmem.memory.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | \
                  {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert not any(m and m.startswith("graphmem.store.users") for m in modules), path
        assert "\\x01" not in path.read_text(encoding="utf-8"), path
