"""The LangGraph store, checked by LangGraph's own store tests, on a memory in RAM and in a file.

The cases are adapted from LangGraph's repository (MIT License, Copyright (c) 2024 LangChain, Inc.):
``libs/checkpoint/tests/test_store.py`` (the in-memory store's tests) and its neighbour
``libs/checkpoint-sqlite/tests/test_store.py`` (the SQLite store's), each named after the test it
comes from. Their store is swapped for :class:`GraphmemStore`; where a case asserts an embedding's
scores, the same behaviour is asserted by rank (which item comes first, which is found at all),
since graphmem ranks with its own index. The cases that do not apply, and why, are listed in
docs/langgraph.md.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Iterator

import pytest

from tests.conftest import IN_CI

if not IN_CI:  # the extra is installed in CI (.ci/run), where its absence fails the import below
    pytest.importorskip("langgraph.store.base")

from langgraph.store.base import (GetOp, InvalidNamespaceError, Item, ListNamespacesOp, MatchCondition,  # noqa: E402
                                  PutOp, SearchOp)

from graphmem import Memory  # noqa: E402
from graphmem.errors import MisuseError  # noqa: E402
from graphmem.integrations.langgraph import GraphmemStore  # noqa: E402


@pytest.fixture(params=["ram", "file"])
def make(request, tmp_path) -> Iterator:
    """A maker of fresh stores (``index=`` as LangGraph's), each over its own memory in RAM or a file."""
    made: list[tuple[GraphmemStore, Memory]] = []

    def build(**kwargs) -> GraphmemStore:
        mem = Memory() if request.param == "ram" else Memory(path=tmp_path / f"m{len(made)}.db")
        store = GraphmemStore(mem, **kwargs)
        made.append((store, mem))
        return store

    yield build
    for store, mem in made:
        store.close()
        mem.close()


@pytest.fixture
def store(make) -> GraphmemStore:
    return make()


# ---- libs/checkpoint/tests/test_store.py ----

def test_list_namespaces_basic(store):
    namespaces = [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f"), ("a", "c", "f"),
                  ("b", "a", "f"), ("users", "123"), ("users", "456", "settings"), ("admin", "users", "789")]
    for i, ns in enumerate(namespaces):
        store.put(namespace=ns, key=f"id_{i}", value={"data": f"value_{i:02d}"})
    assert sorted(store.list_namespaces(prefix=("a", "b"))) == \
        [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f")]
    assert sorted(store.list_namespaces(suffix=("f",))) == [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert sorted(store.list_namespaces(prefix=("a",), suffix=("f",))) == [("a", "b", "f"), ("a", "c", "f")]
    assert sorted(store.list_namespaces(prefix=("a", "b"), max_depth=3)) == \
        [("a", "b", "c"), ("a", "b", "d"), ("a", "b", "f")]
    assert store.list_namespaces(prefix=("a", "b"), limit=2) == [("a", "b", "c"), ("a", "b", "d", "e")]
    assert store.list_namespaces(prefix=("a", "b"), offset=2) == [("a", "b", "d", "i"), ("a", "b", "f")]
    assert sorted(store.list_namespaces(prefix=("a", "*", "f"))) == [("a", "b", "f"), ("a", "c", "f")]
    assert sorted(store.list_namespaces(suffix=("*", "f"))) == [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert store.list_namespaces(prefix=("nonexistent",)) == []
    assert store.list_namespaces(prefix=("users", "123")) == [("users", "123")]


def test_list_namespaces_with_wildcards(store):
    namespaces = [("users", "123"), ("users", "456"), ("users", "789", "settings"), ("admin", "users", "789"),
                  ("guests", "123"), ("guests", "456", "preferences")]
    for i, ns in enumerate(namespaces):
        store.put(namespace=ns, key=f"id_{i}", value={"data": f"value_{i:02d}"})
    assert sorted(store.list_namespaces(prefix=("users", "*"))) == \
        [("users", "123"), ("users", "456"), ("users", "789", "settings")]
    assert store.list_namespaces(suffix=("*", "preferences")) == [("guests", "456", "preferences")]
    assert store.list_namespaces(prefix=("*", "users"), suffix=("*", "settings")) == []


def test_list_namespaces_pagination(store):
    for i in range(20):
        store.put(namespace=("namespace", f"sub_{i:02d}"), key=f"id_{i:02d}", value={"data": f"value_{i:02d}"})
    for offset in (0, 5, 15):
        assert store.list_namespaces(prefix=("namespace",), limit=5, offset=offset) == \
            [("namespace", f"sub_{i:02d}") for i in range(offset, offset + 5)]


def test_list_namespaces_max_depth(store):
    for i, ns in enumerate([("a", "b", "c", "d"), ("a", "b", "c", "e"), ("a", "b", "f"), ("a", "g"), ("h", "i", "j", "k")]):
        store.put(namespace=ns, key=f"id_{i}", value={"data": f"value_{i:02d}"})
    assert sorted(store.list_namespaces(max_depth=2)) == [("a", "b"), ("a", "g"), ("h", "i")]


def test_list_namespaces_no_conditions(store):
    namespaces = [("a", "b"), ("c", "d"), ("e", "f", "g")]
    for i, ns in enumerate(namespaces):
        store.put(namespace=ns, key=f"id_{i}", value={"data": f"value_{i:02d}"})
    assert sorted(store.list_namespaces()) == sorted(namespaces)


def test_list_namespaces_empty_store(store):
    assert store.list_namespaces() == []


async def test_cannot_put_empty_namespace(store):
    doc = {"foo": "bar"}
    for bad in [(), ("the", "thing.about"), ("some", "fun", ""), ("langgraph", "foo")]:
        with pytest.raises(InvalidNamespaceError):
            store.put(bad, "foo", doc)
        with pytest.raises(InvalidNamespaceError):
            await store.aput(bad, "foo", doc)
    ns = ("foo", "langgraph", "foo")
    await store.aput(ns, "bar", doc)
    assert (await store.aget(ns, "bar")).value == doc
    assert (await store.asearch(ns, query="bar"))[0].value == doc
    await store.adelete(ns, "bar")
    assert (await store.aget(ns, "bar")) is None
    store.put(ns, "bar", doc)
    assert store.get(ns, "bar").value == doc
    assert store.search(ns, query="bar")[0].value == doc
    store.delete(ns, "bar")
    assert store.get(ns, "bar") is None
    # past the public put api, as LangGraph's own test does
    await store.abatch([PutOp(("langgraph", "foo"), "bar", doc)])
    assert (await store.aget(("langgraph", "foo"), "bar")).value == doc
    assert (await store.asearch(("langgraph", "foo")))[0].value == doc
    await store.adelete(("langgraph", "foo"), "bar")
    assert (await store.aget(("langgraph", "foo"), "bar")) is None
    store.batch([PutOp(("langgraph", "foo"), "bar", doc)])
    assert store.get(("langgraph", "foo"), "bar").value == doc
    assert store.search(("langgraph", "foo"))[0].value == doc
    store.delete(("langgraph", "foo"), "bar")
    assert store.get(("langgraph", "foo"), "bar") is None


DOCS = [("doc1", {"text": "short text"}), ("doc2", {"text": "longer text document"}),
        ("doc3", {"text": "longest text document here"}), ("doc4", {"description": "text in description field"}),
        ("doc5", {"content": "text in content field"}), ("doc6", {"body": "text in body field"})]


def test_vector_insert_with_auto_embedding(store):
    for key, value in DOCS:
        store.put(("test",), key, value)
    keys = [r.key for r in store.search(("test",), query="long text document")]
    assert {"doc2", "doc3"} <= set(keys[:2])  # the two that hold "document" come first


async def test_async_vector_insert_with_auto_embedding(store):
    for key, value in DOCS:
        await store.aput(("test",), key, value)
    keys = [r.key for r in await store.asearch(("test",), query="long text document")]
    assert {"doc2", "doc3"} <= set(keys[:2])


def _found(store, query, prefix=("test",), **kwargs) -> list[str]:
    """The keys the memory itself found for ``query`` (not the unranked rest a search appends)."""
    found = store._ranked(query, store.side.under(prefix))
    return [row.key for row, _ in found]


def test_vector_update_with_embedding(store):
    store.put(("test",), "doc1", {"text": "zany zebra Xerxes"})
    store.put(("test",), "doc2", {"text": "something about dogs"})
    store.put(("test",), "doc3", {"text": "text about birds"})
    assert store.search(("test",), query="Zany Xerxes")[0].key == "doc1"
    store.put(("test",), "doc1", {"text": "new text about dogs"})
    assert "doc1" not in _found(store, "Zany Xerxes")  # its old words are forgotten with its old turn
    assert store.search(("test",), query="new text about dogs")[0].key == "doc1"
    store.put(("test",), "doc4", {"text": "new text about dogs"}, index=False)
    assert not any(r.key == "doc4" for r in store.search(("test",), query="new text about dogs", limit=3))


async def test_async_vector_update_with_embedding(store):
    await store.aput(("test",), "doc1", {"text": "zany zebra Xerxes"})
    await store.aput(("test",), "doc2", {"text": "something about dogs"})
    await store.aput(("test",), "doc3", {"text": "text about birds"})
    assert (await store.asearch(("test",), query="Zany Xerxes"))[0].key == "doc1"
    await store.aput(("test",), "doc1", {"text": "new text about dogs"})
    assert "doc1" not in _found(store, "Zany Xerxes")
    assert (await store.asearch(("test",), query="new text about dogs"))[0].key == "doc1"
    await store.aput(("test",), "doc4", {"text": "new text about dogs"}, index=False)
    assert not any(r.key == "doc4" for r in await store.asearch(("test",), query="new text about dogs", limit=3))


COLOURED = [("doc1", {"text": "red apple", "color": "red", "score": 4.5}),
            ("doc2", {"text": "red car", "color": "red", "score": 3.0}),
            ("doc3", {"text": "green apple", "color": "green", "score": 4.0}),
            ("doc4", {"text": "blue car", "color": "blue", "score": 3.5})]


def _check_filters(results_of):
    results = results_of("apple", {"color": "red"})
    assert len(results) == 2 and results[0].key == "doc1"
    results = results_of("car", {"color": "red"})
    assert len(results) == 2 and results[0].key == "doc2"
    results = results_of("blue", {"score": {"$gt": 3.2}})  # LangGraph's query is "bbbbluuu": see docs/langgraph.md
    assert len(results) == 3 and results[0].key == "doc4"
    results = results_of("apple", {"score": {"$gte": 4.0}, "color": "green"})
    assert len(results) == 1 and results[0].key == "doc3"


def test_vector_search_with_filters(store):
    for key, value in COLOURED:
        store.put(("test",), key, value)
    _check_filters(lambda q, f: store.search(("test",), query=q, filter=f))


async def test_async_vector_search_with_filters(store):
    for key, value in COLOURED:
        await store.aput(("test",), key, value)
    searches = {}
    for q, f in [("apple", {"color": "red"}), ("car", {"color": "red"}), ("blue", {"score": {"$gt": 3.2}}),
                 ("apple", {"score": {"$gte": 4.0}, "color": "green"})]:
        searches[q, str(f)] = await store.asearch(("test",), query=q, filter=f)
    _check_filters(lambda q, f: searches[q, str(f)])


async def test_async_batched_vector_search_concurrent(store):
    colors, items, scores = ["red", "blue", "green", "yellow", "purple"], ["apple", "car", "house", "book", "phone"], \
        [3.0, 3.5, 4.0, 4.5, 5.0]
    docs = [(f"doc{i}", {"text": f"{colors[i % 5]} {items[i % 5]}", "color": colors[i % 5], "score": scores[i % 5],
                         "index": i}) for i in range(50)]
    # LangGraph's case gathers the puts, deletes and puts at once through its batching queue, which keeps
    # their order; this store runs each call in a worker thread, so each phase is gathered in turn.
    await asyncio.gather(*[store.aput(("test",), k, v) for k, v in docs])
    await asyncio.gather(*[store.adelete(("test",), k) for k, _ in docs])
    await asyncio.gather(*[store.aput(("test",), k, v) for k, v in docs])
    queries = [("apple", {"color": "red"}), ("car", {"color": "blue"}), ("house", {"color": "green"}),
               ("phone", {"score": {"$gt": 4.99}}), ("book", {"score": {"$lte": 3.5}}),
               ("apple", {"score": {"$gte": 3.0}, "color": "red"}), ("car", {"score": {"$lt": 5.1}, "color": "blue"}),
               ("house", {"index": {"$gt": 25}}), ("phone", {"index": {"$lte": 10}})]
    found = await asyncio.gather(*[store.asearch(("test",), query=q, filter=f) for q, f in queries])
    checks = {"$gt": float.__gt__, "$gte": float.__ge__, "$lt": float.__lt__, "$lte": float.__le__}
    for results, (query, wanted) in zip(found, queries):
        assert results, (query, wanted)
        for r in results:
            for field, want in wanted.items():
                if isinstance(want, dict):
                    assert all(checks[op](float(r.value[field]), float(v)) for op, v in want.items())
                else:
                    assert r.value[field] == want


def test_vector_search_pagination(store):
    for i in range(5):
        store.put(("test",), f"doc{i}", {"text": f"test document number {i}"})
    page1 = store.search(("test",), query="test", limit=2)
    page2 = store.search(("test",), query="test", limit=2, offset=2)
    assert len(page1) == len(page2) == 2 and page1[0].key != page2[0].key
    assert len(store.search(("test",), query="test", limit=10)) == 5


async def test_async_vector_search_pagination(store):
    for i in range(5):
        await store.aput(("test",), f"doc{i}", {"text": f"test document number {i}"})
    page1 = await store.asearch(("test",), query="test", limit=2)
    page2 = await store.asearch(("test",), query="test", limit=2, offset=2)
    assert len(page1) == len(page2) == 2 and page1[0].key != page2[0].key
    assert len(await store.asearch(("test",), query="test", limit=10)) == 5


async def test_embed_with_path(make):
    store = make(index={"fields": ["key0", "key1", "key3"]})  # key2 is not indexed
    await store.aput(("test",), "doc1", {"key1": "xxx", "key2": "yyy", "key3": "zzz"})  # key0 missing: no error
    await store.aput(("test",), "doc2", {"key0": "uuu", "key1": "vvv", "key2": "www", "key3": "xxx"})
    results = await store.asearch(("test",), query="xxx")
    assert len(results) == 2 and results[0].key != results[1].key
    assert sorted(_found(store, "xxx")) == ["doc1", "doc2"]
    results = await store.asearch(("test",), query="uuu")
    assert len(results) == 2 and results[0].key == "doc2" and _found(store, "uuu") == ["doc2"]
    assert len(await store.asearch(("test",), query="www")) == 2 and _found(store, "www") == []  # key2: unindexed
    # fields chosen per put
    other = make(index={"fields": ["key17"]})
    await other.aput(("test",), "doc3", {"key0": "aaa", "key1": "bbb", "key2": "ccc", "key3": "ddd"},
                     index=["key0", "key1"])
    await other.aput(("test",), "doc4", {"key0": "eee", "key1": "bbb", "key2": "fff", "key3": "ggg"},
                     index=["key1", "key3"])
    assert (await other.asearch(("test",), query="aaa"))[0].key == "doc3" and _found(other, "aaa") == ["doc3"]
    assert (await other.asearch(("test",), query="ggg"))[0].key == "doc4" and _found(other, "ggg") == ["doc4"]
    assert sorted(_found(other, "bbb")) == ["doc3", "doc4"]
    assert len(await other.asearch(("test",), query="ccc")) == 2 and _found(other, "ccc") == []
    await other.aput(("test",), "doc5", {"key0": "hhh", "key1": "iii"}, index=False)
    results = await other.asearch(("test",), query="hhh")
    assert len(results) == 3 and next(r for r in results if r.key == "doc5").score is None
    assert "doc5" not in _found(other, "hhh")


NON_ASCII = [("1", "这是中文"), ("2", "これは日本語です"), ("3", "이건 한국어야"), ("4", "Это русский"), ("5", "यह रूसी है")]


def test_non_ascii(store):
    for key, text in NON_ASCII:
        store.put(("user_123", "memories"), key, {"text": text})
    for key, text in NON_ASCII:
        assert store.search(("user_123", "memories"), query=text)[0].key == key, text


def test_vector_store_initialization_is_refused(make):
    """LangGraph's case configures an embedding; graphmem ranks with its own index and says so."""
    with pytest.raises(MisuseError, match="embeddings"):
        make(index={"dims": 3, "embed": lambda texts: [[0.0, 0.0, 1.0] for _ in texts]})


# ---- libs/checkpoint-sqlite/tests/test_store.py ----

def test_batch_order(store):
    store.put(("test", "foo"), "key1", {"data": "value1"})
    store.put(("test", "bar"), "key2", {"data": "value2"})
    results = store.batch([
        GetOp(namespace=("test", "foo"), key="key1"),
        PutOp(namespace=("test", "bar"), key="key2", value={"data": "value2"}),
        SearchOp(namespace_prefix=("test",), filter={"data": "value1"}, limit=10, offset=0),
        ListNamespacesOp(match_conditions=None, max_depth=None, limit=10, offset=0),
        GetOp(namespace=("test",), key="key3"),
    ])
    assert len(results) == 5
    assert isinstance(results[0], Item) and results[0].value == {"data": "value1"}
    assert results[0].key == "key1" and results[0].namespace == ("test", "foo")
    assert results[1] is None
    assert [r.key for r in results[2]] == ["key1"] and results[2][0].value == {"data": "value1"}
    assert ("test", "foo") in results[3] and ("test", "bar") in results[3]
    assert results[4] is None
    again = store.batch([
        SearchOp(namespace_prefix=("test",), filter=None, limit=5, offset=0),
        GetOp(namespace=("test", "bar"), key="key2"),
        ListNamespacesOp(match_conditions=None, max_depth=None, limit=5, offset=0),
        PutOp(namespace=("test",), key="key3", value={"data": "value3"}),
        GetOp(namespace=("test", "foo"), key="key1"),
    ])
    assert len(again[0]) >= 2
    assert again[1].value == {"data": "value2"} and again[1].namespace == ("test", "bar")
    assert len(again[2]) > 0 and again[3] is None
    assert again[4].value == {"data": "value1"} and again[4].namespace == ("test", "foo")
    assert store.get(("test",), "key3").value == {"data": "value3"}


def test_batch_get_ops(store):
    store.put(("test",), "key1", {"data": "value1"})
    store.put(("test",), "key2", {"data": "value2"})
    results = store.batch([GetOp(("test",), "key1"), GetOp(("test",), "key2"), GetOp(("test",), "key3")])
    assert [r.key if r else None for r in results] == ["key1", "key2", None]


def test_batch_put_ops(store):
    results = store.batch([PutOp(("test",), "key1", {"data": "value1"}), PutOp(("test",), "key2", {"data": "value2"}),
                           PutOp(("test",), "key3", None)])
    assert results == [None, None, None]
    assert store.get(("test",), "key1").value == {"data": "value1"}
    assert store.get(("test",), "key2").value == {"data": "value2"}
    assert store.get(("test",), "key3") is None


def test_batch_search_ops(store):
    for ns, key, value in [(("test", "foo"), "key1", {"data": "value1", "tag": "a"}),
                           (("test", "bar"), "key2", {"data": "value2", "tag": "a"}),
                           (("test", "baz"), "key3", {"data": "value3", "tag": "b"})]:
        store.put(ns, key, value)
    results = store.batch([SearchOp(("test",), {"tag": "a"}, 10, 0), SearchOp(("test",), None, 2, 0),
                           SearchOp(("test", "foo"), None, 10, 0)])
    assert len(results[0]) == 2 and all(item.value["tag"] == "a" for item in results[0])
    assert len(results[1]) == 2
    assert [item.namespace for item in results[2]] == [("test", "foo")]


def test_batch_list_namespaces_ops(store):
    data = [(("test", "documents", "public"), "doc1", {"content": "public doc"}),
            (("test", "documents", "private"), "doc2", {"content": "private doc"}),
            (("test", "images", "public"), "img1", {"content": "public image"}),
            (("prod", "documents", "public"), "doc3", {"content": "prod doc"})]
    for ns, key, value in data:
        store.put(ns, key, value)
    results = store.batch([ListNamespacesOp(None, None, 10, 0), ListNamespacesOp(None, 2, 10, 0),
                           ListNamespacesOp((MatchCondition("suffix", ("public",)),), None, 10, 0)])
    assert len(results[0]) == len(data)
    assert all(len(ns) <= 2 for ns in results[1])
    assert all(ns[-1] == "public" for ns in results[2]) and len(results[2]) == 3


def test_basic_store_ops(store):
    namespace, item_id = ("test", "documents"), "doc1"
    store.put(namespace, item_id, {"title": "Test Document", "content": "Hello, World!"})
    item = store.get(namespace, item_id)
    assert item.namespace == namespace and item.key == item_id
    assert item.value == {"title": "Test Document", "content": "Hello, World!"}
    time.sleep(0.01)
    store.put(namespace, item_id, {"title": "Updated Document", "content": "Hello, Updated!"})
    updated = store.get(namespace, item_id)
    assert updated.value == {"title": "Updated Document", "content": "Hello, Updated!"}
    assert updated.updated_at > item.updated_at and updated.created_at == item.created_at
    assert store.get(("test", "other_documents"), item_id) is None
    store.delete(namespace, item_id)
    assert store.get(namespace, item_id) is None
    assert len(store.memory) == 0  # its turn is forgotten with it


def test_list_namespaces(store):
    spaces = [("test", "documents", "public"), ("test", "documents", "private"), ("test", "images", "public"),
              ("test", "images", "private"), ("prod", "documents", "public"), ("prod", "documents", "private")]
    for ns in spaces:
        store.put(ns, "dummy", {"content": "dummy"})
    assert len(store.list_namespaces()) == len(spaces)
    test = store.list_namespaces(prefix=["test"])
    assert len(test) == 4 and all(ns[0] == "test" for ns in test)
    public = store.list_namespaces(suffix=["public"])
    assert len(public) == 3 and all(ns[-1] == "public" for ns in public)
    assert all(len(ns) <= 2 for ns in store.list_namespaces(max_depth=2))
    assert len(store.list_namespaces(limit=3)) == 3
    for ns in spaces:
        store.delete(ns, "dummy")
    assert store.list_namespaces() == []


def test_search(store):
    data = [(("test", "docs"), "doc1", {"title": "First Doc", "author": "Alice", "tags": ["important"]}),
            (("test", "docs"), "doc2", {"title": "Second Doc", "author": "Bob", "tags": ["draft"]}),
            (("test", "images"), "img1", {"title": "Image 1", "author": "Alice", "tags": ["final"]})]
    for ns, key, value in data:
        store.put(ns, key, value)
    assert len(store.search(["test"])) == 3
    docs = store.search(["test", "docs"])
    assert len(docs) == 2 and all(item.namespace == ("test", "docs") for item in docs)
    alice = store.search(["test"], filter={"author": "Alice"})
    assert len(alice) == 2 and all(item.value["author"] == "Alice" for item in alice)
    assert len(store.search(["test"], limit=2)) == 2
    assert len(store.search(["test"], offset=2)) == 1


def test_basic_store_operations(make):
    store = make(index={"fields": ["key0", "key1", "key3"]})
    namespace = ("uid", "test", "documents")
    assert store.search(("uid",)) == []
    store.put(namespace, "doc1", {"title": "Test Document", "content": "Hello, World!"})
    item = store.get(namespace, "doc1")
    assert item.namespace == namespace and item.created_at is not None and item.updated_at is not None
    store.put(namespace, "doc1", {"title": "Updated Test Document", "content": "Hello, LangGraph!"})
    updated = store.get(namespace, "doc1")
    assert updated.value == {"title": "Updated Test Document", "content": "Hello, LangGraph!"}
    assert updated.updated_at >= item.updated_at
    assert store.get(("uid", "test", "other_documents"), "doc1") is None
    store.put(namespace, "doc2", {"title": "Another Document", "content": "Greetings!"})
    assert {i.key for i in store.search(("uid", "test"), limit=10)} == {"doc1", "doc2"}
    assert namespace in store.list_namespaces(prefix=("uid", "test"))
    store.delete(namespace, "doc1")
    store.delete(namespace, "doc2")
    assert store.get(namespace, "doc1") is None and store.get(namespace, "doc2") is None
    assert store.search(("uid", "test"), limit=10) == []


def test_list_namespaces_operations(store):
    p = "pref"
    spaces = [(p, "test", "documents", "public", p), (p, "test", "documents", "private", p),
              (p, "test", "images", "public", p), (p, "test", "images", "private", p),
              (p, "prod", "documents", "public", p), (p, "prod", "documents", "some", "nesting", "public", p),
              (p, "prod", "documents", "private", p)]
    for ns in spaces:
        store.put(ns, "dummy", {"content": "dummy"})
    assert len(store.list_namespaces(prefix=(p, "test"))) == 4
    assert len(store.list_namespaces(prefix=(p, "test", "documents"))) == 2
    assert len(store.list_namespaces(suffix=("public", p))) == 4
    assert len(store.list_namespaces(prefix=(p, "test"), suffix=("public", p))) == 2
    assert len(store.list_namespaces(prefix=(p, "*", "documents"))) == 5
    assert len(store.list_namespaces(suffix=("*", "public", p))) == 4
    assert store.list_namespaces(suffix=("some", "*", "public", p)) == [(p, "prod", "documents", "some", "nesting", "public", p)]
    assert all(len(ns) <= 3 for ns in store.list_namespaces(max_depth=3))
    deep = store.list_namespaces(max_depth=4, prefix=(p, "*", "documents"))
    assert len(set(deep)) == len(deep) == 5
    assert len(store.list_namespaces(prefix=(p,), limit=3)) == 3
    assert len(store.list_namespaces(prefix=(p,), offset=3)) == len(spaces) - 3
    assert set(store.list_namespaces(prefix=(p,))) == set(spaces)


def test_search_items(store):
    base = "test_search_items"
    spaces = [(base, "documents", "user1"), (base, "documents", "user2"), (base, "reports", "department1"),
              (base, "reports", "department2")]
    items = [{"title": "Doc 1", "author": "John Doe", "tags": ["important"]},
             {"title": "Doc 2", "author": "Jane Smith", "tags": ["draft"]},
             {"title": "Report A", "author": "John Doe", "tags": ["final"]},
             {"title": "Report B", "author": "Alice Johnson", "tags": ["draft"]}]
    for ns, item in zip(spaces, items):
        store.put(ns, f"item_{ns[-1]}", item)
    assert {i.namespace[1] for i in store.search((base, "documents"))} == {"documents"}
    assert len(store.search((base, "reports"))) == 2
    first, second = store.search((base,), limit=2, offset=0), store.search((base,), limit=2, offset=2)
    assert len(first) == len(second) == 2 and {i.key for i in first}.isdisjoint(i.key for i in second)
    assert len(store.search((base,))) == 4
    assert len(store.search((base,), filter={"author": "John Doe"})) == 2
    drafts = store.search((base,), filter={"tags": ["draft"]})
    assert len(drafts) == 2 and all("draft" in i.value["tags"] for i in drafts)


def test_injection_in_filter_keys_and_values(store):
    """The SQLite store's injection cases: here a filter is never SQL, so a crafted key or value is
    a field that no item holds (nothing matches), and a quote is a quote."""
    store.put(("docs",), "public", {"access": "public", "data": "public info"})
    store.put(("docs",), "private", {"access": "private", "data": "secret", "password": "123"})
    assert [r.key for r in store.search(("docs",), filter={"access": "public"})] == ["public"]
    assert store.search(("docs",), filter={"access') = 'public' OR '1'='1' OR json_extract(value, '$.": "x"}) == []
    for value in ["public' OR '1'='1", "public'; --", "public' UNION SELECT * FROM store --",
                  "public\x00' OR '1'='1", "''''", "public' OR 'א'='א"]:
        assert store.search(("docs",), filter={"access": value}) == [], value
    store.put(("docs",), "doc4", {"title": "O'Brien's Document", "access": "public"})
    assert [r.key for r in store.search(("docs",), filter={"title": "O'Brien's Document"})] == ["doc4"]


def test_numeric_filter_safety(store):
    for key, price, quantity in [("item1", 10, 5), ("item2", 20, 3), ("item3", 30, 1)]:
        store.put(("items",), key, {"price": price, "quantity": quantity})
    assert {r.key for r in store.search(("items",), filter={"price": {"$gt": 15}})} == {"item2", "item3"}
    assert len(store.search(("items",), filter={"price": {"$lt": math.inf}})) == 3
    assert len(store.search(("items",), filter={"price": {"$gt": -math.inf}})) == 3
    assert store.search(("items",), filter={"price": {"$eq": math.nan}}) == []
    assert len(store.search(("items",), filter={"price": {"$lt": 10**100}})) == 3
    store.put(("items",), "item4", {"price": -10, "quantity": 0})
    assert [r.key for r in store.search(("items",), filter={"price": {"$lt": 0}})] == ["item4"]


def test_boolean_filter_safety(store):
    for key, active in [("flag1", True), ("flag2", False), ("flag3", True)]:
        store.put(("flags",), key, {"active": active, "name": f"Feature {key}"})
    assert {r.key for r in store.search(("flags",), filter={"active": True})} == {"flag1", "flag3"}
    assert [r.key for r in store.search(("flags",), filter={"active": False})] == ["flag2"]


def test_filter_keys_with_hyphens_and_digits(store):
    store.put(("docs",), "hyphen", {"access-level": "public", "user": {"access-level": "nested"}})
    store.put(("docs",), "digit", {"123abc": "ok", "user": {"123abc": "ok2"}})
    assert [r.key for r in store.search(("docs",), filter={"access-level": "public"})] == ["hyphen"]
    assert [r.key for r in store.search(("docs",), filter={"user.access-level": "nested"})] == ["hyphen"]
    assert [r.key for r in store.search(("docs",), filter={"123abc": "ok"})] == ["digit"]
    assert [r.key for r in store.search(("docs",), filter={"user.123abc": "ok2"})] == ["digit"]


def _spaces(store, prefix) -> set[tuple[str, ...]]:
    return {item.namespace for item in store.search(prefix, limit=100)}


def test_search_namespace_segment_boundary(store):
    for ns in [("foo",), ("foo", "child"), ("foo", "child", "deep"), ("foobar",), ("foobar", "baz"), ("foo2",)]:
        store.put(ns, "k", {"v": 1})
    assert _spaces(store, ("foo",)) == {("foo",), ("foo", "child"), ("foo", "child", "deep")}
    assert _spaces(store, ("foobar",)) == {("foobar",), ("foobar", "baz")}
    assert _spaces(store, ("foo2",)) == {("foo2",)}
    assert _spaces(store, ("fo",)) == set()


def test_search_namespace_wildcard_chars_are_literal(store):
    for ns in [("user_1",), ("user_1", "child"), ("userX1",), ("a%b",), ("axxb",), ("star*",), ("starX",)]:
        store.put(ns, "k", {"v": 1})
    assert _spaces(store, ("user_1",)) == {("user_1",), ("user_1", "child")}
    assert _spaces(store, ("a%b",)) == {("a%b",)}
    assert _spaces(store, ("star*",)) == {("star*",)}


def test_search_namespace_is_case_sensitive(store):
    store.put(("Foo",), "k", {"v": "upper"})
    store.put(("foo",), "k", {"v": "lower"})
    assert _spaces(store, ("foo",)) == {("foo",)} and _spaces(store, ("Foo",)) == {("Foo",)}


def test_list_namespaces_segment_boundary(store):
    for ns in [("foo",), ("foo", "child"), ("foobar",), ("foobar", "baz"), ("uid", "users", "alice"),
               ("uid", "users", "malice"), ("uid", "a", "b", "alice")]:
        store.put(ns, "k", {"v": 1})
    assert set(store.list_namespaces(prefix=["foo"], limit=100)) == {("foo",), ("foo", "child")}
    assert set(store.list_namespaces(suffix=["alice"], limit=100)) == {("uid", "users", "alice"), ("uid", "a", "b", "alice")}
    assert set(store.list_namespaces(prefix=["uid", "*", "alice"], limit=100)) == {("uid", "users", "alice")}
    assert len(store.list_namespaces(prefix=["uid"], limit=100)) == 3


def test_search_empty_prefix_is_unconstrained(store):
    for ns in [("a",), ("b", "c"), ("d", "e", "f")]:
        store.put(ns, "k", {"v": 1})
    assert _spaces(store, ()) == {("a",), ("b", "c"), ("d", "e", "f")}


def test_namespace_labels_with_trailing_newline(store):
    store.put(("users", "alice"), "k", {"v": 1})
    store.put(("users", "alice\n"), "k", {"v": 2})
    assert set(store.list_namespaces(suffix=["alice"], limit=100)) == {("users", "alice")}
    assert set(store.list_namespaces(prefix=["users", "alice"], limit=100)) == {("users", "alice")}
    assert store.get(("users", "alice\n"), "k").value == {"v": 2}


def test_list_namespaces_metacharacter_labels(store):
    pairs = [("star*", "starX"), ("q?m", "qXm"), ("br[ack]et", "brXacXket"), ("user_1", "userX1"), ("a%b", "axxb"),
             ("plus+", "plusX")]
    for label, decoy in pairs:
        store.put((label,), "k", {"v": 1})
        store.put((decoy,), "k", {"v": 1})
        store.put((label, "child"), "k", {"v": 1})
    for label, decoy in pairs:
        found = set(store.list_namespaces(prefix=[label], limit=100))
        assert found == {(label,), (label, "child")} and (decoy,) not in found
        assert set(store.list_namespaces(prefix=[label, "child"], limit=100)) == {(label, "child")}


def test_the_users_other_turns_in_the_memory_never_crowd_out_the_stores_items(make):
    """A search asked the memory for as many turns as the store had items: the user's other turns took them."""
    store = make(index={"fields": ["text"]})
    store.put(("ann", "mem"), "k1", {"text": "I adopted a dog called Rex."})
    store.put(("ann", "mem"), "k2", {"text": "My favourite colour is green."})
    store.memory.ingest([{"id": f"x{i}", "speaker": "Ann", "text": f"Rex the dog barked at dog number {i}.",
                          "user": "ann"} for i in range(3)])
    found = store.search(("ann",), query="dog Rex")
    assert found[0].key == "k1" and found[0].score is not None


def test_an_item_forgotten_through_the_memory_is_gone_from_the_store(make):
    store = make(index={"fields": ["text"]})
    store.put(("ann", "mem"), "k1", {"text": "I adopted a dog called Rex."})
    store.put(("ann", "mem"), "k2", {"text": "My favourite colour is green."})
    store.memory.forget(ids=[t.id for t in store.memory.turns(user="ann") if "Rex" in t.text], user="ann")
    assert store.get(("ann", "mem"), "k1") is None and store.get(("ann", "mem"), "k2") is not None
    assert [i.key for i in store.search(("ann",), query="dog Rex")] == ["k2"]
