"""``graphmem serve --http`` spawned on a free port: many clients at once, and the bearer token.

Why: over HTTP one server has many clients, so an acknowledged turn must be kept and found
whatever the others do at the same moment, and the token must stop a request before any tool
runs (a 401), while a client that has it is served as any other.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from typing import Any

import anyio
import httpx2
import pytest
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


def _ipv6() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


LOOPBACK = ["127.0.0.1", "127.1", "127.0.0.2", "localhost",
            *(["::1", "::ffff:127.0.0.1"] if _ipv6() else [])]


@pytest.mark.parametrize("host", LOOPBACK)
def test_every_spelling_of_loopback_refuses_another_sites_host_and_origin_and_warns_of_nothing(tmp_path, host):
    request = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}
    headers = {"Accept": "application/json, text/event-stream"}
    with http_server(tmp_path, host=host) as url:
        bound, port = url.removeprefix("http://").removesuffix("/mcp"), url.rsplit(":", 1)[1].removesuffix("/mcp")
        with httpx2.Client() as http:
            rebound = http.post(url, json=request, headers={**headers, "Host": "evil.example"})
            rebound_port = http.post(url, json=request, headers={**headers, "Host": f"evil.example:{port}"})
            origin = http.post(url, json=request, headers={**headers, "Origin": "http://evil.example"})
            own = http.post(url, json=request, headers={**headers, "Host": bound, "Origin": f"http://{bound}"})
    said = (tmp_path / f"serve-{port}.log").read_text()
    assert rebound.status_code == 421 and rebound_port.status_code == 421, said
    assert origin.status_code == 403
    assert own.status_code == 200 and own.json()["result"]["serverInfo"]["name"] == "graphmem"
    assert "warning" not in said and "reachable" not in said, said


def test_a_host_other_machines_reach_is_warned_of_with_and_without_a_token(tmp_path):
    with http_server(tmp_path, host="0.0.0.0") as url:
        port = url.rsplit(":", 1)[1].removesuffix("/mcp")
    bare = (tmp_path / f"serve-{port}.log").read_text()
    with http_server(tmp_path, host="0.0.0.0", env={"GRAPHMEM_MCP_TOKEN": "s3cret-token"}) as url:
        port = url.rsplit(":", 1)[1].removesuffix("/mcp")
    tokened = (tmp_path / f"serve-{port}.log").read_text()
    assert "warning: 0.0.0.0 is reachable from other machines and no --token is set" in bare
    assert "warning: 0.0.0.0 is reachable from other machines over plain HTTP: the token crosses" in tokened


HELLO = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}
WIRE = {"Accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18"}


@pytest.mark.parametrize(("given", "named"), [({"a": 1}, "an object"), ([1], "an array"), (1.5, "a fraction"),
                                              (True, "a boolean"), (None, "null")])
def test_a_request_whose_id_is_no_string_or_integer_is_answered_with_a_json_rpc_error(tmp_path, given, named):
    with http_server(tmp_path, env={"GRAPHMEM_MCP_TOKEN": "s3cret-token"}) as url:
        with httpx2.Client(headers={**WIRE, "Authorization": "Bearer s3cret-token"}) as http:
            session = http.post(url, json=HELLO).headers["mcp-session-id"]
            bad = http.post(url, json={"jsonrpc": "2.0", "id": given, "method": "tools/list"},
                            headers={"mcp-session-id": session})
            good = http.post(url, json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                             headers={"mcp-session-id": session})
        with httpx2.Client(headers=WIRE) as http:
            stranger = http.post(url, json={"jsonrpc": "2.0", "id": given, "method": "tools/list"})
    assert bad.status_code == 400 and bad.json() == {"jsonrpc": "2.0", "id": None, "error": {
        "code": -32600, "message": f"Invalid Request: id must be a string or an integer, not {named}"}}
    assert good.status_code == 200 and len(good.json()["result"]["tools"]) == 8
    assert stranger.status_code == 401, "the token is checked before the body is read"
