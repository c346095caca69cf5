"""``graphmem serve --memory FILE`` spawned over stdio, as a desktop client runs it, driven by the SDK's client.

Why these cases: a desktop client speaks to the server through a pipe for as long as it runs, so
every bad call must come back as a tool error on that pipe (the server never dies), a restart
must find what was remembered, and a second server on the same file must be refused at start,
not serve a memory it cannot write.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, ClientSession, stdio_client

from tests.server.conftest import BAD, ENV, REPO, error, ok, recorded, stdio

TURNS = [{"speaker": "Ann", "text": "I adopted a dog called Rex yesterday.", "date": "2023-05-08"},
         {"speaker": "Bob", "text": "Congrats! I went hiking in the Alps last weekend.", "date": "2023-05-08"}]


def _session(path: Path, log: list[dict[str, Any]]) -> dict[str, Any]:
    """One session: every tool once with good input, then every bad call, then a good one again."""
    async def main() -> dict[str, Any]:
        out: dict[str, Any] = {}
        with open(os.devnull, "w") as quiet:
            async with Client(recorded(stdio_client(stdio("--memory", str(path)), errlog=quiet), log)) as client:
                out["tools"] = [t.name for t in (await client.list_tools()).tools]
                out["remember"] = ok(await client.call_tool("remember", {"turns": TURNS, "conversation": "ann"}))
                out["search"] = ok(await client.call_tool("search", {"query": "Who adopted a dog?", "k": 2}))
                out["ask"] = ok(await client.call_tool("ask", {"question": "When did Ann adopt a dog?", "k": 1}))
                out["quote"] = ok(await client.call_tool("ask", {"question": "What is Ann's dog called?"}))
                out["turns"] = ok(await client.call_tool("turns", {"conversation": "ann", "limit": 10}))
                out["stats"] = ok(await client.call_tool("stats", {}))
                facts = await client.call_tool("facts", {"about": "Ann"})
                out["facts"] = ok(facts)
                out["bad"] = [(t, a, error(await client.call_tool(t, a))) for t, a, _ in BAD]
                forget = await client.call_tool("forget", {"ids": [out["remember"]["ids"][1]]})
                out["forget"] = ok(forget)
                out["after"] = ok(await client.call_tool("stats", {}))
        return out

    return anyio.run(main)


def test_a_session_over_stdio_calls_every_tool_and_survives_every_bad_call(tmp_path):
    log: list[dict[str, Any]] = []
    out = _session(tmp_path / "memory.db", log)
    assert out["tools"] == ["remember", "update", "search", "ask", "facts", "forget", "turns", "stats"]
    ids = out["remember"]["ids"]
    assert out["remember"]["added"] == 2 and out["search"]["turns"][0]["id"] == ids[0]
    assert out["ask"]["reply"] == "7 May 2023" and [t["id"] for t in out["ask"]["cited"]] == ids[:1]
    assert "Rex" in out["quote"]["reply"] and out["quote"]["source"] == ids[0] and "Rex" in out["quote"]["sentence"]
    assert [t["id"] for t in out["turns"]["turns"]] == ids
    assert out["stats"]["turns"] == 2 and out["stats"]["conversations"] == 1
    assert [line for _, _, line in out["bad"]] == [line for _, _, line in BAD]
    assert any(f["turn_id"] == ids[0] for f in out["facts"]["facts"])
    assert out["forget"] == {"removed": 1, "matched": [ids[1]], "not_found": []} and out["after"]["turns"] == 1
    sent = [m for m in log if m["from"] == "client" and m.get("method") == "tools/call"]
    assert len(sent) == 9 + len(BAD), "every call went over the pipe"
    if os.environ.get("GRAPHMEM_MCP_TRANSCRIPT"):  # docs/mcp.md's transcript: this session's messages
        Path(os.environ["GRAPHMEM_MCP_TRANSCRIPT"]).write_text(json.dumps(log, indent=1, ensure_ascii=False))


def _raw(proc: subprocess.Popen, line: str) -> Any:
    """One JSON-RPC line written to the server as it stands (what a non-Python client may send); its answer."""
    proc.stdin.write(line.encode("utf-8") + b"\n")
    proc.stdin.flush()
    ready, _, _ = select.select([proc.stdout], [], [], 30)
    assert ready, f"no answer to {line}"
    return json.loads(proc.stdout.readline())


def test_a_lone_surrogate_on_the_wire_is_a_tool_error_not_a_silence(tmp_path):
    """JSON allows ``"\\ud800"`` (JavaScript's ``JSON.stringify`` writes it); the SDK's parser refuses
    it and would leave the request unanswered. The server reads it again and answers."""
    proc = subprocess.Popen([sys.executable, "-m", "graphmem.cli", "serve"], cwd=REPO, env={**os.environ, **ENV},
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}
        assert _raw(proc, json.dumps(hello))["result"]["serverInfo"]["name"] == "graphmem"
        proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        call = ('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"remember","arguments":'
                '{"turns":[{"speaker":"Ann","text":"a\\ud800b"}]}}}')
        answer = _raw(proc, call)
        assert answer["id"] == 2 and answer["result"]["isError"] is True
        assert answer["result"]["content"][0]["text"] == \
            "remember: turns[0].text is not valid Unicode (a lone surrogate at character 1)"
        stats = _raw(proc, '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"stats","arguments":{}}}')
        assert stats["result"]["structuredContent"]["turns"] == 0
    finally:
        proc.stdin.close()
        assert proc.wait(15) == 0, "the server leaves when its client closes the pipe"


def test_a_restarted_server_holds_what_was_remembered_and_a_second_writer_is_refused(tmp_path):
    path = tmp_path / "memory.db"

    async def first() -> tuple[list[str], subprocess.CompletedProcess]:
        async with Client(stdio("--memory", str(path))) as client:
            ids = ok(await client.call_tool("remember", {"turns": TURNS}))["ids"]
            beside = await anyio.to_thread.run_sync(lambda: subprocess.run(
                [sys.executable, "-m", "graphmem.cli", "serve", "--memory", str(path)], cwd=REPO,
                env={**os.environ, **ENV}, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60))
            return ids, beside

    async def second() -> tuple[dict, dict, dict]:  # the handshake era a 2025 desktop client speaks
        async with stdio_client(stdio("--memory", str(path))) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return (ok(await session.call_tool("stats", {})),
                        ok(await session.call_tool("search", {"query": "hiking in the Alps", "k": 1})),
                        ok(await session.call_tool("remember", {"turns": TURNS})))

    ids, beside = anyio.run(first)
    assert beside.returncode == 1 and beside.stdout == ""
    (line,) = beside.stderr.strip().splitlines()
    assert line.startswith("Error: ") and str(path) in line, line
    stats, found, again = anyio.run(second)
    assert stats["turns"] == 2 and [t["id"] for t in found["turns"]] == ids[1:]
    assert again == {"added": 0, "held": 2, "ids": ids}
