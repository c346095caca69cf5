"""The ``update`` tool and metadata through the MCP server: a turn corrected and tagged in place, a
search kept to tagged turns, the refusals a model gets (in process, the SDK's own client)."""

from __future__ import annotations

from typing import Any

from mcp import Client

from graphmem.memory.api import Memory
from tests.server.conftest import error, ok
from tests.server.test_tools import ANN, BOB, served


def test_update_corrects_and_tags_a_turn_in_place():
    async def body(client: Client) -> Any:
        ids = ok(await client.call_tool("remember", {"turns": [ANN, {**BOB, "metadata": {"source": "sms"}}],
                                                     "conversation": "c"}))["ids"]
        changed = ok(await client.call_tool("update", {"id": ids[0], "text": "I adopted a cat called Rex yesterday.",
                                                       "metadata": {"source": "email", "pinned": True}}))
        assert changed == {"turn": {"id": ids[0], "speaker": "Ann", "text": "I adopted a cat called Rex yesterday.",
                                    "conversation": "c", "date": "2023-05-08T00:00:00",
                                    "metadata": {"source": "email", "pinned": True}}}
        found = ok(await client.call_tool("search", {"query": "Who adopted a cat?", "k": 1}))["turns"]
        assert found == [changed["turn"]]
        assert ok(await client.call_tool("search", {"query": "dog", "k": 3}))["turns"] == []
        tagged = ok(await client.call_tool("search", {"query": "Rex Alps", "where": {"source": ["sms"]}}))["turns"]
        assert [t["id"] for t in tagged] == [ids[1]] and tagged[0]["metadata"] == {"source": "sms"}
        answer = ok(await client.call_tool("ask", {"question": "What did Ann adopt?", "where": {"pinned": True}}))
        assert answer["cited"][0]["id"] == ids[0]
        cleared = ok(await client.call_tool("update", {"id": ids[0], "metadata": {}}))["turn"]
        assert "metadata" not in cleared and ok(await client.call_tool("stats", {}))["turns"] == 2
        bad = error(await client.call_tool("update", {"id": ids[0], "metadata": {"a b": 1}}))
        assert bad == f"update of id '{ids[0]}' (id '{ids[0]}'): metadata name 'a b' must be 1 to 64 letters, digits," \
                      " '_', '.' or '-', starting with a letter or '_'"
        other = error(await client.call_tool("update", {"id": ids[0], "text": "x", "user": "bob"}))
        assert other == f"id '{ids[0]}': the memory holds no such turn of user 'bob' (ingest it instead)"

    served(Memory(), body)


def test_a_read_only_memory_refuses_update(tmp_path):
    path = tmp_path / "m.db"
    with Memory(path=path) as mem:
        mem.ingest([{"id": "a", **ANN}])

    async def body(client: Client) -> str:
        return error(await client.call_tool("update", {"id": "a", "text": "x"}))

    with Memory(path=path, read_only=True) as mem:
        assert served(mem, body) == f"{path}: this memory was opened read-only; it updates nothing"
