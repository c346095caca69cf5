"""``graphmem serve --http`` spawned on a free port: many clients at once, and the bearer token.

Why: over HTTP one server has many clients, so an acknowledged turn must be kept and found
whatever the others do at the same moment, and the token must stop a request before any tool
runs (a 401), while a client that has it is served as any other.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.server.conftest import ENV, REPO, http_server, ok

CLIENTS, TURNS = 8, 100


def word(client: int, n: int) -> str:
    """A word no other turn holds (letters only: stemming leaves it whole), so a search for it finds one turn."""
    return "zq" + "".join("abcdefghij"[int(d)] for d in f"{client:02d}{n:03d}") + "x"


def test_eight_clients_each_remember_100_turns_one_call_each_and_find_every_one(tmp_path):
    acknowledged: dict[str, str] = {}
    found: dict[str, list[str]] = {}

    async def one(client: int, url: str) -> None:
        async with Client(url) as mcp:
            for n in range(TURNS):
                text = f"Note {n} from client {client}: the {word(client, n)} was seen near the river."
                turn = {"speaker": f"Agent{client}", "text": text, "date": "2024-06-01T10:00:00"}
                added = ok(await mcp.call_tool("remember", {"turns": [turn], "conversation": f"client-{client}"}))
                assert added["added"] == 1
                acknowledged[word(client, n)] = added["ids"][0]
            for n in range(TURNS):
                result = ok(await mcp.call_tool("search", {"query": word(client, n), "k": 1}))
                found[word(client, n)] = [t["id"] for t in result["turns"]]

    with http_server(tmp_path, "--memory", str(tmp_path / "memory.db")) as url:
        async def main() -> dict[str, Any]:
            async with anyio.create_task_group() as group:
                for client in range(CLIENTS):
                    group.start_soon(one, client, url)
            async with Client(url) as mcp:
                return ok(await mcp.call_tool("stats", {}))

        stats = anyio.run(main)
    assert len(acknowledged) == CLIENTS * TURNS == stats["turns"] and stats["conversations"] == CLIENTS
    missing = {w: tid for w, tid in acknowledged.items() if found[w] != [tid]}
    assert not missing, f"{len(missing)} acknowledged turns not found first by their own word"


def test_a_token_refuses_who_lacks_it_and_serves_who_has_it_and_its_port_is_not_taken_twice(tmp_path):
    with http_server(tmp_path, env={"GRAPHMEM_MCP_TOKEN": "s3cret-token"}) as url:
        async def main() -> tuple[list[httpx2.Response], BaseException | None, dict]:
            request = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
            headers = {"Accept": "application/json, text/event-stream"}
            async with httpx2.AsyncClient() as http:
                refused = [await http.post(url, json=request, headers=headers),
                           await http.post(url, json=request, headers={**headers, "Authorization": "Bearer wrong"}),
                           await http.post(url, json=request, headers={**headers, "Authorization": "s3cret-token"})]
            failure = None
            try:
                async with Client(url) as mcp:
                    await mcp.list_tools()
            except BaseException as exc:  # the SDK's client raises (in a task group) on a refused connection
                failure = exc
            async with httpx2.AsyncClient(headers={"Authorization": "Bearer s3cret-token"}) as http:
                async with Client(streamable_http_client(url, http_client=http)) as mcp:
                    assert len((await mcp.list_tools()).tools) == 8
                    ok(await mcp.call_tool("remember", {"turns": [{"speaker": "Ann", "text": "Rex is my dog."}]}))
                    return refused, failure, ok(await mcp.call_tool("search", {"query": "Rex"}))

        refused, failure, found = anyio.run(main)
        port = url.rsplit(":", 1)[1].removesuffix("/mcp")
        beside = subprocess.run([sys.executable, "-m", "graphmem.cli", "serve", "--http", port], cwd=REPO,
                                env={**os.environ, **ENV}, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                timeout=60)
    assert beside.returncode == 1 and beside.stderr == (f"Error: cannot listen on {url}: Address already in use; "
                                                        "another server holds it: choose another port\n")
    for response in refused:
        assert response.status_code == 401 and response.headers["www-authenticate"].startswith("Bearer ")
        assert response.json()["error"] == "invalid_token"
    assert failure is not None, "a client without the token is not served"
    assert [t["text"] for t in found["turns"]] == ["Rex is my dog."]
