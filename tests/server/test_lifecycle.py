"""facts, forget and user through the tools: the memory's lifecycle verbs as a model calls them.

The memory's signatures (``forget(ids=None, conversation=None, user=None) -> int``,
``facts(about, as_of=None, user=None) -> list[Fact]``, ``user=`` on search, records_for, ask and
turns, a record's ``"user"``) reached through the tools, as a model calls them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import pytest
from mcp import Client

from graphmem.memory.api import Memory
from graphmem.server.app import build
from tests.server.conftest import ok


ANN = {"speaker": "Ann", "text": "I adopted a dog.", "date": "2023-05-08"}
BOB = {"speaker": "Bob", "text": "Nice! What is the dog called?", "date": "2023-05-08"}


@pytest.fixture(params=["ram", "file"])
def memory(request, tmp_path) -> Memory:
    mem = Memory() if request.param == "ram" else Memory(path=tmp_path / "memory.db")
    yield mem
    mem.close()


def served(mem: Memory, body: Callable[[Client], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        async with Client(build(mem)) as client:
            return await body(client)

    return anyio.run(main)


def test_facts_about_a_person_name_the_turn_they_were_read_from(memory):
    async def body(client: Client) -> tuple[dict, dict, list[str]]:
        ids = ok(await client.call_tool("remember", {"turns": [ANN, BOB], "conversation": "c"}))["ids"]
        return (ok(await client.call_tool("facts", {"about": "Ann"})),
                ok(await client.call_tool("facts", {"about": "Ann", "as_of": "2000-01-01"})), ids)

    facts, before, ids = served(memory, body)
    mine = [f for f in facts["facts"] if f["turn_id"] == ids[0]]
    assert mine, facts
    assert all(f["said_on"].startswith("2023-05-08") and isinstance(f["negated"], bool) for f in mine)
    assert not [f for f in before["facts"] if f["turn_id"] == ids[0]], "nothing held in 2000 was said in 2023"


def test_facts_history_gives_every_value_and_what_ended_it(memory):
    """The user's own turns only (one speaker): what holds, and with ``history`` each value in order."""
    moves = [{"speaker": "user", "text": "I live in Paris.", "date": "2023-01-10"},
             {"speaker": "user", "text": "We moved to Porto last week, so Porto is home now.", "date": "2023-06-02"}]

    async def body(client: Client) -> tuple[dict, dict, list[str]]:
        ids = ok(await client.call_tool("remember", {"turns": moves, "conversation": "notes"}))["ids"]
        return (ok(await client.call_tool("facts", {"about": "user"})),
                ok(await client.call_tool("facts", {"about": "user", "history": True})), ids)

    now, history, ids = served(memory, body)
    assert [(f["attribute"], f["value"]) for f in now["facts"]] == [("residence", "porto")]
    homes = [f for f in history["facts"] if f["attribute"] == "residence"]
    assert [(f["value"], f["turn_id"], f.get("ended_by")) for f in homes] == [("paris", ids[0], ids[1]),
                                                                             ("porto", ids[1], None)]
    assert homes[0]["valid_to"].startswith("2023-06-02") and "valid_to" not in homes[1]


def test_forget_removes_by_ids_by_conversation_and_by_user(memory):
    async def body(client: Client) -> dict[str, Any]:
        out: dict[str, Any] = {}
        a = ok(await client.call_tool("remember", {"turns": [ANN, BOB], "conversation": "a"}))["ids"]
        ok(await client.call_tool("remember", {"turns": [ANN, BOB], "conversation": "b"}))
        ok(await client.call_tool("remember", {"turns": [ANN], "conversation": "a", "user": "carol"}))
        out["a"], out["ids"] = a[0], ok(await client.call_tool("forget", {"ids": [a[0]]}))
        out["again"] = ok(await client.call_tool("forget", {"ids": [a[0]]}))
        out["found"] = ok(await client.call_tool("search", {"query": "adopted a dog", "conversation": "a"}))
        out["conversation"] = ok(await client.call_tool("forget", {"conversation": "b"}))
        out["left"] = ok(await client.call_tool("stats", {}))
        out["user"] = ok(await client.call_tool("forget", {"user": "carol"}))
        out["carol"] = ok(await client.call_tool("stats", {"user": "carol"}))
        return out

    out = served(memory, body)
    assert out["ids"] == {"removed": 1, "matched": [out["a"]], "not_found": []}
    assert out["again"] == {"removed": 0, "matched": [], "not_found": [out["a"]]}
    assert out["found"]["turns"] == [] or all(t["speaker"] != "Ann" for t in out["found"]["turns"])
    assert out["conversation"] == {"removed": 2}
    assert out["left"]["turns"] == 1 and out["left"]["conversations"] == 1
    assert out["user"] == {"removed": 1} and out["carol"]["turns"] == 0


def test_a_user_is_a_partition_of_the_memory(memory):
    async def body(client: Client) -> dict[str, Any]:
        alice = ok(await client.call_tool("remember", {"turns": [ANN], "user": "alice"}))["ids"]
        bob = ok(await client.call_tool("remember", {"turns": [ANN], "user": "bob"}))["ids"]
        return {"ids": (alice, bob),
                "alice": ok(await client.call_tool("search", {"query": "adopted a dog", "user": "alice"})),
                "nobody": ok(await client.call_tool("search", {"query": "adopted a dog"})),
                "ask": ok(await client.call_tool("ask", {"question": "When did Ann adopt a dog?", "user": "bob"})),
                "turns": ok(await client.call_tool("turns", {"user": "bob"})),
                "stats": ok(await client.call_tool("stats", {"user": "alice"}))}

    out = served(memory, body)
    (alice,), (bob,) = out["ids"]
    assert alice != bob, "the same words said by two users are two turns"
    assert [t["id"] for t in out["alice"]["turns"]] == [alice]
    assert out["nobody"]["turns"] == [], "turns remembered without a user are user None's, and there are none"
    assert [t["id"] for t in out["ask"]["cited"]] == [bob]
    assert [t["id"] for t in out["turns"]["turns"]] == [bob] and out["stats"]["turns"] == 1
