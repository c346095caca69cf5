"""The LangChain retriever, checked by langchain-core's own standard retriever tests (langchain-tests'
``RetrieversIntegrationTests``: k at construction and per call, documents from invoke and ainvoke),
then by what graphmem adds: each document is a turn with its metadata, of one user only."""

from __future__ import annotations

import contextlib
import io
import re
from datetime import datetime
from pathlib import Path

import pytest

from tests.conftest import IN_CI

if not IN_CI:  # the extra is installed in CI (.ci/run), where its absence fails the import below
    pytest.importorskip("langchain_tests")

from langchain_core.documents import Document  # noqa: E402
from langchain_tests.integration_tests import RetrieversIntegrationTests  # noqa: E402

from graphmem import Memory  # noqa: E402
from graphmem.integrations.langchain import GraphmemRetriever  # noqa: E402

TURNS = [
    {"id": "d1", "speaker": "Ann", "text": "I adopted a dog called Rex yesterday.", "date": "2023-05-08",
     "conversation": "walks"},
    {"id": "d2", "speaker": "Bob", "text": "My dog loves the beach.", "conversation": "walks"},
    {"id": "d3", "speaker": "Ann", "text": "The dog chewed my shoes again.", "conversation": "home"},
    {"id": "d4", "speaker": "Bob", "text": "Walking the dog in the rain is no fun.", "conversation": "home"},
    {"id": "d5", "speaker": "Ann", "text": "I went hiking in the Alps.", "conversation": "trips"},
]


def _memory() -> Memory:
    mem = Memory()
    mem.ingest(TURNS)
    mem.ingest([{"id": "x1", "speaker": "Cy", "text": "My dog is a secret.", "user": "cy"}])
    return mem


class TestStandard(RetrieversIntegrationTests):
    """langchain-core's standard retriever tests, as they ship."""

    @property
    def retriever_constructor(self) -> type[GraphmemRetriever]:
        return GraphmemRetriever

    @property
    def retriever_constructor_params(self) -> dict:
        return {"memory": _memory()}

    @property
    def retriever_query_example(self) -> str:
        return "Who has a dog?"


def test_each_document_is_a_turn_with_its_metadata():
    docs = GraphmemRetriever(memory=_memory(), k=2).invoke("When did Ann adopt a dog?")
    assert all(isinstance(d, Document) for d in docs)
    first = docs[0]
    assert first.page_content == "I adopted a dog called Rex yesterday." and first.id == "d1"
    assert {k: first.metadata[k] for k in ("id", "speaker", "conversation", "user")} == \
        {"id": "d1", "speaker": "Ann", "conversation": "walks", "user": None}
    assert datetime.fromisoformat(first.metadata["date"]).date().isoformat() == "2023-05-08"
    assert "score" not in first.metadata or isinstance(first.metadata["score"], float)


def test_a_user_and_a_conversation_keep_to_their_turns():
    mem = _memory()
    assert [d.id for d in GraphmemRetriever(memory=mem, user="cy").invoke("dog")] == ["x1"]
    assert all(d.metadata["user"] is None for d in GraphmemRetriever(memory=mem, k=10).invoke("dog"))
    home = GraphmemRetriever(memory=mem, k=10, conversation="home").invoke("dog")
    assert sorted(d.id for d in home) == ["d3", "d4"]
    assert [d.id for d in GraphmemRetriever(memory=mem).invoke("dog", user="cy")] == ["x1"]


def test_the_documented_example_runs_as_written():
    doc = Path(__file__).resolve().parents[3] / "docs" / "langchain.md"
    block = re.search(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), re.S).group(1)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block, str(doc), "exec"), {"__name__": "langchain_example"})
    first, meta = printed.getvalue().splitlines()
    assert first == "I adopted a dog called Rex yesterday."
    assert meta == "{'id': 'd1', 'speaker': 'Ann', 'date': '2023-05-08T00:00:00', 'conversation': 'walks', 'user': 'ann'}"
