"""What the MCP server's tests share: the server spawned as ``graphmem serve`` (stdio or HTTP), the
SDK's own client to drive it, and the bad calls every transport must answer with a tool error.

Why spawned and driven by the official client: what a desktop client runs is the command, over
a pipe or a socket, so the tests run the same command and speak the same protocol; the
in-process tests (``Client(server)``) only add the cases a wire cannot carry. They need the
``mcp`` extra and no Neo4j; without the extra they are not collected locally, and under
``CI=true`` (which installs it) its absence fails the run.
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import IN_CI, REPO

if importlib.util.find_spec("mcp") is None:
    if IN_CI:  # CI installs the extra: a missing SDK is a failure, not a skip
        raise ImportError("the MCP SDK is not installed: pip install 'graphmem[mcp]'")
    collect_ignore_glob = ["test_*.py"]

ENV = {"PYTHONPATH": str(REPO), "OPENBLAS_NUM_THREADS": "1"}
"""What a spawned server needs beyond the SDK's allow-listed environment: this checkout's package."""

BAD = [
    ("search", {"query": "dog", "k": 0}, "search: k must be a whole number from 1 to 100, not 0"),
    ("search", {"query": "dog", "k": 1000}, "search: k must be a whole number from 1 to 100, not 1000"),
    ("search", {"query": "dog", "k": "x"}, 'search: k must be a whole number from 1 to 100, not "x"'),
    ("search", {"query": "dog", "k": True}, "search: k must be a whole number from 1 to 100, not true"),
    ("search", {"query": "dog", "k": 2.5}, "search: k must be a whole number from 1 to 100, not 2.5"),
    ("search", {}, "search: missing query"),
    ("search", {"query": "  "}, 'search: query must be a non-empty string, not "  "'),
    ("search", {"query": "dog", "colour": "red"},
     "search: unknown argument 'colour'; search takes query, k, conversation, user, as_of, where"),
    ("search", {"query": "dog", "as_of": "next blue moon"}, "as_of: cannot read the date 'next blue moon'"),
    ("ask", {"question": "When?", "as_of": "2023-02-30"}, "as_of: cannot read the date '2023-02-30'"),
    ("ask", {"question": ["When?"]}, 'ask: question must be a non-empty string, not ["When?"]'),
    ("remember", {}, "remember: missing turns"),
    ("remember", {"turns": []}, "remember: turns must be a list of 1 to 1000 items, not []"),
    ("remember", {"turns": "Ann: hi"}, 'remember: turns must be a list of 1 to 1000 items, not "Ann: hi"'),
    ("remember", {"turns": [{"text": "hi"}]}, "remember: missing speaker in turns[0]"),
    ("remember", {"turns": [{"speaker": " ", "text": "hi"}]},
     'remember: turns[0].speaker must be a non-empty string, not " "'),
    ("remember", {"turns": [{"speaker": "Ann", "text": "hi", "mood": "happy"}]},
     "remember: unknown field 'mood' in turns[0]; it takes speaker, text, date, id, metadata"),
    ("remember", {"turns": [{"speaker": "Ann", "text": "hi"}, {"speaker": "Ann", "text": "hi", "date": "2023-13-01"}]},
     "remember: turns[1]: cannot read the date '2023-13-01'"),
    ("remember", {"turns": [{"speaker": "Ann", "text": "one", "id": "x"}, {"speaker": "Bob", "text": "two", "id": "x"}]},
     "remember: turns[1] (id 'x'): duplicate id 'x' with other content than an earlier record's"),
    ("forget", {}, "forget: give ids, a conversation or a user (or several: the turns matching all of them are "
                   "removed); nothing was removed"),
    ("forget", {"ids": []}, "forget: ids must be a list of 1 to 10000 items, not []"),
    ("turns", {"offset": -1}, "turns: offset must be a whole number from 0 to 9007199254740991, not -1"),
    ("turns", {"offset": 2**63 - 1}, f"turns: offset must be a whole number from 0 to 9007199254740991, not {2**63 - 1}"),
    ("turns", {"offset": 2**63}, f"turns: offset must be a whole number from 0 to 9007199254740991, not {2**63}"),
    ("turns", {"offset": 10**30},
     "turns: offset must be a whole number from 0 to 9007199254740991, not 1000000000000000000000000000000"),
    ("turns", {"limit": 2**64}, f"turns: limit must be a whole number from 1 to 1000, not {2**64}"),
    ("facts", {"about": "Ann", "limit": 2**63}, f"facts: limit must be a whole number from 1 to 1000, not {2**63}"),
    ("search", {"query": "dog", "k": 2**63}, f"search: k must be a whole number from 1 to 100, not {2**63}"),
    ("turns", {"limit": 5000}, "turns: limit must be a whole number from 1 to 1000, not 5000"),
    ("facts", {"about": 3}, "facts: about must be a non-empty string, not 3"),
    ("facts", {"about": "Ann", "history": "yes"}, 'facts: history must be true or false, not "yes"'),
    ("stats", {"user": ""}, 'stats: user must be a non-empty string, not ""'),
    ("update", {"text": "hi"}, "update: missing id"),
    ("update", {"id": "nowhere", "text": "hi"}, "id 'nowhere': the memory holds no such turn (ingest it instead)"),
    ("update", {"id": "x"}, "update: give what changes: text, speaker, date or metadata; nothing was changed"),
    ("update", {"id": "x", "metadata": "email"}, 'update: metadata must be an object of names to values, not "email"'),
    ("search", {"query": "dog", "where": ["source"]}, 'search: where must be an object of names to values, not ["source"]'),
    ("search", {"query": "dog", "where": {"source": {"a": 1}}},
     "where: metadata 'source' must be a string, a number or a boolean, not dict"),
]
"""(tool, arguments, the one line the tool error carries): calls a model gets wrong."""


def stdio(*args: str) -> Any:
    """The parameters that spawn ``python -m graphmem.cli serve ARGS`` from this checkout."""
    from mcp import StdioServerParameters

    return StdioServerParameters(command=sys.executable, args=["-m", "graphmem.cli", "serve", *args], env=ENV,
                                 cwd=str(REPO))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def http_server(tmp_path: Path, *args: str, env: dict[str, str] | None = None, host: str = "127.0.0.1") \
        -> Iterator[str]:
    """``graphmem serve --http HOST:PORT ARGS`` running; yields its URL (the host as bound: any spelling of
    127.0.0.1 is 127.0.0.1), stops it (SIGTERM) after. Its stderr is in ``tmp_path/serve-PORT.log``."""
    port = free_port()
    bound = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][4][0]
    log = (tmp_path / f"serve-{port}.log").open("w+")
    spelt = f"[{host}]" if ":" in host else host
    proc = subprocess.Popen([sys.executable, "-m", "graphmem.cli", "serve", "--http", f"{spelt}:{port}", *args],
                            cwd=REPO, env={**os.environ, **ENV, **(env or {})}, stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_for(bound, port, proc, log)
        yield f"http://{f'[{bound}]' if ':' in bound else bound}:{port}/mcp"
    finally:
        proc.terminate()
        try:
            assert proc.wait(15) == 0, "a terminated server exits 0 once its memory is closed"
        finally:
            if proc.poll() is None:
                proc.kill()
            log.close()


def _wait_for(host: str, port: int, proc: subprocess.Popen, log: Any) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            log.seek(0)
            pytest.fail(f"graphmem serve exited {proc.returncode}: {log.read()}")
        try:
            socket.create_connection((host, port), 0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    pytest.fail("graphmem serve did not listen within 60 s")


def ok(result: Any) -> dict[str, Any]:
    """A tool result that must have succeeded: its structured content (which the text repeats)."""
    assert not result.is_error, result.content[0].text
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


def error(result: Any) -> str:
    """A tool result that must be a tool error: its one line."""
    assert result.is_error, f"expected a tool error, got {result.structured_content}"
    (block,) = result.content
    assert "\n" not in block.text
    return block.text


@asynccontextmanager
async def recorded(transport: Any, log: list[dict[str, Any]]) -> Any:
    """A client transport whose messages, both ways, are appended to ``log`` as the JSON on the wire."""
    async with transport as (read, write):
        yield _Tap(read, log, "server"), _Tap(write, log, "client")


class _Tap:
    """One direction of a transport, copying each message it carries into the log."""

    def __init__(self, inner: Any, log: list[dict[str, Any]], sender: str):
        self._inner, self._log, self._sender = inner, log, sender

    def _copy(self, item: Any) -> Any:
        message = getattr(item, "message", None)
        if message is not None:
            self._log.append({"from": self._sender,
                              **json.loads(message.model_dump_json(by_alias=True, exclude_unset=True))})
        return item

    async def send(self, item: Any) -> None:
        await self._inner.send(self._copy(item))

    async def receive(self) -> Any:
        return self._copy(await self._inner.receive())

    def __aiter__(self) -> _Tap:
        return self

    async def __anext__(self) -> Any:
        return self._copy(await self._inner.__anext__())

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _Tap:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._inner.__aexit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)
